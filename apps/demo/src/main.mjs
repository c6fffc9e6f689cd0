// The main job: starts a real local cluster (@ctrlkit/envtest: etcd, kube-apiserver,
// kube-scheduler and kube-controller-manager) and shows ctrlkit at work on it: the replicas
// showcase controller, then the apps (a virtual node running pods as local processes, a DRA
// driver publishing that node's GPUs, a migration controller moving the VMs of an OVA catalog
// into KubeVirt, the node crashing and coming back), each run as its own process, as an
// operator would run them against any cluster. A live view shows the cluster while it runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPONENTS, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { sleeperPids, stopRunningApps } from './apps.mjs';
import { watchCluster } from './cluster-status.mjs';
import { gpuDemo } from './gpus.mjs';
import { migrationDemo } from './migration.mjs';
import { nodeLifecycleDemo } from './node-lifecycle.mjs';
import { replicasDemo } from './replicas.mjs';
import { print, say } from './say.mjs';
import { startView } from './view.mjs';
import { nodeName, sleepSeconds, virtualKubelet, virtualNodeDemo } from './virtual-node.mjs';

const USAGE = `Usage: ctrlkit-demo [--no-tui]

Runs ctrlkit's controllers on a local cluster and shows what they do.

  --no-tui   plain progress lines, no live view (also when stdout is not a sized terminal)
  --help     print this help and exit`;
/** kube-controller-manager's --node-monitor-grace-period: how long a silent node stays Ready. */
const GRACE_MS = 10_000;

const argv = process.argv.slice(2);
if (argv.includes('--help')) {
  console.log(USAGE);
  process.exit(0);
}
const unknown = argv.filter((a) => a !== '--no-tui');
if (unknown.length > 0) {
  console.error(`ctrlkit-demo: unknown argument ${unknown[0]}\n\n${USAGE}`);
  process.exit(2);
}
// A terminal that reports no size (some CI ptys) gets plain lines too.
const tui =
  !argv.includes('--no-tui') && process.stdout.isTTY === true && process.stdout.columns >= 40;

console.log('ctrlkit demo: controllers built from the ctrlkit packages, on a local cluster');
console.log(
  '(etcd, kube-apiserver, kube-scheduler, kube-controller-manager) started by @ctrlkit/envtest.\n',
);

const workDir = mkdtempSync(join(tmpdir(), 'ctrlkit-demo-'));
const apps = [];
const outcomes = [];
let plane;
let cluster;
let view = { stop() {} };
let interrupted = false;
let shuttingDown;

/** Stops every app, process and component this demo started, and removes its folder unless `keep`. */
function shutDown({ keep = false } = {}) {
  shuttingDown ??= (async () => {
    view.stop();
    // Also the apps a part started but had not handed back yet when interrupted.
    await Promise.allSettled([...apps.map((app) => app.stop()), stopRunningApps()]);
    for (const pid of sleeperPids(sleepSeconds)) process.kill(pid, 'SIGKILL');
    await cluster?.stop();
    await plane?.stop();
    if (keep) console.error(`the apps' logs are kept in ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  })();
  return shuttingDown;
}
process.once('SIGINT', () => {
  interrupted = true;
  console.log('\ninterrupted: stopping the apps and the cluster');
  process.once('SIGINT', () => process.exit(130)); // a second Ctrl-C does not wait
  void shutDown().then(() => process.exit(130));
});

try {
  plane = await startControlPlane({
    components: COMPONENTS,
    nodeMonitorGracePeriodMs: GRACE_MS,
    controllerManagerFlags: { 'node-monitor-period': '1s' },
  });
  if (interrupted) await new Promise(() => {}); // the SIGINT handler exits
  say(`cluster ready at ${plane.server}; while the demo runs, try:`);
  say(`  kubectl --kubeconfig ${plane.kubeconfigPath} get nodes,pods,resourceslices -A`);
  cluster = watchCluster(
    createClient(plane.kubeConfig, { program: { name: 'ctrlkit-demo-view' } }),
    nodeName,
  );
  view = startView({ tui, panel: cluster.panel });

  print('\n── 1. a controller: @ctrlkit/runtime, workqueue and expectations');
  await replicasDemo(plane.kubeConfig, outcomes);

  print('\n── 2. apps/virtual-kubelet: a virtual node, its pods placed by kube-scheduler');
  const vk = await virtualKubelet(plane, workDir);
  apps.push(vk);
  const web = await virtualNodeDemo(plane, vk, outcomes);

  print("\n── 3. apps/dra-example-driver: the node's GPUs as DRA ResourceSlices, one prepared");
  apps.push(await gpuDemo(plane, workDir, nodeName, outcomes));

  print(
    '\n── 4. apps/migration-controller: an OVA catalog migrated into KubeVirt (Forklift plans)',
  );
  apps.push(await migrationDemo(plane, workDir, outcomes));

  print('\n── 5. the virtual kubelet crashes: kube-controller-manager notices, the restart heals');
  await nodeLifecycleDemo(plane, vk, web, outcomes);

  view.stop();
  print('\n── summary');
  for (const { what, ok, detail } of outcomes)
    print(`${ok ? '✔' : '✘'} ${what.padEnd(15)} ${detail}`);
  const failed = outcomes.filter((o) => !o.ok).length;
  print(failed === 0 ? '\nevery part did what it should' : `\n${failed} part(s) went wrong`);
  say('SIGTERM to the apps');
  const codes = await Promise.all(apps.splice(0).map((app) => app.stop()));
  say(`  apps exited with ${codes.join(', ')}`);
  await shutDown({ keep: failed > 0 });
  say('cluster stopped; nothing left behind');
  process.exitCode = failed === 0 ? 0 : 1;
} catch (error) {
  if (!interrupted) {
    view.stop();
    console.error(`\n✘ ${error.message}`);
    await shutDown({ keep: true });
    process.exitCode = 1;
  }
}
