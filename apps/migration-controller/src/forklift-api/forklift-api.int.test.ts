// forklift-api's webhooks on the real apiserver (envtest's installWebhooks, the generated
// configurations pointed at an in-process server on a Manager): a cold Plan into the host
// cluster with a static storage class is denied with Forklift's message, and so are a warm
// plan from OpenStack, LUKS disks from oVirt, a bad vSphere SDK endpoint and a Hook with a bad
// image, while a static class passes where Forklift lets it (warm, from vSphere) and so does an
// archived plan whose source is gone; a valid Plan and a vSphere Provider are admitted and
// defaulted (visible on read); a Plan being deleted keeps a removable finalizer; a
// Migration is refused to a user who may create Migrations but not VirtualMachines in the
// plan's target namespace (the SubjectAccessReview's answer) and allowed to one who may; from
// the host cluster, also refused until the user may get the source VM.

import { ApiStatusError, type Client, createClient } from '@ctrlkit/client';
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs, installWebhooks } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseForkliftApiFlags } from '../flags.js';
import { buildForkliftApiManager } from './forklift-api-manager.js';
import { forkliftApiWebhookConfigurations } from './webhook-configuration.js';

const kubeConfig = testKubeConfig();
const admin = createClient(kubeConfig);
const stop = new AbortController();
let done: Promise<void>;
let uninstall: () => Promise<void>;
let namespace: string;
let target: string;
const dynamicClass = `dynamic-${process.pid}`;
const staticClass = `static-${process.pid}`;

const of = (kind: keyof typeof PLURALS) => ({
  group: GROUP,
  version: VERSION,
  resource: PLURALS[kind],
});

async function create(kind: keyof typeof PLURALS, name: string, spec: object, as: Client = admin) {
  return as.create(
    of(kind),
    { apiVersion: API_VERSION, kind, metadata: { name, namespace }, spec },
    { namespace },
  );
}

/** The refusal's message of `attempt`, or a failure when it succeeds. */
async function denial(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => new Error('admitted'),
    (e: unknown) => e,
  );
  if (!ApiStatusError.isInstance(error)) throw error;
  expect(error.statusCode).toBe(400);
  return error.status?.message ?? '';
}

/** The provider pair of the plans: `source` (default oVirt) into the host cluster. */
function pair(source = 'ovirt') {
  return { source: { name: source, namespace }, destination: { name: 'host', namespace } };
}

function planSpec(storageMap: string, extra: object = {}) {
  return {
    provider: pair(),
    targetNamespace: target,
    map: { network: { name: 'net', namespace }, storage: { name: storageMap, namespace } },
    vms: [{ id: 'vm-1' }],
    ...extra,
  };
}

/** A client that impersonates `user` (the admin may impersonate). */
function clientAs(user: string): Client {
  const config = new KubeConfig();
  config.loadFromString(kubeConfig.exportConfig());
  const current = config.getCurrentUser();
  if (current === null) throw new Error('the test kubeconfig has no user');
  (current as { impersonateUser?: string }).impersonateUser = user;
  return createClient(config);
}

beforeAll(async () => {
  await installCRDs(kubeConfig, [...forkliftCrds]);
  namespace = await createTestNamespace(kubeConfig, 'forklift-api-');
  target = await createTestNamespace(kubeConfig, 'forklift-api-target-');
  const installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      forkliftApiWebhookConfigurations({ name: 'int-forklift-api' })[0],
    ],
    mutatingWebhookConfigurations: [
      forkliftApiWebhookConfigurations({ name: 'int-forklift-api' })[1],
    ],
  });
  uninstall = installed.uninstall;
  const flags = parseForkliftApiFlags(
    [
      `--cert-dir=${installed.certDir}`,
      `--port=${installed.port}`,
      '--metrics-bind-address=0',
      '--health-probe-bind-address=0',
    ],
    {},
  );
  const { manager } = buildForkliftApiManager(flags, noopLogger, kubeConfig, installed.host);
  done = manager.start(stop.signal);
  await installed.waitReachable();
  for (const [name, provisioner] of [
    [dynamicClass, 'example.com/dynamic'],
    [staticClass, 'kubernetes.io/no-provisioner'],
  ] as const) {
    await admin.create('storage.k8s.io/v1/storageclasses', { metadata: { name }, provisioner });
  }
  await create('Provider', 'ovirt', {
    type: 'ovirt',
    url: 'https://engine.example.com/ovirt-engine/api',
  });
  await create('Provider', 'openstack', {
    type: 'openstack',
    url: 'https://keystone.example.com/v3',
  });
  await create('Provider', 'host', { type: 'openshift' });
  for (const [name, storageClass] of [
    ['dynamic', dynamicClass],
    ['static', staticClass],
  ] as const) {
    await create('StorageMap', name, {
      provider: pair(),
      map: [{ source: { id: 'ds-1' }, destination: { storageClass } }],
    });
  }
});

afterAll(async () => {
  // The configurations go first, so that no request reaches a stopped server.
  await uninstall?.();
  stop.abort();
  await done;
  for (const name of [dynamicClass, staticClass])
    await admin.delete('storage.k8s.io/v1/storageclasses', name).catch(() => undefined);
  admin.close();
});

describe('plan admitter', () => {
  it('denies a cold plan into the host cluster with a static storage class (Forklift validateStorage)', async () => {
    expect(await denial(create('Plan', 'static', planSpec('static')))).toContain(
      `Static storage class(es) found: [${staticClass}]`,
    );
  });

  it('admits a static storage class where Forklift does: warm, or from vSphere; and an archived plan whose source is gone', async () => {
    await create('Provider', 'vsphere-source', {
      type: 'vsphere',
      url: 'https://vcenter.example.com/sdk',
    });
    await create('Plan', 'static-warm', planSpec('static', { warm: true }));
    await create(
      'Plan',
      'static-vsphere',
      planSpec('static', { provider: pair('vsphere-source') }),
    );
    await create(
      'Plan',
      'archived',
      planSpec('static', { provider: pair('nowhere'), archived: true }),
    );
    expect(
      await denial(create('Plan', 'no-source', planSpec('dynamic', { provider: pair('nowhere') }))),
    ).toContain('"nowhere" not found');
  });

  it('denies warm migration from OpenStack and LUKS disks from oVirt', async () => {
    const fromOpenstack = pair('openstack');
    expect(
      await denial(
        create('Plan', 'warm', planSpec('dynamic', { warm: true, provider: fromOpenstack })),
      ),
    ).toContain('warm migration is not supported by the provider');
    const luks = { vms: [{ id: 'vm-1', luks: { name: 'passphrases', namespace } }] };
    expect(await denial(create('Plan', 'luks', planSpec('dynamic', luks)))).toContain(
      'migration of encrypted disks from source provider of type ovirt is not supported',
    );
  });

  it('admits a valid plan, defaulted by the plan mutator (visible on read)', async () => {
    await create('Plan', 'valid', planSpec('dynamic'));
    const read = await admin.get<{ metadata: { annotations?: Record<string, string> } }>(
      of('Plan'),
      'valid',
      { namespace },
    );
    expect(read.metadata.annotations?.populatorLabels).toBe('True');
  });

  it('lets a plan being deleted lose its finalizer after its destination provider is gone', async () => {
    await create('Provider', 'gone', { type: 'openshift' });
    const spec = planSpec('dynamic', {
      provider: { ...pair(), destination: { name: 'gone', namespace } },
    });
    await admin.create(
      of('Plan'),
      {
        apiVersion: API_VERSION,
        kind: 'Plan',
        metadata: { name: 'deleting', namespace, finalizers: ['test.ctrlkit.dev/hold'] },
        spec,
      },
      { namespace },
    );
    await admin.delete(of('Provider'), 'gone', { namespace });
    await admin.delete(of('Plan'), 'deleting', { namespace });
    await admin.patch(of('Plan'), 'deleting', { metadata: { finalizers: null } }, { namespace });
    await expect(admin.get(of('Plan'), 'deleting', { namespace })).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('provider and hook webhooks', () => {
  it('defaults a vSphere provider to the vcenter SDK endpoint, and denies an unknown one', async () => {
    await create('Provider', 'vsphere', {
      type: 'vsphere',
      url: 'https://vcenter.example.com/sdk',
    });
    const read = await admin.get<{ spec: { settings?: Record<string, string> } }>(
      of('Provider'),
      'vsphere',
      { namespace },
    );
    expect(read.spec.settings?.sdkEndpoint).toBe('vcenter');
    expect(
      await denial(
        create('Provider', 'bad-sdk', {
          type: 'vsphere',
          url: 'https://esx.example.com/sdk',
          settings: { sdkEndpoint: 'hyperv' },
        }),
      ),
    ).toContain('vSphere provider is set with an invalid SDK endpoint type');
  });

  it('denies a hook whose image is not an image reference', async () => {
    expect(await denial(create('Hook', 'bad', { image: 'Not An Image' }))).toContain(
      'The image name specified in `Image` is invalid.',
    );
  });
});

describe('migration admitter (SubjectAccessReview)', () => {
  it('refuses a user who may create Migrations but not VirtualMachines in the target namespace; allows one who may', async () => {
    const rbac = 'rbac.authorization.k8s.io/v1';
    await admin.create(`${rbac}/roles`, {
      metadata: { name: 'migrate', namespace },
      rules: [{ apiGroups: [GROUP], resources: ['migrations'], verbs: ['create'] }],
    });
    await admin.create(`${rbac}/roles`, {
      metadata: { name: 'create-vms', namespace: target },
      rules: [{ apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: ['create'] }],
    });
    const bind = (ns: string, role: string, users: string[]) =>
      admin.create(`${rbac}/rolebindings`, {
        metadata: { name: role, namespace: ns },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: role },
        subjects: users.map((name) => ({
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name,
        })),
      });
    await bind(namespace, 'migrate', ['alice', 'bob']);
    await bind(target, 'create-vms', ['bob']);
    // The apiserver's RBAC authorizer reads the bindings from a cache: wait until it has them.
    const mayCreate = (user: string, ns: string, group: string, resource: string) =>
      waitFor(`${user} may create ${resource} in ${ns}`, async () => {
        const review = (await admin.create('authorization.k8s.io/v1/subjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          metadata: {},
          spec: { user, resourceAttributes: { group, resource, namespace: ns, verb: 'create' } },
        })) as { status?: { allowed?: boolean } };
        return review.status?.allowed === true;
      });
    await mayCreate('alice', namespace, GROUP, 'migrations');
    await mayCreate('bob', namespace, GROUP, 'migrations');
    await mayCreate('bob', target, 'kubevirt.io', 'virtualmachines');
    await create('Plan', 'to-migrate', planSpec('dynamic'));
    const spec = { plan: { name: 'to-migrate', namespace } };
    const alice = clientAs('alice');
    const bob = clientAs('bob');
    try {
      expect(await denial(create('Migration', 'by-alice', spec, alice))).toContain(
        `Action is forbidden: User "alice" cannot create resource "virtualmachines" in API group "kubevirt.io" in the namespace "${target}"`,
      );
      const created = await create('Migration', 'by-bob', spec, bob);
      expect(created.metadata?.name).toBe('by-bob');
      // From the host cluster, the user must also be allowed to get each source VM.
      const fromHost = {
        source: { name: 'host', namespace },
        destination: { name: 'host', namespace },
      };
      await create(
        'Plan',
        'from-host',
        planSpec('dynamic', { provider: fromHost, vms: [{ name: 'vm-a', namespace }] }),
      );
      const fromHostSpec = { plan: { name: 'from-host', namespace } };
      expect(await denial(create('Migration', 'host-by-bob', fromHostSpec, bob))).toContain(
        `Action is forbidden: User "bob" cannot get resource "virtualmachines/vm-a" in API group "kubevirt.io" in the namespace "${namespace}"`,
      );
      await admin.create(`${rbac}/roles`, {
        metadata: { name: 'read-vms', namespace },
        rules: [{ apiGroups: ['kubevirt.io'], resources: ['virtualmachines'], verbs: ['get'] }],
      });
      await bind(namespace, 'read-vms', ['bob']);
      await waitFor('bob may get the source VM', async () =>
        create('Migration', 'host-by-bob', fromHostSpec, bob).then(
          () => true,
          () => false,
        ),
      );
    } finally {
      alice.close();
      bob.close();
    }
  });
});
