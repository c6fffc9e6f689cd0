//! The webhook configurations and a CRD's spec.conversion, generated from registered webhooks (controller-gen's markers).

import { InvalidArgumentError } from '@ctrlkit/core';
import type {
  AdmissionregistrationV1WebhookClientConfig,
  V1CustomResourceConversion,
  V1MutatingWebhook,
  V1MutatingWebhookConfiguration,
  V1ValidatingWebhook,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import type { AdmissionWebhook } from './admission-webhook.js';
import type { ConversionWebhook } from './conversion-webhook.js';

/**
 * How the apiserver reaches the webhook server: a Service in the cluster (`port` default
 * 443), or a base URL (`https://host:port`, for a server outside it, as envtest's); the
 * webhook's path is appended. `caBundle` is the PEM of the CA that signed the serving
 * certificate (omit it when cert-manager's CA injector fills it in).
 */
export type WebhookClientOptions =
  | {
      readonly service: {
        readonly name: string;
        readonly namespace: string;
        readonly port?: number;
      };
      readonly caBundle?: string;
    }
  | { readonly url: string; readonly caBundle?: string };

/** The `clientConfig` of the webhook at `path`. */
export function webhookClientConfig(
  client: WebhookClientOptions,
  path: string,
): AdmissionregistrationV1WebhookClientConfig {
  const caBundle =
    client.caBundle === undefined
      ? {}
      : { caBundle: Buffer.from(client.caBundle).toString('base64') };
  if ('service' in client) {
    const { name, namespace, port } = client.service;
    if (!name || !namespace)
      throw new InvalidArgumentError('client.service', 'needs a name and a namespace');
    return { service: { name, namespace, path, port: port ?? 443 }, ...caBundle };
  }
  if (typeof client?.url !== 'string' || !client.url.startsWith('https://')) {
    throw new InvalidArgumentError(
      'client.url',
      `must be an https:// URL, got ${String(client?.url)}`,
    );
  }
  return { url: `${client.url.replace(/\/+$/, '')}${path}`, ...caBundle };
}

/** The ValidatingWebhookConfiguration `name` for the validating webhooks among `webhooks`. */
export function validatingWebhookConfiguration(
  name: string,
  webhooks: readonly AdmissionWebhook[],
  client: WebhookClientOptions,
): V1ValidatingWebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: checkName(name) },
    webhooks: webhooks.filter((w) => w.type === 'validating').map((w) => admissionEntry(w, client)),
  };
}

/** The MutatingWebhookConfiguration `name` for the mutating webhooks among `webhooks`. */
export function mutatingWebhookConfiguration(
  name: string,
  webhooks: readonly AdmissionWebhook[],
  client: WebhookClientOptions,
): V1MutatingWebhookConfiguration {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: checkName(name) },
    webhooks: webhooks
      .filter((w) => w.type === 'mutating')
      .map(
        (w): V1MutatingWebhook => ({ ...admissionEntry(w, client), reinvocationPolicy: 'Never' }),
      ),
  };
}

/** The `spec.conversion` of the CRD that `webhook` converts (strategy `Webhook`, review version v1). */
export function crdConversion(
  webhook: ConversionWebhook,
  client: WebhookClientOptions,
): V1CustomResourceConversion {
  return {
    strategy: 'Webhook',
    webhook: {
      clientConfig: webhookClientConfig(client, webhook.path),
      conversionReviewVersions: ['v1'],
    },
  };
}

function admissionEntry(
  webhook: AdmissionWebhook,
  client: WebhookClientOptions,
): V1ValidatingWebhook {
  const o = webhook.options;
  return {
    name: o.name,
    clientConfig: webhookClientConfig(client, o.path),
    rules: [
      {
        apiGroups: [o.group],
        apiVersions: [...o.versions],
        operations: [...o.operations],
        resources: [o.resource],
      },
    ],
    admissionReviewVersions: ['v1'],
    sideEffects: 'None',
    failurePolicy: o.failurePolicy,
    matchPolicy: o.matchPolicy,
    timeoutSeconds: o.timeoutSeconds,
    ...(o.namespaceSelector !== undefined && { namespaceSelector: o.namespaceSelector }),
    ...(o.objectSelector !== undefined && { objectSelector: o.objectSelector }),
  };
}

function checkName(name: string): string {
  if (typeof name !== 'string' || name === '')
    throw new InvalidArgumentError('name', 'expected a non-empty string');
  return name;
}
