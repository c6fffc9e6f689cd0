//! `exec` and `attach` on a pod over WebSocket (`v5.channel.k8s.io`, else `v4.channel.k8s.io`), as kubectl since 1.31.

import { PassThrough, Readable, type Writable } from 'node:stream';
import { InvalidArgumentError } from '@ctrlkit/core';
import { type ClientSource, toClient } from '../client-source.js';
import { openWebSocket, webSocketTarget } from '../internal/open-web-socket.js';
import { objectPath } from '../paths.js';
import { toGroupVersionResource } from '../resource.js';
import { STREAM_PROTOCOLS, type TerminalSize } from './channel-protocol.js';
import type { ExecResult } from './exec-status.js';
import { streamRemoteCommand } from './remote-command-stream.js';

/** Options of {@link exec} and {@link attach}. */
export interface ExecOptions {
  /** The container; default: the pod's only one (the apiserver answers 400 for a pod of several). */
  readonly container?: string;
  /**
   * What the command reads: a string or bytes, a stream or any async iterable; its end
   * half-closes stdin (v5), so `cat` ends. Default: no stdin.
   */
  readonly stdin?: string | Uint8Array | AsyncIterable<Uint8Array | string>;
  /** Where stdout goes. Default: collected into {@link ExecOutput.stdout}. */
  readonly stdout?: Writable;
  /** Where stderr goes (not with `tty`, whose stderr is stdout). Default: collected into {@link ExecOutput.stderr}. */
  readonly stderr?: Writable;
  /** A terminal (`tty=true`): stdout and stderr merged, resizes sent. Default false. */
  readonly tty?: boolean;
  /** The terminal's sizes, each sent as it comes (client-go's `TerminalSizeQueue`); only with `tty`. */
  readonly terminalSizes?: AsyncIterable<TerminalSize>;
  /** Closes the WebSocket, which ends the command on the node; the call rejects with its reason. */
  readonly signal?: AbortSignal;
}

/** How the command ended, and the output collected when no `stdout`/`stderr` was given. */
export interface ExecOutput extends ExecResult {
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `command` (no shell) in a container of the pod `namespace/name`, as `kubectl exec`,
 * through the one client's kubeconfig credentials and TLS, and resolves when it ends with
 * its exit code (0, or a non-zero code: not an error). Rejects with an `ApiStatusError`
 * when the apiserver refuses (404 for a missing pod, 400 for a missing container) or the
 * node could not run the command (the runtime's message, e.g. an executable not found), a
 * `StreamClosedError` when the stream closed before the exit status, or `signal`'s reason.
 */
export async function exec(
  client: ClientSource,
  namespace: string,
  name: string,
  command: readonly string[],
  options: ExecOptions = {},
): Promise<ExecOutput> {
  if (!Array.isArray(command) || command.length === 0 || command.some((c) => typeof c !== 'string'))
    throw new InvalidArgumentError('command', 'must be a non-empty array of strings');
  return run(client, namespace, name, 'exec', command, options);
}

/**
 * Attaches to the running process of a container (`kubectl attach`): its stdin (when the
 * container has `stdin: true`), stdout and stderr, until it exits (its exit status) or
 * `signal` aborts (which detaches, the process goes on). Errors as {@link exec}.
 */
export async function attach(
  client: ClientSource,
  namespace: string,
  name: string,
  options: ExecOptions = {},
): Promise<ExecOutput> {
  return run(client, namespace, name, 'attach', [], options);
}

async function run(
  source: ClientSource,
  namespace: string,
  name: string,
  subresource: 'exec' | 'attach',
  command: readonly string[],
  options: ExecOptions,
): Promise<ExecOutput> {
  const client = toClient(source);
  if (typeof namespace !== 'string' || namespace === '')
    throw new InvalidArgumentError('namespace', 'must be a non-empty string');
  if (options.terminalSizes !== undefined && options.tty !== true)
    throw new InvalidArgumentError('terminalSizes', 'needs tty: true');
  const tty = options.tty === true;
  const query = new URLSearchParams();
  for (const part of command) query.append('command', part);
  if (options.container !== undefined) query.set('container', options.container);
  query.set('stdin', String(options.stdin !== undefined));
  query.set('stdout', 'true');
  query.set('stderr', String(!tty));
  query.set('tty', String(tty));
  const path = `${objectPath(toGroupVersionResource('pods'), namespace, name, subresource)}?${query}`;
  const stdout = collector(options.stdout);
  const stderr = collector(options.stderr);
  const socket = await openWebSocket(
    webSocketTarget(client),
    path,
    STREAM_PROTOCOLS,
    options.signal,
  );
  const result = await streamRemoteCommand(
    socket,
    {
      stdin: toAsyncIterable(options.stdin),
      stdout: stdout.stream,
      stderr: stderr.stream,
      terminalSizes: options.terminalSizes,
      signal: options.signal,
    },
    `${subresource.toUpperCase()} ${path}`,
  );
  return { ...result, stdout: stdout.text(), stderr: stderr.text() };
}

/** `target`, or a stream that keeps what is written for {@link ExecOutput}. */
function collector(target: Writable | undefined): { stream: Writable; text: () => string } {
  if (target !== undefined) return { stream: target, text: () => '' };
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

function toAsyncIterable(
  stdin: ExecOptions['stdin'],
): AsyncIterable<Uint8Array | string> | undefined {
  if (stdin === undefined) return undefined;
  if (typeof stdin === 'string' || stdin instanceof Uint8Array) return Readable.from([stdin]);
  if (typeof (stdin as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function')
    throw new InvalidArgumentError('stdin', 'must be a string, bytes or an async iterable');
  return stdin;
}
