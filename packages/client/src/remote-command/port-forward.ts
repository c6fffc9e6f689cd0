//! One connection to a port of a pod over WebSocket (`pods/portforward`, the kubelet's `v4.channel.k8s.io` port-forward protocol).

import { Duplex } from 'node:stream';
import { InvalidArgumentError } from '@ctrlkit/core';
import type WebSocket from 'ws';
import { type ClientSource, toClient } from '../client-source.js';
import { StreamClosedError } from '../errors/stream-closed-error.js';
import { onMessages, openWebSocket, webSocketTarget } from '../internal/open-web-socket.js';
import { objectPath } from '../paths.js';
import { toGroupVersionResource } from '../resource.js';
import { decodeFrame, encodeFrame, STREAM_PROTOCOL_V4 } from './channel-protocol.js';

/** Options of {@link portForward}. */
export interface PortForwardOptions {
  /** Closes the connection (the stream is destroyed with the signal's reason). */
  readonly signal?: AbortSignal;
}

/**
 * Opens one TCP connection to `port` of the pod `namespace/name` through the apiserver
 * (`kubectl port-forward` for one connection): a WebSocket to `…/pods/<name>/portforward`
 * with `v4.channel.k8s.io`, whose stream 0 carries the data and stream 1 the node's errors,
 * each opened with the port number (2 bytes, little endian). Resolves to a Duplex once the
 * node connected; the Duplex is destroyed with a {@link StreamClosedError} carrying the
 * node's message when it reports an error, and ends when the WebSocket closes (one side
 * ending ends the connection: the protocol has no half-close). Errors before it opens as
 * `exec`'s: `ApiStatusError` for a missing pod.
 */
export async function portForward(
  client: ClientSource,
  namespace: string,
  name: string,
  port: number,
  options: PortForwardOptions = {},
): Promise<Duplex> {
  if (typeof namespace !== 'string' || namespace === '')
    throw new InvalidArgumentError('namespace', 'must be a non-empty string');
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new InvalidArgumentError('port', `must be an integer 1..65535, got ${port}`);
  const path = `${objectPath(toGroupVersionResource('pods'), namespace, name, 'portforward')}?ports=${port}`;
  const target = webSocketTarget(toClient(client));
  const socket = await openWebSocket(target, path, [STREAM_PROTOCOL_V4], options.signal);
  return connectionOf(socket, port, `PORTFORWARD ${path}`, options.signal);
}

/** The Duplex over an open port-forward WebSocket to `port` (exported for its tests; not re-exported). */
export function connectionOf(
  socket: WebSocket,
  port: number,
  request: string,
  signal: AbortSignal | undefined,
): Duplex {
  const opened = new Set<number>();
  let errorText = '';
  const duplex = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (socket.readyState !== socket.OPEN) return callback(closedError(request));
      socket.send(encodeFrame(0, chunk), callback);
    },
    final(callback) {
      socket.close(1000);
      callback();
    },
    destroy(error, callback) {
      signal?.removeEventListener('abort', onAbort);
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(1000);
      callback(error);
    },
  });
  const onAbort = (): void => {
    duplex.destroy(signal?.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  onMessages(socket, (message) => {
    const { channel, data } = decodeFrame(message);
    // The first message of each stream is its port number.
    if (!opened.has(channel)) {
      opened.add(channel);
      if (data.length >= 2 && data.readUInt16LE(0) !== port)
        duplex.destroy(
          new StreamClosedError(
            `${request}: the node opened port ${data.readUInt16LE(0)}, not ${port}`,
          ),
        );
      return;
    }
    if (channel === 0 && !duplex.push(data)) socket.pause();
    else if (channel === 1) errorText += data.toString('utf8');
  });
  socket.once('close', (code: number, reason: Buffer) => {
    if (errorText !== '')
      duplex.destroy(
        new StreamClosedError(`${request}: ${errorText}`, { code, closeReason: reason.toString() }),
      );
    else duplex.push(null);
  });
  socket.on('error', (error) =>
    duplex.destroy(new StreamClosedError(`${request}: ${error.message}`, { cause: error })),
  );
  return duplex;
}

function closedError(request: string): StreamClosedError {
  return new StreamClosedError(`${request}: the connection is closed`);
}
