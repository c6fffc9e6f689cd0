// ctrlkit-shards: prints a sharding ring (its sharder, each shard's Lease and object count).
// Usage: ctrlkit-shards --ring <ring> --lease-namespace <ns> --resource v1/configmaps [--namespace <ns>] [--kubeconfig <file>] [--watch-ms <ms>]
import { flagUsage, parseFlagTable, runMain } from '@ctrlkit/runtime/cli';
import { createClient, loadKubeConfig } from '@ctrlkit/runtime/client';
import { formatRingStatus, readRingStatus } from '@ctrlkit/runtime/sharding';

const FLAGS = {
  kubeconfig: {
    type: 'string',
    help: 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, in-cluster)',
  },
  ring: { type: 'string', help: 'the ring to show (required)' },
  'lease-namespace': { type: 'string', help: "the namespace of the ring's Leases (required)" },
  resource: {
    type: 'string',
    default: 'v1/configmaps',
    help: "the ring's resources whose objects are counted, comma-separated",
  },
  namespace: {
    type: 'string',
    default: '',
    help: 'count only objects of this namespace (default: all)',
  },
  'watch-ms': { type: 'integer', default: 0, help: 'print again every this many ms (0: once)' },
  help: { type: 'boolean', help: 'print this help and exit' },
};

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

process.exitCode = await runMain({
  parse: (argv) => parseFlagTable(FLAGS, argv),
  usage: () =>
    flagUsage(FLAGS, {
      header: ['Usage: ctrlkit-shards --ring <ring> --lease-namespace <ns> [flags]'],
      column: 34,
    }),
  logger: () => quiet,
  run: async (flags, _logger, signal) => {
    if (!flags.ring || !flags['lease-namespace'])
      throw new Error('--ring and --lease-namespace are required');
    const client = createClient(loadKubeConfig({ kubeconfig: flags.kubeconfig }), {
      program: { name: 'ctrlkit-shards', version: '0.0.0' },
    });
    for (;;) {
      const status = await readRingStatus(client, {
        ring: flags.ring,
        leaseNamespace: flags['lease-namespace'],
        resources: flags.resource.split(',').filter(Boolean),
        namespace: flags.namespace || undefined,
      });
      process.stdout.write(`${formatRingStatus(status)}\n`);
      if (!(flags['watch-ms'] > 0) || signal.aborted) break;
      await new Promise((resolve) => setTimeout(resolve, flags['watch-ms']));
      if (signal.aborted) break;
      process.stdout.write('\n');
    }
    client.close();
  },
});
