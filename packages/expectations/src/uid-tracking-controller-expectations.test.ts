import { describe, expect, it } from 'vitest';
import { ControllerExpectations } from './controller-expectations.js';
import { KeyFuncError } from './key-func-error.js';
import { FakeClock, RecordingLogger } from './testing.js';
import {
  UIDTrackingControllerExpectations,
  uidSetKeyFunc,
} from './uid-tracking-controller-expectations.js';

const rc = 'default/rs';

function setup() {
  const clock = new FakeClock(0);
  const logger = new RecordingLogger();
  const inner = new ControllerExpectations({ clock, timeoutMs: 30_000 });
  const exp = new UIDTrackingControllerExpectations({ expectations: inner, logger });
  return { clock, logger, inner, exp };
}

/** A deterministic shuffle (LCG), so the "random order" of the upstream test is repeatable. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('UIDTrackingControllerExpectations', () => {
  it('upstream "UIDExpectations": 4 controllers x 5 pods, observed in random order', () => {
    const { exp } = setup();
    const controllers = ['ns/rc-0', 'ns/rc-1', 'ns/rc-2', 'ns/rc-3'];
    const podKeys = new Map(
      controllers.map((c, i) => [c, [0, 1, 2, 3, 4].map((p) => `ns/pod-${i}-${p}`)]),
    );
    for (const c of shuffled(controllers, 7)) {
      exp.expectDeletions(c, podKeys.get(c)!);
    }
    for (const c of shuffled(controllers, 11)) {
      expect(exp.satisfiedExpectations(c)).toBe(false);
      for (const p of podKeys.get(c)!) exp.deletionObserved(c, p);
      expect(exp.satisfiedExpectations(c)).toBe(true);
      exp.deleteExpectations(c);
      expect(exp.getUIDs(c)).toBeUndefined();
    }
  });

  it('a deletion observed twice lowers the count once', () => {
    const { exp } = setup();
    exp.expectDeletions(rc, ['ns/a', 'ns/b']);
    exp.deletionObserved(rc, 'ns/a'); // update that sets deletionTimestamp
    exp.deletionObserved(rc, 'ns/a'); // the later delete event
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 1]);
    expect(exp.satisfiedExpectations(rc)).toBe(false);
  });

  it('a deletion observed for an unknown key does not lower the count', () => {
    const { exp, logger } = setup();
    exp.expectDeletions(rc, ['ns/a']);
    exp.deletionObserved(rc, 'ns/someone-else');
    exp.deletionObserved('ns/other-rc', 'ns/a');
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 1]);
    expect(exp.getExpectations('ns/other-rc')).toBeUndefined();
    expect(logger.entries.filter((e) => e.msg === 'received expected delete')).toEqual([]);
  });

  it('expectDeletions collapses duplicates and resets the counting record', () => {
    const { clock, exp } = setup();
    exp.setExpectations(rc, 3, 9);
    clock.step(100);
    exp.expectDeletions(rc, ['ns/a', 'ns/a', 'ns/b']);
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 2]);
    expect(exp.getExpectations(rc)!.timestamp).toBe(100);
    expect([...exp.getUIDs(rc)!].sort()).toEqual(['ns/a', 'ns/b']);
  });

  it('expectDeletions over a non-empty set logs a clobbering error and replaces it', () => {
    const { exp, logger } = setup();
    exp.expectDeletions(rc, ['ns/a']);
    expect(logger.entries.some((e) => e.level === 'error')).toBe(false);
    exp.expectDeletions(rc, ['ns/b']);
    const errors = logger.entries.filter((e) => e.level === 'error');
    expect(errors).toEqual([
      { level: 'error', obj: { key: rc, uids: ['ns/a'] }, msg: 'clobbering existing delete keys' },
    ]);
    expect([...exp.getUIDs(rc)!]).toEqual(['ns/b']);
    exp.deletionObserved(rc, 'ns/a');
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 1]);
  });

  it('expectDeletions over an emptied set does not log clobbering', () => {
    const { exp, logger } = setup();
    exp.expectDeletions(rc, ['ns/a']);
    exp.deletionObserved(rc, 'ns/a');
    expect(exp.getUIDs(rc)!.size).toBe(0);
    exp.expectDeletions(rc, ['ns/b']);
    expect(logger.entries.some((e) => e.level === 'error')).toBe(false);
  });

  it('addExpectedDeletion grows the set and resets add to 0 and the timestamp', () => {
    const { clock, exp } = setup();
    exp.addExpectedDeletion(rc, 'ns/a');
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 1]);
    exp.raiseExpectations(rc, 4, 0);
    clock.step(1_000);
    exp.addExpectedDeletion(rc, 'ns/b');
    exp.addExpectedDeletion(rc, 'ns/b');
    expect(exp.getExpectations(rc)!.getExpectations()).toEqual([0, 2]);
    expect(exp.getExpectations(rc)!.timestamp).toBe(1_000);
    expect([...exp.getUIDs(rc)!].sort()).toEqual(['ns/a', 'ns/b']);
  });

  it('getUIDs returns a copy: mutating it does not change what is tracked', () => {
    const { exp } = setup();
    exp.expectDeletions(rc, ['ns/a']);
    (exp.getUIDs(rc) as Set<string>).clear();
    exp.deletionObserved(rc, 'ns/a');
    expect(exp.satisfiedExpectations(rc)).toBe(true);
  });

  it('deleteExpectations clears the counting record and the tracked set', () => {
    const { exp, inner } = setup();
    exp.expectDeletions(rc, ['ns/a']);
    exp.deleteExpectations(rc);
    expect(inner.getExpectations(rc)).toBeUndefined();
    expect(exp.getUIDs(rc)).toBeUndefined();
    exp.deletionObserved(rc, 'ns/a');
    expect(exp.getExpectations(rc)).toBeUndefined();
    exp.deleteExpectations(rc); // absent: no-op
  });

  it('delegates the counting methods to the wrapped store', () => {
    const { exp, inner, clock } = setup();
    exp.expectCreations(rc, 2);
    exp.creationObserved(rc);
    exp.raiseExpectations(rc, 1, 1);
    exp.lowerExpectations(rc, 0, 1);
    expect(inner.getExpectations(rc)!.getExpectations()).toEqual([2, 0]);
    expect(exp.allPendingCreations()).toBe(2);
    exp.setExpectations(rc, 0, 0);
    expect(exp.satisfiedExpectations(rc)).toBe(true);
    exp.setExpectations(rc, 1, 0);
    clock.step(30_001);
    expect(exp.satisfiedExpectations(rc)).toBe(true);
  });

  it('wraps a new ControllerExpectations by default', () => {
    const exp = new UIDTrackingControllerExpectations();
    exp.expectDeletions(rc, ['ns/a']);
    expect(exp.satisfiedExpectations(rc)).toBe(false);
    exp.deletionObserved(rc, 'ns/a');
    expect(exp.satisfiedExpectations(rc)).toBe(true);
  });

  it('rejects bad arguments and options with an error naming the field', () => {
    const { exp } = setup();
    expect(() => exp.expectDeletions('', [])).toThrow(/controllerKey/);
    expect(() => exp.expectDeletions(rc, ['ns/a', 7 as unknown as string])).toThrow(
      /deletedKeys\[1\]/,
    );
    expect(() => exp.expectDeletions(rc, 'ns/a' as unknown as string[])).toThrow(/deletedKeys/);
    expect(() => exp.addExpectedDeletion(rc, '')).toThrow(/deletedKey/);
    expect(() => exp.deletionObserved(rc, null as unknown as string)).toThrow(/deleteKey/);
    expect(() => exp.getUIDs('')).toThrow(/controllerKey/);
    expect(exp.getUIDs(rc)).toBeUndefined();
    expect(() => new UIDTrackingControllerExpectations({ expectations: {} as never })).toThrow(
      /options\.expectations/,
    );
  });
});

describe('uidSetKeyFunc', () => {
  it('returns the key of a UIDSet and throws a KeyFuncError otherwise', () => {
    expect(uidSetKeyFunc({ key: 'ns/rc', uids: new Set(['a']) })).toBe('ns/rc');
    expect(() => uidSetKeyFunc({ key: 'ns/rc' })).toThrow(KeyFuncError);
    expect(() => uidSetKeyFunc(null)).toThrow(/uidSetKeyFunc/);
  });
});
