//! Installs webhook configurations and CRD conversions that call a local webhook server (controller-runtime's WebhookInstallOptions).

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError } from '@ctrlkit/core';
import { createCertificate, type IssuedCertificate } from '@ctrlkit/core/certificates';
import {
  AdmissionregistrationV1Api,
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  type KubeConfig,
  type V1CustomResourceConversion,
  type V1MutatingWebhookConfiguration,
  type V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { NotReadyError } from './errors/not-ready-error.js';
import { freePort } from './free-port.js';

/** How long `waitReachable` waits for the apiserver to reach the local server: 30 s. */
export const DEFAULT_WEBHOOK_READY_TIMEOUT_MS = 30_000;

/** What `installWebhooks` installs, and where the local server listens. */
export interface WebhookInstallOptions {
  /** Configurations to install; each webhook's path is kept (from `service.path` or `url`). */
  validatingWebhookConfigurations?: readonly V1ValidatingWebhookConfiguration[];
  mutatingWebhookConfigurations?: readonly V1MutatingWebhookConfiguration[];
  /** CRDs (installed already) whose conversion goes to the local server at `path` (default `/convert`). */
  conversions?: readonly { readonly crdName: string; readonly path?: string }[];
  /** The local server's address. Default `127.0.0.1`. */
  host?: string;
  /** The local server's port. Default: a free port. */
  port?: number;
}

/** Installed webhooks: where to serve them, with which certificate, and how to remove them. */
export interface InstalledWebhooks {
  readonly host: string;
  readonly port: number;
  /** `https://<host>:<port>`, what every `clientConfig.url` starts with. */
  readonly url: string;
  /** A folder holding `tls.crt` and `tls.key`: the serving certificate for `host` and `localhost`. */
  readonly certDir: string;
  /** The CA that signed it (in every `caBundle`): sign a new serving certificate with it to test a rotation. */
  readonly ca: IssuedCertificate;
  /**
   * Resolves once the apiserver calls the local server (started by the caller) with the CA
   * bundle it was given: it installs a probe webhook for a path the server does not serve
   * and dry-runs a ConfigMap until the apiserver reports the server's 404. Throws
   * `NotReadyError` after `timeoutMs` (default {@link DEFAULT_WEBHOOK_READY_TIMEOUT_MS}).
   */
  waitReachable(timeoutMs?: number): Promise<void>;
  /** Deletes the configurations, puts the CRDs' conversions back, removes `certDir`. */
  uninstall(): Promise<void>;
}

/**
 * Makes a CA and a serving certificate for the local address, and installs the webhook
 * configurations and CRD conversions with `clientConfig.url` pointing at
 * `https://<host>:<port><path>` and the CA bundle. Start the server with `certDir`, then
 * call `waitReachable`.
 *
 * Errors: `InvalidArgumentError` for a webhook without a path, a host that is not an IP;
 * the client's `ApiException` when the apiserver refuses an object.
 */
export async function installWebhooks(
  kubeConfig: KubeConfig,
  options: WebhookInstallOptions = {},
): Promise<InstalledWebhooks> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const url = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const ca = await createCertificate({ usage: 'ca', commonName: 'envtest-webhook-ca' });
  const serving = await createCertificate(
    { usage: 'server', commonName: 'localhost', ipAddresses: [host], dnsNames: ['localhost'] },
    ca,
  );
  const certDir = await mkdtemp(join(tmpdir(), 'envtest-webhook-'));
  await writeFile(join(certDir, 'tls.crt'), serving.certPem);
  await writeFile(join(certDir, 'tls.key'), serving.keyPem, { mode: 0o600 });
  const caBundle = Buffer.from(ca.certPem).toString('base64');
  const installed: Array<() => Promise<void>> = [];
  const remove = async (): Promise<void> => {
    for (const undo of installed.reverse()) await undo();
    await rm(certDir, { recursive: true, force: true });
  };
  try {
    await install(kubeConfig, options, url, caBundle, installed);
  } catch (error) {
    await remove().catch(() => {});
    throw error;
  }
  return {
    host,
    port,
    url,
    certDir,
    ca,
    waitReachable: (timeoutMs = DEFAULT_WEBHOOK_READY_TIMEOUT_MS) =>
      waitReachable(kubeConfig, url, caBundle, timeoutMs),
    uninstall: remove,
  };
}

/** Installs the configurations and conversions; pushes how to undo each onto `installed`. */
async function install(
  kubeConfig: KubeConfig,
  options: WebhookInstallOptions,
  url: string,
  caBundle: string,
  installed: Array<() => Promise<void>>,
): Promise<void> {
  const admission = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  const extensions = kubeConfig.makeApiClient(ApiextensionsV1Api);
  for (const config of options.validatingWebhookConfigurations ?? []) {
    const body = {
      ...config,
      webhooks: (config.webhooks ?? []).map((w) => ({
        ...w,
        clientConfig: localClientConfig(
          `validating webhook ${w.name}`,
          w.clientConfig,
          url,
          caBundle,
        ),
      })),
    };
    const name = (await admission.createValidatingWebhookConfiguration({ body })).metadata
      ?.name as string;
    installed.push(() => ignoreNotFound(admission.deleteValidatingWebhookConfiguration({ name })));
  }
  for (const config of options.mutatingWebhookConfigurations ?? []) {
    const body = {
      ...config,
      webhooks: (config.webhooks ?? []).map((w) => ({
        ...w,
        clientConfig: localClientConfig(
          `mutating webhook ${w.name}`,
          w.clientConfig,
          url,
          caBundle,
        ),
      })),
    };
    const name = (await admission.createMutatingWebhookConfiguration({ body })).metadata
      ?.name as string;
    installed.push(() => ignoreNotFound(admission.deleteMutatingWebhookConfiguration({ name })));
  }
  for (const { crdName, path } of options.conversions ?? []) {
    const conversion: V1CustomResourceConversion = {
      strategy: 'Webhook',
      webhook: {
        clientConfig: { url: `${url}${path ?? '/convert'}`, caBundle },
        conversionReviewVersions: ['v1'],
      },
    };
    const previous = await setConversion(extensions, crdName, conversion);
    installed.push(() =>
      ignoreNotFound(
        setConversion(extensions, crdName, previous ?? { strategy: 'None' }).then(() => {}),
      ),
    );
  }
}

/** The local `clientConfig` of a webhook, its path taken from its `service.path` or `url`. */
function localClientConfig(
  where: string,
  client: { url?: string; service?: { path?: string } } | undefined,
  url: string,
  caBundle: string,
): { url: string; caBundle: string } {
  const path =
    client?.service?.path ?? (client?.url === undefined ? undefined : new URL(client.url).pathname);
  if (!path) {
    throw new InvalidArgumentError(
      where,
      'needs clientConfig.service.path or clientConfig.url to take the path from',
    );
  }
  return { url: `${url}${path}`, caBundle };
}

/** Sets a CRD's `spec.conversion`, retrying conflicts; returns the one it had. */
async function setConversion(
  api: ApiextensionsV1Api,
  name: string,
  conversion: V1CustomResourceConversion,
): Promise<V1CustomResourceConversion | undefined> {
  for (;;) {
    const crd = await api.readCustomResourceDefinition({ name });
    const previous = crd.spec.conversion;
    try {
      await api.replaceCustomResourceDefinition({
        name,
        body: { ...crd, spec: { ...crd.spec, conversion } },
      });
      return previous;
    } catch (error) {
      if (!(error instanceof ApiException) || error.code !== 409) throw error;
    }
  }
}

async function ignoreNotFound(promise: Promise<unknown>): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ApiException) || error.code !== 404) throw error;
  }
}

/** The apiserver's words when the webhook server answered 404 (the probe's path is not served). */
const SERVER_ANSWERED = 'could not find the requested resource';

async function waitReachable(
  kubeConfig: KubeConfig,
  url: string,
  caBundle: string,
  timeoutMs: number,
): Promise<void> {
  const token = randomBytes(6).toString('hex');
  const name = `envtest-webhook-probe-${token}`;
  const admission = kubeConfig.makeApiClient(AdmissionregistrationV1Api);
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const label = 'envtest.ctrlkit.io/webhook-probe';
  await admission.createValidatingWebhookConfiguration({
    body: {
      metadata: { name },
      webhooks: [
        {
          name: 'probe.envtest.ctrlkit.io',
          clientConfig: { url: `${url}/envtest-probe-${token}`, caBundle },
          rules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['CREATE'],
              resources: ['configmaps'],
            },
          ],
          objectSelector: { matchLabels: { [label]: token } },
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Fail',
          timeoutSeconds: 5,
        },
      ],
    },
  });
  const deadline = performance.now() + timeoutMs;
  let problem = 'the apiserver has not called the probe webhook yet';
  try {
    for (;;) {
      try {
        const body = { metadata: { generateName: 'envtest-probe-', labels: { [label]: token } } };
        await core.createNamespacedConfigMap({ namespace: 'default', body, dryRun: 'All' });
      } catch (error) {
        const message = error instanceof ApiException ? String(error.body) : String(error);
        if (message.includes(SERVER_ANSWERED)) return;
        problem = message.slice(0, 300);
      }
      if (performance.now() >= deadline)
        throw new NotReadyError(`webhook server ${url}`, timeoutMs, problem);
      await sleep(100);
    }
  } finally {
    await ignoreNotFound(admission.deleteValidatingWebhookConfiguration({ name }));
  }
}
