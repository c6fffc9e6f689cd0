import { createClient } from '@ctrlkit/client';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { CoreV1Event, V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { EventRecorder } from './event-recorder.js';

describe('EventRecorder against a real apiserver', () => {
  it('aggregates the same event emitted 5 times into one Event with count 5', async () => {
    const kubeConfig = testKubeConfig();
    const namespace = await createTestNamespace(kubeConfig, 'ev-');
    const core = createClient(kubeConfig);
    const configMap = await core.create<V1ConfigMap>(
      'configmaps',
      { metadata: { name: 'subject' }, data: { a: '1' } },
      { namespace },
    );
    const subject = { ...configMap, apiVersion: 'v1', kind: 'ConfigMap' };
    const recorder = new EventRecorder({
      kubeConfig,
      component: 'ctrlkit-test',
      host: 'test-host',
    });

    for (let i = 0; i < 5; i++) recorder.event(subject, 'Warning', 'SyncFailed', 'could not sync');
    recorder.event(subject, 'Normal', 'Synced', 'synced');
    await recorder.shutDown();

    const events = (await core.list<CoreV1Event>('events', { namespace })).items;
    const failed = events.filter((e) => e.reason === 'SyncFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      count: 5,
      type: 'Warning',
      message: 'could not sync',
      source: { component: 'ctrlkit-test', host: 'test-host' },
      involvedObject: {
        kind: 'ConfigMap',
        name: 'subject',
        namespace,
        uid: configMap.metadata!.uid,
      },
    });
    expect(failed[0]!.metadata.name).toMatch(/^subject\.[0-9a-f]+$/);
    expect(Date.parse(failed[0]!.lastTimestamp!)).toBeGreaterThanOrEqual(
      Date.parse(failed[0]!.firstTimestamp!),
    );
    expect(events.filter((e) => e.reason === 'Synced')).toHaveLength(1);
    core.close();
  });
});
