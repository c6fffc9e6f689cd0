// Part 5: the virtual kubelet crashes (SIGKILL). kube-controller-manager's node lifecycle
// controller sees its Lease stop, sets Ready Unknown and taints the node unreachable; the
// restarted virtual kubelet kills the container processes its earlier run left (it cannot
// adopt them), starts the same pods' containers afresh and makes the node Ready again.
import { waitFor } from '@ctrlkit/core/testing';
import { createClient } from '@ctrlkit/runtime/client';
import { sleeperPids } from './apps.mjs';
import { say } from './say.mjs';
import { nodeName, sleepSeconds } from './virtual-node.mjs';

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const WAIT = { timeoutMs: 120_000 };
const ready = (node) => node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
const tainted = (node) => (node.spec?.taints ?? []).some((t) => t.key === UNREACHABLE);

/**
 * Kills and restarts `vk`; checks the Deployment in `web` kept the same pods throughout, and
 * that their container processes were started afresh (new ones, as many as before).
 */
export async function nodeLifecycleDemo(plane, vk, web, outcomes) {
  const client = createClient(plane.kubeConfig, { program: { name: 'ctrlkit-demo' } });
  const readNode = () => client.get('nodes', nodeName);
  const before = sleeperPids(sleepSeconds);
  const processes = before.length;
  await vk.kill();
  const killedAt = performance.now();
  say(`SIGKILL to ctrlkit-virtual-kubelet (its ${processes} container processes keep running)`);
  const down = await waitFor('the node Ready Unknown and tainted unreachable', readNode, {
    ...WAIT,
    until: (node) => ready(node) === 'Unknown' && tainted(node),
  });
  const downSeconds = ((performance.now() - killedAt) / 1000).toFixed(1);
  const reason = down.status.conditions.find((c) => c.type === 'Ready').reason;
  say(
    `  after ${downSeconds} s: node ${nodeName} Ready Unknown (${reason}), tainted ${UNREACHABLE}`,
  );

  vk.start();
  const restartedAt = performance.now();
  say('ctrlkit-virtual-kubelet started again: it kills the processes its earlier run left');
  await waitFor('the node Ready and untainted', readNode, {
    ...WAIT,
    until: (node) => ready(node) === 'True' && !tainted(node),
  });
  const upSeconds = ((performance.now() - restartedAt) / 1000).toFixed(1);
  // Every pod on the node, the GPU pod too: its container waits for the DRA kubelet plugin to
  // register again, so it can start after the Deployment's pods.
  const onNode = await waitFor(
    `the pods on ${nodeName} Running and Ready`,
    async () => (await client.list('pods', { fieldSelector: `spec.nodeName=${nodeName}` })).items,
    {
      ...WAIT,
      until: (items) =>
        items.every(
          (p) =>
            p.status?.phase === 'Running' &&
            p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ),
    },
  );
  const pods = onNode.filter((p) => p.metadata.namespace === web.namespace);
  // A container's shell execs its sleep just after the pod reports Running.
  const afterPids = await waitFor(
    'as many container processes as before',
    () => sleeperPids(sleepSeconds),
    {
      timeoutMs: 30_000,
      until: (pids) => pids.length >= processes,
    },
  ).catch(() => sleeperPids(sleepSeconds));
  const same = JSON.stringify(pods.map((p) => p.metadata.uid).sort()) === JSON.stringify(web.uids);
  const after = afterPids.length;
  const afresh = afterPids.every((pid) => !before.includes(pid));
  say(`  after ${upSeconds} s: Ready, untainted; ${pods.length} pods Running and Ready again`);
  say(
    `  ${same ? 'the same pods' : 'DIFFERENT pods'}, ${after} container processes ` +
      `${afresh ? 'started afresh (the earlier ones killed, none running twice)' : 'NOT all new'}`,
  );
  outcomes.push({
    what: 'node-lifecycle',
    ok: same && after === processes && afresh && reason === 'NodeStatusUnknown',
    detail: `NotReady and tainted ${downSeconds} s after SIGKILL; Ready ${upSeconds} s after restart; ${after}/${processes} processes started afresh, same pods`,
  });
}
