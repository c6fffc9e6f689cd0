import type { AuditEvent } from '@ctrlkit/envtest';
import { describe, expect, it } from 'vitest';
import type { Grant } from './deploy-rbac.js';
import {
  describeForbidden,
  describeUnused,
  forbiddenRequests,
  grantCovers,
  requestsOf,
  unusedGrants,
} from './rbac-usage.js';

const user = 'system:serviceaccount:app:app';
let id = 0;
function event(
  verb: string,
  objectRef: AuditEvent['objectRef'],
  code = 200,
  more: Partial<AuditEvent> = {},
): AuditEvent {
  return {
    auditID: String(id++),
    stage: 'ResponseComplete',
    requestURI: `/x/${objectRef?.resource ?? ''}`,
    verb,
    user: { username: user },
    ...(objectRef && { objectRef }),
    responseStatus: { code },
    annotations: { 'authorization.k8s.io/decision': code === 403 ? 'forbid' : 'allow' },
    requestReceivedTimestamp: '',
    stageTimestamp: '',
    ...more,
  };
}
const grant = (g: Partial<Grant>): Grant => ({
  rule: 'ClusterRole app, rule 0',
  roleKind: 'ClusterRole',
  apiGroup: '',
  resource: 'pods',
  verb: 'get',
  namespace: undefined,
  ...g,
});

describe('requestsOf', () => {
  it('keeps one request per audit ID of the user, at the stages that tell the outcome', () => {
    const watch = event('watch', { resource: 'pods' });
    const events = [
      { ...watch, stage: 'RequestReceived' },
      { ...watch, stage: 'ResponseStarted' },
      { ...watch, stage: 'ResponseComplete' },
      event('get', { resource: 'pods' }, 200, { user: { username: 'someone-else' } }),
    ];
    expect(requestsOf(events, user).map((r) => r.auditID)).toEqual([watch.auditID]);
  });
});

describe('grantCovers', () => {
  it('matches verb, group, resource and subresource, with RBAC wildcards', () => {
    const get = requestsOf(
      [event('get', { resource: 'pods', subresource: 'status', namespace: 'a' })],
      user,
    )[0]!;
    expect(grantCovers(grant({ resource: 'pods/status' }), get)).toBe(true);
    expect(grantCovers(grant({ resource: 'pods' }), get)).toBe(false);
    expect(grantCovers(grant({ resource: '*' }), get)).toBe(true);
    expect(grantCovers(grant({ resource: '*/status' }), get)).toBe(true);
    expect(grantCovers(grant({ verb: '*', resource: 'pods/status' }), get)).toBe(true);
    expect(grantCovers(grant({ verb: 'update', resource: 'pods/status' }), get)).toBe(false);
    expect(grantCovers(grant({ apiGroup: 'apps', resource: 'pods/status' }), get)).toBe(false);
  });

  it("limits a Role's grant to its namespace and a rule's resourceNames to those names", () => {
    const lease = (namespace: string, name: string) =>
      requestsOf(
        [event('get', { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace, name })],
        user,
      )[0]!;
    const g = grant({
      apiGroup: 'coordination.k8s.io',
      resource: 'leases',
      namespace: 'kube-node-lease',
    });
    expect(grantCovers(g, lease('kube-node-lease', 'n1'))).toBe(true);
    expect(grantCovers(g, lease('default', 'n1'))).toBe(false);
    expect(grantCovers({ ...g, resourceNames: ['n2'] }, lease('kube-node-lease', 'n1'))).toBe(
      false,
    );
  });

  it('matches non-resource URLs exactly or by a trailing *', () => {
    const healthz = requestsOf(
      [event('get', undefined, 200, { requestURI: '/healthz?verbose' })],
      user,
    )[0]!;
    expect(grantCovers(grant({ resource: '/healthz', nonResource: true }), healthz)).toBe(true);
    expect(grantCovers(grant({ resource: '/health*', nonResource: true }), healthz)).toBe(true);
    expect(grantCovers(grant({ resource: '/logs', nonResource: true }), healthz)).toBe(false);
  });
});

describe('unusedGrants and forbiddenRequests', () => {
  it('a refused request uses no grant and is listed; the grants nobody used are named by rule', () => {
    const requests = requestsOf(
      [
        event('list', { resource: 'pods' }),
        event('get', { resource: 'secrets', namespace: 'a', name: 's' }, 403, {
          requestURI: '/api/v1/namespaces/a/secrets/s',
          responseStatus: { code: 403, message: 'secrets "s" is forbidden' },
        }),
      ],
      user,
    );
    const grants = [
      grant({ verb: 'list' }),
      grant({ verb: 'watch' }),
      grant({ resource: 'secrets' }),
    ];
    expect(unusedGrants(grants, requests)).toEqual([grants[1], grants[2]]);
    expect(describeUnused(unusedGrants(grants, requests))).toBe(
      'ClusterRole app, rule 0 (pods): watch never used\nClusterRole app, rule 0 (secrets): get never used',
    );
    expect(describeForbidden(forbiddenRequests(requests))).toBe(
      'get /api/v1/namespaces/a/secrets/s → 403: secrets "s" is forbidden',
    );
  });
});
