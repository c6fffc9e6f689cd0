//! Plumbing the integration tests share: creating forklift objects and marking them Ready as their controllers would.

import { type CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { API_VERSION, GROUP, PLURALS, VERSION } from '../src/crds.js';

/** A forklift kind. */
export type ForkliftKind = keyof typeof PLURALS;

/** Creates a forklift object (`body` has `metadata` and `spec`). */
export function createForklift(
  custom: CustomObjectsApi,
  kind: ForkliftKind,
  namespace: string,
  body: object,
): Promise<object> {
  return custom.createNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURALS[kind],
    namespace,
    body: { apiVersion: API_VERSION, kind, ...body },
  });
}

/** Reads a forklift object. */
export function getForklift<T>(
  custom: CustomObjectsApi,
  kind: ForkliftKind,
  namespace: string,
  name: string,
): Promise<T> {
  return custom.getNamespacedCustomObject({
    group: GROUP,
    version: VERSION,
    plural: PLURALS[kind],
    namespace,
    name,
  }) as Promise<T>;
}

/**
 * Creates each `[kind, name, body]` and gives it `Ready` and `observedGeneration: 1`, as
 * the Provider, map and Hook controllers would (for tests of the Plan controller alone).
 */
export async function createReady(
  custom: CustomObjectsApi,
  namespace: string,
  objects: ReadonlyArray<readonly [ForkliftKind, string, object]>,
): Promise<void> {
  const status = {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        category: 'Required',
        lastTransitionTime: new Date().toISOString().replace(/\.\d+Z/, 'Z'),
      },
    ],
    observedGeneration: 1,
  };
  for (const [kind, name, body] of objects) {
    await createForklift(custom, kind, namespace, { metadata: { name }, ...body });
    await custom.patchNamespacedCustomObjectStatus(
      { group: GROUP, version: VERSION, plural: PLURALS[kind], namespace, name, body: { status } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }
}
