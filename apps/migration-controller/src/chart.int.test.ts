// The Helm chart (chart/): the chart tests every app runs (describeChart of
// @ctrlkit/app-testing: lint, deploy/ = the render of release "ctrlkit" with crds/, a dry run
// with other values, two releases side by side), and what these values must change.
import { join } from 'node:path';
import { describeChart } from '@ctrlkit/app-testing';
import { expect } from 'vitest';

await describeChart({
  appDirectory: join(import.meta.dirname, '..'),
  deployNamespace: 'ctrlkit-migration',
  deployHasCrds: true,
  values: {
    'image.tag': '9.9.9',
    replicas: 1,
    'leaderElection.enabled': false,
    logLevel: 'debug',
    apiGroup: 'forklift.konveyor.io',
  },
  async checkRendered(rendered, render) {
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
    await expect(render({ replicas: 3, 'leaderElection.enabled': false })).rejects.toThrow(
      /replicas > 1 needs leaderElection.enabled/,
    );
    const sharded = await render({ shardsRing: 'plans' });
    const shardedDeployment = sharded.find((o) => o.kind === 'Deployment') as typeof deployment;
    expect(shardedDeployment.spec.template.spec.containers[0]?.args).toEqual(
      expect.arrayContaining(['--leader-elect', '--shards-ring=plans']),
    );
    await expect(
      render({ replicas: 1, 'leaderElection.enabled': false, shardsRing: 'plans' }),
    ).rejects.toThrow(/shardsRing needs leaderElection.enabled/);
  },
});
