import { InvalidArgumentError } from '@ctrlkit/core';
import { describe, expect, it } from 'vitest';
import {
  closedChannel,
  decodeFrame,
  encodeCloseFrame,
  encodeFrame,
  encodeResizeFrame,
  StreamChannel,
} from './channel-protocol.js';

describe('channel framing', () => {
  it('prefixes the data with its stream number', () => {
    expect([...encodeFrame(StreamChannel.stdin, 'hi')]).toEqual([0, 0x68, 0x69]);
    expect([...encodeFrame(StreamChannel.stderr, Uint8Array.of(7, 8))]).toEqual([2, 7, 8]);
  });

  it('round-trips a frame, empty data included', () => {
    const { channel, data } = decodeFrame(encodeFrame(StreamChannel.stdout, 'out\n'));
    expect(channel).toBe(1);
    expect(data.toString()).toBe('out\n');
    expect(decodeFrame(Buffer.of(3)).data.length).toBe(0);
  });

  it('sends the v5 CLOSE of stdin as 255 followed by 0', () => {
    const frame = encodeCloseFrame(StreamChannel.stdin);
    expect([...frame]).toEqual([255, 0]);
    const { channel, data } = decodeFrame(frame);
    expect(channel).toBe(StreamChannel.close);
    expect(closedChannel(data)).toBe(StreamChannel.stdin);
    expect(closedChannel(Buffer.alloc(0))).toBeUndefined();
  });

  it('writes a resize as JSON with Go field names on stream 4', () => {
    const frame = encodeResizeFrame({ width: 120, height: 40 });
    expect(frame[0]).toBe(4);
    expect(JSON.parse(frame.subarray(1).toString())).toEqual({ Width: 120, Height: 40 });
  });

  it('rejects a bad stream number, an empty message and a bad size, naming the field', () => {
    expect(() => encodeFrame(256, 'x')).toThrow(/channel/);
    expect(() => encodeFrame(-1, 'x')).toThrow(InvalidArgumentError);
    expect(() => decodeFrame(Buffer.alloc(0))).toThrow(/message/);
    expect(() => encodeResizeFrame({ width: 1.5, height: 2 })).toThrow(/width/);
    expect(() => encodeResizeFrame({ width: 80, height: -1 })).toThrow(/height/);
  });
});
