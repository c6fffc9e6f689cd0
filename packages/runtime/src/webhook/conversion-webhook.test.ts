import { describe, expect, it } from 'vitest';
import {
  type ConvertibleObject,
  conversionWebhookFor,
  setConversionData,
  takeConversionData,
} from './conversion-webhook.js';

const ANNOTATION = 'example.com/v1-data';

/** v1 has `spec.replicas` and `spec.paused`; v1alpha1 only `spec.count`. */
const webhook = conversionWebhookFor({
  group: 'example.com',
  kind: 'Widget',
  hub: 'v1',
  spokes: {
    v1alpha1: {
      toHub: (spoke) => {
        const { count, ...spec } = (spoke.spec ?? {}) as Record<string, unknown>;
        const kept = (takeConversionData(spoke, ANNOTATION) ?? {}) as Record<string, unknown>;
        return { ...spoke, spec: { ...spec, ...kept, replicas: count } };
      },
      fromHub: (hub) => {
        const { replicas, paused, ...spec } = (hub.spec ?? {}) as Record<string, unknown>;
        const spoke: ConvertibleObject = { ...hub, spec: { ...spec, count: replicas } };
        if (paused !== undefined) setConversionData(spoke, ANNOTATION, { paused });
        return spoke;
      },
    },
  },
});

const hubWidget = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', uid: '1', annotations: { keep: 'me' } },
  spec: { replicas: 3, paused: true },
};

/** The ConversionReview the webhook answers. */
interface Reply {
  response: { uid: string; result: unknown; convertedObjects?: unknown[] };
}

function reviewOf(desiredAPIVersion: string, objects: unknown[]) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'u1', desiredAPIVersion, objects },
  };
}

describe('conversionWebhookFor', () => {
  it('converts from the hub to a spoke, keeping what the spoke cannot hold in an annotation', async () => {
    const answer = (await webhook.handle(
      reviewOf('example.com/v1alpha1', [hubWidget]),
      new AbortController().signal,
    )) as Reply;
    expect(answer.response.uid).toBe('u1');
    expect(answer.response.result).toEqual({ status: 'Success' });
    expect(answer.response.convertedObjects).toEqual([
      {
        apiVersion: 'example.com/v1alpha1',
        kind: 'Widget',
        metadata: {
          name: 'w',
          uid: '1',
          annotations: { keep: 'me', [ANNOTATION]: '{"paused":true}' },
        },
        spec: { count: 3 },
      },
    ]);
  });

  it('round-trips hub -> spoke -> hub losslessly', async () => {
    const spoke = await webhook.convert(hubWidget, 'example.com/v1alpha1');
    expect(await webhook.convert(spoke, 'example.com/v1')).toEqual(hubWidget);
    expect(hubWidget.spec).toEqual({ replicas: 3, paused: true });
  });

  it('answers a version it does not know with a Failure result', async () => {
    const answer = (await webhook.handle(
      reviewOf('example.com/v9', [hubWidget]),
      new AbortController().signal,
    )) as Reply;
    expect(answer.response).toEqual({
      uid: 'u1',
      result: {
        status: 'Failure',
        message:
          'Widget: cannot convert apiVersion example.com/v9; known: example.com/v1, example.com/v1alpha1',
      },
    });
  });

  it('rejects a body that is not a ConversionReview', async () => {
    await expect(
      webhook.handle({ kind: 'AdmissionReview' }, new AbortController().signal),
    ).rejects.toThrow(/expected apiVersion apiextensions.k8s.io\/v1/);
  });

  it('rejects a converter for the hub, and spokes without functions', () => {
    const base = { group: 'example.com', kind: 'Widget', hub: 'v1' };
    expect(() =>
      conversionWebhookFor({ ...base, spokes: { v1: { toHub: (o) => o, fromHub: (o) => o } } }),
    ).toThrow(/options.spokes.v1/);
    expect(() => conversionWebhookFor({ ...base, spokes: { v2: {} as never } })).toThrow(
      /options.spokes.v2/,
    );
    expect(() => conversionWebhookFor({ ...base, spokes: {} })).toThrow(/options.spokes/);
  });

  it('takeConversionData fails on an annotation that is not JSON', () => {
    const object = { metadata: { annotations: { [ANNOTATION]: '{' } } };
    expect(() => takeConversionData(object, ANNOTATION)).toThrow(/is not JSON/);
  });
});
