// The shipped bin, ctrlkit-forklift-api, as its deploy/ ServiceAccount (ctrlkit-forklift-api,
// whose RBAC the run's least-privilege check holds to what it used), in each API group the
// controller serves: it serves the certificate envtest's installWebhooks made, reports ready,
// defaults and admits a Plan (reading its providers, the default transfer network, the storage
// classes and map, asking SubjectAccessReviews), denies a static storage class with Forklift's
// message, admits a Migration, and exits 0 on SIGTERM. And --help lists its flags.
import { appPackage, startApp } from '@ctrlkit/app-testing';
import { ApiStatusError, createClient } from '@ctrlkit/client';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort, installCRDs, installWebhooks } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { forkliftCrdsOf, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { API_GROUPS, apiVersionOf } from '@ctrlkit/plan-migration/api';
import { expect, it } from 'vitest';
import { runBin } from '../../test/app-process.js';
import { DEFAULT_TRANSFER_NETWORK_ANNOTATION } from './plan-mutator.js';
import { forkliftApiWebhookConfigurations } from './webhook-configuration.js';

it('--help lists the webhook server flags and exits 0', async () => {
  const { code, stdout } = await runBin('forklift-api-main', ['--help']);
  expect(code).toBe(0);
  for (const flag of [
    '--tls-cert-file',
    '--tls-private-key-file',
    '--cert-dir',
    '--port',
    '--api-group',
  ])
    expect(stdout).toContain(flag);
  const bad = await runBin('forklift-api-main', ['--tls-cert-file=/tmp/x.crt']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--tls-private-key-file');
});

it.each(API_GROUPS.map((group, run) => [group, run] as const))(
  'serves the webhooks of %s as its deploy/ ServiceAccount, and exits 0 on SIGTERM',
  async (group, run) => {
    const kubeConfig = testKubeConfig();
    const admin = createClient(kubeConfig);
    await installCRDs(kubeConfig, [...forkliftCrdsOf(group)]);
    const namespace = await createTestNamespace(kubeConfig, 'forklift-api-bin-');
    const target = await createTestNamespace(kubeConfig, 'forklift-api-bin-target-');
    const [validating, mutating] = forkliftApiWebhookConfigurations({
      name: `bin-forklift-api-${run}`,
      apiGroup: group,
    });
    const installed = await installWebhooks(kubeConfig, {
      validatingWebhookConfigurations: [validating],
      mutatingWebhookConfigurations: [mutating],
    });
    const probes = `127.0.0.1:${await freePort()}`;
    const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
      bin: 'ctrlkit-forklift-api',
      args: [
        `--api-group=${group}`,
        `--cert-dir=${installed.certDir}`,
        `--port=${installed.port}`,
        '--metrics-bind-address=0',
        `--health-probe-bind-address=${probes}`,
      ],
    });
    // Names differ from run to run: the same names in both would read as rules that could name them.
    const name = (base: string) => `${base}-${run}`;
    const classes = { dynamic: name(`dynamic-${namespace}`), static: name(`static-${namespace}`) };
    type Created = {
      metadata?: { name?: string; annotations?: Record<string, string> };
      spec?: { transferNetwork?: unknown };
    };
    const create = async (kind: keyof typeof PLURALS, object: { metadata: object; spec: object }) =>
      (await admin.create(
        { group, version: VERSION, resource: PLURALS[kind] },
        {
          apiVersion: apiVersionOf(group),
          kind,
          ...object,
          metadata: { ...object.metadata, namespace },
        },
        { namespace },
      )) as Created;
    try {
      await installed.waitReachable();
      await waitFor('ready', async () => (await fetch(`http://${probes}/readyz`)).ok, {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      await admin.create('storage.k8s.io/v1/storageclasses', {
        metadata: { name: classes.dynamic },
        provisioner: 'example.com/dynamic',
      });
      await admin.create('storage.k8s.io/v1/storageclasses', {
        metadata: { name: classes.static },
        provisioner: 'kubernetes.io/no-provisioner',
      });
      const pair = {
        source: { name: name('ovirt'), namespace },
        destination: { name: name('host'), namespace },
      };
      await create('Provider', {
        metadata: { name: name('ovirt') },
        spec: { type: 'ovirt', url: 'https://engine.example.com/ovirt-engine/api' },
      });
      // Its default transfer network has no NetworkAttachmentDefinition here: looked up, not set.
      await create('Provider', {
        metadata: {
          name: name('host'),
          annotations: { [DEFAULT_TRANSFER_NETWORK_ANNOTATION]: name('transfer') },
        },
        spec: { type: 'openshift' },
      });
      for (const kind of ['dynamic', 'static'] as const) {
        await create('StorageMap', {
          metadata: { name: name(kind) },
          spec: {
            provider: pair,
            map: [{ source: { id: 'ds-1' }, destination: { storageClass: classes[kind] } }],
          },
        });
      }
      const plan = (storageMap: string) => ({
        provider: pair,
        targetNamespace: target,
        map: { network: { name: 'net', namespace }, storage: { name: storageMap, namespace } },
        vms: [{ id: 'vm-1' }],
      });
      const denied = await create('Plan', {
        metadata: { name: name('static') },
        spec: plan(name('static')),
      }).catch((e: unknown) => e);
      expect(ApiStatusError.isInstance(denied) && denied.status?.message).toContain(
        `Static storage class(es) found: [${classes.static}]`,
      );
      const admitted = await create('Plan', {
        metadata: { name: name('valid') },
        spec: plan(name('dynamic')),
      });
      expect(admitted.metadata?.annotations?.populatorLabels).toBe('True');
      expect(admitted.spec?.transferNetwork).toBeUndefined();
      const migration = await create('Migration', {
        metadata: { name: name('run') },
        spec: { plan: { name: name('valid'), namespace } },
      });
      expect(migration.metadata?.name).toBe(name('run'));
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    } finally {
      await app.stop();
      await installed.uninstall();
      for (const sc of Object.values(classes))
        await admin.delete('storage.k8s.io/v1/storageclasses', sc).catch(() => undefined);
      admin.close();
    }
  },
);
