//! The HTTP/2 session every request shares, with client-go's read-idle ping: a half-open connection is closed within 45 s.

import type { IncomingHttpHeaders } from 'node:http';
import * as http2 from 'node:http2';
import type * as https from 'node:https';
import type { Readable } from 'node:stream';
import { WatchStreamError } from '../informers/errors/watch-stream-error.js';
import { sameTls, type TlsMaterial, tlsMaterial } from './connection-pool.js';
import { StaleConnectionError } from './stale-connection-error.js';

/**
 * A session on which no frame arrived for this long is pinged (client-go's
 * `ReadIdleTimeout`, 30 s, shortened so that silence, ping and resumption stay well within 45 s): 20 s.
 */
export const HTTP2_READ_IDLE_TIMEOUT_MS = 20_000;
/** A ping unanswered for this long closes the session and fails its streams (client-go's `PingTimeout`): 15 s. */
export const HTTP2_PING_TIMEOUT_MS = 15_000;
/**
 * The flow-control window of each stream: 4 MiB (Go's HTTP/2 transport, which client-go
 * uses: `transportDefaultStreamFlow`). HTTP/2's default, 64 KiB, lets the server send a
 * streaming list's initial events only as fast as this process acknowledges them while it
 * parses: the server waits for every window update instead of encoding ahead.
 */
export const HTTP2_STREAM_WINDOW_BYTES = 4 * 1024 * 1024;
/** The flow-control window of the whole session, shared by its streams: 16 MiB. */
export const HTTP2_SESSION_WINDOW_BYTES = 16 * 1024 * 1024;

/** The head and body of one HTTP/2 answer. */
export interface Http2Answer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly stream: http2.ClientHttp2Stream & Readable;
}

/** One request on the session. */
export interface Http2Request {
  readonly method: string;
  /** The path with its query string. */
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Buffer | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Destroy the stream with `error()` when nothing arrived on it for `ms` (its head included). */
  readonly idleTimeout?: { readonly ms: number; readonly error: () => Error } | undefined;
}

/** How long a session may be silent, and how long a ping may go unanswered; for tests. */
export interface Http2Timing {
  readonly readIdleTimeoutMs: number;
  readonly pingTimeoutMs: number;
}

interface Session {
  readonly origin: string;
  readonly tls: TlsMaterial;
  readonly session: http2.ClientHttp2Session;
  /** Open streams. */
  streams: number;
  /** The connection is up (a request sent now goes out on a connection made before it). */
  connected: boolean;
}

/**
 * One HTTP/2 session per server and TLS material, shared by every request of the client (as
 * client-go's one HTTP/2 connection). A session silent for `readIdleTimeoutMs` is pinged;
 * when the ping is not answered within `pingTimeoutMs`, the session is destroyed with a
 * {@link WatchStreamError}, which fails its streams: their watches are opened again on a
 * fresh connection. A quiet but healthy session answers the ping and stays.
 */
export class Http2Sessions {
  readonly #timing: Http2Timing;
  #current: Session | undefined;

  constructor(
    timing: Http2Timing = {
      readIdleTimeoutMs: HTTP2_READ_IDLE_TIMEOUT_MS,
      pingTimeoutMs: HTTP2_PING_TIMEOUT_MS,
    },
  ) {
    this.#timing = timing;
  }

  /**
   * Sends `request` on the session for `origin` and resolves with the answer's head. A
   * request that fails before its head because the session it went out on was gone, or was
   * refused by the server, rejects with a {@link StaleConnectionError} (`unprocessed` when the
   * server cannot have acted on it), as the HTTP/1.1 pool's on a kept-alive connection the
   * server had closed.
   */
  request(
    origin: string,
    options: https.RequestOptions,
    request: Http2Request,
  ): Promise<Http2Answer> {
    const { method, path, body, signal } = request;
    signal?.throwIfAborted();
    const entry = this.#session(origin, options);
    const { session } = entry;
    const reused = entry.connected;
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.request(
        { ...request.headers, ':method': method, ':path': path },
        { endStream: body === undefined, ...(signal && { signal }) },
      );
    } catch (error) {
      // The session went away (GOAWAY, closed) between being chosen and the request.
      return Promise.reject(
        isGoaway(error) ? new StaleConnectionError(error as Error, true) : error,
      );
    }
    const { idleTimeout } = request;
    if (idleTimeout !== undefined)
      stream.setTimeout(idleTimeout.ms, () => stream.destroy(idleTimeout.error()));
    if (body !== undefined) stream.end(body);
    // Like a socket of the HTTP/1.1 pool, the session keeps the process alive while in use only.
    if (entry.streams++ === 0) session.ref();
    stream.once('close', () => {
      if (--entry.streams === 0 && !session.destroyed) session.unref();
    });
    return new Promise<Http2Answer>((resolve, reject) => {
      let answered = false;
      stream.once('response', (head) => {
        answered = true;
        const { ':status': status, ...rest } = head;
        resolve({
          statusCode: Number(status ?? 0),
          headers: rest as IncomingHttpHeaders,
          stream: stream as http2.ClientHttp2Stream & Readable,
        });
      });
      // `on`, not `once`: a later error (the session closed by the ping) must not go unhandled.
      stream.on('error', (error) => {
        if (!answered) reject(staleOrNot(error, stream, reused));
      });
      stream.once('close', () => {
        if (answered) return; // the usual end: no error to make
        const error = new WatchStreamError(
          `${method} ${path}: the HTTP/2 stream closed before an answer`,
        );
        reject(staleOrNot(error, stream, reused, session.destroyed));
      });
    });
  }

  /** Closes the session (its streams fail). */
  close(): void {
    this.#current?.session.close();
    this.#current = undefined;
  }

  #session(origin: string, options: https.RequestOptions): Session {
    const tls = tlsMaterial(options);
    const current = this.#current;
    if (
      current !== undefined &&
      current.origin === origin &&
      sameTls(current.tls, tls) &&
      !current.session.closed &&
      !current.session.destroyed
    )
      return current;
    current?.session.close();
    const session = http2.connect(origin, {
      ...tls,
      settings: { initialWindowSize: HTTP2_STREAM_WINDOW_BYTES },
    });
    const entry: Session = { origin, tls, session, streams: 0, connected: false };
    session.once('connect', () => {
      entry.connected = true;
      session.setLocalWindowSize(HTTP2_SESSION_WINDOW_BYTES);
    });
    this.#current = entry;
    const forget = () => {
      if (this.#current === entry) this.#current = undefined;
    };
    session.on('error', forget);
    session.on('close', forget);
    session.on('goaway', forget);
    session.unref();
    this.#watchLiveness(session);
    return entry;
  }

  /**
   * Pings the session after `readIdleTimeoutMs` without activity, and again after each
   * answered ping while it stays silent; destroys it when a ping is not answered in time.
   */
  #watchLiveness(session: http2.ClientHttp2Session): void {
    const { readIdleTimeoutMs, pingTimeoutMs } = this.#timing;
    let pinging = false;
    session.on('timeout', () => {
      if (pinging || session.destroyed) return;
      pinging = true;
      const timer = setTimeout(() => {
        session.destroy(
          new WatchStreamError(
            `no answer to an HTTP/2 ping within ${pingTimeoutMs} ms after ${readIdleTimeoutMs} ms without a frame (a half-open connection); closed it`,
          ),
        );
      }, pingTimeoutMs);
      timer.unref();
      const answered = (error: Error | null) => {
        pinging = false;
        clearTimeout(timer);
        if (session.destroyed) return;
        if (error) session.destroy(error);
        else session.setTimeout(readIdleTimeoutMs); // silent still: ping again after the next idle period
      };
      if (!session.ping(answered)) answered(null);
    });
    session.setTimeout(readIdleTimeoutMs);
  }
}

/**
 * `error`, or a {@link StaleConnectionError} when the stream was refused by the server
 * (`REFUSED_STREAM`, or beyond a GOAWAY's last stream: unprocessed) or its session, already
 * connected when the request went out, was reset under it (`gone`, or the error says so).
 */
function staleOrNot(
  error: Error,
  stream: http2.ClientHttp2Stream,
  reused: boolean,
  gone = false,
): Error {
  if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM || isGoaway(error))
    return new StaleConnectionError(error, true);
  if (reused && (gone || isSessionGone(error))) return new StaleConnectionError(error, false);
  return error;
}

function isGoaway(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'ERR_HTTP2_GOAWAY_SESSION' || code === 'ERR_HTTP2_INVALID_SESSION';
}

/** The session's connection was reset or closed under the stream (the stream's error, or its cause). */
function isSessionGone(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; ) {
    if (
      e.code === 'ECONNRESET' ||
      e.code === 'EPIPE' ||
      e.code === 'ERR_HTTP2_STREAM_CANCEL' ||
      e.code === 'ERR_HTTP2_SESSION_ERROR'
    )
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
