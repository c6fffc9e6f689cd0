import { describe, expect, it } from 'vitest';
import { determineRunStrategy } from './run-strategy.js';

describe('determineRunStrategy (upstream matrix)', () => {
  it.each([
    // [vm target, plan target, source power, expected]
    [undefined, 'on', 'Off', 'Always'],
    [undefined, 'off', 'On', 'Halted'],
    ['on', 'off', 'Off', 'Always'],
    ['off', 'on', 'On', 'Halted'],
    [undefined, undefined, 'On', 'Always'],
    [undefined, undefined, 'Off', 'Halted'],
    [undefined, 'auto', 'On', 'Always'],
    ['auto', 'on', 'Off', 'Halted'], // the VM's auto wins over the plan's on
    [undefined, undefined, 'Unknown', 'Halted'],
    [undefined, undefined, undefined, 'Halted'],
  ] as const)('vm %s, plan %s, source %s -> %s', (vmTarget, planTarget, source, expected) => {
    const vm = {
      ...(vmTarget && { targetPowerState: vmTarget }),
      ...(source && { restorePowerState: source }),
    };
    expect(determineRunStrategy(vm, planTarget)).toBe(expected);
  });
});
