import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './node-version.js';

describe('nodeVersionProblem', () => {
  it('says which Node a program needs when the running one is older', () => {
    expect(nodeVersionProblem('ctrlkit-x', '>=22.19.0', '20.20.2')).toBe(
      'ctrlkit-x needs Node >= 22.19.0 (this is Node 20.20.2)',
    );
    expect(nodeVersionProblem('ctrlkit-x', '>=22.19.0', 'v22.18.9')).toBe(
      'ctrlkit-x needs Node >= 22.19.0 (this is Node 22.18.9)',
    );
    expect(nodeVersionProblem('ctrlkit-x', '>=22.19.0', '22.19.0-rc.1')).toBeUndefined();
  });

  it('accepts the minimum and anything newer', () => {
    for (const version of ['22.19.0', '22.19.1', '22.20.0', '23.0.0', '24.21.0', 'v100.0.0']) {
      expect(nodeVersionProblem('ctrlkit-x', '>=22.19.0', version)).toBeUndefined();
    }
  });

  it('rejects an engines range it cannot read, naming it', () => {
    expect(() => nodeVersionProblem('ctrlkit-x', '^22', '24.0.0')).toThrow(
      'invalid engines.node of ctrlkit-x: "^22" is not ">=X.Y.Z"',
    );
  });

  it('reads the running Node by default', () => {
    const [major] = process.versions.node.split('.');
    expect(nodeVersionProblem('ctrlkit-x', `>=${Number(major) + 1}.0.0`)).toBe(
      `ctrlkit-x needs Node >= ${Number(major) + 1}.0.0 (this is Node ${process.versions.node})`,
    );
  });
});
