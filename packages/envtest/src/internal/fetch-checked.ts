//! Streams a published file to disk while its SHA-512 is computed, with progress; a mismatch is an error.

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Logger } from '@ctrlkit/core';
import { ChecksumMismatchError } from '../errors/checksum-mismatch-error.js';
import { createProgress, type ProgressStream } from './progress.js';

/** A file to download and the SHA-512 it is published with. */
export interface PublishedFile {
  /** Its name, for messages and errors (`envtest-v1.37.2-linux-amd64.tar.gz`, `kube-scheduler`). */
  readonly name: string;
  readonly url: string;
  /** Lower-case hex. */
  readonly sha512: string;
  /** Where the checksum was published, for the mismatch error (`the release index`). */
  readonly checksumSource: string;
}

/** How long a host may take to answer, and then to send the next bytes, in ms. */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * Streams `file.url` to `path`, hashing it, with a progress bar on `progressStream` (a
 * terminal) or log lines through `logger`. Returns a problem to fall back on (a status other
 * than 2xx, a connection that fails or stalls for 60 s), `undefined` when the file is whole,
 * and throws `ChecksumMismatchError` when its SHA-512 is not `file.sha512`. The caller
 * removes `path` on any outcome but success.
 */
export async function fetchChecked(
  file: PublishedFile,
  path: string,
  logger: Logger,
  progressStream: ProgressStream | undefined,
): Promise<string | undefined> {
  const abort = new AbortController();
  const stalled = () => abort.abort(new Error('no data for 60 s'));
  let timer = setTimeout(stalled, IDLE_TIMEOUT_MS);
  const out = await open(path, 'w');
  const hash = createHash('sha512');
  try {
    const response = await fetch(file.url, { signal: abort.signal });
    if (!response.ok || response.body === null) {
      return `downloading ${file.name} from ${file.url} failed: status ${response.status}`;
    }
    const length = Number(response.headers.get('content-length'));
    const progress = createProgress(
      file.name,
      Number.isFinite(length) && length > 0 ? length : undefined,
      logger,
      progressStream,
    );
    let received = 0;
    for await (const chunk of response.body) {
      clearTimeout(timer);
      timer = setTimeout(stalled, IDLE_TIMEOUT_MS);
      hash.update(chunk);
      await out.write(chunk);
      received += chunk.length;
      progress.update(received);
    }
    progress.done();
  } catch (error) {
    return `downloading ${file.name} from ${file.url} failed: ${describeFetchError(error)}`;
  } finally {
    clearTimeout(timer);
    await out.close();
  }
  const actual = hash.digest('hex');
  if (actual !== file.sha512) {
    throw new ChecksumMismatchError(file.name, file.url, file.sha512, actual, file.checksumSource);
  }
  return undefined;
}

/** A failed `fetch` in one line: its message and the cause's code (`fetch failed: ECONNREFUSED`). */
export function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = (error as Error).message ?? String(error);
  return cause?.code
    ? `${message}: ${cause.code}`
    : cause?.message
      ? `${message}: ${cause.message}`
      : message;
}
