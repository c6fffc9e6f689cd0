import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupSignalHandler } from './signals.js';

class FakeProcess extends EventEmitter {
  exits: number[] = [];
  exit(code: number) {
    this.exits.push(code);
  }
}

describe('setupSignalHandler', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'aborts on the first %s and exits 1 on the second signal',
    (name) => {
      const target = new FakeProcess();
      const signal = setupSignalHandler(target);
      expect(signal.aborted).toBe(false);
      target.emit(name);
      expect(signal.aborted).toBe(true);
      expect(target.exits).toEqual([]);
      target.emit('SIGINT');
      expect(target.exits).toEqual([1]);
    },
  );

  it('returns the same signal when called again', () => {
    const target = new FakeProcess();
    expect(setupSignalHandler(target)).toBe(setupSignalHandler(target));
    expect(target.listenerCount('SIGTERM')).toBe(1);
  });
});
