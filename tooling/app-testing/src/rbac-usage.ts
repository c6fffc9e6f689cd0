// Which requests of a ServiceAccount the apiserver refused, and which of its grants none of
// its requests used: from the audit log, the apiserver's own record of every request.

import type { AuditEvent } from '@ctrlkit/envtest';
import type { Grant } from './deploy-rbac.js';

/** The part of an audit event the checks read (also what a run records between test files). */
export type RecordedRequest = Pick<
  AuditEvent,
  'auditID' | 'verb' | 'requestURI' | 'objectRef' | 'responseStatus' | 'annotations'
> & { readonly user: { readonly username: string } };

/** One request per audit ID, of `username`, at the stage that tells its outcome. */
export function requestsOf(events: readonly AuditEvent[], username: string): RecordedRequest[] {
  const byId = new Map<string, RecordedRequest>();
  for (const e of events) {
    if (e.user.username !== username) continue;
    // A watch logs ResponseStarted when it begins and ResponseComplete when it ends (maybe
    // never during a test); either tells how it was authorized.
    if (e.stage !== 'ResponseComplete' && e.stage !== 'ResponseStarted' && e.stage !== 'Panic') {
      continue;
    }
    const { auditID, verb, requestURI, objectRef, responseStatus, annotations } = e;
    byId.set(auditID, {
      auditID,
      verb,
      requestURI,
      user: { username },
      ...(objectRef && { objectRef }),
      ...(responseStatus && { responseStatus }),
      ...(annotations && { annotations }),
    });
  }
  return [...byId.values()];
}

/** The requests the apiserver refused with 403 Forbidden. */
export function forbiddenRequests(requests: readonly RecordedRequest[]): RecordedRequest[] {
  return requests.filter(
    (r) =>
      r.responseStatus?.code === 403 ||
      r.annotations?.['authorization.k8s.io/decision'] === 'forbid',
  );
}

/** `GET /api/v1/nodes/x → 403: nodes "x" is forbidden: …`, one line per refused request. */
export function describeForbidden(requests: readonly RecordedRequest[]): string {
  return requests
    .map(
      (r) =>
        `${r.verb} ${r.requestURI} → ${r.responseStatus?.code ?? '?'}: ${r.responseStatus?.message ?? r.annotations?.['authorization.k8s.io/reason'] ?? ''}`,
    )
    .join('\n');
}

/** Whether `grant` covers `request` (RBAC's own matching: `*`, `*\/sub`, namespaces, names, URLs). */
export function grantCovers(grant: Grant, request: RecordedRequest): boolean {
  if (grant.verb !== '*' && grant.verb !== request.verb) return false;
  const ref = request.objectRef;
  if (grant.nonResource) {
    if (ref !== undefined) return false;
    const path = request.requestURI.split('?')[0] ?? '';
    return grant.resource.endsWith('*')
      ? path.startsWith(grant.resource.slice(0, -1))
      : path === grant.resource;
  }
  if (ref?.resource === undefined) return false;
  if (grant.apiGroup !== '*' && grant.apiGroup !== (ref.apiGroup ?? '')) return false;
  const resource = ref.subresource ? `${ref.resource}/${ref.subresource}` : ref.resource;
  const resourceMatches =
    grant.resource === '*' ||
    grant.resource === resource ||
    (grant.resource.startsWith('*/') && ref.subresource === grant.resource.slice(2));
  if (!resourceMatches) return false;
  if (grant.namespace !== undefined && grant.namespace !== ref.namespace) return false;
  if (grant.resourceNames !== undefined) {
    return ref.name !== undefined && grant.resourceNames.includes(ref.name);
  }
  return true;
}

/** A WATCH with `sendInitialEvents=true`: a streaming list (the WatchList feature). */
function isStreamingList(request: RecordedRequest): boolean {
  return request.verb === 'watch' && /[?&]sendInitialEvents=true(&|$)/.test(request.requestURI);
}

/**
 * The `list` grants a streaming list of the same resource needs as its fallback: client-go
 * (v0.35 on, WatchListClient on) and ctrlkit's `'auto'` reflector get an informer's state by
 * one WATCH with `sendInitialEvents=true` and LIST instead where the apiserver refuses the
 * stream (a server without the feature, or with it off). A run against a server that streams
 * never makes that LIST, yet the grant is needed: upstream's charts keep it for that reason.
 * A `list` grant counts as such only where the runs made an allowed streaming list it covers.
 */
export function streamingListFallbacks(
  grants: readonly Grant[],
  requests: readonly RecordedRequest[],
): Grant[] {
  const streams = requests.filter((r) => isStreamingList(r) && forbiddenRequests([r]).length === 0);
  return grants.filter(
    (g) => g.verb === 'list' && streams.some((r) => grantCovers({ ...g, verb: 'watch' }, r)),
  );
}

/** The grants no allowed request used. */
export function unusedGrants(
  grants: readonly Grant[],
  requests: readonly RecordedRequest[],
): Grant[] {
  const allowed = requests.filter((r) => forbiddenRequests([r]).length === 0);
  return grants.filter((g) => !allowed.some((r) => grantCovers(g, r)));
}

/** One line per rule: `ClusterRole x, rule 1 (nodes): list, watch never used`. */
export function describeUnused(grants: readonly Grant[]): string {
  const byRule = new Map<string, Map<string, string[]>>();
  for (const g of grants) {
    const target = `${g.apiGroup === '' ? '' : `${g.apiGroup}/`}${g.resource}`;
    const targets = byRule.get(g.rule) ?? new Map<string, string[]>();
    targets.set(target, [...(targets.get(target) ?? []), g.verb]);
    byRule.set(g.rule, targets);
  }
  const lines: string[] = [];
  for (const [rule, targets] of byRule) {
    for (const [target, verbs] of targets) {
      lines.push(`${rule} (${target}): ${verbs.join(', ')} never used`);
    }
  }
  return lines.join('\n');
}
