//! Replicas of a sharded ConfigMap controller as child processes (test/shard-replica.mjs), each reaching the apiserver through a TCP proxy of its own, and their reconcile logs.

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { ReconcileEvent } from './reconcile-intervals.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** One replica process. */
export interface ShardProcess {
  name: string;
  child: ChildProcess;
  /** Its way to the apiserver: blackhole it to partition the replica. */
  proxy: TcpProxy;
  /** Its stdout lines other than reconcile events (`{member, t}`, `{failed, t}`, …). */
  notes: Array<Record<string, unknown>>;
  stderr: string[];
  /** Resolves when the process has exited and its output is read to the end. */
  closed: Promise<void>;
  /** Writes a line to its stdin (`resync`). */
  send(line: string): void;
}

/** What every replica of a ring is given. */
export interface ShardProcessesOptions {
  kubeconfigPath: string;
  namespace: string;
  ring: string;
  /** More `REPLICA_*` variables of test/shard-replica.mjs (workers, reconcile ms, lease). */
  env: Record<string, string>;
}

/** A kubeconfig file like `path`, whose clusters' server is `127.0.0.1:<port>` (a proxy). */
function kubeconfigThrough(path: string, port: number): string {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(path);
  kubeConfig.loadFromOptions({
    clusters: kubeConfig.clusters.map((cluster) => {
      const server = new URL(cluster.server);
      server.port = String(port);
      return { ...cluster, server: server.origin };
    }),
    users: kubeConfig.users,
    contexts: kubeConfig.contexts,
    currentContext: kubeConfig.currentContext,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'shard-replica-')), 'kubeconfig');
  writeFileSync(file, kubeConfig.exportConfig());
  return file;
}

/** The replicas of one ring, and every reconcile event they printed, in arrival order. */
export class ShardProcesses {
  /** All replicas' reconcile events; each replica's in the order it wrote them. */
  readonly events: ReconcileEvent[] = [];
  readonly replicas: ShardProcess[] = [];
  readonly #options: ShardProcessesOptions;
  readonly #lastEnd = new Map<string, number>();

  constructor(options: ShardProcessesOptions) {
    this.#options = options;
  }

  /** When `shard` last ended a reconcile of `key` (wall ms), if ever. */
  lastEnd(shard: string, key: string): number | undefined {
    return this.#lastEnd.get(`${shard}|${key}`);
  }

  /** Starts replica `name` behind a new proxy to the apiserver of the kubeconfig. */
  async start(name: string): Promise<ShardProcess> {
    const { kubeconfigPath, namespace, ring, env } = this.#options;
    const apiserver = new URL(loaded(kubeconfigPath).getCurrentCluster()?.server ?? '');
    const proxy = await startTcpProxy({ host: apiserver.hostname, port: Number(apiserver.port) });
    const script = fileURLToPath(new URL('./shard-replica.mjs', import.meta.url));
    const child = spawn(process.execPath, [script], {
      env: {
        ...process.env,
        ...env,
        REPLICA_NAMESPACE: namespace,
        REPLICA_NAME: name,
        REPLICA_RING: ring,
        REPLICA_KUBECONFIG: kubeconfigThrough(kubeconfigPath, proxy.port),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin?.on('error', () => {}); // writes to a killed replica
    const replica: ShardProcess = {
      name,
      child,
      proxy,
      notes: [],
      stderr: [],
      closed: once(child, 'close').then(() => undefined),
      send: (line) => {
        if (child.exitCode === null && child.signalCode === null) child.stdin?.write(`${line}\n`);
      },
    };
    let pending = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.#read(replica, line);
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => replica.stderr.push(chunk));
    this.replicas.push(replica);
    return replica;
  }

  #read(replica: ShardProcess, line: string): void {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if (parsed.ev !== 'start' && parsed.ev !== 'end') {
      replica.notes.push(parsed);
      return;
    }
    const event = parsed as unknown as ReconcileEvent;
    this.events.push(event);
    if (event.ev === 'end') this.#lastEnd.set(`${event.shard}|${event.key}`, event.t);
  }

  /** Each replica's stderr and last notes, for a failure message. */
  output(): string {
    return this.replicas
      .map(
        (r) =>
          `${r.name}: ${JSON.stringify(r.notes.slice(-5))}\n${r.stderr.join('').slice(-2_000)}`,
      )
      .join('\n');
  }

  /** Kills every replica still running and closes the proxies. */
  async stopAll(): Promise<void> {
    for (const replica of this.replicas) replica.child.kill('SIGKILL');
    await Promise.all(this.replicas.map((r) => r.closed));
    await Promise.all(this.replicas.map((r) => r.proxy.close()));
  }
}

/** The kubeconfig at `path`. */
function loaded(path: string): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(path);
  return kubeConfig;
}
