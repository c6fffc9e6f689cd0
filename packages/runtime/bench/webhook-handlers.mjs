// What both servers of the webhook bench serve, and where: the webhooks' options (paths,
// rules, object selector), from which the bench makes the configurations envtest installs.
// The handlers themselves live in each server (bench/webhook-server.mjs for ctrlkit,
// tooling/go-bench/webhook/main.go for controller-runtime) and do the same work.

/** The paths both servers serve (the `webhook` label of their metrics). */
export const BENCH_PATHS = { validating: '/validate-configmap', mutating: '/mutate-configmap' };

/**
 * The options of the bench's `type` webhook for ConfigMaps served by `server` ('ctrlkit' or
 * 'go'): CREATE and UPDATE, for the ConfigMaps labelled `bench-server=<server>` only, so that
 * each server gets only its own phase's requests.
 */
export function benchWebhookOptions(type, server) {
  return {
    name: `${type === 'validating' ? 'v' : 'm'}configmap.${server}.bench.ctrlkit.dev`,
    group: '',
    versions: ['v1'],
    kind: 'ConfigMap',
    resource: 'configmaps',
    path: BENCH_PATHS[type],
    operations: ['CREATE', 'UPDATE'],
    failurePolicy: 'Fail',
    objectSelector: { matchLabels: { 'bench-server': server } },
  };
}
