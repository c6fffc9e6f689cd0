// The two webhook servers of the webhook bench, each in a process of its own, installed by
// envtest the same way (installWebhooks: a serving certificate of its own, configurations
// pointing at its port), and what the bench reads of each: the process's CPU time (/proc)
// and its controller_runtime_webhook_* metrics.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { goProgram } from '@ctrlkit/go-programs';
import {
  mutatingWebhookConfiguration,
  mutatingWebhookFor,
  validatingWebhookConfiguration,
  validatingWebhookFor,
} from '@ctrlkit/runtime/webhook';
import { benchWebhookOptions } from './webhook-handlers.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** The command line of `server`'s process ('ctrlkit' or 'go'). */
function command(server, { host, port, certDir }) {
  if (server === 'go') {
    const args = ['-host', host, '-port', String(port), '-cert-dir', certDir];
    return [goProgram('bench-webhook'), args];
  }
  return [process.execPath, [join(here, 'webhook-server.mjs'), host, String(port), certDir]];
}

/** The configurations of `server`'s two webhooks (the handlers are not called here). */
function configurations(server) {
  const none = () => {};
  const validating = validatingWebhookFor(
    { validateCreate: none, validateUpdate: none, validateDelete: none },
    benchWebhookOptions('validating', server),
  );
  const mutating = mutatingWebhookFor({ default: none }, benchWebhookOptions('mutating', server));
  const url = { url: 'https://replaced.by.envtest' };
  return {
    validatingWebhookConfigurations: [
      validatingWebhookConfiguration(`bench-${server}`, [validating], url),
    ],
    mutatingWebhookConfigurations: [
      mutatingWebhookConfiguration(`bench-${server}`, [mutating], url),
    ],
  };
}

/**
 * Installs `server`'s webhooks with envtest, starts its process and waits until the apiserver
 * reaches it. Resolves `{ cpuMs(), metrics(), stop() }`.
 */
export async function startServer(envtest, kubeConfig, server) {
  const installed = await envtest.installWebhooks(kubeConfig, configurations(server));
  const [file, args] = command(server, installed);
  const proc = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  try {
    const line = await firstLine(proc, server);
    const { metricsAddr } = JSON.parse(line);
    await installed.waitReachable();
    return {
      name: server,
      cpuMs: () => processCpuMs(proc.pid),
      metrics: async () =>
        parseMetrics(await (await fetch(`http://${metricsAddr}/metrics`)).text()),
      async stop() {
        proc.kill('SIGTERM');
        await exited;
        await installed.uninstall();
      },
    };
  } catch (error) {
    proc.kill('SIGKILL');
    await installed.uninstall();
    throw error;
  }
}

/** The first line `proc` prints; rejects when it exits before. */
function firstLine(proc, server) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    proc.once('exit', (code) => reject(new Error(`the ${server} webhook server exited (${code})`)));
  });
}

/** User + system CPU time of process `pid`, in ms (/proc, 10 ms resolution). */
function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The webhook metrics of a Prometheus text exposition, summed over the webhooks: `requests`
 * (controller_runtime_webhook_requests_total, every code) and `buckets` (the latency
 * histogram's cumulative counts by upper bound).
 */
export function parseMetrics(text) {
  let requests = 0;
  const buckets = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (match === null) continue;
    const [, name, labels, value] = match;
    if (name === 'controller_runtime_webhook_requests_total') requests += Number(value);
    if (name === 'controller_runtime_webhook_latency_seconds_bucket') {
      const le = /le="([^"]+)"/.exec(labels)[1];
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + Number(value));
    }
  }
  return { requests, buckets };
}

/**
 * The `q` quantile of the observations between two snapshots of a histogram, in ms, as
 * Prometheus' histogram_quantile: linear within the bucket that holds it.
 */
export function histogramQuantile(before, after, q) {
  const bounds = [...after.buckets.keys()].sort((a, b) => a - b);
  const counts = bounds.map((b) => after.buckets.get(b) - (before.buckets.get(b) ?? 0));
  const total = counts.at(-1);
  if (!total) return undefined;
  const rank = q * total;
  for (let i = 0; i < bounds.length; i++) {
    if (counts[i] < rank) continue;
    if (bounds[i] === Number.POSITIVE_INFINITY) return bounds[i - 1] * 1000;
    const lower = i === 0 ? 0 : bounds[i - 1];
    const below = i === 0 ? 0 : counts[i - 1];
    return (lower + ((bounds[i] - lower) * (rank - below)) / (counts[i] - below)) * 1000;
  }
  return undefined;
}
