//! Shows how far a download has come: a bar on a terminal, a log line every few seconds elsewhere.

import type { Logger } from '@ctrlkit/core';
import { formatDuration } from './format.js';

/** Where a bar is drawn: a terminal stream (`process.stderr`). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Reports the bytes received so far; `done()` ends the bar or logs the total. */
export interface Progress {
  update(received: number): void;
  done(): void;
}

const BAR_WIDTH = 30;
/** Without a terminal, a log line at most this often, in ms. */
const LOG_EVERY_MS = 5_000;
/** On a terminal, a redraw at most this often, in ms. */
const DRAW_EVERY_MS = 100;

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** One line: `name  42% [############                  ] 48.3/115.0 MB`. */
export function formatProgress(name: string, received: number, total: number | undefined): string {
  if (total === undefined || total <= 0) return `${name} ${mb(received)}`;
  const fraction = Math.min(1, received / total);
  const filled = Math.round(fraction * BAR_WIDTH);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `${name} ${percent} [${'#'.repeat(filled)}${' '.repeat(BAR_WIDTH - filled)}] ${mb(received)}/${mb(total)}`;
}

/**
 * A progress report for downloading `name` of `total` bytes (unknown: `undefined`): redrawn
 * in place on `stream` when it is a terminal, else `logger.info` every 5 s and at the end.
 */
export function createProgress(
  name: string,
  total: number | undefined,
  logger: Logger,
  stream: ProgressStream | undefined,
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  let last = Number.NEGATIVE_INFINITY;
  let received = 0;
  const tty = stream?.isTTY === true;
  return {
    update(bytes) {
      received = bytes;
      const at = now();
      if (at - last < (tty ? DRAW_EVERY_MS : LOG_EVERY_MS)) return;
      last = at;
      if (tty) stream?.write(`\r${formatProgress(name, received, total)}`);
      else logger.info({}, `downloading ${formatProgress(name, received, total)}`);
    },
    done() {
      const took = formatDuration(now() - started);
      if (tty) stream?.write(`\r${formatProgress(name, received, total)} in ${took}\n`);
      else logger.info({}, `downloaded ${name} (${mb(received)}) in ${took}`);
    },
  };
}
