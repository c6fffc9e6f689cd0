// The ctrlkit side of the webhook bench (bench/webhook.mjs), in a process of its own: a
// WebhookServer serving one validating and one mutating webhook for ConfigMaps with the same
// handler logic as tooling/go-bench/webhook (controller-runtime), and the webhook metrics
// (controller_runtime_webhook_*) on a plain HTTP port.
//
// Usage: node bench/webhook-server.mjs <host> <port> <certDir>
// Prints one JSON line on stdout once it serves: {"ready":true,"metricsAddr":"host:port"}.
import { once } from 'node:events';
import { createServer } from 'node:http';
import {
  AdmissionDeniedError,
  mutatingWebhookFor,
  validatingWebhookFor,
  WebhookServer,
} from '@ctrlkit/runtime/webhook';
import { Registry } from 'prom-client';
import { benchWebhookOptions } from './webhook-handlers.mjs';

const [host, port, certDir] = process.argv.slice(2);

/** Denies a ConfigMap whose data holds the key "deny", naming it; no warnings. */
function check(configMap) {
  if (configMap.data !== undefined && 'deny' in configMap.data) {
    throw new AdmissionDeniedError(
      `configmap ${configMap.metadata?.name}: data.deny is not allowed`,
    );
  }
}

const validator = validatingWebhookFor(
  {
    validateCreate: (configMap) => check(configMap),
    validateUpdate: (_old, configMap) => check(configMap),
    validateDelete: () => {},
  },
  benchWebhookOptions('validating', 'ctrlkit'),
);
const defaulter = mutatingWebhookFor(
  {
    /** Sets the label defaulted=yes and the data key "mode" to "default" when unset. */
    default: (configMap) => {
      configMap.metadata ??= {};
      configMap.metadata.labels = { ...configMap.metadata.labels, defaulted: 'yes' };
      configMap.data ??= {};
      configMap.data.mode ??= 'default';
    },
  },
  benchWebhookOptions('mutating', 'ctrlkit'),
);

const registry = new Registry();
const server = new WebhookServer({ host, port: Number(port), certDir, registry });
server.register(validator).register(defaulter);
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const served = server.start(stop.signal);
await server.ready;

const metrics = createServer(async (_req, res) => {
  res.setHeader('content-type', registry.contentType);
  res.end(await registry.metrics());
});
metrics.listen(0, '127.0.0.1');
await once(metrics, 'listening');
const address = metrics.address();
console.log(JSON.stringify({ ready: true, metricsAddr: `127.0.0.1:${address.port}` }));
await served;
metrics.close();
