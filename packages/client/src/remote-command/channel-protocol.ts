//! The channel framing of `v5.channel.k8s.io` and `v4.channel.k8s.io`: one stream number byte, then the data.

import { InvalidArgumentError } from '@ctrlkit/core';

/** The exec/attach WebSocket subprotocol with the CLOSE signal (Kubernetes 1.30+), asked first. */
export const STREAM_PROTOCOL_V5 = 'v5.channel.k8s.io';
/** The exec/attach WebSocket subprotocol before v5: no way to half-close stdin. */
export const STREAM_PROTOCOL_V4 = 'v4.channel.k8s.io';
/** The subprotocols a client offers, most preferred first, as kubectl since 1.31. */
export const STREAM_PROTOCOLS: readonly string[] = [STREAM_PROTOCOL_V5, STREAM_PROTOCOL_V4];

/** The stream numbers of remotecommand (client-go's `remotecommand` constants). */
export const StreamChannel = {
  stdin: 0,
  stdout: 1,
  stderr: 2,
  /** The exit status: one v4 `Status` JSON, written by the server before it closes. */
  error: 3,
  /** Terminal size changes (TTY only): `{"Width":…,"Height":…}`. */
  resize: 4,
  /** v5 only: the next byte names a stream the sender will not write again. */
  close: 255,
} as const;

/** A terminal's size in character cells (client-go's `TerminalSize`). */
export interface TerminalSize {
  readonly width: number;
  readonly height: number;
}

/** One message of the protocol: a stream number, and the data written on it. */
export interface ChannelFrame {
  readonly channel: number;
  readonly data: Buffer;
}

/** The message carrying `data` on `channel` (0–255). */
export function encodeFrame(channel: number, data: Uint8Array | string): Buffer {
  if (!Number.isInteger(channel) || channel < 0 || channel > 255)
    throw new InvalidArgumentError('channel', `must be an integer 0..255, got ${channel}`);
  const payload = typeof data === 'string' ? Buffer.from(data) : data;
  const frame = Buffer.allocUnsafe(payload.length + 1);
  frame[0] = channel;
  frame.set(payload, 1);
  return frame;
}

/** The v5 message saying that `channel` will not be written again (stdin's end of file). */
export function encodeCloseFrame(channel: number): Buffer {
  return encodeFrame(StreamChannel.close, Uint8Array.of(channel));
}

/** The message that tells the server a terminal's new size (JSON with Go's field names). */
export function encodeResizeFrame(size: TerminalSize): Buffer {
  for (const field of ['width', 'height'] as const) {
    const value = size?.[field];
    if (!Number.isInteger(value) || value < 0 || value > 65535)
      throw new InvalidArgumentError(field, `must be an integer 0..65535, got ${value}`);
  }
  return encodeFrame(
    StreamChannel.resize,
    JSON.stringify({ Width: size.width, Height: size.height }),
  );
}

/** A message split into its stream number and data; throws for an empty message, which no stream can carry. */
export function decodeFrame(message: Buffer): ChannelFrame {
  if (message.length === 0)
    throw new InvalidArgumentError(
      'message',
      'is empty: a channel message starts with its stream number',
    );
  return { channel: message[0] as number, data: message.subarray(1) };
}

/** The stream a v5 CLOSE message's data names, or undefined when it names none. */
export function closedChannel(data: Buffer): number | undefined {
  return data.length > 0 ? data[0] : undefined;
}
