import { describe, expect, it } from 'vitest';
import { loadedModules } from './loaded-modules.js';

describe('loadedModules', () => {
  it('records the modules a program imports, and only those', () => {
    const loaded = loadedModules(['--input-type=module', '-e', "await import('node:zlib');"]);
    expect(loaded).toContain('node:zlib');
    expect(loaded).not.toContain('node:http2');
  });

  it('throws with the stderr of a program that fails', () => {
    expect(() => loadedModules(['-e', "throw new Error('boom')"])).toThrow(
      /exited with 1: .*boom/s,
    );
  });
});
