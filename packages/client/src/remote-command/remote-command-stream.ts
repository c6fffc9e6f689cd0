//! Drives one exec or attach WebSocket: stdin in, stdout and stderr out, resizes, and the exit status at the end.

import type { Writable } from 'node:stream';
import type WebSocket from 'ws';
import { StreamClosedError } from '../errors/stream-closed-error.js';
import { onMessages } from '../internal/open-web-socket.js';
import {
  decodeFrame,
  encodeCloseFrame,
  encodeFrame,
  encodeResizeFrame,
  STREAM_PROTOCOL_V5,
  StreamChannel,
  type TerminalSize,
} from './channel-protocol.js';
import { type ExecResult, parseExecStatus } from './exec-status.js';

/** What is streamed over an open exec or attach WebSocket. */
export interface RemoteCommandStreams {
  /** Sent on stream 0; its end is sent as v5's CLOSE (under v4 the server never sees it). */
  readonly stdin: AsyncIterable<Uint8Array | string> | undefined;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Each size sent on stream 4 (TTY), as client-go's `TerminalSizeQueue`. */
  readonly terminalSizes: AsyncIterable<TerminalSize> | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * Streams until the server closes the socket, and resolves to the exit status it wrote
 * on stream 3 (`ApiStatusError` when the Status is a failure other than a non-zero exit).
 * Rejects with a {@link StreamClosedError} when the socket closed without a status (the
 * server or the connection went mid-way), or with `signal`'s reason once it aborts (the
 * socket is closed, and the server ends the command). `request` names it in errors.
 */
export function streamRemoteCommand(
  socket: WebSocket,
  streams: RemoteCommandStreams,
  request: string,
): Promise<ExecResult> {
  const status: Buffer[] = [];
  return new Promise<ExecResult>((resolve, reject) => {
    let failure: unknown;
    const onAbort = (): void => {
      failure ??= streams.signal?.reason;
      socket.close(1000);
      // A server that does not answer the close frame is not waited for.
      setTimeout(() => socket.terminate(), 1000).unref();
    };
    if (streams.signal?.aborted) onAbort();
    streams.signal?.addEventListener('abort', onAbort, { once: true });
    onMessages(socket, (message) => {
      try {
        const { channel, data } = decodeFrame(message);
        if (channel === StreamChannel.stdout) streams.stdout.write(data);
        else if (channel === StreamChannel.stderr) streams.stderr.write(data);
        else if (channel === StreamChannel.error) status.push(Buffer.from(data));
      } catch (error) {
        failure ??= error;
        socket.terminate();
      }
    });
    socket.on('error', (error) => {
      failure ??= new StreamClosedError(`${request}: ${error.message}`, { cause: error });
    });
    socket.once('close', (code: number, reason: Buffer) => {
      streams.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) return reject(failure);
      if (status.length === 0) {
        const text = reason.toString('utf8');
        return reject(
          new StreamClosedError(
            `${request}: the server closed the stream (code ${code}${text ? `: ${text}` : ''}) before the command's exit status`,
            { code, closeReason: text },
          ),
        );
      }
      try {
        resolve(parseExecStatus(Buffer.concat(status), request));
      } catch (error) {
        reject(error);
      }
    });
    pump(socket, streams).catch((error: unknown) => {
      failure ??= error;
      socket.terminate();
    });
  });
}

/** Sends stdin (then its CLOSE under v5) and the terminal sizes until they end or the socket closes. */
async function pump(socket: WebSocket, streams: RemoteCommandStreams): Promise<void> {
  const send = (frame: Buffer): void => {
    if (socket.readyState === socket.OPEN) socket.send(frame);
  };
  const sizes = (async () => {
    if (streams.terminalSizes === undefined) return;
    for await (const size of streams.terminalSizes) {
      if (socket.readyState !== socket.OPEN) return;
      send(encodeResizeFrame(size));
    }
  })();
  if (streams.stdin !== undefined) {
    for await (const chunk of streams.stdin) {
      if (socket.readyState !== socket.OPEN) break;
      send(encodeFrame(StreamChannel.stdin, chunk));
    }
    if (socket.protocol === STREAM_PROTOCOL_V5) send(encodeCloseFrame(StreamChannel.stdin));
  }
  await sizes;
}
