//! Exec and attach for the `process` provider: a command runs beside the container's process, with its environment.

import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type {
  AttachIO,
  ContainerExecProvider,
  PortForwardProvider,
} from '@ctrlkit/node-controller';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { execProcess } from './process-exec.js';
import { NODE_ENV_MARKER, type ProcessProvider } from './process-provider.js';

/** What {@link ProcessExecProvider} reads of the process provider. */
export type ProcessPods = Pick<ProcessProvider, 'getPod' | 'followContainerLogs'>;

/**
 * virtual-kubelet's `RunInContainer` and `AttachToContainer` for the {@link ProcessProvider}:
 * a command runs as a child process with the container's environment (its `env`, `PATH`
 * and the node's marker, so `killLeftovers` finds it too); attach streams the container's
 * output. Both need the container running. Port-forward connects to the port on the loopback.
 */
export class ProcessExecProvider implements ContainerExecProvider, PortForwardProvider {
  readonly #pods: ProcessPods;
  readonly #nodeName: string | undefined;

  /** `nodeName`: the node's name, as given to the provider (its marker in the environment). */
  constructor(pods: ProcessPods, nodeName?: string) {
    this.#pods = pods;
    this.#nodeName = nodeName || undefined;
  }

  /** Runs `cmd` (no shell) and resolves to its exit code; rejects when it cannot be started. */
  async runInContainer(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    containerName: string,
    cmd: readonly string[],
    attach: AttachIO,
  ): Promise<number> {
    const container = await this.#running(signal, namespace, podName, containerName);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...Object.fromEntries((container.env ?? []).map((e) => [e.name, e.value ?? ''])),
      ...(this.#nodeName !== undefined && { [NODE_ENV_MARKER]: this.#nodeName }),
    };
    return execProcess(cmd, env, attach, signal);
  }

  /**
   * Writes the container's output (stdout and stderr as kept, interleaved) to `attach`'s
   * stdout until its run ends or `signal` aborts; its stdin is not attached (containers
   * run without one).
   */
  async attachToContainer(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    containerName: string,
    attach: AttachIO,
  ): Promise<void> {
    await this.#running(signal, namespace, podName, containerName);
    const out = attach.stdout();
    await new Promise<void>((resolve) => {
      const stop = this.#pods.followContainerLogs(
        namespace,
        podName,
        containerName,
        (text) => out?.write(text),
        resolve,
      );
      signal.addEventListener(
        'abort',
        () => {
          stop();
          resolve();
        },
        { once: true },
      );
    });
  }

  /**
   * Connects `stream` to `port` on the loopback (a process provider's containers share the
   * node's network) while the pod is known, and pipes both ways until either side ends.
   */
  async portForward(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    port: number,
    stream: Duplex,
  ): Promise<void> {
    await this.#pods.getPod(signal, namespace, podName);
    // one-client: not the API server (the pod's port, on the loopback)
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const stop = (): void => {
      socket.destroy();
    };
    signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.all([
        pipeline(stream, socket).catch(() => undefined),
        pipeline(socket, stream).catch(() => undefined),
      ]);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** The container's spec; NotFound (from the provider) for an unknown pod, an error when the container is unknown or not running. */
  async #running(
    signal: AbortSignal,
    namespace: string,
    podName: string,
    containerName: string,
  ): Promise<Wire<V1Container>> {
    const pod: Wire<V1Pod> | undefined = await this.#pods.getPod(signal, namespace, podName);
    const container = pod?.spec?.containers.find((c) => c.name === containerName);
    const status = pod?.status?.containerStatuses?.find((c) => c.name === containerName);
    if (container === undefined)
      throw new Error(`container "${containerName}" of pod "${namespace}/${podName}" is not known`);
    if (status?.state?.running === undefined)
      throw new Error(
        `container "${containerName}" of pod "${namespace}/${podName}" is not running`,
      );
    return container;
  }
}
