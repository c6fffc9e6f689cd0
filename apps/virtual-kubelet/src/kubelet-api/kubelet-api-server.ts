//! The kubelet HTTPS API of virtual-kubelet's node/api: /pods, /runningpods/, /stats/summary, /metrics/resource, /containerLogs, /exec and /attach.

import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError, type Logger } from '@ctrlkit/core';
import type { ContainerExecProvider, PortForwardProvider } from '@ctrlkit/node-controller';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import type { StatsSummary } from '../providers/stats-summary.js';
import {
  type ContainerLogsProvider,
  parseContainerLogQuery,
  serveContainerLogs,
} from './container-logs.js';
import { streamUpgradeHandler } from './container-streams.js';
import type { ServingCert } from './self-signed-cert.js';

/** What the API reads from the provider. */
export interface KubeletApiProvider {
  getPods(signal: AbortSignal): Promise<Wire<V1Pod>[]>;
  getStatsSummary(nodeName: string): StatsSummary;
  /** The output of a container, when the provider keeps it. */
  getContainerLogs?: ContainerLogsProvider['getContainerLogs'];
  /** New output of a container as it is written (`follow`), when the provider keeps it. */
  followContainerLogs?: ContainerLogsProvider['followContainerLogs'];
}

/** Options of {@link startKubeletApiServer}. */
export interface KubeletApiOptions {
  nodeName: string;
  provider: KubeletApiProvider;
  /** Serves `/exec` and `/attach` (WebSocket). Default: none (501). */
  exec?: ContainerExecProvider;
  /** Serves `/portForward` (WebSocket). Default: none (501). */
  portForward?: PortForwardProvider;
  cert: ServingCert;
  /** Default `0.0.0.0`. */
  host?: string;
  /** The port; `0` picks a free one. */
  port: number;
  logger: Logger;
}

/** Answers a request with `status` and `body` (JSON unless `type` says otherwise). */
type Reply = (status: number, body: string, type?: string) => void;

/**
 * Serves the kubelet endpoints over HTTPS without asking for a client certificate, so the
 * apiserver's node proxy (`/api/v1/nodes/<node>/proxy/...`) reaches them. Resolves once listening.
 */
export async function startKubeletApiServer(
  options: KubeletApiOptions,
): Promise<{ server: Server; port: number }> {
  const server = createServer(
    { cert: options.cert.cert, key: options.cert.key, requestCert: false },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://localhost');
      const reply: Reply = (status, body, type = 'application/json') => {
        res.writeHead(status, { 'Content-Type': type });
        res.end(body);
      };
      const signal = AbortSignal.timeout(30_000);
      route(options, req.method, url, res, reply, signal).catch((error: unknown) => {
        options.logger.error({ err: error, path: url.pathname }, 'kubelet API request failed');
        reply(500, JSON.stringify({ error: (error as Error).message }));
      });
    },
  );
  server.on('upgrade', streamUpgradeHandler(options.exec, options.portForward, options.logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
}

/** Answers one request by its method and path. */
async function route(
  options: KubeletApiOptions,
  method: string | undefined,
  url: URL,
  res: ServerResponse,
  reply: Reply,
  signal: AbortSignal,
): Promise<void> {
  const { provider, nodeName } = options;
  const path = url.pathname;
  if (method !== 'GET') return reply(405, JSON.stringify({ error: 'method not allowed' }));
  if (path === '/pods' || path === '/pods/' || path === '/runningpods' || path === '/runningpods/')
    return replyPods(provider, path.startsWith('/runningpods'), reply, signal);
  if (path === '/stats/summary' || path === '/stats/summary/') {
    return reply(200, JSON.stringify(provider.getStatsSummary(nodeName)));
  }
  if (path === '/metrics/resource' || path === '/metrics/resource/') {
    return reply(
      200,
      resourceMetrics(provider.getStatsSummary(nodeName)),
      'text/plain; version=0.0.4',
    );
  }
  const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (logs !== null && provider.getContainerLogs !== undefined) {
    const target: [string, string, string] = [logs[1] ?? '', logs[2] ?? '', logs[3] ?? ''];
    return replyContainerLogs(provider, target, url, res, reply);
  }
  if (options.exec !== undefined && (path.startsWith('/exec/') || path.startsWith('/attach/')))
    return reply(400, JSON.stringify({ error: 'Upgrade request required' }));
  if (
    path.startsWith('/containerLogs/') ||
    path.startsWith('/exec/') ||
    path.startsWith('/attach/')
  ) {
    return reply(
      501,
      JSON.stringify({ error: `${path.split('/')[1]} is not supported by this provider` }),
    );
  }
  return reply(404, JSON.stringify({ error: 'not found' }));
}

/** `/pods` (every pod of the provider) or `/runningpods` (those not Succeeded or Failed) as a PodList. */
async function replyPods(
  provider: KubeletApiProvider,
  runningOnly: boolean,
  reply: Reply,
  signal: AbortSignal,
): Promise<void> {
  const pods = await provider.getPods(signal);
  const items = runningOnly
    ? pods.filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed')
    : pods;
  reply(200, JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: {}, items }));
}

/** `/containerLogs/<namespace>/<pod>/<container>`: 400 for a bad query, 404 for an unknown container. */
async function replyContainerLogs(
  provider: KubeletApiProvider,
  target: [string, string, string],
  url: URL,
  res: ServerResponse,
  reply: Reply,
): Promise<void> {
  const getContainerLogs = provider.getContainerLogs!.bind(provider);
  const followContainerLogs = provider.followContainerLogs?.bind(provider);
  try {
    const query = parseContainerLogQuery(url.searchParams);
    return serveContainerLogs({ getContainerLogs, followContainerLogs }, target, query, res);
  } catch (error) {
    const status = InvalidArgumentError.isInstance(error) ? 400 : 404;
    return reply(status, JSON.stringify({ error: (error as Error).message }));
  }
}

/**
 * The kubelet's `/metrics/resource` in Prometheus text format. Container series carry their
 * labels in the kubelet's order, `namespace, pod, container`: the upstream virtual-kubelet
 * end-to-end suite reads the pod as the second label of `container_cpu_usage_seconds_total`.
 */
export function resourceMetrics(summary: StatsSummary): string {
  const ts = Date.parse(summary.node.cpu.time);
  const seconds = (nano: number) => (nano / 1e9).toString();
  const lines = [
    '# HELP node_cpu_usage_seconds_total Cumulative cpu time consumed by the node in core-seconds',
    '# TYPE node_cpu_usage_seconds_total counter',
    `node_cpu_usage_seconds_total ${seconds(summary.node.cpu.usageCoreNanoSeconds)} ${ts}`,
    '# HELP node_memory_working_set_bytes Current working set of the node in bytes',
    '# TYPE node_memory_working_set_bytes gauge',
    `node_memory_working_set_bytes ${summary.node.memory.workingSetBytes} ${ts}`,
    '# HELP pod_cpu_usage_seconds_total Cumulative cpu time consumed by the pod in core-seconds',
    '# TYPE pod_cpu_usage_seconds_total counter',
    ...summary.pods.map(
      (p) =>
        `pod_cpu_usage_seconds_total{namespace="${p.podRef.namespace}",pod="${p.podRef.name}"} ${seconds(p.cpu.usageCoreNanoSeconds)} ${ts}`,
    ),
    '# HELP pod_memory_working_set_bytes Current working set of the pod in bytes',
    '# TYPE pod_memory_working_set_bytes gauge',
    ...summary.pods.map(
      (p) =>
        `pod_memory_working_set_bytes{namespace="${p.podRef.namespace}",pod="${p.podRef.name}"} ${p.memory.workingSetBytes} ${ts}`,
    ),
    '# HELP container_cpu_usage_seconds_total Cumulative cpu time consumed by the container in core-seconds',
    '# TYPE container_cpu_usage_seconds_total counter',
    ...summary.pods.flatMap((p) =>
      p.containers.map(
        (c) =>
          `container_cpu_usage_seconds_total{${containerLabels(p, c)}} ${seconds(c.cpu.usageCoreNanoSeconds)} ${ts}`,
      ),
    ),
    '# HELP container_memory_working_set_bytes Current working set of the container in bytes',
    '# TYPE container_memory_working_set_bytes gauge',
    ...summary.pods.flatMap((p) =>
      p.containers.map(
        (c) =>
          `container_memory_working_set_bytes{${containerLabels(p, c)}} ${c.memory.workingSetBytes} ${ts}`,
      ),
    ),
    '# HELP scrape_error 1 if there was an error while getting container metrics, 0 otherwise',
    '# TYPE scrape_error gauge',
    'scrape_error 0',
  ];
  return `${lines.join('\n')}\n`;
}

type PodStats = StatsSummary['pods'][number];

/** `namespace="…",pod="…",container="…"`, in that order. */
function containerLabels(pod: PodStats, container: PodStats['containers'][number]): string {
  return `namespace="${pod.podRef.namespace}",pod="${pod.podRef.name}",container="${container.name}"`;
}
