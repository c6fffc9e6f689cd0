//! HTTP/2 sessions for watches: another when each is at the peer's stream limit, and client-go's read-idle ping (a half-open connection is closed within 45 s).

import type { IncomingHttpHeaders } from 'node:http';
import * as http2 from 'node:http2';
import type * as https from 'node:https';
import type { Readable } from 'node:stream';
import {
  IDLE_CONNECTION_TIMEOUT_MS,
  sameTls,
  type TlsMaterial,
  tlsMaterial,
} from './connection-pool.js';
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

/** How long a session may be silent, how long a ping may go unanswered, how long an extra session may idle; for tests. */
export interface Http2Timing {
  readonly readIdleTimeoutMs: number;
  readonly pingTimeoutMs: number;
  /** How long a session without streams stays open while it is not the only one: {@link IDLE_CONNECTION_TIMEOUT_MS} by default. */
  readonly idleTimeoutMs?: number;
}

interface Session {
  readonly origin: string;
  readonly tls: TlsMaterial;
  readonly session: http2.ClientHttp2Session;
  /** Resolves once the peer's SETTINGS arrived (its stream limit is known); rejects when the session failed first. */
  readonly settled: Promise<void>;
  /** True once the peer's SETTINGS arrived. */
  known: boolean;
  /** Streams in flight (a watch holds one for as long as it runs). */
  streams: number;
  /** Requests waiting for this session's SETTINGS. */
  waiters: number;
  /** The peer's `SETTINGS_MAX_CONCURRENT_STREAMS` once {@link Session.known}. */
  maxStreams: number;
  /** Closes the session once it has been idle for `idleTimeoutMs`, while it is not the only one. */
  idleTimer: NodeJS.Timeout | undefined;
}

/**
 * The stream limit of a peer whose SETTINGS do not name one: 1,000, as Go's HTTP/2
 * transport (`defaultMaxConcurrentStreams`). A new session's first streams wait for the
 * peer's SETTINGS, so they are never placed beyond a limit not yet known.
 */
export const HTTP2_DEFAULT_MAX_CONCURRENT_STREAMS = 1000;

/** The largest value of an HTTP/2 setting: what Node reports for one the peer did not send. */
const UNSET_SETTING = 2 ** 32 - 1;

/**
 * HTTP/2 sessions per server and TLS material, shared by every watch of the client. A
 * stream goes on the least-loaded session with room under the peer's
 * `SETTINGS_MAX_CONCURRENT_STREAMS` (kube-apiserver's `--http2-max-streams-per-connection`);
 * when every session is full, another is opened, as Go's HTTP/2 transport does (client-go,
 * `StrictMaxConcurrentStreams` false). A session keeps the process alive while a stream is
 * in flight on it or a request waits for its SETTINGS, and only then; one other than the
 * last one left that has had no stream for `idleTimeoutMs` is closed. A session that got a
 * GOAWAY or failed takes no new stream: the next goes on another. A session silent for `readIdleTimeoutMs` is
 * pinged; when the ping is not answered within `pingTimeoutMs`, the session is destroyed
 * with a {@link WatchStreamError}, which fails its streams: their watches are opened again
 * on another connection. A quiet but healthy session answers the ping and stays.
 */
export class Http2Sessions {
  readonly #timing: Http2Timing;
  readonly #sessions: Session[] = [];

  constructor(
    timing: Http2Timing = {
      readIdleTimeoutMs: HTTP2_READ_IDLE_TIMEOUT_MS,
      pingTimeoutMs: HTTP2_PING_TIMEOUT_MS,
      idleTimeoutMs: IDLE_CONNECTION_TIMEOUT_MS,
    },
  ) {
    this.#timing = timing;
  }

  /** The number of open sessions; for tests and diagnostics. */
  get size(): number {
    return this.#sessions.length;
  }

  /** Sends a GET for `path` on a session for `origin` with room for it and resolves with the answer's head. */
  async request(
    origin: string,
    options: https.RequestOptions,
    path: string,
    headers: Readonly<Record<string, string>>,
    signal: AbortSignal | undefined,
  ): Promise<Http2Answer> {
    signal?.throwIfAborted();
    const entry = await this.#placed(origin, tlsMaterial(options), signal);
    const { session } = entry;
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.request(
        { ...headers, ':method': 'GET', ':path': path },
        signal ? { signal } : {},
      );
    } catch (error) {
      this.#release(entry);
      throw error;
    }
    stream.once('close', () => this.#release(entry));
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

  /** Closes the sessions (their streams fail). */
  close(): void {
    for (const entry of this.#sessions.splice(0)) {
      clearTimeout(entry.idleTimer);
      entry.session.close();
    }
  }

  /**
   * The least-loaded session for `origin` and `tls` with room for one more stream (counted
   * in it on return). When none has room, waits for the session being opened (or opens
   * one) and looks again once its peer's SETTINGS are known: one session is dialled at a
   * time, as Go's HTTP/2 transport does. Sessions for another server or TLS material (a
   * rotated certificate) are closed: their streams finish on them.
   */
  async #placed(
    origin: string,
    tls: TlsMaterial,
    signal: AbortSignal | undefined,
  ): Promise<Session> {
    for (;;) {
      for (const entry of [...this.#sessions])
        if (entry.origin !== origin || !sameTls(entry.tls, tls)) this.#drop(entry);
      const best = this.#leastLoaded();
      if (best !== undefined) {
        // Counted now, not after the caller resumes: the requests placed after this one see it.
        best.streams++;
        this.#used(best);
        return best;
      }
      const pending = this.#sessions.find((entry) => !entry.known) ?? this.#open(origin, tls);
      pending.waiters++;
      this.#used(pending);
      try {
        await abortable(pending.settled, signal);
      } finally {
        pending.waiters--;
        this.#unused(pending);
      }
    }
  }

  /** The open session whose peer's SETTINGS are known with the fewest streams, if one has room. */
  #leastLoaded(): Session | undefined {
    let best: Session | undefined;
    for (const entry of this.#sessions)
      if (
        entry.known &&
        !entry.session.closed &&
        !entry.session.destroyed &&
        entry.streams < entry.maxStreams &&
        (best === undefined || entry.streams < best.streams)
      )
        best = entry;
    return best;
  }

  /** Opens a session and adds it to the pool; `settled` tells when it can take streams. */
  #open(origin: string, tls: TlsMaterial): Session {
    const session = http2.connect(origin, {
      ...tls,
      settings: { initialWindowSize: HTTP2_STREAM_WINDOW_BYTES },
    });
    session.once('connect', () => session.setLocalWindowSize(HTTP2_SESSION_WINDOW_BYTES));
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const settled = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    settled.catch(() => {}); // a failure before SETTINGS is the waiting requests' to report
    const entry: Session = {
      origin,
      tls,
      session,
      settled,
      known: false,
      streams: 0,
      waiters: 0,
      maxStreams: HTTP2_DEFAULT_MAX_CONCURRENT_STREAMS,
      idleTimer: undefined,
    };
    this.#sessions.push(entry);
    session.on('remoteSettings', (settings) => {
      const max = settings.maxConcurrentStreams;
      entry.maxStreams =
        max === undefined || max >= UNSET_SETTING ? HTTP2_DEFAULT_MAX_CONCURRENT_STREAMS : max;
      entry.known = true;
      settle?.resolve();
    });
    session.on('error', (error) => {
      this.#forget(entry);
      settle?.reject(error);
    });
    session.on('close', () => {
      this.#forget(entry);
      settle?.reject(
        new WatchStreamError(`the HTTP/2 session to ${origin} closed before its SETTINGS`),
      );
    });
    // No new streams after a GOAWAY: the ones in flight finish (Node then closes the session).
    session.on('goaway', () => this.#forget(entry));
    this.#watchLiveness(session);
    return entry;
  }

  /** One stream of `entry` ended. */
  #release(entry: Session): void {
    entry.streams--;
    this.#unused(entry);
  }

  /**
   * `entry` took a stream or a waiting request. A session in use (a stream in flight, or a
   * request waiting for its SETTINGS) keeps the process alive, as a busy socket of the
   * HTTP/1.1 pool does; a new session is in use from the start, by the request that opened it.
   */
  #used(entry: Session): void {
    if (entry.streams + entry.waiters !== 1) return;
    entry.session.ref();
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
  }

  /**
   * `entry` lost a stream or a waiting request. Once it has neither it no longer keeps the
   * process alive, and, still in the pool, is closed after `idleTimeoutMs` unless it is
   * then the only one left.
   */
  #unused(entry: Session): void {
    if (entry.streams + entry.waiters !== 0 || entry.session.destroyed) return;
    entry.session.unref();
    if (!this.#sessions.includes(entry)) return; // out of the pool: already closing
    clearTimeout(entry.idleTimer);
    entry.idleTimer = setTimeout(() => {
      entry.idleTimer = undefined;
      if (entry.streams + entry.waiters === 0 && this.#sessions.length > 1) this.#drop(entry);
    }, this.#timing.idleTimeoutMs ?? IDLE_CONNECTION_TIMEOUT_MS);
    entry.idleTimer.unref();
  }

  /** Takes `entry` out of the pool and closes it gracefully (its streams finish). */
  #drop(entry: Session): void {
    this.#forget(entry);
    entry.session.close();
  }

  /** Takes `entry` out of the pool: no new streams go on it. */
  #forget(entry: Session): void {
    clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const at = this.#sessions.indexOf(entry);
    if (at !== -1) this.#sessions.splice(at, 1);
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

/** `promise`, or a rejection with the signal's reason once `signal` aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}
