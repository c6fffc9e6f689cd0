// What the live view shows, read from the API server twice a second: the virtual node's
// Ready condition and taints, pods by phase, ResourceSlices and claims, every Plan's VMs
// with their current step and its percent.
import { GROUP, PLURALS, VERSION } from '@ctrlkit/plan-migration';

const POLL_MS = 500;
const PLANS = { group: GROUP, version: VERSION, resource: PLURALS.Plan };

/** The step a VM is on (the first not completed, else the last) and that step's percent. */
export function currentStep(vm) {
  const pipeline = vm.pipeline ?? [];
  const step = pipeline.find((s) => s.phase !== 'Completed' && !s.error) ?? pipeline.at(-1);
  if (step === undefined) return { name: vm.phase, percent: undefined };
  const { completed = 0, total = 0 } = step.progress ?? {};
  const percent = total > 0 ? Math.floor((100 * completed) / total) : undefined;
  return { name: step.name, percent: step.phase === 'Completed' ? 100 : percent };
}

/** Counts of `items` by `key(item)`, as `Running 6  Pending 2`. */
function countBy(items, key) {
  const counts = new Map();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k} ${n}`).join('  ') || 'none';
}

/** Polls the cluster through `client` for the panel of the node `nodeName`; `stop()` ends it. */
export function watchCluster(client, nodeName) {
  let snapshot;
  let stopped = false;
  const read = async () => {
    const [nodes, pods, slices, claims, plans] = await Promise.all([
      client.list('nodes', { fieldSelector: `metadata.name=${nodeName}` }),
      client.list('pods'),
      client.list('resource.k8s.io/v1/resourceslices'),
      client.list('resource.k8s.io/v1/resourceclaims'),
      client.list(PLANS).catch(() => ({ items: [] })), // before the CRDs are installed
    ]);
    snapshot = {
      node: nodes.items[0],
      pods: pods.items,
      slices: slices.items,
      claims: claims.items,
      plans: plans.items,
    };
  };
  const loop = (async () => {
    while (!stopped) {
      await read().catch(() => {}); // the panel shows the last good read; the demo reports errors
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    /** The panel's lines for the last read. */
    panel: () => renderPanel(nodeName, snapshot),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** The panel's lines for `snapshot` (or a waiting line before the first read). */
export function renderPanel(nodeName, snapshot) {
  const rule = '─'.repeat(72);
  if (snapshot === undefined) return [rule, 'reading the cluster…', rule];
  const { node, pods, slices, claims, plans } = snapshot;
  const ready = node?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  const taints = (node?.spec?.taints ?? []).map((t) => t.key).join(', ') || 'none';
  const devices = slices.reduce((n, s) => n + (s.spec?.devices?.length ?? 0), 0);
  const allocated = claims.filter((c) => c.status?.allocation !== undefined).length;
  const lines = [
    rule,
    `node ${nodeName.padEnd(12)} ${node ? `Ready ${ready ?? '?'}  taints: ${taints}` : 'not registered'}`,
    `pods              ${countBy(pods, (p) => p.status?.phase ?? 'Pending')}`,
    `ResourceSlices    ${slices.length} (${devices} devices)   claims: ${allocated}/${claims.length} allocated`,
  ];
  for (const plan of plans) {
    for (const vm of plan.status?.migration?.vms ?? []) {
      const { name, percent } = currentStep(vm);
      const shown = percent === undefined ? '' : ` ${String(percent).padStart(3)}%`;
      lines.push(
        `VM ${(vm.name ?? vm.id).padEnd(14)} ${(vm.phase ?? '').padEnd(24)} ${name}${shown}`,
      );
    }
  }
  lines.push(rule);
  return lines;
}
