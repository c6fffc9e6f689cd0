// What an app's deploy/ folder grants its ServiceAccount: the RBAC objects, and each rule
// expanded to the single permissions ("grants") the audit log is matched against.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type KubernetesObject, loadAllYaml, type V1PolicyRule } from '@kubernetes/client-node';

/** A ServiceAccount by namespace and name. */
export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

/** One permission a rule of deploy/ gives: a verb on a resource of a group, in a scope. */
export interface Grant {
  /** Where it comes from, for reports: `ClusterRole ctrlkit-virtual-kubelet, rule 2`. */
  readonly rule: string;
  /** The kind of role the rule is in. */
  readonly roleKind: 'Role' | 'ClusterRole';
  /** `''` for the core group; `*` for any. */
  readonly apiGroup: string;
  /** `pods`, `pods/status`, `*`, `*\/status`; or a non-resource URL (`/healthz`, `/logs/*`). */
  readonly resource: string;
  readonly verb: string;
  /** The namespace a Role or RoleBinding limits it to; `undefined`: every namespace and cluster-scoped objects. */
  readonly namespace: string | undefined;
  /** The rule's `resourceNames`, when it has them. */
  readonly resourceNames?: readonly string[];
  readonly nonResource?: boolean;
}

/** The RBAC of an app's deploy/ folder for its one ServiceAccount. */
export interface DeployRbac {
  readonly serviceAccount: ServiceAccountRef;
  /** `system:serviceaccount:<namespace>:<name>`, the username its token authenticates as. */
  readonly username: string;
  /** The Namespaces deploy/ defines. */
  readonly namespaces: readonly KubernetesObject[];
  /** The ServiceAccount, then the Roles and ClusterRoles bound to it, then those bindings, as in deploy/. */
  readonly objects: readonly KubernetesObject[];
  readonly grants: readonly Grant[];
}

type RoleObject = KubernetesObject & { rules?: V1PolicyRule[] };
type BindingObject = KubernetesObject & {
  roleRef: { kind: string; name: string };
  subjects?: Array<{ kind: string; name: string; namespace?: string }>;
};

/** Reads every `*.yaml` of `dir` (sorted by name, several documents each). */
export async function readManifests(dir: string): Promise<KubernetesObject[]> {
  const objects: KubernetesObject[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort()) {
    objects.push(...(loadAllYaml(await readFile(join(dir, file), 'utf8')) as KubernetesObject[]));
  }
  return objects;
}

/**
/**
 * The RBAC of `objects` (an app's deploy/) for one ServiceAccount: every binding naming it,
 * the roles they refer to (which deploy/ must define: a test binds exactly what ships), and
 * their rules expanded to grants. `serviceAccount`: deploy/'s only one by default (an app
 * with several bins may ship one per Deployment: then name it); a name picks one deploy/
 * defines; a reference names any, e.g. a namespace's `default` that a workload of deploy/
 * runs as without RBAC (deploy/ need not define it; then nothing is bound to it).
 */
export function deployRbac(
  objects: readonly KubernetesObject[],
  serviceAccount?: string | ServiceAccountRef,
): DeployRbac {
  const ref =
    typeof serviceAccount === 'object'
      ? serviceAccount
      : definedServiceAccount(objects, serviceAccount);
  const account = objects.find(
    (o) =>
      o.kind === 'ServiceAccount' &&
      o.metadata?.name === ref.name &&
      (o.metadata?.namespace ?? 'default') === ref.namespace,
  ) ?? { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { ...ref } };
  const bindings = (objects as BindingObject[]).filter(
    (o) =>
      (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') &&
      (o.subjects ?? []).some(
        (s) =>
          s.kind === 'ServiceAccount' &&
          s.name === ref.name &&
          (s.namespace ?? o.metadata?.namespace) === ref.namespace,
      ),
  );
  const roles: RoleObject[] = [];
  const grants: Grant[] = [];
  for (const binding of bindings) {
    const bindingNamespace =
      binding.kind === 'RoleBinding' ? binding.metadata?.namespace : undefined;
    const role = (objects as RoleObject[]).find(
      (o) =>
        o.kind === binding.roleRef.kind &&
        o.metadata?.name === binding.roleRef.name &&
        (o.kind === 'ClusterRole' || o.metadata?.namespace === bindingNamespace),
    );
    if (role === undefined) {
      throw new Error(
        `${binding.kind} ${binding.metadata?.name} refers to ${binding.roleRef.kind} ${binding.roleRef.name}, which deploy/ does not define`,
      );
    }
    if (!roles.includes(role)) roles.push(role);
    grants.push(...ruleGrants(role, bindingNamespace));
  }
  return {
    serviceAccount: ref,
    username: `system:serviceaccount:${ref.namespace}:${ref.name}`,
    namespaces: objects.filter((o) => o.kind === 'Namespace'),
    objects: [account, ...roles, ...bindings],
    grants,
  };
}

/** deploy/'s ServiceAccount named `name`, or its only one; throws naming what deploy/ defines. */
function definedServiceAccount(
  objects: readonly KubernetesObject[],
  name: string | undefined,
): ServiceAccountRef {
  const all = objects.filter((o) => o.kind === 'ServiceAccount');
  const accounts = name === undefined ? all : all.filter((o) => o.metadata?.name === name);
  if (accounts.length !== 1) {
    throw new Error(
      name === undefined
        ? `deploy/ must define one ServiceAccount, found ${accounts.length} (name the one to use when there are several)`
        : `deploy/ defines no ServiceAccount ${name} (it defines: ${all.map((o) => o.metadata?.name).join(', ') || 'none'})`,
    );
  }
  const account = accounts[0] as KubernetesObject;
  return {
    namespace: account.metadata?.namespace ?? 'default',
    name: account.metadata?.name ?? '',
  };
}

/** The names of the ServiceAccounts `objects` (an app's deploy/) define, in order. */
export function deployServiceAccounts(objects: readonly KubernetesObject[]): string[] {
  return objects.filter((o) => o.kind === 'ServiceAccount').map((o) => o.metadata?.name ?? '');
}

/** One permission: a verb on a resource of an API group (`''`: the core group). */
export interface Permission {
  readonly apiGroup: string;
  readonly resource: string;
  readonly verb: string;
}

/**
 * `rbac` with `permission` taken out of every Role and ClusterRole that grants it by name
 * (a rule is split so that everything else it grants stays): deploy/'s RBAC minus one rule,
 * for a test of what the app does without it. Throws when no rule names the permission
 * (a wildcard is not split).
 */
export function withoutPermission(rbac: DeployRbac, permission: Permission): DeployRbac {
  const { apiGroup, resource, verb } = permission;
  let removed = false;
  const objects = rbac.objects.map((object) => {
    if (object.kind !== 'Role' && object.kind !== 'ClusterRole') return object;
    const rules: V1PolicyRule[] = [];
    for (const rule of (object as RoleObject).rules ?? []) {
      const groups = rule.apiGroups ?? [];
      const resources = rule.resources ?? [];
      if (
        !rule.verbs.includes(verb) ||
        !groups.includes(apiGroup) ||
        !resources.includes(resource)
      ) {
        rules.push(rule);
        continue;
      }
      removed = true;
      const otherVerbs = rule.verbs.filter((v) => v !== verb);
      const otherResources = resources.filter((r) => r !== resource);
      const otherGroups = groups.filter((g) => g !== apiGroup);
      if (otherVerbs.length > 0) rules.push({ ...rule, verbs: otherVerbs });
      if (otherResources.length > 0)
        rules.push({ ...rule, verbs: [verb], resources: otherResources });
      if (otherGroups.length > 0)
        rules.push({ ...rule, verbs: [verb], apiGroups: otherGroups, resources: [resource] });
    }
    return { ...object, rules } as KubernetesObject;
  });
  if (!removed) {
    throw new Error(
      `deploy/ grants ${rbac.username} no rule naming ${verb} on ${resource} in group "${apiGroup}"`,
    );
  }
  return deployRbac([...rbac.namespaces, ...objects]);
}

/** Every rule of `role` expanded to one grant per group, resource (or URL) and verb. */
function ruleGrants(role: RoleObject, namespace: string | undefined): Grant[] {
  const grants: Grant[] = [];
  (role.rules ?? []).forEach((rule, i) => {
    const base = {
      rule: `${role.kind} ${role.metadata?.name}${namespace ? ` (in ${namespace})` : ''}, rule ${i}`,
      roleKind: role.kind === 'Role' ? ('Role' as const) : ('ClusterRole' as const),
      namespace,
      ...(rule.resourceNames?.length && { resourceNames: rule.resourceNames }),
    };
    for (const verb of rule.verbs) {
      for (const url of rule.nonResourceURLs ?? []) {
        grants.push({ ...base, apiGroup: '', resource: url, verb, nonResource: true });
      }
      for (const apiGroup of rule.apiGroups ?? []) {
        for (const resource of rule.resources ?? []) {
          grants.push({ ...base, apiGroup, resource, verb });
        }
      }
    }
  });
  return grants;
}
