// The guarantee of the conversion webhook, as a property: v1 -> v1alpha1 -> v1 is the identity,
// whatever the object holds (replicas, data, other annotations and labels).
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { configMapSetConversion, group } from './configmapset-crd.js';
import { conversionDataAnnotation } from './configmapset-v1alpha1.js';

const v1 = `${group}/v1`;
const v1alpha1 = `${group}/v1alpha1`;
const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== '__proto__');
const strings = fc.dictionary(key, fc.string({ maxLength: 20 }), {
  maxKeys: 4,
  noNullPrototype: true,
});

/**
 * A non-empty map of strings: the apiserver never sends an empty `annotations` or `labels` map
 * (ObjectMeta omits them when empty), so a round trip need not keep one.
 */
const nonEmptyStrings = fc.dictionary(key, fc.string({ maxLength: 20 }), {
  minKeys: 1,
  maxKeys: 4,
  noNullPrototype: true,
});

/** A v1 ConfigMapSet as the apiserver sends it: metadata always, annotations, labels and data (maybe empty) sometimes. */
const v1ConfigMapSet = fc.record({
  apiVersion: fc.constant(v1),
  kind: fc.constant('ConfigMapSet'),
  metadata: fc.record(
    {
      name: fc.constant('set'),
      namespace: fc.constant('default'),
      annotations: nonEmptyStrings.filter((a) => !(conversionDataAnnotation in a)),
      labels: nonEmptyStrings,
    },
    { requiredKeys: ['name', 'namespace'] },
  ),
  spec: fc.record(
    { replicas: fc.integer({ min: 0, max: 250 }), data: strings },
    { requiredKeys: ['replicas'] },
  ),
});

it('v1 -> v1alpha1 -> v1 gives back the same object (lossless round trip)', async () => {
  await fc.assert(
    fc.asyncProperty(v1ConfigMapSet, async (object) => {
      const down = await configMapSetConversion.convert(structuredClone(object), v1alpha1);
      expect(down.apiVersion).toBe(v1alpha1);
      expect(down.spec).toEqual({ count: object.spec.replicas });
      expect(await configMapSetConversion.convert(down, v1)).toEqual(object);
    }),
    { numRuns: 300 },
  );
});

it('v1alpha1 -> v1 -> v1alpha1 gives back the same object when it carries no conversion data', async () => {
  await fc.assert(
    fc.asyncProperty(v1ConfigMapSet, async (hub) => {
      const { data: _, ...spec } = hub.spec;
      const object = { ...hub, apiVersion: v1alpha1, spec: { count: spec.replicas } };
      const up = await configMapSetConversion.convert(structuredClone(object), v1);
      expect(await configMapSetConversion.convert(up, v1alpha1)).toEqual(object);
    }),
    { numRuns: 300 },
  );
});
