// Part 3: apps/dra-example-driver's kubelet plugin publishes the simulated GPUs of the virtual
// node as DRA ResourceSlices and registers with the virtual kubelet; kube-scheduler allocates a
// ResourceClaim from them and binds its pod there; the virtual kubelet has the plugin prepare
// the claim and starts the pod's process with the CDI spec's environment (GPU_DEVICE_0).
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { loadYaml } from '@kubernetes/client-node';
import { binOf, startApp } from './apps.mjs';
import { say } from './say.mjs';
import { draDirs, sleepSeconds, toleration } from './virtual-node.mjs';

const NUM_DEVICES = 8;

/** Starts the DRA example driver's kubelet plugin for `nodeName`, runs a pod with one GPU; returns the app. */
export async function gpuDemo(plane, logDir, nodeName, outcomes) {
  const client = createClient(plane.kubeConfig, { program: { name: 'ctrlkit-demo' } });
  const { app, deviceClass } = await startDriver(client, plane, logDir, nodeName);
  await showSlices(client, nodeName);
  const namespace = await createTestNamespace(plane.kubeConfig, 'gpu-');
  await runGpuPod(client, namespace, deviceClass);
  const pod = await waitFor(
    'the GPU pod Running',
    () => client.get('pods', 'trainer', { namespace }),
    {
      timeoutMs: 120_000,
      until: (p) => p.status?.phase === 'Running',
    },
  );
  const claim = await client.get('resource.k8s.io/v1/resourceclaims', 'one-gpu', { namespace });
  const devices = (claim.status?.allocation?.devices?.results ?? []).map(
    (r) => `${r.pool}/${r.device}`,
  );
  say(
    `  kube-scheduler allocated ${devices.join(', ')} from our slice; trainer Running on ${pod.spec.nodeName}`,
  );
  const printed = await processOutput(client, namespace);
  say(`  the plugin prepared the claim; trainer's process printed: ${printed}`);
  const device = devices[0]?.split('/')[1];
  outcomes.push({
    what: 'dra',
    ok:
      devices.length === 1 &&
      pod.spec.nodeName === nodeName &&
      printed === `GPU_DEVICE_0=${device}`,
    detail: `claim one-gpu allocated ${devices.join(', ') || 'nothing'}, prepared by the kubelet plugin; its pod on ${pod.spec.nodeName} printed ${printed}`,
  });
  return app;
}

/** The first line trainer's process printed (its log, through the virtual kubelet's kubelet API). */
async function processOutput(client, namespace) {
  const log = await waitFor(
    "trainer's output",
    async () =>
      (
        await client.getBody(`/api/v1/namespaces/${namespace}/pods/trainer/log`, {}, '*/*')
      ).toString(),
    { timeoutMs: 30_000, until: (text) => text.includes('\n') },
  );
  return log.split('\n')[0];
}

/** Creates the driver's DeviceClass and starts its kubelet plugin; returns the app and the class. */
async function startDriver(client, plane, logDir, nodeName) {
  const bin = binOf('@ctrlkit/dra-example-driver', 'ctrlkit-dra-example-kubeletplugin');
  const deviceClass = loadYaml(
    await readFile(join(dirname(bin), '../deploy/deviceclass.yaml'), 'utf8'),
  );
  await client.create('resource.k8s.io/v1/deviceclasses', deviceClass);
  const dra = draDirs(logDir);
  await mkdir(dra.plugins, { recursive: true });
  const logPath = join(logDir, 'dra-example-kubeletplugin.log');
  const app = startApp(
    bin,
    [
      ...['--kubeconfig', plane.kubeconfigPath, '--node-name', nodeName],
      ...['--num-devices', String(NUM_DEVICES), '--cdi-root', dra.cdi],
      ...['--kubelet-registrar-directory-path', dra.registry],
      ...['--kubelet-plugins-directory-path', dra.plugins],
      ...['--metrics-bind-address', '0', '--health-probe-bind-address', '0'],
    ],
    logPath,
  );
  say(
    `ctrlkit-dra-example-kubeletplugin --node-name ${nodeName} --num-devices ${NUM_DEVICES} (log: ${logPath})`,
  );
  return { app, deviceClass };
}

/** Waits for the driver's ResourceSlices of `nodeName` and prints them. */
async function showSlices(client, nodeName) {
  const slices = await waitFor(
    'the ResourceSlices published',
    async () =>
      (
        await client.list('resource.k8s.io/v1/resourceslices', {
          fieldSelector: `spec.nodeName=${nodeName}`,
        })
      ).items,
    { until: (items) => items.flatMap((s) => s.spec.devices ?? []).length === NUM_DEVICES },
  );
  for (const slice of slices) {
    const devices = slice.spec.devices ?? [];
    const memory = devices[0]?.capacity?.memory?.value;
    say(
      `  ResourceSlice ${slice.metadata?.name}: driver ${slice.spec.driver}, pool ${slice.spec.pool.name}, ` +
        `${devices.length} devices (${devices.map((d) => d.name).join(' ')}), ${memory} each`,
    );
  }
}

/** Creates, in `namespace`, the ResourceClaim one-gpu and the pod trainer that uses it. */
async function runGpuPod(client, namespace, deviceClass) {
  await waitFor('the default ServiceAccount', () =>
    client.get('serviceaccounts', 'default', { namespace }),
  );
  await client.create(
    'resource.k8s.io/v1/resourceclaims',
    {
      metadata: { name: 'one-gpu' },
      spec: {
        devices: {
          requests: [
            {
              name: 'gpu',
              exactly: { deviceClassName: deviceClass.metadata.name, allocationMode: 'ExactCount' },
            },
          ],
        },
      },
    },
    { namespace },
  );
  await client.create(
    'pods',
    {
      metadata: { name: 'trainer' },
      spec: {
        tolerations: [toleration],
        terminationGracePeriodSeconds: 2,
        resourceClaims: [{ name: 'gpu', resourceClaimName: 'one-gpu' }],
        containers: [
          {
            name: 'main',
            image: 'cuda',
            command: [
              '/bin/sh',
              '-c',
              `echo GPU_DEVICE_0=$GPU_DEVICE_0; exec sleep ${sleepSeconds}`,
            ],
            resources: { claims: [{ name: 'gpu' }] },
          },
        ],
      },
    },
    { namespace },
  );
  say(`ResourceClaim one-gpu (1 device of ${deviceClass.metadata.name}) and pod trainer using it`);
}
