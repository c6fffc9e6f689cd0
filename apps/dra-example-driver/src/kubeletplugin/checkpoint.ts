//! The checkpoint of prepared claims: one JSON file, written atomically, with a checksum.

import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CtrlkitError } from '@ctrlkit/core';
import type { PreparedDevice } from './cdi.js';

/** The checkpoint's file name in the plugin's data directory (upstream's). */
export const CHECKPOINT_FILE = 'checkpoint.json';

/** A claim as prepared: enough to answer prepare again and to undo it without the API. */
export interface PreparedClaim {
  readonly namespace: string;
  readonly name: string;
  readonly devices: readonly PreparedDevice[];
}

/** The prepared claims by UID (upstream's `CheckpointV1.PreparedClaims`). */
export type PreparedClaims = Record<string, PreparedClaim>;

/** A checkpoint file that cannot be trusted: unreadable JSON, another shape, or a bad checksum. */
export class CheckpointError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'CheckpointCorrupt' as const;
  /** The file at fault. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`checkpoint ${path}: ${problem}`);
    this.path = path;
  }
}

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`: the checksum's hash (as kubelet checkpoints). */
export function fnv32a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function body(preparedClaims: PreparedClaims): string {
  return JSON.stringify({ checksum: 0, v1: { preparedClaims } });
}

/** The file's content: `{ checksum, v1: { preparedClaims } }`, checksum over the JSON with checksum 0. */
export function checkpointJson(preparedClaims: PreparedClaims): string {
  return JSON.stringify({ checksum: fnv32a(body(preparedClaims)), v1: { preparedClaims } });
}

/**
 * Reads the checkpoint at `path`; a missing file is an empty checkpoint. Throws
 * {@link CheckpointError} when the JSON or its shape is bad or the checksum does not match
 * (a torn or edited file is refused, never half-trusted).
 */
export async function readCheckpoint(path: string): Promise<PreparedClaims> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(path, `not JSON: ${(error as Error).message}`);
  }
  const file = parsed as { checksum?: unknown; v1?: { preparedClaims?: unknown } };
  const claims = file?.v1?.preparedClaims ?? {};
  if (typeof file?.checksum !== 'number' || typeof claims !== 'object' || Array.isArray(claims))
    throw new CheckpointError(path, 'expected { checksum: number, v1: { preparedClaims: {} } }');
  const expected = fnv32a(body(claims as PreparedClaims));
  if (expected !== file.checksum)
    throw new CheckpointError(
      path,
      `checksum mismatch: file says ${file.checksum}, content is ${expected}`,
    );
  return claims as PreparedClaims;
}

/** Writes the checkpoint atomically: a temp file in the same directory, then a rename. */
export async function writeCheckpoint(path: string, preparedClaims: PreparedClaims): Promise<void> {
  const tmp = join(dirname(path), `tmp-checkpoint-${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(tmp, checkpointJson(preparedClaims), { flag: 'wx', mode: 0o600, flush: true });
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
