import {
  collectionPath,
  createClient,
  loadKubeConfig,
  toGroupVersionResource,
} from '@ctrlkit/client';
import type { V1Pod } from '@kubernetes/client-node';

// The kubeconfig as kubectl finds it (KUBECONFIG, in-cluster, ~/.kube/config), and its namespace.
const kubeConfig = loadKubeConfig();
const namespace =
  kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? 'default';
const client = createClient(kubeConfig, { program: { name: 'pods', version: '1.0.0' } });

// List the pods of the namespace.
const pods = await client.list<V1Pod>('pods', { namespace });
for (const pod of pods.items) console.log(pod.metadata?.name, pod.status?.phase);

// Watch them from where the list left off, for five seconds.
const stop = AbortSignal.timeout(5_000);
const path = collectionPath(toGroupVersionResource('pods'), namespace);
await client
  .watch(
    path,
    { resourceVersion: pods.metadata?.resourceVersion, allowWatchBookmarks: true },
    'application/json',
    (event) => console.log(event.type, (event.object as V1Pod).metadata?.name),
    stop,
  )
  .catch((error: unknown) => {
    if (!stop.aborted) throw error;
  });

// Patch one (a merge patch; `type: 'apply'` with a fieldManager for server-side apply).
const name = pods.items[0]?.metadata?.name;
if (name !== undefined) {
  const patched = await client.patch<V1Pod>(
    'pods',
    name,
    { metadata: { labels: { seen: 'true' } } },
    { namespace },
  );
  console.log(patched.metadata?.labels);
}
client.close();
