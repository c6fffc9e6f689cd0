// The built binary, as deploy/'s ServiceAccount, against the test apiserver: with
// --leader-elect it takes the Lease in the pod's namespace (deploy/'s Role) and
// reconciles (a Provider becomes Ready); on SIGTERM it exits 0 and releases the Lease. And
// --help lists the flags and exits 0 without a cluster.

import { appPackage, startApp } from '@ctrlkit/app-testing';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { API_VERSION, forkliftCrds, GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';
import { createClient } from '@ctrlkit/runtime/client';
import type { V1Lease } from '@kubernetes/client-node';
import { expect, it } from 'vitest';

import { runBin } from '../test/app-process.js';

/** The namespace of deploy/'s Deployment: the Lease's, in a cluster. */
const LEASE_NAMESPACE = 'ctrlkit-migration';

it('--help lists every flag with its default and exits 0', async () => {
  const { code, stdout } = await runBin('main', ['--help']);
  expect(code).toBe(0);
  for (const flag of [
    '--kubeconfig',
    '--leader-elect',
    '--max-vm-inflight',
    '--metrics-addr',
    '--healthz-addr',
    '--ova-catalog-path',
    '--log-level',
  ]) {
    expect(stdout).toContain(flag);
  }
  const bad = await runBin('main', ['--max-vm-inflight=0']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--max-vm-inflight');
  const migrate = await runBin('migrate', ['--help']);
  expect(migrate.code).toBe(0);
  expect(migrate.stdout).toContain('Usage: ctrlkit-migrate status PLAN');
});

it('leads with --leader-elect, reconciles, and on SIGTERM exits 0 releasing the Lease', async () => {
  const kubeConfig = testKubeConfig();
  await installCRDs(kubeConfig, [...forkliftCrds]);
  const namespace = await createTestNamespace(kubeConfig, 'mc-sigterm-');
  const client = createClient(kubeConfig);
  const providers = { group: GROUP, version: VERSION, resource: PLURALS.Provider };
  // The pod's namespace, where deploy/'s Role grants the Lease.
  const lease = () =>
    client.get<V1Lease>('coordination.k8s.io/v1/leases', 'ctrlkit-migration-controller', {
      namespace: LEASE_NAMESPACE,
    });
  const app = await startApp(appPackage('@ctrlkit/migration-controller', import.meta.url), {
    args: [
      '--leader-elect',
      '--leader-election-namespace',
      LEASE_NAMESPACE,
      '--metrics-addr=0',
      '--healthz-addr=0',
    ],
  });
  try {
    await waitFor('the Lease', async () => Boolean((await lease()).spec?.holderIdentity));
    await client.create(
      providers,
      {
        apiVersion: API_VERSION,
        kind: 'Provider',
        metadata: { name: 'host' },
        spec: { type: 'openshift' },
      },
      { namespace },
    );
    await waitFor('the Provider Ready', async () => {
      const p = await client.get<{ status?: { phase?: string } }>(providers, 'host', { namespace });
      return p.status?.phase === 'Ready';
    });
    app.child.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  } finally {
    await app.stop();
  }
  expect(app.logs.some((l) => l.includes('"msg":"migration controller stopped"'))).toBe(true);
  expect((await lease()).spec?.holderIdentity ?? '').toBe('');
  for (const line of app.logs) expect(() => JSON.parse(line)).not.toThrow();
});
