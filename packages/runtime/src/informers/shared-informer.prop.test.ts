import type { KubeObject } from '@ctrlkit/client';
import { FakeClock } from '@ctrlkit/core/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FakeListWatch } from '../testing/fake-list-watch.js';
import { DeletedFinalStateUnknown } from './key-func.js';
import { SharedIndexInformer } from './shared-informer.js';

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

type Op =
  | { kind: 'apply'; name: string; value: number }
  | { kind: 'remove'; name: string }
  | { kind: 'break' }
  | { kind: 'close' }
  | { kind: 'compact' }
  | { kind: 'bookmark' }
  | { kind: 'tick' };

const name = fc.constantFrom('a', 'b', 'c', 'd');
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('apply' as const), name, value: fc.nat(9) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove' as const), name }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'break' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'close' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'compact' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'bookmark' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'tick' as const }) },
);

describe('SharedIndexInformer (property)', () => {
  it('whatever the faults, handlers converge to the server state and never see a version twice or go back', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const lw = new FakeListWatch();
        const clock = new FakeClock();
        const informer = new SharedIndexInformer({
          listWatch: lw,
          initialListMode: 'list',
          clock,
          random: () => 0,
        });
        // What the handler believes, and the versions it saw per object.
        const believed = new Map<string, string>();
        const seen = new Map<string, number[]>();
        const see = (obj: KubeObject) => {
          const rv = Number(obj.metadata?.resourceVersion);
          const versions = seen.get(obj.metadata?.name ?? '') ?? [];
          expect(versions.at(-1) ?? 0).toBeLessThan(rv);
          versions.push(rv);
          seen.set(obj.metadata?.name ?? '', versions);
        };
        informer.addEventHandler({
          onAdd: (obj) => {
            see(obj);
            believed.set(obj.metadata?.name ?? '', obj.metadata?.resourceVersion ?? '');
          },
          onUpdate: (old, obj) => {
            see(obj);
            expect(believed.get(old.metadata?.name ?? '')).toBe(old.metadata?.resourceVersion);
            believed.set(obj.metadata?.name ?? '', obj.metadata?.resourceVersion ?? '');
          },
          onDelete: (obj) => {
            const key = DeletedFinalStateUnknown.isInstance(obj)
              ? obj.key
              : `ns/${(obj as KubeObject).metadata?.name}`;
            expect(believed.has(key.slice(3))).toBe(true);
            believed.delete(key.slice(3));
          },
        });
        const stop = new AbortController();
        const running = informer.run(stop.signal);
        await flush();
        for (const o of ops) {
          if (o.kind === 'apply')
            lw.apply({
              metadata: { namespace: 'ns', name: o.name, labels: { v: String(o.value) } },
            });
          else if (o.kind === 'remove') lw.remove('ns', o.name);
          else if (o.kind === 'break') lw.breakWatches();
          else if (o.kind === 'close') lw.closeWatches();
          else if (o.kind === 'compact') lw.compact();
          else if (o.kind === 'bookmark') lw.bookmark();
          else clock.step(1_000);
          await flush();
        }
        // Let every backoff run out and the informer catch up.
        for (let i = 0; i < 8; i++) {
          clock.step(60_000);
          await flush();
        }
        const server = new Map(
          (await lw.list({})).items.map((o) => [
            o.metadata?.name ?? '',
            o.metadata?.resourceVersion ?? '',
          ]),
        );
        expect(new Map([...believed].sort())).toEqual(new Map([...server].sort()));
        expect(informer.indexer.listKeys().sort()).toEqual(
          [...server.keys()].map((n) => `ns/${n}`).sort(),
        );
        stop.abort();
        await running;
      }),
      { numRuns: 150 },
    );
  });
});
