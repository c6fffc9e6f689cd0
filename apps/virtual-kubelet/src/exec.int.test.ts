// Logs and exec with @ctrlkit/client through the apiserver into containers of the
// process provider: the node declares ExtendWebSocketsToKubelet, so kube-apiserver proxies
// the client's v5.channel.k8s.io WebSocket to the virtual kubelet's API as it is.
import { type AppProcess, appPackage, runningProcesses, startApp } from '@ctrlkit/app-testing';
import { ApiStatusError, type Client, createClient } from '@ctrlkit/client';
import { exec, portForward, StreamClosedError, streamPodLogs } from '@ctrlkit/client/streaming';
import { waitFor } from '@ctrlkit/core/testing';
import { createTestNamespace, freePort } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const NODE = 'vk-exec';
/** The port of the echo server the pod runs (process provider containers share the node's network). */
const ECHO_PORT = 20_000 + (process.pid % 20_000);
/** A number of seconds no other process sleeps for: the aborted command's marker in /proc. */
const MARKER = String(172_800 + (process.pid % 10_000));

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('streaming through the apiserver into a process-provider container', () => {
  const observed: string[] = [];
  let client: Client;
  let vk: AppProcess;
  let namespace: string;

  beforeAll(async () => {
    vk = await startApp(appPackage('@ctrlkit/virtual-kubelet', import.meta.url), {
      args: [
        `--nodename=${NODE}`,
        '--provider=process',
        `--listen-port=${await freePort()}`,
        '--metrics-addr=0',
        '--healthz-addr=0',
      ],
    });
    client = createClient(testKubeConfig(), {
      metrics: { observe: ({ method, code }) => observed.push(`${method} ${code}`) },
    });
    namespace = await createTestNamespace(testKubeConfig(), 'exec-');
    const node = await waitFor('the node registered', () => client.get<V1Node>('nodes', NODE));
    expect(node.status?.declaredFeatures).toContain('ExtendWebSocketsToKubelet');
    // No controller-manager here: the ServiceAccount admission wants the namespace's default.
    await client.create('serviceaccounts', { metadata: { name: 'default', namespace } });
    await client.create<V1Pod>('pods', {
      metadata: { name: 'box', namespace },
      spec: {
        nodeName: NODE,
        containers: [
          {
            name: 'talker',
            image: 'none',
            command: ['sh', '-c', 'echo one; echo two; echo three; exec sleep 86400'],
            env: [{ name: 'GREETING', value: 'hello from the container' }],
          },
          { name: 'idle', image: 'none', command: ['sleep', '86400'] },
          {
            name: 'echo',
            image: 'none',
            command: [
              process.execPath,
              '-e',
              `require('node:net').createServer((s) => s.pipe(s)).listen(${ECHO_PORT}, '127.0.0.1')`,
            ],
          },
        ],
      },
    });
    await waitFor(
      'the pod Running',
      async () => (await client.get<V1Pod>('pods', 'box', { namespace })).status?.phase,
      { until: (phase) => phase === 'Running' },
    );
  });
  afterAll(async () => {
    await client?.delete('pods', 'box', { namespace, gracePeriodSeconds: 0 }).catch(() => {});
    client?.close();
    expect(await vk?.stop()).toBe(0);
  });

  it('exec prints the command output and its exit status, 0 and non-zero, in the container environment', async () => {
    const ok = await exec(client, namespace, 'box', ['sh', '-c', 'echo "$GREETING"'], {
      container: 'talker',
    });
    expect(ok).toEqual({ exitCode: 0, stdout: 'hello from the container\n', stderr: '' });
    const failed = await exec(
      client,
      namespace,
      'box',
      ['sh', '-c', 'echo out; echo err >&2; exit 3'],
      {
        container: 'idle',
      },
    );
    expect(failed).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(observed).toContain('GET 101');
  });

  it('exec sends stdin and half-closes it (v5 CLOSE): cat echoes it back and ends', async () => {
    const result = await exec(client, namespace, 'box', ['cat'], {
      container: 'idle',
      stdin: 'line 1\nline 2\n',
    });
    expect(result).toEqual({ exitCode: 0, stdout: 'line 1\nline 2\n', stderr: '' });
  });

  it('a command that does not exist rejects with the runtime error, not a hang', async () => {
    const error = await rejection(
      exec(client, namespace, 'box', ['no-such-command-here'], { container: 'idle' }),
    );
    expect(ApiStatusError.isInstance(error)).toBe(true);
    expect((error as ApiStatusError).status?.reason).toBe('InternalError');
    expect((error as Error).message).toContain('no-such-command-here');
    expect((error as Error).message).toContain('ENOENT');
  });

  it('a missing pod is the apiserver 404, a missing container its 400, for exec and logs', async () => {
    const noPod = await rejection(exec(client, namespace, 'nope', ['true']));
    expect((noPod as ApiStatusError).statusCode).toBe(404);
    expect((noPod as Error).message).toContain('pods "nope" not found');
    const noContainer = await rejection(
      exec(client, namespace, 'box', ['true'], { container: 'nope' }),
    );
    expect((noContainer as ApiStatusError).statusCode).toBe(400);
    expect((noContainer as Error).message).toContain('container nope is not valid for pod box');
    const noLogPod = await rejection(streamPodLogs(client, namespace, 'nope'));
    expect((noLogPod as ApiStatusError).statusCode).toBe(404);
    const noLogContainer = await rejection(
      streamPodLogs(client, namespace, 'box', { container: 'nope' }),
    );
    expect((noLogContainer as ApiStatusError).statusCode).toBe(400);
  });

  it('an abort closes the WebSocket and ends the process on the node', async () => {
    const controller = new AbortController();
    const running = rejection(
      exec(client, namespace, 'box', ['sleep', MARKER], {
        container: 'idle',
        signal: controller.signal,
      }),
    );
    await waitFor('the command running on the node', () => runningProcesses('sleep', MARKER), {
      until: (n) => n === 1,
    });
    controller.abort(new Error('caller went'));
    expect(await running).toBe(controller.signal.reason);
    await waitFor('the command ended on the node', () => runningProcesses('sleep', MARKER), {
      until: (n) => n === 0,
    });
  });

  it('logs: the whole log, tailLines, a followed log read line by line until aborted, previous not found', async () => {
    const all = await streamPodLogs(client, namespace, 'box', { container: 'talker' });
    expect(await all.text()).toBe('one\ntwo\nthree\n');
    const tail = await streamPodLogs(client, namespace, 'box', {
      container: 'talker',
      tailLines: 1,
    });
    expect(await tail.text()).toBe('three\n');

    const controller = new AbortController();
    const followed = await streamPodLogs(client, namespace, 'box', {
      container: 'talker',
      follow: true,
      signal: controller.signal,
    });
    const lines: string[] = [];
    const reading = (async () => {
      for await (const line of followed.lines()) {
        lines.push(line);
        if (lines.length === 3) controller.abort();
      }
    })();
    const error = await rejection(reading);
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(error).toBe(controller.signal.reason);
    expect(StreamClosedError.isInstance(error)).toBe(false);

    const previous = await rejection(
      streamPodLogs(client, namespace, 'box', { container: 'talker', previous: true }),
    );
    expect(ApiStatusError.isInstance(previous)).toBe(true);
    expect((previous as ApiStatusError).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('port-forward: one connection to the pod port, echoed back; a closed port reports the node error', async () => {
    const reply = await waitFor('the echo server answering', async () => {
      const duplex = await portForward(client, namespace, 'box', ECHO_PORT);
      try {
        duplex.write('ping');
        for await (const chunk of duplex) return String(chunk);
        return undefined;
      } finally {
        duplex.destroy();
      }
    });
    expect(reply).toBe('ping');

    const closed = await portForward(client, namespace, 'box', 1);
    const error = await rejection(closed.toArray());
    expect(StreamClosedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('ECONNREFUSED');
  });
});
