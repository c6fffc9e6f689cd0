//! What a provider implements to serve exec and attach (virtual-kubelet's `node/api` `AttachIO` and `ContainerExecHandlerFunc`).

import type { Duplex, Readable, Writable } from 'node:stream';

/** A terminal's size in character cells (virtual-kubelet's `api.TermSize`). */
export interface TermSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The streams of one exec or attach (virtual-kubelet's `api.AttachIO`): each is there only
 * when the client asked for it.
 */
export interface AttachIO {
  /** What the client writes; it ends when the client closes stdin (v5) or goes. */
  stdin(): Readable | undefined;
  /** Where the command's stdout goes (its stderr too with a TTY). */
  stdout(): Writable | undefined;
  /** Where the command's stderr goes (undefined with a TTY). */
  stderr(): Writable | undefined;
  /** Whether the client asked for a terminal. */
  tty(): boolean;
  /** The terminal's sizes as the client sends them (TTY only); ends with the stream. */
  resize(): AsyncIterable<TermSize>;
}

/**
 * A provider that runs commands in its containers (virtual-kubelet's `RunInContainer` and
 * `AttachToContainer`), served by the kubelet API at `/exec` and `/attach`.
 */
export interface ContainerExecProvider {
  /**
   * Runs `cmd` in the container's environment with `attach`'s streams and resolves to its
   * exit code once it ended and its output was written. Throws (`notFound` for an unknown
   * pod or container) when it cannot run it: the client gets the message. `signal` aborts
   * when the client goes: the command must then end.
   */
  runInContainer(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    containerName: string,
    cmd: readonly string[],
    attach: AttachIO,
  ): Promise<number>;
  /**
   * Streams the output of the container's running process to `attach` until it exits
   * (resolves) or `signal` aborts (the client detached; the process goes on). Optional.
   */
  attachToContainer?(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    containerName: string,
    attach: AttachIO,
  ): Promise<void>;
}

/**
 * A provider that connects clients to its pods' ports (virtual-kubelet's `PortForward`),
 * served by the kubelet API at `/portForward`.
 */
export interface PortForwardProvider {
  /**
   * Connects `stream` to `port` of the pod and pipes both ways until either side ends;
   * rejects when it cannot connect (the client gets the message). `signal` aborts when the
   * client goes.
   */
  portForward(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    port: number,
    stream: Duplex,
  ): Promise<void>;
}
