import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError } from '@ctrlkit/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAuditLog, resolveAuditPolicy } from './audit.js';

const event = (auditID: string) => ({
  auditID,
  stage: 'ResponseComplete',
  requestURI: '/api/v1/nodes',
  verb: 'list',
  user: { username: 'alice' },
  requestReceivedTimestamp: '2026-11-25T00:00:00.000000Z',
  stageTimestamp: '2026-11-25T00:00:00.000000Z',
});

describe('readAuditLog', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-test-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads complete lines, leaves a line being written for the next read from nextOffset', async () => {
    const path = join(dir, 'audit.log');
    const whole = `${JSON.stringify(event('a'))}\n`;
    const second = JSON.stringify(event('b'));
    await writeFile(path, `${whole}${second.slice(0, 10)}`);
    const first = await readAuditLog(path);
    expect(first.events.map((e) => e.auditID)).toEqual(['a']);
    expect(first.nextOffset).toBe(Buffer.byteLength(whole));
    await appendFile(path, `${second.slice(10)}\n`);
    const next = await readAuditLog(path, first.nextOffset);
    expect(next.events.map((e) => e.auditID)).toEqual(['b']);
    expect((await readAuditLog(path, next.nextOffset)).events).toEqual([]);
  });

  it('reads a log that does not exist yet as empty', async () => {
    expect(await readAuditLog(join(dir, 'none.log'), 7)).toEqual({ events: [], nextOffset: 7 });
  });

  it('rejects a negative offset naming it', async () => {
    await expect(readAuditLog(join(dir, 'x'), -1)).rejects.toSatisfy(
      (e) => InvalidArgumentError.isInstance(e) && e.field === 'fromOffset',
    );
  });
});

describe('resolveAuditPolicy', () => {
  it('sets apiVersion and kind', () => {
    expect(resolveAuditPolicy({ rules: [{ level: 'Metadata' }] })).toEqual({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      rules: [{ level: 'Metadata' }],
    });
    expect(resolveAuditPolicy(undefined)).toBeUndefined();
  });

  it('rejects a policy without rules, or a rule without a level, naming the field', () => {
    expect(() => resolveAuditPolicy({})).toThrow(InvalidArgumentError);
    let thrown: unknown;
    try {
      resolveAuditPolicy({ rules: [{ level: 'Metadata' }, { level: 'All' }] });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ field: 'auditPolicy.rules[1].level' });
  });
});
