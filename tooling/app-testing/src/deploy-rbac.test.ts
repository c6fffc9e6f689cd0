import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { deployRbac, deployServiceAccounts, withoutPermission } from './deploy-rbac.js';

const manifests = loadAllYaml(`
apiVersion: v1
kind: Namespace
metadata: { name: app }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: app, namespace: app }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: app }
rules:
  - apiGroups: [""]
    resources: ["pods", "pods/status"]
    verbs: ["get", "update"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: app }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: app }
subjects: [{ kind: ServiceAccount, name: app, namespace: app }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: lease, namespace: kube-node-lease }
rules:
  - apiGroups: ["coordination.k8s.io"]
    resources: ["leases"]
    resourceNames: ["n1"]
    verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: lease, namespace: kube-node-lease }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: lease }
subjects: [{ kind: ServiceAccount, name: app, namespace: app }]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: unbound }
rules: [{ apiGroups: [""], resources: ["secrets"], verbs: ["get"] }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: app, namespace: app }
`) as never[];

describe('deployRbac', () => {
  it("finds the one ServiceAccount, what is bound to it, and expands each rule to grants in the binding's scope", () => {
    const rbac = deployRbac(manifests);
    expect(rbac.serviceAccount).toEqual({ namespace: 'app', name: 'app' });
    expect(rbac.username).toBe('system:serviceaccount:app:app');
    expect(rbac.namespaces.map((n) => n.metadata?.name)).toEqual(['app']);
    expect(rbac.objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'ServiceAccount/app',
      'ClusterRole/app',
      'Role/lease',
      'ClusterRoleBinding/app',
      'RoleBinding/lease',
    ]);
    expect(rbac.grants).toEqual([
      {
        rule: 'ClusterRole app, rule 0',
        roleKind: 'ClusterRole',
        namespace: undefined,
        apiGroup: '',
        resource: 'pods',
        verb: 'get',
      },
      {
        rule: 'ClusterRole app, rule 0',
        roleKind: 'ClusterRole',
        namespace: undefined,
        apiGroup: '',
        resource: 'pods/status',
        verb: 'get',
      },
      {
        rule: 'ClusterRole app, rule 0',
        roleKind: 'ClusterRole',
        namespace: undefined,
        apiGroup: '',
        resource: 'pods',
        verb: 'update',
      },
      {
        rule: 'ClusterRole app, rule 0',
        roleKind: 'ClusterRole',
        namespace: undefined,
        apiGroup: '',
        resource: 'pods/status',
        verb: 'update',
      },
      {
        rule: 'Role lease (in kube-node-lease), rule 0',
        roleKind: 'Role',
        namespace: 'kube-node-lease',
        resourceNames: ['n1'],
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
        verb: 'get',
      },
    ]);
  });

  it('refuses a folder without exactly one ServiceAccount, or a binding to a role it does not define', () => {
    expect(() => deployRbac([])).toThrow('one ServiceAccount, found 0');
    const dangling = manifests.filter(
      (o: { kind: string; metadata: { name: string } }) =>
        !(o.kind === 'Role' && o.metadata.name === 'lease'),
    );
    expect(() => deployRbac(dangling)).toThrow(
      'refers to Role lease, which deploy/ does not define',
    );
  });

  it('with several ServiceAccounts, takes the one named, with only the roles bound to it', () => {
    const webhook = [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'hook', namespace: 'ns' } },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'reviews' },
        rules: [
          {
            apiGroups: ['authorization.k8s.io'],
            resources: ['subjectaccessreviews'],
            verbs: ['create'],
          },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'reviews' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reviews' },
        subjects: [{ kind: 'ServiceAccount', name: 'hook', namespace: 'ns' }],
      },
    ];
    const both = [...manifests, ...webhook];
    expect(deployServiceAccounts(both)).toHaveLength(2);
    expect(() => deployRbac(both)).toThrow('one ServiceAccount, found 2');
    const hook = deployRbac(both, 'hook');
    expect(hook.username).toBe('system:serviceaccount:ns:hook');
    expect(hook.grants.map((g) => `${g.apiGroup}/${g.resource}:${g.verb}`)).toEqual([
      'authorization.k8s.io/subjectaccessreviews:create',
    ]);
    expect(() => deployRbac(both, 'nobody')).toThrow('defines no ServiceAccount nobody');
  });
});

describe('deployRbac for another ServiceAccount', () => {
  it("runs a workload as its namespace's default ServiceAccount, which nothing is bound to", () => {
    const rbac = deployRbac(manifests as never[], { namespace: 'app', name: 'default' });
    expect(rbac.username).toBe('system:serviceaccount:app:default');
    expect(rbac.grants).toEqual([]);
    expect(rbac.objects).toEqual([
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'app', name: 'default' } },
    ]);
    expect(rbac.namespaces.map((n) => n.metadata?.name)).toEqual(['app']);
  });
});

describe('withoutPermission', () => {
  it('takes one verb on one resource out of the rules, keeping everything else they grant', () => {
    const full = deployRbac(manifests);
    const less = withoutPermission(full, { apiGroup: '', resource: 'pods', verb: 'update' });
    const has = (rbac: typeof full, resource: string, verb: string) =>
      rbac.grants.some((g) => g.resource === resource && g.verb === verb && g.apiGroup === '');
    expect(has(full, 'pods', 'update')).toBe(true);
    expect(has(less, 'pods', 'update')).toBe(false);
    expect(has(less, 'pods', 'get')).toBe(true);
    expect(has(less, 'pods/status', 'update')).toBe(true);
    expect(less.grants).toHaveLength(full.grants.length - 1);
    expect(less.objects.map((o) => `${o.kind} ${o.metadata?.name}`)).toEqual(
      full.objects.map((o) => `${o.kind} ${o.metadata?.name}`),
    );
    expect(() => withoutPermission(full, { apiGroup: '', resource: 'nodes', verb: 'get' })).toThrow(
      /no rule naming get on nodes/,
    );
  });
});
