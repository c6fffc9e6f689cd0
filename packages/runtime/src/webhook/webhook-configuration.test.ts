import { describe, expect, it } from 'vitest';
import { mutatingWebhookFor, validatingWebhookFor } from './admission-webhook.js';
import { conversionWebhookFor } from './conversion-webhook.js';
import {
  crdConversion,
  mutatingWebhookConfiguration,
  validatingWebhookConfiguration,
} from './webhook-configuration.js';

const widgets = { group: 'example.com', versions: ['v1'], kind: 'Widget', resource: 'widgets' };
const validating = validatingWebhookFor(
  { validateCreate: () => [], validateUpdate: () => [], validateDelete: () => [] },
  {
    ...widgets,
    name: 'vwidget.example.com',
    failurePolicy: 'Ignore',
    objectSelector: { matchLabels: { a: 'b' } },
    timeoutSeconds: 5,
  },
);
const mutating = mutatingWebhookFor(
  { default: () => {} },
  { ...widgets, name: 'mwidget.example.com' },
);
const service = { service: { name: 'webhook', namespace: 'system' }, caBundle: 'PEM' } as const;

describe('webhook configurations', () => {
  it('makes a ValidatingWebhookConfiguration from the validating webhooks', () => {
    expect(validatingWebhookConfiguration('widgets', [validating, mutating], service)).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'widgets' },
      webhooks: [
        {
          name: 'vwidget.example.com',
          clientConfig: {
            service: {
              name: 'webhook',
              namespace: 'system',
              path: '/validate-example-com-v1-widget',
              port: 443,
            },
            caBundle: Buffer.from('PEM').toString('base64'),
          },
          rules: [
            {
              apiGroups: ['example.com'],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE', 'DELETE'],
              resources: ['widgets'],
            },
          ],
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Ignore',
          matchPolicy: 'Equivalent',
          timeoutSeconds: 5,
          objectSelector: { matchLabels: { a: 'b' } },
        },
      ],
    });
  });

  it('makes a MutatingWebhookConfiguration with a URL client and the defaults', () => {
    const config = mutatingWebhookConfiguration('widgets', [validating, mutating], {
      url: 'https://127.0.0.1:9443/',
    });
    expect(config.webhooks).toEqual([
      expect.objectContaining({
        name: 'mwidget.example.com',
        clientConfig: { url: 'https://127.0.0.1:9443/mutate-example-com-v1-widget' },
        rules: [
          {
            apiGroups: ['example.com'],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['widgets'],
          },
        ],
        failurePolicy: 'Fail',
        timeoutSeconds: 10,
        reinvocationPolicy: 'Never',
      }),
    ]);
  });

  it("makes a CRD's spec.conversion", () => {
    const conversion = conversionWebhookFor({
      group: 'example.com',
      kind: 'Widget',
      hub: 'v1',
      spokes: { v1alpha1: { toHub: (o) => o, fromHub: (o) => o } },
    });
    expect(crdConversion(conversion, service)).toEqual({
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: { name: 'webhook', namespace: 'system', path: '/convert', port: 443 },
          caBundle: Buffer.from('PEM').toString('base64'),
        },
        conversionReviewVersions: ['v1'],
      },
    });
  });

  it('rejects an http URL and bad webhook options, naming the field', () => {
    expect(() => mutatingWebhookConfiguration('w', [mutating], { url: 'http://x' })).toThrow(
      /client.url/,
    );
    expect(() => validatingWebhookFor({} as never, { ...widgets, name: 'v.example.com' })).toThrow(
      /validator.validateCreate/,
    );
    expect(() =>
      mutatingWebhookFor(
        { default: () => {} },
        { ...widgets, name: 'm.example.com', timeoutSeconds: 31 },
      ),
    ).toThrow(/options.timeoutSeconds/);
    expect(() => mutatingWebhookFor({ default: () => {} }, { ...widgets, name: '' })).toThrow(
      /options.name/,
    );
  });
});
