// The Helm chart (chart/): the chart tests every app runs (describeChart of
// @ctrlkit/app-testing: lint, deploy/ = the render of release "ctrlkit" with crds/, a dry run
// with other values, two releases side by side), and what these values must change, for the
// controller and for ctrlkit-forklift-api.
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
    const deployment = rendered.find(
      (o) => o.kind === 'Deployment' && o.metadata?.name === 'ctrlkit-migration-controller',
    ) as {
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
    const shardedDeployment = sharded.find(
      (o) => o.kind === 'Deployment' && o.metadata?.name === 'ctrlkit-migration-controller',
    ) as typeof deployment;
    expect(shardedDeployment.spec.template.spec.containers[0]?.args).toEqual(
      expect.arrayContaining(['--leader-elect', '--shards-ring=plans']),
    );
    await expect(
      render({ replicas: 1, 'leaderElection.enabled': false, shardsRing: 'plans' }),
    ).rejects.toThrow(/shardsRing needs leaderElection.enabled/);
    // ctrlkit-forklift-api serves the chart's group: its flag, and its webhooks' names and rules.
    const forkliftApi = rendered.find(
      (o) => o.kind === 'Deployment' && o.metadata?.name === 'ctrlkit-forklift-api',
    ) as typeof deployment;
    expect(forkliftApi.spec.template.spec.containers[0]?.args).toContain(
      '--api-group=forklift.konveyor.io',
    );
    const validating = rendered.find((o) => o.kind === 'ValidatingWebhookConfiguration') as {
      metadata: { annotations?: Record<string, string> };
      webhooks: Array<{ name: string; rules: Array<{ apiGroups: string[] }> }>;
    };
    expect(validating.webhooks.map((w) => w.name)).toContain('plans.forklift.konveyor.io');
    expect(validating.webhooks[0]?.rules[0]?.apiGroups).toEqual(['forklift.konveyor.io']);
    expect(validating.metadata.annotations).toBeUndefined();
    // cert-manager's CA injector, when asked, on both configurations.
    const injected = await render({ 'forkliftApi.certManager.injectCA': true });
    for (const kind of ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration']) {
      const annotations = injected.find((o) => o.kind === kind)?.metadata?.annotations;
      expect(annotations?.['cert-manager.io/inject-ca-from']).toMatch(
        /^[a-z0-9-]+\/ctrlkit-forklift-api-cert$/,
      );
    }
    const without = await render({ 'forkliftApi.enabled': false });
    expect(without.filter((o) => o.metadata?.name?.endsWith('forklift-api'))).toEqual([]);
  },
});
