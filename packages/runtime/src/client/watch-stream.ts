//! Decodes a watch response: newline-delimited JSON events, handed over in order.

import type { Readable } from 'node:stream';
import { WatchStreamError } from '../informers/errors/watch-stream-error.js';
import type { AnswerHead } from './transport.js';

/** One decoded watch event, as the apiserver sends it. */
export interface RawWatchEvent {
  readonly type: string;
  readonly object: unknown;
}

/**
 * Calls `onEvent` for each line of `stream` (the decoded body of `response`), in order.
 * Resolves when the server ends the stream; rejects on a broken connection, a malformed
 * line (`WatchStreamError`) or an exception from `onEvent` (the connection is closed then);
 * `idleError()` names the idle timeout when that is what closed it.
 */
export function readWatchStream(
  url: string,
  response: AnswerHead,
  stream: Readable,
  onEvent: (event: RawWatchEvent) => void,
  idleError: () => Error | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let pending = '';
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      response.destroy();
      // The idle timeout destroys the connection: say so, not "aborted" or "closed".
      reject(idleError() ?? error);
    };
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      if (settled) return;
      let start = 0;
      let newline = chunk.indexOf('\n');
      if (newline === -1) {
        pending += chunk;
        return;
      }
      try {
        while (newline !== -1) {
          const line =
            pending === '' ? chunk.slice(start, newline) : pending + chunk.slice(start, newline);
          pending = '';
          if (line.length > 0) onEvent(parseEvent(line));
          if (settled) return;
          start = newline + 1;
          newline = chunk.indexOf('\n', start);
        }
        pending = chunk.slice(start);
      } catch (error) {
        fail(error);
      }
    });
    stream.on('end', () => {
      if (settled) return;
      try {
        if (pending.trim().length > 0) onEvent(parseEvent(pending));
      } catch (error) {
        fail(error);
        return;
      }
      settled = true;
      resolve();
    });
    stream.on('error', fail);
    response.on('aborted', () => fail(new WatchStreamError(`WATCH ${url}: connection aborted`)));
    stream.on('close', () => {
      if (!settled)
        fail(new WatchStreamError(`WATCH ${url}: connection closed before the end of the stream`));
    });
  });
}

function parseEvent(line: string): RawWatchEvent {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch (error) {
    throw new WatchStreamError(`a watch line is not JSON: ${line.slice(0, 120)}`, { cause: error });
  }
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof (event as RawWatchEvent).type !== 'string'
  ) {
    throw new WatchStreamError(`a watch line is not an event: ${line.slice(0, 120)}`);
  }
  return event as RawWatchEvent;
}
