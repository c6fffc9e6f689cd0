// The Helm chart (chart/): `helm lint --strict`; with the default values `helm template` renders
// exactly deploy/ (but the Namespace, which `helm install --create-namespace` makes); with
// other values it passes a server-side dry run. Helm is the pinned build from the Go module
// proxy (tooling/bootstrap); without it the test is skipped, except in CI, where it fails.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findHelm,
  helmTemplate,
  readManifests,
  requireHelm,
  runHelm,
  sortObjects,
} from '@ctrlkit/app-testing';
import { dryRunManifests } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { dumpYaml, type KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';

const app = join(dirname(fileURLToPath(import.meta.url)), '..');
const chart = join(app, 'chart');
const noHelm = (await findHelm()) === undefined && !process.env.CI;
if (noHelm) console.warn('helm not found: the chart tests are skipped (CI builds it)');

describe.skipIf(noHelm)('the Helm chart', () => {
  it('passes helm lint --strict', async () => {
    const out = await runHelm(await requireHelm(), ['lint', '--strict', chart]);
    expect(out).toContain('0 chart(s) failed');
  });

  it('renders deploy/ with the default values', async () => {
    const rendered = await helmTemplate(await requireHelm(), chart, {
      release: 'ctrlkit',
      namespace: 'ctrlkit-migration',
      includeCrds: true,
    });
    const deploy = (await readManifests(join(app, 'deploy'))).filter((o) => o.kind !== 'Namespace');
    expect(sortObjects(rendered)).toEqual(sortObjects(deploy));
  });

  it('renders the values and the apiserver accepts the result (server-side dry run)', async () => {
    const namespace = `chart-${Math.random().toString(36).slice(2, 8)}`;
    const rendered = await helmTemplate(await requireHelm(), chart, {
      release: 'ctrlkit',
      namespace,
      set: {
        'image.tag': '9.9.9',
        replicas: 1,
        'leaderElection.enabled': false,
        logLevel: 'debug',
        apiGroup: 'forklift.konveyor.io',
      },
    });
    const deployment = rendered.find((o) => o.kind === 'Deployment') as {
      spec: {
        replicas: number;
        template: { spec: { containers: Array<Record<string, unknown>> } };
      };
    };
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.template.spec.containers[0]).toMatchObject({
      image: 'ghcr.io/ctrlkit/migration-controller:9.9.9',
      args: [
        '--max-vm-inflight=20',
        '--metrics-bind-address=:8080',
        '--health-probe-bind-address=:8081',
        '--log-level=debug',
        '--api-group=forklift.konveyor.io',
      ],
    });
    // Without leader election there is no Lease to grant.
    expect(rendered.filter((o) => o.kind === 'Role')).toEqual([]);
    await expect(
      helmTemplate(await requireHelm(), chart, {
        release: 'ctrlkit',
        namespace,
        set: { replicas: 3, 'leaderElection.enabled': false },
      }),
    ).rejects.toThrow(/replicas > 1 needs leaderElection.enabled/);
    const sharded = await helmTemplate(await requireHelm(), chart, {
      release: 'ctrlkit',
      namespace,
      set: { shardsRing: 'plans' },
    });
    const shardedArgs = (sharded.find((o) => o.kind === 'Deployment') as typeof deployment).spec
      .template.spec.containers[0]?.args;
    expect(shardedArgs).toEqual(expect.arrayContaining(['--leader-elect', '--shards-ring=plans']));
    await expect(
      helmTemplate(await requireHelm(), chart, {
        release: 'ctrlkit',
        namespace,
        set: { replicas: 1, 'leaderElection.enabled': false, shardsRing: 'plans' },
      }),
    ).rejects.toThrow(/shardsRing needs leaderElection.enabled/);
    const dir = await mkdtemp(join(tmpdir(), 'chart-'));
    try {
      const namespaceObject: KubernetesObject = {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: namespace },
      };
      await writeFile(join(dir, '0-namespace.yaml'), dumpYaml(namespaceObject));
      await writeFile(join(dir, '1-chart.yaml'), rendered.map((o) => dumpYaml(o)).join('---\n'));
      const { results } = await dryRunManifests(testKubeConfig(), dir);
      expect(results).toHaveLength(rendered.length);
      for (const created of results) expect(created.metadata?.uid).toBeDefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
