//! The least-privilege check: an app's deploy/ RBAC against the requests its tests made.

import type { Grant } from './deploy-rbac.js';
import {
  describeForbidden,
  describeUnused,
  forbiddenRequests,
  grantCovers,
  type RecordedRequest,
  streamingListFallbacks,
  unusedGrants,
} from './rbac-usage.js';

/** What is wrong with a rule (or a request no rule grants). */
export type LeastPrivilegeProblemKind =
  | 'missing'
  | 'wildcard'
  | 'unused'
  | 'cluster-role'
  | 'resource-names';

/** One failure of the check, its message naming the rule (or the request, when `missing`). */
export interface LeastPrivilegeProblem {
  readonly kind: LeastPrivilegeProblemKind;
  readonly message: string;
}

/** One app process's requests, as its `stop()` or `kill()` recorded them. */
export type RecordedRun = readonly RecordedRequest[];

/**
 * What every authenticated user may do by Kubernetes' default bindings (`system:discovery`,
 * `system:basic-user`, `system:public-info-viewer`): a request these cover needs no rule.
 */
export const AUTHENTICATED_USER_GRANTS: readonly Grant[] = [
  ...['/api', '/api/*', '/apis', '/apis/*', '/version', '/version/', '/openapi', '/openapi/*']
    .concat(['/healthz', '/livez', '/readyz'])
    .map((resource) => authenticated({ apiGroup: '', resource, verb: 'get', nonResource: true })),
  ...['selfsubjectaccessreviews', 'selfsubjectrulesreviews'].map((resource) =>
    authenticated({ apiGroup: 'authorization.k8s.io', resource, verb: 'create' }),
  ),
  authenticated({
    apiGroup: 'authentication.k8s.io',
    resource: 'selfsubjectreviews',
    verb: 'create',
  }),
];

function authenticated(g: Pick<Grant, 'apiGroup' | 'resource' | 'verb' | 'nonResource'>): Grant {
  return { rule: 'system:authenticated', roleKind: 'ClusterRole', namespace: undefined, ...g };
}

/** Verbs RBAC can limit to `resourceNames` (create, list, watch and deletecollection it cannot). */
const NAMEABLE_VERBS: ReadonlySet<string> = new Set(['get', 'update', 'patch', 'delete']);

/** A rule's grants by its name (`ClusterRole x, rule 2`), in order. */
function byRule(grants: readonly Grant[]): Map<string, Grant[]> {
  const rules = new Map<string, Grant[]>();
  for (const g of grants) rules.set(g.rule, [...(rules.get(g.rule) ?? []), g]);
  return rules;
}

/** `ClusterRole x, rule 2 (apps/deployments, pods)`. */
function ruleName(rule: string, grants: readonly Grant[]): string {
  const targets = new Set(
    grants.map((g) => `${g.apiGroup === '' || g.nonResource ? '' : `${g.apiGroup}/`}${g.resource}`),
  );
  return `${rule} (${[...targets].join(', ')})`;
}

const allowed = (requests: readonly RecordedRequest[]) =>
  requests.filter((r) => forbiddenRequests([r]).length === 0);

/** The rules with `*` in their verbs, resources (`*`, `*\/status`) or apiGroups. */
export function wildcardRules(grants: readonly Grant[]): LeastPrivilegeProblem[] {
  const problems: LeastPrivilegeProblem[] = [];
  for (const [rule, list] of byRule(grants)) {
    const wild = new Set<string>();
    for (const g of list) {
      if (g.verb === '*') wild.add('verbs');
      if (!g.nonResource && g.resource.startsWith('*')) wild.add('resources');
      if (g.apiGroup === '*') wild.add('apiGroups');
    }
    if (wild.size > 0) {
      const where = [...wild].join(', ');
      const message = `${ruleName(rule, list)}: a wildcard (*) in ${where}: name each one used`;
      problems.push({ kind: 'wildcard', message });
    }
  }
  return problems;
}

/**
 * The requests deploy/ does not grant: those the apiserver refused (403), and those it
 * allowed through something other than deploy/ (and the default bindings of every user).
 */
export function missingRules(
  grants: readonly Grant[],
  requests: readonly RecordedRequest[],
): LeastPrivilegeProblem[] {
  const problems: LeastPrivilegeProblem[] = [];
  const forbidden = forbiddenRequests(requests);
  if (forbidden.length > 0) {
    const message = `the apiserver refused ${forbidden.length} request(s) (403), no rule grants them:\n${describeForbidden(forbidden)}`;
    problems.push({ kind: 'missing', message });
  }
  const covered = [...grants, ...AUTHENTICATED_USER_GRANTS];
  for (const r of allowed(requests)) {
    if (covered.some((g) => grantCovers(g, r))) continue;
    const message = `used but no rule of deploy/ grants it: ${r.verb} ${r.requestURI}`;
    problems.push({ kind: 'missing', message });
  }
  return problems;
}

/** The problems one app process shows by itself: missing rules and wildcards. */
export function processProblems(
  grants: readonly Grant[],
  requests: readonly RecordedRequest[],
): LeastPrivilegeProblem[] {
  return [...wildcardRules(grants), ...missingRules(grants, requests)];
}

/**
 * ClusterRoles bound cluster-wide whose rule was only ever used in `namespace` (the app's
 * own): a Role in that namespace serves.
 */
export function clusterRolesWhereRoleServes(
  grants: readonly Grant[],
  requests: readonly RecordedRequest[],
  namespace: string,
): LeastPrivilegeProblem[] {
  const problems: LeastPrivilegeProblem[] = [];
  const used = allowed(requests);
  for (const [rule, list] of byRule(grants)) {
    const clusterWide = list.every(
      (g) => g.roleKind === 'ClusterRole' && g.namespace === undefined && !g.nonResource,
    );
    if (!clusterWide) continue;
    const uses = used.filter((r) => list.some((g) => grantCovers(g, r)));
    if (uses.length === 0 || !uses.every((r) => r.objectRef?.namespace === namespace)) continue;
    const message = `${ruleName(rule, list)}: every use is in namespace ${namespace}: a Role there serves, not a ClusterRole`;
    problems.push({ kind: 'cluster-role', message });
  }
  return problems;
}

/**
 * Rules without `resourceNames` whose get/update/patch/delete uses named the same objects in
 * every run that used them (at least two runs: a name one test made up is not the app's):
 * the rule could carry those names.
 */
export function rulesThatCouldNameObjects(
  grants: readonly Grant[],
  runs: readonly RecordedRun[],
): LeastPrivilegeProblem[] {
  const problems: LeastPrivilegeProblem[] = [];
  for (const [rule, list] of byRule(grants)) {
    const nameable = list.filter(
      (g) => !g.nonResource && g.resourceNames === undefined && NAMEABLE_VERBS.has(g.verb),
    );
    if (nameable.length === 0) continue;
    const namesByRun: string[][] = [];
    let unnamed = false;
    for (const run of runs) {
      const uses = allowed(run).filter((r) => nameable.some((g) => grantCovers(g, r)));
      if (uses.length === 0) continue;
      unnamed ||= uses.some((r) => r.objectRef?.name === undefined);
      namesByRun.push([...new Set(uses.map((r) => r.objectRef?.name ?? ''))].sort());
    }
    const first = namesByRun[0];
    if (unnamed || first === undefined || namesByRun.length < 2) continue;
    if (!namesByRun.every((names) => names.join('\n') === first.join('\n'))) continue;
    const verbs = [...new Set(nameable.map((g) => g.verb))].join(', ');
    const message = `${ruleName(rule, list)}: every ${verbs} names the same objects (${first.join(', ')}) in ${namesByRun.length} runs: give those verbs resourceNames: [${first.join(', ')}]`;
    problems.push({ kind: 'resource-names', message });
  }
  return problems;
}

/**
 * Every problem of `grants` (an app's deploy/ RBAC for its ServiceAccount in `namespace`)
 * given the runs of the app a test suite made: missing rules, wildcards, unused rules (but a
 * `list` kept as the fallback of a streaming list the runs made: see
 * `streamingListFallbacks`), ClusterRoles where a Role serves, and rules that could carry
 * `resourceNames`.
 */
export function leastPrivilegeProblems(
  grants: readonly Grant[],
  runs: readonly RecordedRun[],
  namespace: string,
): LeastPrivilegeProblem[] {
  const requests = runs.flat();
  // A `list` kept as a streaming list's fallback is needed though unused (see the function).
  const fallbacks = streamingListFallbacks(grants, requests);
  const unused = unusedGrants(grants, requests).filter((g) => !fallbacks.includes(g));
  return [
    ...processProblems(grants, requests),
    ...(unused.length > 0 ? describeUnused(unused).split('\n') : []).map((message) => ({
      kind: 'unused' as const,
      message,
    })),
    ...clusterRolesWhereRoleServes(grants, requests, namespace),
    ...rulesThatCouldNameObjects(grants, runs),
  ];
}

/** The problems as a report, one per line (a multi-line one indented). */
export function describeProblems(problems: readonly LeastPrivilegeProblem[]): string {
  return problems.map((p) => `- ${p.kind}: ${p.message.replaceAll('\n', '\n    ')}`).join('\n');
}
