// Server-side apply, status writes and conflict retries against a real apiserver, through
// the runtime's client (its SSA content type included).

import { ApiStatusError, type Client, createClient } from '@ctrlkit/client';
import { isConflict, statusCode } from '@ctrlkit/core';
import { createTestNamespace, installCRDs } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CustomResource,
  customResourceDefinition,
} from '../crd/custom-resource-definition.js';
import { DEFAULT_RETRY, retryOnConflict } from '../retry/retry-on-conflict.js';
import { apply, applyStatus } from './apply.js';
import { patchStatus } from './patch-status.js';

const group = 'apply-test.ctrlkit.dev';
const schema = Type.Object({
  spec: Type.Object({ size: Type.Integer() }),
  status: Type.Optional(
    Type.Object({
      phase: Type.Optional(Type.String()),
      observed: Type.Optional(Type.Integer()),
      count: Type.Optional(Type.Integer()),
    }),
  ),
});
type Thing = CustomResource<typeof schema>;
const crd = customResourceDefinition({
  group,
  names: { kind: 'Thing', plural: 'things' },
  versions: [{ name: 'v1', schema, subresources: { status: {} } }],
});

describe('apply, applyStatus, patchStatus and retryOnConflict on a real apiserver', () => {
  let kubeConfig: KubeConfig;
  let core: Client;
  const things = { group, version: 'v1', resource: 'things' };
  let namespace: string;
  beforeAll(async () => {
    kubeConfig = testKubeConfig();
    core = createClient(kubeConfig);
    await installCRDs(kubeConfig, [crd]);
    namespace = await createTestNamespace(kubeConfig, 'apply-');
  });
  afterAll(() => core.close());

  const configMap = (
    data: Record<string, string>,
    labels?: Record<string, string>,
  ): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'applied', namespace, ...(labels && { labels }) },
    data,
  });

  it('creates, owns, prunes its own fields, and keeps fields of other managers', async () => {
    const created = await apply(kubeConfig, configMap({ a: '1', b: '2' }), {
      fieldManager: 'ctrl',
    });
    expect(created.data).toEqual({ a: '1', b: '2' });
    expect(created.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toEqual([
      ['ctrl', 'Apply'],
    ]);
    // Another manager adds a label.
    await apply(kubeConfig, configMap({}, { team: 'x' }), { fieldManager: 'human' });
    // ctrl drops b: it is removed; the other manager's label stays.
    const updated = await apply(kubeConfig, configMap({ a: '1' }), { fieldManager: 'ctrl' });
    expect(updated.data).toEqual({ a: '1' });
    expect(updated.metadata?.labels).toEqual({ team: 'x' });
  });

  it('refuses to take a field another manager owns (409) unless forced', async () => {
    const error = await apply(kubeConfig, configMap({ a: 'mine' }), {
      fieldManager: 'rival',
    }).catch((e: unknown) => e);
    expect(ApiStatusError.isInstance(error)).toBe(true);
    expect(statusCode(error)).toBe(409);
    expect(isConflict(error)).toBe(true);
    const forced = await apply(kubeConfig, configMap({ a: 'mine' }), {
      fieldManager: 'rival',
      force: true,
    });
    expect(forced.data?.a).toBe('mine');
    const dry = await apply(kubeConfig, configMap({ a: 'dry' }), {
      fieldManager: 'rival',
      dryRun: true,
    });
    expect(dry.data?.a).toBe('dry');
    expect((await core.get<V1ConfigMap>('configmaps', 'applied', { namespace })).data?.a).toBe(
      'mine',
    );
  });

  it("works through the runtime's client too", async () => {
    const client = createClient(kubeConfig);
    const result = await apply(
      client,
      { ...configMap({ via: 'object-api' }), metadata: { name: 'via-api', namespace } },
      { fieldManager: 'ctrl' },
    );
    expect(result.data).toEqual({ via: 'object-api' });
  });

  it('applies and merge-patches the status subresource, leaving spec alone', async () => {
    await core.create(
      things,
      {
        apiVersion: `${group}/v1`,
        kind: 'Thing',
        metadata: { name: 't' },
        spec: { size: 1 },
      },
      { namespace },
    );
    const target = { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 't', namespace } };
    const applied = await applyStatus<Thing>(
      kubeConfig,
      { ...target, spec: { size: 99 }, status: { phase: 'Ready', observed: 1 } },
      { fieldManager: 'ctrl', force: true },
    );
    expect(applied.status).toEqual({ phase: 'Ready', observed: 1 });
    expect(applied.spec).toEqual({ size: 1 });
    const patched = await patchStatus<Thing>(kubeConfig, target as Thing, {
      phase: 'Done',
      observed: null,
    });
    expect(patched.status).toEqual({ phase: 'Done' });
  });

  it('retries a real 409 Conflict with DEFAULT_RETRY until the write is based on fresh data', async () => {
    const read = async () =>
      ({
        apiVersion: `${group}/v1`,
        kind: 'Thing',
        ...(await core.get<object>(things, 't', { namespace })),
      }) as Thing;
    const stale = await read();
    // Someone else writes first: the stale resourceVersion now conflicts.
    await patchStatus(kubeConfig, stale, { count: 1 });
    let attempts = 0;
    const conflicts: number[] = [];
    const result = await retryOnConflict(DEFAULT_RETRY, async () => {
      attempts++;
      const current = attempts === 1 ? stale : await read();
      try {
        return await patchStatus(
          kubeConfig,
          current,
          { count: (current.status?.count ?? 0) + 1 },
          { optimisticLock: true },
        );
      } catch (error) {
        if (isConflict(error)) conflicts.push(statusCode(error) ?? 0);
        throw error;
      }
    });
    expect(conflicts).toEqual([409]);
    expect(attempts).toBe(2);
    expect(result.status?.count).toBe(2);
  });
});
