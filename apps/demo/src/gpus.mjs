// Part 3: apps/dra-example-driver publishes the simulated GPUs of the virtual node as DRA
// ResourceSlices; the demo reads them back.
import { join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createClient } from '@ctrlkit/runtime/client';
import { binOf, startApp } from './apps.mjs';
import { say } from './say.mjs';

/** Starts the DRA example driver for `nodeName`; returns the running app. */
export async function gpuDemo(plane, logDir, nodeName) {
  const client = createClient(plane.kubeConfig);
  const logPath = join(logDir, 'dra-example-driver.log');
  const numDevices = 8;
  const app = startApp(
    binOf('@ctrlkit/dra-example-driver', 'ctrlkit-dra-example-driver'),
    [
      ...['--kubeconfig', plane.kubeconfigPath, '--node-name', nodeName],
      ...['--num-devices', String(numDevices)],
      ...['--metrics-bind-address', '0', '--health-probe-bind-address', '0'],
    ],
    logPath,
  );
  say(
    `ctrlkit-dra-example-driver --node-name ${nodeName} --num-devices ${numDevices} (log: ${logPath})`,
  );
  let slices = [];
  await waitFor('the ResourceSlices published', async () => {
    const list = await client.list('resource.k8s.io/v1/resourceslices', {
      fieldSelector: `spec.nodeName=${nodeName}`,
    });
    slices = list.items;
    return slices.reduce((n, s) => n + (s.spec.devices?.length ?? 0), 0) === numDevices;
  });
  for (const slice of slices) {
    const devices = slice.spec.devices ?? [];
    const memory = devices[0]?.capacity?.memory?.value;
    say(
      `  ResourceSlice ${slice.metadata?.name}: driver ${slice.spec.driver}, pool ${slice.spec.pool.name}, ` +
        `${devices.length} devices (${devices.map((d) => d.name).join(' ')}), ${memory} each`,
    );
  }
  return app;
}
