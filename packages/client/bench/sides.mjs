// The two clients measured, behind one small interface, so that bench/child.mjs measures each
// the same way: `load()` imports the client's root module (what the import figures cover),
// then `connect(kubeconfigPath)` gives the five operations the bench times, each done the
// way the client's README shows (client-node: CoreV1Api and Watch; ctrlkit: Client).

/** The annotation of the BOOKMARK that ends a watch's initial events (the streaming list). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/** The query of a watch that first sends every object as ADDED, then that BOOKMARK. */
export const STREAMING_QUERY = {
  sendInitialEvents: 'true',
  resourceVersionMatch: 'NotOlderThan',
  allowWatchBookmarks: 'true',
};

/** The query of a plain watch whose first events are the objects the apiserver's cache holds. */
export const PLAIN_QUERY = { resourceVersion: '0' };

/** True for the BOOKMARK that ends the initial events. */
export const isInitialEventsEnd = (type, object) =>
  type === 'BOOKMARK' && object?.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';

/** @kubernetes/client-node 2.0.1: the generated CoreV1Api and its Watch. */
const clientNode = {
  async load() {
    return import('@kubernetes/client-node');
  },
  connect(k8s, kubeconfigPath) {
    const kubeConfig = new k8s.KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    const core = kubeConfig.makeApiClient(k8s.CoreV1Api);
    const watcher = new k8s.Watch(kubeConfig);
    return {
      get: (namespace, name) => core.readNamespacedConfigMap({ namespace, name }),
      put: (namespace, object) =>
        core.replaceNamespacedConfigMap({ namespace, name: object.metadata.name, body: object }),
      list: async (namespace) => (await core.listNamespacedConfigMap({ namespace })).items.length,
      watch(namespace, onEvent, query) {
        const path = `/api/v1/namespaces/${namespace}/configmaps`;
        const ended = Promise.withResolvers();
        const started = watcher.watch(path, query, onEvent, (error) =>
          error ? ended.reject(error) : ended.resolve(),
        );
        ended.promise.catch(() => {});
        return {
          ended: ended.promise,
          async stop() {
            (await started).abort();
          },
        };
      },
      close() {},
    };
  },
};

/** @ctrlkit/client with its defaults (protobuf for built-in kinds, HTTP/2 watches). */
const ctrlkit = {
  async load() {
    return import('@ctrlkit/client');
  },
  connect(ck, kubeconfigPath) {
    const client = ck.createClient(ck.loadKubeConfig({ kubeconfig: kubeconfigPath }), {
      qps: Number.POSITIVE_INFINITY,
      program: { name: 'client-bench', version: '0.0.0' },
    });
    return {
      get: (namespace, name) => client.get('configmaps', name, { namespace }),
      put: (namespace, object) => client.replace('configmaps', object, { namespace }),
      list: async (namespace) => (await client.list('configmaps', { namespace })).items.length,
      watch(namespace, onEvent, query) {
        const stop = new AbortController();
        const path = ck.collectionPath(ck.toGroupVersionResource('configmaps'), namespace);
        const ended = client
          .watch(
            path,
            query,
            'application/json',
            (event) => onEvent(event.type, event.object),
            stop.signal,
          )
          .catch((error) => {
            if (!stop.signal.aborted) throw error;
          });
        ended.catch(() => {});
        return {
          ended,
          async stop() {
            stop.abort();
          },
        };
      },
      close: () => client.close(),
    };
  },
};

/** The clients the bench knows, by the name a child is started with. */
export const SIDES = { 'client-node': clientNode, ctrlkit };
