import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { olderNode, runOnOlderNode } from './older-node.js';

describe('olderNode', () => {
  it('returns undefined when the Node at the path satisfies engines', () => {
    expect(olderNode('>=0.0.1', process.execPath)).toBeUndefined();
  });

  it('returns the path and version when the Node there is older than engines', () => {
    expect(olderNode('>=999.0.0', process.execPath)).toEqual({
      path: process.execPath,
      version: process.versions.node,
    });
  });

  it('returns undefined when no file is at the path', () => {
    expect(olderNode('>=999.0.0', join(tmpdir(), 'no-such-node'))).toBeUndefined();
  });

  it('rejects engines not of the form >=X.Y.Z, naming it', () => {
    expect(() => olderNode('^22', process.execPath)).toThrow('"^22"');
  });
});

describe('runOnOlderNode', () => {
  it('returns what the script wrote and its exit code', () => {
    const bin = join(tmpdir(), `older-node-${process.pid}.mjs`);
    writeFileSync(
      bin,
      'console.log(process.argv.slice(2).join(" ")); console.error("e"); process.exit(3);\n',
    );
    const node = { path: process.execPath, version: process.versions.node };
    expect(runOnOlderNode(node, bin)).toEqual({ stdout: '--help\n', stderr: 'e\n', status: 3 });
    expect(runOnOlderNode(node, bin, ['a', 'b']).stdout).toBe('a b\n');
  });
});
