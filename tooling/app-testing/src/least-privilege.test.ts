import type { AuditEvent } from '@ctrlkit/envtest';
import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { deployRbac } from './deploy-rbac.js';
import {
  describeProblems,
  type LeastPrivilegeProblem,
  leastPrivilegeProblems,
  processProblems,
  type RecordedRun,
} from './least-privilege.js';
import { type RecordedRequest, requestsOf } from './rbac-usage.js';

const user = 'system:serviceaccount:app:app';
let id = 0;

/** One request of the app, as the audit log records it. */
function request(verb: string, ref: AuditEvent['objectRef'] | string, code = 200): RecordedRequest {
  const objectRef = typeof ref === 'string' ? undefined : ref;
  const requestURI =
    typeof ref === 'string'
      ? ref
      : `/${ref?.apiGroup ? `apis/${ref.apiGroup}/v1` : 'api/v1'}${ref?.namespace ? `/namespaces/${ref.namespace}` : ''}/${ref?.resource}${ref?.name ? `/${ref.name}` : ''}`;
  const event: AuditEvent = {
    auditID: String(id++),
    stage: 'ResponseComplete',
    requestURI,
    verb,
    user: { username: user },
    ...(objectRef && { objectRef }),
    responseStatus: { code, ...(code === 403 && { message: `${verb} is forbidden` }) },
    annotations: { 'authorization.k8s.io/decision': code === 403 ? 'forbid' : 'allow' },
    requestReceivedTimestamp: '',
    stageTimestamp: '',
  };
  return requestsOf([event], user)[0] as RecordedRequest;
}

/** The grants of a deploy/ folder whose roles have `rules` (YAML), bound to the app's account. */
function grants(roles: string) {
  return deployRbac(
    loadAllYaml(`
apiVersion: v1
kind: ServiceAccount
metadata: { name: app, namespace: app }
${roles}`) as never,
  ).grants;
}

const clusterRole = (rules: string) => `---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: app }
rules:
${rules}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: app }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: app }
subjects: [{ kind: ServiceAccount, name: app, namespace: app }]`;

const role = (namespace: string, rules: string) => `---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: app, namespace: ${namespace} }
rules:
${rules}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: app, namespace: ${namespace} }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: app }
subjects: [{ kind: ServiceAccount, name: app, namespace: app }]`;

const check = (roles: string, runs: RecordedRun[]) =>
  leastPrivilegeProblems(grants(roles), runs, 'app');
const messages = (problems: LeastPrivilegeProblem[], kind: LeastPrivilegeProblem['kind']) =>
  problems.filter((p) => p.kind === kind).map((p) => p.message);

const PODS = '  - { apiGroups: [""], resources: ["pods"], verbs: ["list", "watch"] }';
const listPods = () => request('list', { resource: 'pods' });
const watchPods = () => request('watch', { resource: 'pods' });

describe('the least-privilege check', () => {
  it('passes RBAC that every request used, each rule as narrow as the uses allow', () => {
    expect(check(clusterRole(PODS), [[listPods(), watchPods()]])).toEqual([]);
  });

  it('fails on an unused rule: granted, never used, named by rule and verb', () => {
    const problems = check(clusterRole(PODS), [[listPods()]]);
    expect(messages(problems, 'unused')).toEqual([
      'ClusterRole app, rule 0 (pods): watch never used',
    ]);
  });

  it('accepts a list never used as the fallback of a streaming list of the same resource (client-go v0.35 LISTs where the stream is refused), and only then', () => {
    const stream = (resource: string, code = 200) => {
      const r = request('watch', { resource }, code);
      return { ...r, requestURI: `${r.requestURI}?sendInitialEvents=true&watch=true` };
    };
    expect(check(clusterRole(PODS), [[stream('pods')]])).toEqual([]);
    const unusedList = ['ClusterRole app, rule 0 (pods): list never used'];
    expect(messages(check(clusterRole(PODS), [[watchPods()]]), 'unused')).toEqual(unusedList);
    const refused = check(clusterRole(PODS), [[watchPods(), stream('pods', 403)]]);
    expect(messages(refused, 'unused')).toEqual(unusedList);
    const nodes = '  - { apiGroups: [""], resources: ["nodes"], verbs: ["list"] }';
    const other = check(clusterRole(`${PODS}\n${nodes}`), [[stream('pods')]]);
    expect(messages(other, 'unused')).toEqual(['ClusterRole app, rule 1 (nodes): list never used']);
  });

  it('fails on a missing rule: a request refused (403), or allowed by something other than deploy/', () => {
    const refused = request('get', { resource: 'secrets', namespace: 'app', name: 's' }, 403);
    const elsewhere = request('get', { resource: 'configmaps', namespace: 'app', name: 'c' });
    const problems = processProblems(grants(clusterRole(PODS)), [
      listPods(),
      watchPods(),
      refused,
      elsewhere,
      request('get', '/apis'),
      request('create', { apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
    ]);
    expect(problems.map((p) => p.kind)).toEqual(['missing', 'missing']);
    expect(problems[0]?.message).toMatch(/refused 1 request/);
    expect(problems[0]?.message).toContain('/api/v1/namespaces/app/secrets/s');
    expect(problems[1]?.message).toBe(
      'used but no rule of deploy/ grants it: get /api/v1/namespaces/app/configmaps/c',
    );
  });

  it("fails on a ClusterRole where a Role serves: every use of the rule in the app's namespace", () => {
    const rules = `${PODS}\n  - { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] }`;
    const lease = (namespace: string) =>
      request('create', { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace });
    const pods = [listPods(), watchPods()];
    const inApp = check(clusterRole(rules), [[...pods, lease('app'), lease('app')]]);
    expect(messages(inApp, 'cluster-role')).toEqual([
      'ClusterRole app, rule 1 (coordination.k8s.io/leases): every use is in namespace app: a Role there serves, not a ClusterRole',
    ]);
    const spread = check(clusterRole(rules), [[...pods, lease('app'), lease('other')]]);
    expect(messages(spread, 'cluster-role')).toEqual([]);
    const inOther = check(clusterRole(rules), [[...pods, lease('other')]]);
    expect(messages(inOther, 'cluster-role')).toEqual([]);
    const asRole = check(`${clusterRole(PODS)}\n${role('app', rules.split('\n')[1] ?? '')}`, [
      [...pods, lease('app')],
    ]);
    expect(asRole).toEqual([]);
  });

  it('fails on a rule that could carry resourceNames: every get/update names the same objects, saying which', () => {
    const rules = role(
      'app',
      '  - { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["get", "update", "create"] }',
    );
    const lease = (verb: string, name?: string) =>
      request(verb, {
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        namespace: 'app',
        ...(name && { name }),
      });
    const run = (name: string) => [lease('create'), lease('get', name), lease('update', name)];
    const same = check(rules, [run('lock'), run('lock')]);
    expect(messages(same, 'resource-names')).toEqual([
      'Role app (in app), rule 0 (coordination.k8s.io/leases): every get, update names the same objects (lock) in 2 runs: give those verbs resourceNames: [lock]',
    ]);
    expect(messages(check(rules, [run('a'), run('b')]), 'resource-names')).toEqual([]);
    expect(messages(check(rules, [run('lock')]), 'resource-names')).toEqual([]);
    const narrowed = role(
      'app',
      [
        '  - { apiGroups: ["coordination.k8s.io"], resources: ["leases"], verbs: ["create"] }',
        '  - { apiGroups: ["coordination.k8s.io"], resources: ["leases"], resourceNames: ["lock"], verbs: ["get", "update"] }',
      ].join('\n'),
    );
    expect(check(narrowed, [run('lock'), run('lock')])).toEqual([]);
  });

  it('fails on a wildcard in verbs, resources or apiGroups, naming the rule and where', () => {
    const wild = clusterRole(
      [
        '  - { apiGroups: [""], resources: ["pods"], verbs: ["*"] }',
        '  - { apiGroups: [""], resources: ["*"], verbs: ["list"] }',
        '  - { apiGroups: ["*"], resources: ["pods"], verbs: ["watch"] }',
      ].join('\n'),
    );
    const problems = processProblems(grants(wild), [listPods(), watchPods()]);
    expect(messages(problems, 'wildcard')).toEqual([
      'ClusterRole app, rule 0 (pods): a wildcard (*) in verbs: name each one used',
      'ClusterRole app, rule 1 (*): a wildcard (*) in resources: name each one used',
      'ClusterRole app, rule 2 (*/pods): a wildcard (*) in apiGroups: name each one used',
    ]);
  });

  it('reports each problem on its own line, by kind', () => {
    const report = describeProblems(check(clusterRole(PODS), [[listPods()]]));
    expect(report).toBe('- unused: ClusterRole app, rule 0 (pods): watch never used');
  });
});
