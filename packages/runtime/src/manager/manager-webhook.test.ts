import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCertificate } from '@ctrlkit/envtest/certificates';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookServer } from '../webhook/webhook-server.js';
import { Manager } from './manager.js';

/** Points nowhere: leader election never wins, and nothing else talks to the apiserver. */
function kubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

/** A server that listens only once `open()` is called. */
class GatedServer extends WebhookServer {
  open: () => void = () => {};
  readonly #gate = new Promise<void>((resolve) => {
    this.open = resolve;
  });

  override async start(signal: AbortSignal): Promise<void> {
    await this.#gate;
    return super.start(signal);
  }
}

let certDir: string;
beforeAll(async () => {
  certDir = await mkdtemp(join(tmpdir(), 'manager-webhook-'));
  const ca = await createCertificate({ usage: 'ca', commonName: 'ca' });
  const serving = await createCertificate(
    { usage: 'server', commonName: 'localhost', ipAddresses: ['127.0.0.1'] },
    ca,
  );
  await writeFile(join(certDir, 'tls.crt'), serving.certPem);
  await writeFile(join(certDir, 'tls.key'), serving.keyPem);
});
afterAll(() => rm(certDir, { recursive: true, force: true }));

describe('Manager with a webhook server', () => {
  it('runs it without leading, and fails /readyz until it listens', async () => {
    const server = new GatedServer({ host: '127.0.0.1', port: 0, certDir });
    const manager = new Manager({
      kubeConfig: kubeConfig(),
      metricsBindAddress: '0',
      healthProbeBindAddress: '127.0.0.1:0',
      leaderElection: { leaseName: 'never', leaseNamespace: 'default' },
      webhookServer: server,
    });
    const stop = new AbortController();
    const done = manager.start(stop.signal);
    const readyz = async () =>
      (await fetch(`http://${manager.healthProbeAddress}/readyz/webhook`)).status;
    await expect.poll(() => manager.healthProbeAddress).toBeDefined();
    expect(await readyz()).toBe(500);
    server.open();
    await server.ready;
    expect(manager.isLeader()).toBe(false);
    expect(await readyz()).toBe(200);
    expect(await manager.registry.metrics()).toMatch(
      /# TYPE controller_runtime_webhook_requests_total counter/,
    );
    stop.abort();
    await done;
    expect(server.listening).toBe(false);
  });

  it('rejects a webhookServer that is not one', () => {
    expect(() => new Manager({ kubeConfig: kubeConfig(), webhookServer: {} as never })).toThrow(
      /webhookServer/,
    );
  });
});
