//! A container's log (`pods/log`), whole or followed, as text chunks or lines; abortable.

import type { Readable } from 'node:stream';
import { InvalidArgumentError } from '@ctrlkit/core';
import { type ClientSource, toClient } from './client-source.js';
import { StreamClosedError } from './errors/stream-closed-error.js';
import { objectPath, type Query, withQuery } from './paths.js';
import { toGroupVersionResource } from './resource.js';

/** Options of {@link streamPodLogs}: the query of `pods/log` (client-go's `PodLogOptions`). */
export interface PodLogOptions {
  /** The container; default: the pod's only one (the apiserver answers 400 for a pod of several). */
  readonly container?: string;
  /** Keep the stream open and send new output as it is written, until the container's run ends. Default false. */
  readonly follow?: boolean;
  /** The previous (terminated) run's output; 400 when there is none. Default false. */
  readonly previous?: boolean;
  /** Only output of the last this many seconds (an integer, at least 1); not with `sinceTime`. */
  readonly sinceSeconds?: number;
  /** Only output since this time (RFC 3339 or a Date); not with `sinceSeconds`. */
  readonly sinceTime?: string | Date;
  /** Prefix each line with its RFC 3339 time. Default false. */
  readonly timestamps?: boolean;
  /** Only the last this many lines (an integer, at least 0). Default: all. */
  readonly tailLines?: number;
  /** Stop after this many bytes (an integer, at least 1); the last line may be cut. Default: no limit. */
  readonly limitBytes?: number;
  /** Closes the stream: iteration rejects with its reason. */
  readonly signal?: AbortSignal;
}

/**
 * An open log stream: iterate it for text chunks as they arrive (UTF-8 decoded, a
 * character never split), or {@link PodLogStream.lines} for whole lines. Iteration ends
 * when the server ends the stream (the container's run ended, or not `follow`), rejects
 * with the signal's reason on abort, or with a {@link StreamClosedError} when the
 * connection broke mid-way.
 */
export class PodLogStream implements AsyncIterable<string> {
  readonly #body: Readable;
  readonly #request: string;
  readonly #signal: AbortSignal | undefined;

  /** @internal Made by {@link streamPodLogs}. */
  constructor(body: Readable, request: string, signal?: AbortSignal) {
    this.#body = body;
    this.#request = request;
    this.#signal = signal;
    body.setEncoding('utf8');
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    try {
      for await (const chunk of this.#body) yield chunk as string;
    } catch (error) {
      this.#signal?.throwIfAborted();
      throw new StreamClosedError(`${this.#request}: ${(error as Error)?.message}`, {
        cause: error,
      });
    }
  }

  /** The stream's lines, without their line ends (a last line without one too). */
  async *lines(): AsyncIterable<string> {
    let rest = '';
    for await (const chunk of this) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop() ?? '';
      yield* parts;
    }
    if (rest !== '') yield rest;
  }

  /** The whole rest of the stream as one string (for a log that is not followed). */
  async text(): Promise<string> {
    let text = '';
    for await (const chunk of this) text += chunk;
    return text;
  }

  /** Closes the stream (the connection is not reused); iteration ends. */
  close(): void {
    this.#body.destroy();
  }
}

/**
 * Opens the log of a container of the pod `namespace/name` (`GET …/pods/<name>/log`, as
 * `kubectl logs`). Throws `InvalidArgumentError` naming a bad option, and the apiserver's
 * Status as an `ApiStatusError` (404 for a missing pod, 400 for a missing container or no
 * previous run) before any output.
 */
export async function streamPodLogs(
  client: ClientSource,
  namespace: string,
  name: string,
  options: PodLogOptions = {},
): Promise<PodLogStream> {
  if (typeof namespace !== 'string' || namespace === '')
    throw new InvalidArgumentError('namespace', 'must be a non-empty string');
  const path = withQuery(
    objectPath(toGroupVersionResource('pods'), namespace, name, 'log'),
    logQuery(options),
  );
  const body = await toClient(client).stream(path, { signal: options.signal });
  return new PodLogStream(body, `GET ${path}`, options.signal);
}

/** The query of `pods/log` for `options`, validated. */
function logQuery(options: PodLogOptions): Query {
  const count = (field: 'sinceSeconds' | 'tailLines' | 'limitBytes', min: number) => {
    const value = options[field];
    if (value !== undefined && (!Number.isSafeInteger(value) || value < min))
      throw new InvalidArgumentError(field, `must be an integer >= ${min}, got ${value}`);
    return value;
  };
  if (options.sinceSeconds !== undefined && options.sinceTime !== undefined)
    throw new InvalidArgumentError('sinceSeconds', 'cannot be given with sinceTime');
  let sinceTime: string | undefined;
  if (options.sinceTime !== undefined) {
    const time = new Date(options.sinceTime);
    if (Number.isNaN(time.getTime()))
      throw new InvalidArgumentError('sinceTime', `is not a time: ${String(options.sinceTime)}`);
    sinceTime = `${time.toISOString().slice(0, 19)}Z`;
  }
  return {
    container: options.container,
    follow: options.follow === true ? 'true' : undefined,
    previous: options.previous === true ? 'true' : undefined,
    sinceSeconds: count('sinceSeconds', 1),
    sinceTime,
    timestamps: options.timestamps === true ? 'true' : undefined,
    tailLines: count('tailLines', 0),
    limitBytes: count('limitBytes', 1),
  };
}
