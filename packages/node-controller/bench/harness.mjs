// What bench/run.mjs and bench/bin.mjs share: an agent's JSON line protocol and one round of pods
// created on a node, run to Running and deleted.
import { createInterface } from 'node:readline';
import { newListWatch, SharedIndexInformer } from '@ctrlkit/runtime/informers';

/**
 * Reads `child`'s stdout as JSON lines; the returned `next(kind)` resolves with the next message
 * of that kind (others are skipped) and throws, naming `who`, when the output ends first.
 */
export function agentLines(child, who) {
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return async (kind) => {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) throw new Error(`${who} exited before "${kind}"`);
      const message = JSON.parse(value);
      if (message.kind === kind) return message;
    }
  };
}

/**
 * Creates `n` pods on `nodeName` in `namespace` (32 at a time), waits until all run, calls
 * `whenRunning()` (its value is returned as `running`), deletes them (at once, without the node
 * agent, with `force`) and waits until all are gone. Gives pods/s and seconds from the first
 * creation to the last pod Running.
 */
export async function podsRound(
  client,
  { namespace, nodeName, n, whenRunning = async () => {}, force = false },
) {
  const running = new Set();
  let allRunning;
  const done = new Promise((resolve) => {
    allRunning = resolve;
  });
  const informer = new SharedIndexInformer({
    listWatch: newListWatch(client, 'pods', {
      namespace,
      fieldSelector: `spec.nodeName=${nodeName}`,
    }),
  });
  const observe = (pod) => {
    if (pod.status?.phase === 'Running') running.add(pod.metadata.name);
    if (running.size === n) allRunning(performance.now());
  };
  informer.addEventHandler({ onAdd: observe, onUpdate: (_o, p) => observe(p) });
  const stopInformer = new AbortController();
  void informer.run(stopInformer.signal);
  await informer.whenSynced();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < n) {
        const i = next++;
        const pod = {
          metadata: { name: `p-${i}` },
          spec: { nodeName, containers: [{ name: 'c', image: 'nginx' }] },
        };
        await client.create('pods', pod, { namespace });
      }
    }),
  );
  const seconds = ((await done) - started) / 1000;
  const whenRunningValue = await whenRunning();
  if (force) {
    await client.requestJson('DELETE', `/api/v1/namespaces/${namespace}/pods?gracePeriodSeconds=0`);
  } else {
    await client.deleteCollection('pods', { namespace });
  }
  await new Promise((resolve) => {
    const check = () => (informer.indexer.list().length === 0 ? resolve() : setTimeout(check, 100));
    check();
  });
  stopInformer.abort();
  return { podsPerSecond: n / seconds, seconds, running: whenRunningValue };
}
