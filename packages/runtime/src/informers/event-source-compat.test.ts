import type { KubeObject } from '@ctrlkit/client';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { EventSource } from '../controller/event-source.js';
import { FakeListWatch } from '../testing/fake-list-watch.js';
import { SharedIndexInformer } from './shared-informer.js';

describe('SharedIndexInformer as the controller loop sees it', () => {
  it('is an EventSource: the controller can register handlers and wait for the sync', async () => {
    const lw = new FakeListWatch<V1ConfigMap>();
    lw.apply({ metadata: { namespace: 'ns', name: 'a' } });
    const informer = new SharedIndexInformer<V1ConfigMap>({ listWatch: lw });
    const source: EventSource<V1ConfigMap> = informer;
    const untyped: EventSource<KubeObject> = new SharedIndexInformer({
      listWatch: new FakeListWatch(),
    });
    const keys: string[] = [];
    source.addEventHandler({ onAdd: (obj) => keys.push(obj.metadata?.name ?? '') });
    const stop = new AbortController();
    void informer.run(stop.signal);
    await informer.whenSynced();
    expect(source.hasSynced()).toBe(true);
    expect(untyped.hasSynced()).toBe(false);
    expect(keys).toEqual(['a']);
    stop.abort();
  });
});
