// The Helm chart (chart/): the chart tests every app runs (describeChart of
// @ctrlkit/app-testing: lint, deploy/ = the render of release "ctrlkit", a dry run with other
// values, two releases side by side), and what these values must change.
import { join } from 'node:path';
import { describeChart } from '@ctrlkit/app-testing';
import { expect } from 'vitest';

await describeChart({
  appDirectory: join(import.meta.dirname, '..'),
  deployNamespace: 'dra-example-driver',
  deployHasCrds: false,
  values: {
    'image.tag': '9.9.9',
    numDevices: 3,
    logLevel: 'debug',
    'resources.requests.cpu': '50m',
    'deviceClass.create': false,
  },
  // The DeviceClass is the driver's (claims name gpu.example.com): one per cluster.
  secondReleaseValues: { 'deviceClass.create': false },
  checkRendered(rendered) {
    expect(rendered.map((o) => o.kind)).not.toContain('DeviceClass');
    const daemonSet = rendered.find((o) => o.kind === 'DaemonSet') as {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    expect(daemonSet.spec.template.spec.containers[0]).toMatchObject({
      image: 'ghcr.io/ctrlkit/dra-example-driver:9.9.9',
      args: ['--num-devices=3', '--log-level=debug'],
      resources: { requests: { cpu: '50m' } },
    });
  },
});
