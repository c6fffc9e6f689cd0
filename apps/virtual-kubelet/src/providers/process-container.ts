//! One container of the `process` provider: its state, restarts, log and CPU of earlier runs.

import type { ChildProcess } from 'node:child_process';
import { invalidInput } from '@ctrlkit/node-controller';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Container, V1ContainerState, V1ContainerStatus } from '@kubernetes/client-node';
import { ContainerLog } from './container-log.js';

/** A container of a pod the process provider runs (an init container with `init`). */
export interface Container {
  name: string;
  init: boolean;
  image: string;
  command: string[];
  env: Record<string, string>;
  process: ChildProcess | undefined;
  state: Wire<V1ContainerState>;
  lastState: Wire<V1ContainerState> | undefined;
  restartCount: number;
  backoffMs: number;
  /** When the back-off was last used (clock ms). */
  backoffAtMs: number | undefined;
  /** How often the container was started. */
  runs: number;
  log: ContainerLog;
  previousLog: ContainerLog | undefined;
  /** CPU time of the container's finished runs, in ns. */
  cpuBaseNs: number;
}

/** A new Container for `c`, waiting; InvalidInput when `c` has no command. */
export function newContainer(c: Wire<V1Container>, init: boolean): Container {
  if ((c.command ?? []).length === 0) {
    throw invalidInput(
      `container "${c.name}" has no command: the process provider runs commands, not images`,
    );
  }
  return {
    name: c.name,
    init,
    image: c.image ?? '',
    command: [...(c.command ?? []), ...(c.args ?? [])],
    env: Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value ?? ''])),
    process: undefined,
    state: { waiting: { reason: 'ContainerCreating' } },
    lastState: undefined,
    restartCount: 0,
    backoffMs: 0,
    backoffAtMs: undefined,
    runs: 0,
    log: new ContainerLog(),
    previousLog: undefined,
    cpuBaseNs: 0,
  };
}

/** The API status of `c`. */
export function containerStatus(c: Container): Wire<V1ContainerStatus> {
  return {
    name: c.name,
    image: c.image,
    imageID: '',
    ready: c.state.running !== undefined,
    started: c.state.running !== undefined,
    restartCount: c.restartCount,
    state: structuredClone(c.state),
    lastState: c.lastState === undefined ? undefined : structuredClone(c.lastState),
  };
}

/** `ms` as Go prints a time.Duration of whole seconds: `10s`, `1m20s`, `5m0s`. */
export function goDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}
