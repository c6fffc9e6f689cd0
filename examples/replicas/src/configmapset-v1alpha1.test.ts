import { WebhookError } from '@ctrlkit/runtime/webhook';
import { describe, expect, it } from 'vitest';
import { configMapSetConversion, group } from './configmapset-crd.js';
import { conversionDataAnnotation } from './configmapset-v1alpha1.js';

const v1 = `${group}/v1`;
const v1alpha1 = `${group}/v1alpha1`;
const meta = { name: 'web', namespace: 'default', uid: 'u-1' };

describe('ConfigMapSet conversion between v1 and v1alpha1', () => {
  it('v1 spec.replicas is v1alpha1 spec.count, and back', async () => {
    const down = await configMapSetConversion.convert(
      { apiVersion: v1, kind: 'ConfigMapSet', metadata: { ...meta }, spec: { replicas: 3 } },
      v1alpha1,
    );
    expect(down).toEqual({
      apiVersion: v1alpha1,
      kind: 'ConfigMapSet',
      metadata: meta,
      spec: { count: 3 },
    });
    const up = await configMapSetConversion.convert(down, v1);
    expect(up).toEqual({
      apiVersion: v1,
      kind: 'ConfigMapSet',
      metadata: meta,
      spec: { replicas: 3 },
    });
  });

  it('keeps spec.data, which v1alpha1 cannot hold, in an annotation and restores it', async () => {
    const original = {
      apiVersion: v1,
      kind: 'ConfigMapSet',
      metadata: { ...meta, annotations: { team: 'a' } },
      spec: { replicas: 2, data: { colour: 'blue' } },
    };
    const down = await configMapSetConversion.convert(structuredClone(original), v1alpha1);
    expect(down.spec).toEqual({ count: 2 });
    expect(down.metadata?.annotations).toEqual({
      team: 'a',
      [conversionDataAnnotation]: JSON.stringify({ data: { colour: 'blue' } }),
    });
    expect(await configMapSetConversion.convert(down, v1)).toEqual(original);
  });

  it('a v1alpha1 object written without the annotation becomes a v1 object without data', async () => {
    const up = await configMapSetConversion.convert(
      { apiVersion: v1alpha1, kind: 'ConfigMapSet', metadata: { ...meta }, spec: { count: 0 } },
      v1,
    );
    expect(up.spec).toEqual({ replicas: 0 });
    expect(up.metadata).toEqual(meta);
  });

  it('an annotation that is not JSON fails the conversion, naming the annotation', async () => {
    const broken = {
      apiVersion: v1alpha1,
      kind: 'ConfigMapSet',
      metadata: { ...meta, annotations: { [conversionDataAnnotation]: '{not json' } },
      spec: { count: 1 },
    };
    const error = await configMapSetConversion.convert(broken, v1).catch((e: unknown) => e);
    expect(WebhookError.isInstance(error) && error.reason).toBe('ConversionFailed');
    expect((error as Error).message).toContain(conversionDataAnnotation);
  });

  it('answers a ConversionReview from the apiserver with the converted objects', async () => {
    const review = await configMapSetConversion.handle(
      {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'ConversionReview',
        request: {
          uid: 'r-1',
          desiredAPIVersion: v1alpha1,
          objects: [
            { apiVersion: v1, kind: 'ConfigMapSet', metadata: meta, spec: { replicas: 5 } },
          ],
        },
      },
      new AbortController().signal,
    );
    expect(review).toMatchObject({
      response: {
        uid: 'r-1',
        result: { status: 'Success' },
        convertedObjects: [{ apiVersion: v1alpha1, spec: { count: 5 } }],
      },
    });
  });
});
