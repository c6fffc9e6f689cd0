// Garbage collection of the ConfigMaps a ConfigMapSet controls, on a real cluster (one
// control plane with kube-scheduler and kube-controller-manager for this file, the CRD
// installed before them so the garbage collector watches ConfigMapSets from its start), with
// the controller running: background deletion removes the owner at once and its ConfigMaps
// after; foreground deletion removes the ConfigMaps first (our controller references block
// the owner's deletion), then the owner. Another set's ConfigMaps and an unowned one stay.
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import { COMPONENTS, createTestNamespace, readAuditLog, startControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import { expect, it } from 'vitest';
import { configMapSetCrd, group, ownerLabel, plural, version } from './configmapset-crd.js';
import { startReplicasController } from './replicas-controller.js';

const GARBAGE_COLLECTOR = 'system:serviceaccount:kube-system:generic-garbage-collector';
const WAIT = { timeoutMs: 60_000, intervalMs: 100 };

it('background deletion: the set goes at once, its ConfigMaps after; foreground: its ConfigMaps first, then the set', async () => {
  const plane = await startControlPlane({
    components: COMPONENTS,
    crds: [configMapSetCrd],
    // What the garbage collector writes, in order.
    auditPolicy: {
      omitStages: ['RequestReceived'],
      rules: [
        { level: 'Metadata', users: [GARBAGE_COLLECTOR], verbs: ['delete', 'update', 'patch'] },
        { level: 'None' },
      ],
    },
    logger: noopLogger,
  });
  const stop = new AbortController();
  try {
    const { kubeConfig } = plane;
    const client = createClient(kubeConfig);
    const namespace = await createTestNamespace(kubeConfig, 'gc-');
    const controller = startReplicasController(
      { kubeConfig, namespace, logger: noopLogger },
      stop.signal,
    );
    const sets = { group, version, resource: plural };
    const owned = async (name: string) =>
      (await client.list('configmaps', { namespace, labelSelector: `${ownerLabel}=${name}` }))
        .items;
    for (const name of ['background', 'foreground', 'kept']) {
      await client.create(
        sets,
        {
          apiVersion: `${group}/${version}`,
          kind: 'ConfigMapSet',
          metadata: { name },
          spec: { replicas: 3 },
        },
        { namespace },
      );
    }
    await client.create('configmaps', { metadata: { name: 'unowned' } }, { namespace });
    for (const name of ['background', 'foreground', 'kept']) {
      await waitFor(`3 ConfigMaps of ${name}`, () => owned(name), {
        ...WAIT,
        until: (items) => items.length === 3,
      });
    }
    const exists = (name: string) =>
      client.get(sets, name, { namespace }).then(
        () => true,
        () => false,
      );

    // Background: the set is gone when the delete answers; the collector takes the rest.
    const backgroundMaps = (await owned('background')).map((c) => c.metadata?.name);
    await client.delete(sets, 'background', { namespace, propagationPolicy: 'Background' });
    expect(await exists('background')).toBe(false);
    await waitFor("the background set's ConfigMaps collected", () => owned('background'), {
      ...WAIT,
      until: (items) => items.length === 0,
    });

    // Foreground: the set waits, marked, until the collector has deleted its ConfigMaps.
    const { nextOffset } = await readAuditLog(plane.auditLogPath ?? '');
    const foregroundMaps = (await owned('foreground')).map((c) => c.metadata?.name);
    const marked = (await client.delete(sets, 'foreground', {
      namespace,
      propagationPolicy: 'Foreground',
    })) as { metadata: { deletionTimestamp?: string; finalizers?: string[] } };
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.finalizers).toEqual(['foregroundDeletion']);
    await waitFor(
      'the foreground set and its ConfigMaps gone',
      async () => {
        return !(await exists('foreground')) && (await owned('foreground')).length === 0;
      },
      WAIT,
    );
    const writes = (await readAuditLog(plane.auditLogPath ?? '', nextOffset)).events
      .filter((e) => e.stage === 'ResponseComplete')
      .map((e) => `${e.verb} ${e.objectRef?.resource}/${e.objectRef?.name}`);
    const lastMapDelete = Math.max(
      ...foregroundMaps.map((name) => writes.indexOf(`delete configmaps/${name}`)),
    );
    const ownerReleased = writes.findIndex((w) =>
      /^(update|patch) configmapsets\/foreground$/.test(w),
    );
    // Every ConfigMap deleted by the collector, before it let the owner go.
    expect(lastMapDelete).toBeGreaterThanOrEqual(0);
    expect(ownerReleased).toBeGreaterThan(lastMapDelete);

    // What neither set owned, and the other set's ConfigMaps, stay; none of the deleted came back.
    expect(await exists('kept')).toBe(true);
    expect(await owned('kept')).toHaveLength(3);
    const names = (await client.list('configmaps', { namespace })).items.map(
      (c) => c.metadata?.name,
    );
    expect(names).toContain('unowned');
    for (const name of [...backgroundMaps, ...foregroundMaps]) expect(names).not.toContain(name);
    stop.abort();
    await controller.done;
    client.close();
  } finally {
    stop.abort();
    await plane.stop();
  }
});
