// The kubelet API's /exec and /attach WebSocket server, driven by a ws client speaking the
// kubelet's query (input/output/error/tty), with a provider that records what it is given.
import { noopLogger } from '@ctrlkit/core';
import { waitFor } from '@ctrlkit/core/testing';
import type { AttachIO, ContainerExecProvider } from '@ctrlkit/node-controller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MockProvider } from '../providers/mock-provider.js';
import { startKubeletApiServer } from './kubelet-api-server.js';
import { selfSignedCert } from './self-signed-cert.js';

const cert = await selfSignedCert('vk-test', ['127.0.0.1']);
const calls: { cmd: readonly string[]; signal: AbortSignal; attach: AttachIO }[] = [];

/** Echoes stdin to stdout uppercased, writes `err` to stderr, exits with the number in cmd[1]; `hang` waits for the abort. */
const exec: ContainerExecProvider = {
  async runInContainer(signal, _namespace, _pod, _container, cmd, attach) {
    calls.push({ cmd, signal, attach });
    if (cmd[0] === 'missing') throw new Error('exec: "missing": spawn missing ENOENT');
    if (cmd[0] === 'hang')
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    for await (const chunk of attach.stdin() ?? [])
      attach.stdout()?.write(String(chunk).toUpperCase());
    attach.stderr()?.write('err');
    return Number(cmd[1] ?? 0);
  },
};

const servers: { close(): void }[] = [];
let port = 0;
let plainPort = 0;
beforeAll(async () => {
  const provider = new MockProvider({ internalIP: '127.0.0.1' });
  const withExec = await startKubeletApiServer({
    nodeName: 'n',
    provider,
    exec,
    cert,
    host: '127.0.0.1',
    port: 0,
    logger: noopLogger,
  });
  const without = await startKubeletApiServer({
    nodeName: 'n',
    provider,
    cert,
    host: '127.0.0.1',
    port: 0,
    logger: noopLogger,
  });
  servers.push(withExec.server, without.server);
  port = withExec.port;
  plainPort = without.port;
});
afterAll(() => {
  for (const server of servers) server.close();
});

/** Opens a stream and collects its messages per channel until the server closes it. */
function open(path: string, protocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'], at = port) {
  const socket = new WebSocket(`wss://127.0.0.1:${at}${path}`, protocols, {
    rejectUnauthorized: false,
  });
  const channels = new Map<number, string>();
  socket.on('message', (data: Buffer) => {
    const channel = data[0] as number;
    channels.set(channel, (channels.get(channel) ?? '') + data.subarray(1).toString());
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const refused = new Promise<number>((resolve) =>
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
  );
  socket.on('error', () => {});
  return { socket, channels, closed, refused };
}

describe('kubelet API /exec over WebSocket', () => {
  it('runs the command with stdin until v5 CLOSE, and writes stdout, stderr and the exit status', async () => {
    const s = open('/exec/ns/p/c?command=run&command=3&input=1&output=1&error=1');
    await new Promise((resolve) => s.socket.once('open', resolve));
    expect(s.socket.protocol).toBe('v5.channel.k8s.io');
    s.socket.send(Buffer.from([0, ...Buffer.from('hi')]));
    s.socket.send(Buffer.from([255, 0]));
    await s.closed;
    expect(s.channels.get(1)).toBe('HI');
    expect(s.channels.get(2)).toBe('err');
    expect(JSON.parse(s.channels.get(3) ?? '')).toMatchObject({
      status: 'Failure',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    expect(calls.at(-1)?.cmd).toEqual(['run', '3']);
  });

  it('writes Success for exit code 0 and the InternalError Status when the command cannot run', async () => {
    const ok = open('/exec/ns/p/c?command=run&output=1');
    await ok.closed;
    expect(JSON.parse(ok.channels.get(3) ?? '')).toEqual({ metadata: {}, status: 'Success' });
    const missing = open('/exec/ns/p/c?command=missing&output=1');
    await missing.closed;
    expect(JSON.parse(missing.channels.get(3) ?? '')).toMatchObject({
      status: 'Failure',
      reason: 'InternalError',
      code: 500,
      message:
        'Internal error occurred: error executing command in container: exec: "missing": spawn missing ENOENT',
    });
  });

  it('aborts the command when the client goes', async () => {
    const s = open('/exec/ns/p/c?command=hang&output=1');
    await new Promise((resolve) => s.socket.once('open', resolve));
    const call = await waitFor('the command running', () => calls.find((c) => c.cmd[0] === 'hang'));
    expect(call?.cmd).toEqual(['hang']);
    expect(call?.signal.aborted).toBe(false);
    s.socket.terminate();
    await new Promise((resolve) => call?.signal.addEventListener('abort', resolve, { once: true }));
    expect(call?.signal.aborted).toBe(true);
  });

  it('refuses a bad request before upgrading: no command, no stream, no protocol, no provider', async () => {
    expect(await open('/exec/ns/p/c?output=1').refused).toBe(400);
    expect(await open('/exec/ns/p/c?command=x').refused).toBe(400);
    expect(await open('/exec/ns/p/c?command=x&output=1', ['channel.k8s.io']).refused).toBe(400);
    expect(await open('/exec/ns/p/c?command=x&output=1', undefined, plainPort).refused).toBe(501);
    expect(await open('/attach/ns/p/c?output=1').refused).toBe(501);
    expect(await open('/portforward/ns/p?ports=80').refused).toBe(404);
  });
});
