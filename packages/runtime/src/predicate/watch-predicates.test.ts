import { FakeClock } from '@ctrlkit/core/testing';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { Controller } from '../controller/controller.js';
import type { EventHandlers, EventSource } from '../controller/event-source.js';
import { enqueueRequestsFromMapFunc } from '../handler/enqueue.js';
import {
  type DeleteEvent,
  generationChangedPredicate,
  labelChangedPredicate,
  or,
  predicateFuncs,
} from './predicate.js';

/** An event source driven by the test. */
class ScriptedSource implements EventSource<V1ConfigMap> {
  handlers: EventHandlers<V1ConfigMap> = {};
  addEventHandler(handlers: EventHandlers<V1ConfigMap>) {
    this.handlers = handlers;
  }
  hasSynced() {
    return true;
  }
}

const cm = (
  name: string,
  generation: number,
  labels: Record<string, string> = {},
): V1ConfigMap => ({
  metadata: { name, namespace: 'ns', generation, labels },
});

async function drain(controller: Controller): Promise<string[]> {
  const keys: string[] = [];
  while (controller.queue.len() > 0) {
    const next = await controller.queue.get();
    if (next.shutdown) break;
    keys.push(next.item);
    controller.queue.done(next.item);
  }
  return keys;
}

it('Controller.watch enqueues only the events its predicates pass, updates judged on old and new', async () => {
  const source = new ScriptedSource();
  const deletes: DeleteEvent<V1ConfigMap>[] = [];
  const controller = new Controller({
    name: 'predicates',
    reconcile: () => undefined,
    clock: new FakeClock(),
  }).watch(source, {
    predicates: [
      or(generationChangedPredicate(), labelChangedPredicate()),
      predicateFuncs({
        delete: (e) => {
          deletes.push(e);
          return e.object.metadata?.name !== 'keep';
        },
      }),
    ],
    mapToKeys: enqueueRequestsFromMapFunc((o: V1ConfigMap) => [
      { namespace: 'ns', name: `owner-of-${o.metadata?.name}` },
    ]),
  });
  const h = source.handlers;
  h.onAdd?.(cm('created', 1), true);
  h.onUpdate?.(cm('status-only', 1), cm('status-only', 1));
  h.onUpdate?.(cm('spec', 1), cm('spec', 2));
  h.onUpdate?.(cm('relabelled', 1), cm('relabelled', 1, { a: 'b' }));
  h.onDelete?.(cm('gone', 1));
  h.onDelete?.({ key: 'ns/keep', obj: cm('keep', 1) });
  expect(await drain(controller)).toEqual([
    'ns/owner-of-created',
    'ns/owner-of-spec',
    'ns/owner-of-relabelled',
    'ns/owner-of-gone',
  ]);
  expect(deletes.map((e) => [e.object.metadata?.name, e.deleteStateUnknown])).toEqual([
    ['gone', false],
    ['keep', true],
  ]);
  controller.queue.shutDown();
});
