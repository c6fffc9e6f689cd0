//! HTTP/2 sessions for watches, with client-go's read-idle ping: a half-open connection is closed within 45 s.

import type { IncomingHttpHeaders } from 'node:http';
import * as http2 from 'node:http2';
import type * as https from 'node:https';
import type { Readable } from 'node:stream';
import { sameTls, type TlsMaterial, tlsMaterial } from './connection-pool.js';
import { WatchStreamError } from './errors/watch-stream-error.js';

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
}

/**
 * One HTTP/2 session per server and TLS material, shared by every watch of the client (as
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

  /** Sends a GET for `path` on the session for `origin` and resolves with the answer's head. */
  request(
    origin: string,
    options: https.RequestOptions,
    path: string,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal | undefined,
  ): Promise<Http2Answer> {
    signal?.throwIfAborted();
    const entry = this.#session(origin, options);
    const { session } = entry;
    const stream = session.request(
      { ...headers, ':method': 'GET', ':path': path },
      signal ? { signal } : {},
    );
    // Like a socket of the HTTP/1.1 pool, the session keeps the process alive while in use only.
    if (entry.streams++ === 0) session.ref();
    stream.once('close', () => {
      if (--entry.streams === 0 && !session.destroyed) session.unref();
    });
    return new Promise<Http2Answer>((resolve, reject) => {
      stream.once('response', (head) => {
        const { ':status': status, ...rest } = head;
        resolve({
          statusCode: Number(status ?? 0),
          headers: rest as IncomingHttpHeaders,
          stream: stream as http2.ClientHttp2Stream & Readable,
        });
      });
      // `on`, not `once`: a later error (the session closed by the ping) must not go unhandled.
      stream.on('error', reject);
      stream.once('close', () =>
        reject(new WatchStreamError(`GET ${path}: the HTTP/2 stream closed before an answer`)),
      );
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
    session.once('connect', () => session.setLocalWindowSize(HTTP2_SESSION_WINDOW_BYTES));
    const entry: Session = { origin, tls, session, streams: 0 };
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
