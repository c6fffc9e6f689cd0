// The Helm chart (chart/): the chart tests every app runs (describeChart of
// @ctrlkit/app-testing: lint, deploy/ = the render of release "ctrlkit", a dry run with other
// values, two releases side by side), and what these values must change.
import { join } from 'node:path';
import { describeChart } from '@ctrlkit/app-testing';
import { expect } from 'vitest';

await describeChart({
  appDirectory: join(import.meta.dirname, '..'),
  deployNamespace: 'virtual-kubelet',
  deployHasCrds: false,
  values: {
    'image.tag': '9.9.9',
    'image.pullPolicy': 'Always',
    nodeName: 'vk-chart',
    logLevel: 'debug',
    'resources.limits.memory': '1Gi',
  },
  checkRendered(rendered) {
    const deployment = rendered.find((o) => o.kind === 'Deployment') as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    const container = deployment.spec.template.spec.containers[0];
    expect(container).toMatchObject({
      image: 'ghcr.io/ctrlkit/virtual-kubelet:9.9.9',
      imagePullPolicy: 'Always',
      resources: { limits: { memory: '1Gi' } },
    });
    expect(container?.args).toEqual(
      expect.arrayContaining(['--nodename=vk-chart', '--log-level=debug']),
    );
  },
});
