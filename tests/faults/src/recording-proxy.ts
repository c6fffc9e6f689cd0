//! A TLS proxy in front of the apiserver that records every answer's status and Retry-After: what a 429 told the app to wait, and when it sent again.

import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { Agent, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { AppCluster } from '@ctrlkit/app-testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { createCertificate } from '@ctrlkit/envtest/certificates';
import { KubeConfig } from '@kubernetes/client-node';

/** How much earlier than its Retry-After a request may be sent again: a timer's rounding. */
export const RETRY_AFTER_TOLERANCE_MS = 25;

/** One request the proxy forwarded, and its answer. */
export interface ProxiedAnswer {
  readonly method: string;
  readonly path: string;
  /** When the request reached the proxy (epoch ms). */
  readonly sentAt: number;
  /** When the apiserver's answer (its head) reached the proxy (epoch ms). */
  readonly answeredAt: number;
  readonly status: number;
  /** The answer's `Retry-After`, in seconds, when it had one. */
  readonly retryAfterS?: number;
}

/** Headers that belong to one hop (HTTP/1.1) or that HTTP/2 forbids. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'te',
  'host',
]);
const forwardable = (headers: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(headers).filter(
      ([k, v]) => !k.startsWith(':') && !HOP.has(k) && v !== undefined,
    ),
  ) as Record<string, string | string[]>;

/**
 * Terminates the app's TLS (HTTP/2 or 1.1, with a CA of its own, which {@link
 * RecordingProxy.cluster}'s kubeconfig trusts) and forwards each request to the plane's apiserver,
 * recording the answer in {@link RecordingProxy.answers}. Requests without a bearer token
 * (`startApp`'s set-up, as the plane's admin) are sent on with the admin's client certificate.
 */
export class RecordingProxy {
  private constructor(
    /** Every answer so far, in the order they reached the proxy. */
    readonly answers: readonly ProxiedAnswer[],
    private readonly server: Http2SecureServer,
    private readonly sockets: Set<TLSSocket>,
    private readonly agents: readonly Agent[],
    /** The plane as seen through the proxy, for `startApp`. */
    readonly cluster: AppCluster,
  ) {}

  /** Starts a proxy on a free loopback port in front of `plane`'s apiserver. */
  static async start(plane: ControlPlane): Promise<RecordingProxy> {
    const ca = await createCertificate({ commonName: 'faults recording proxy CA', usage: 'ca' });
    const serving = await createCertificate(
      { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usage: 'server' },
      ca,
    );
    const upstreamCa = Buffer.from(plane.kubeConfig.getCurrentCluster()?.caData ?? '', 'base64');
    // A request with a token (the app's) goes on as it came; one without (the test's admin,
    // whose client certificate ends here) goes on with the admin's certificate.
    const agent = new Agent({ keepAlive: true, ca: upstreamCa });
    const admin = plane.kubeConfig.getCurrentUser();
    const adminAgent = new Agent({
      keepAlive: true,
      ca: upstreamCa,
      cert: Buffer.from(admin?.certData ?? '', 'base64'),
      key: Buffer.from(admin?.keyData ?? '', 'base64'),
    });
    const answers: ProxiedAnswer[] = [];
    const server = createSecureServer(
      { key: serving.keyPem, cert: serving.certPem, allowHTTP1: true },
      (req, res) => {
        const sentAt = Date.now();
        const method = req.method ?? 'GET';
        const path = req.url ?? '/';
        const upstream = request(
          {
            host: '127.0.0.1',
            port: plane.apiServerPort,
            method,
            path,
            headers: forwardable(req.headers),
            agent: req.headers.authorization === undefined ? adminAgent : agent,
          },
          (answer) => {
            const retryAfter = Number(answer.headers['retry-after']);
            answers.push({
              method,
              path,
              sentAt,
              answeredAt: Date.now(),
              status: answer.statusCode ?? 0,
              ...(Number.isFinite(retryAfter) && { retryAfterS: retryAfter }),
            });
            res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        res.on('close', () => upstream.destroy());
        req.pipe(upstream);
      },
    );
    const sockets = new Set<TLSSocket>();
    server.on('secureConnection', (socket: TLSSocket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromString(plane.kubeConfig.exportConfig());
    const current = kubeConfig.getCurrentCluster();
    // The proxy's server and CA: the app's kubeconfig (`startApp`) and the admin's set-up trust it.
    kubeConfig.clusters = kubeConfig.clusters.map((c) =>
      c.name === current?.name
        ? {
            ...c,
            server: `https://127.0.0.1:${port}`,
            caData: Buffer.from(ca.certPem).toString('base64'),
            caFile: undefined,
          }
        : c,
    );
    return new RecordingProxy(answers, server, sockets, [agent, adminAgent], {
      kubeConfig,
      auditLogPath: plane.auditLogPath,
    });
  }

  /** {@link retryAfterMargins} of the answers so far. */
  retryAfterMargins(): number[] {
    return retryAfterMargins(this.answers);
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const agent of this.agents) agent.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }
}

/**
 * For each 429 with a `Retry-After` among `answers` (in the order they were answered) whose
 * request was sent again (the next request of the same method and path sent after it was
 * answered), that wait minus the `Retry-After`, in ms (>= 0: honoured).
 */
export function retryAfterMargins(answers: readonly ProxiedAnswer[]): number[] {
  const margins: number[] = [];
  answers.forEach((a, i) => {
    if (a.status !== 429 || a.retryAfterS === undefined) return;
    const again = answers
      .slice(i + 1)
      .find((b) => b.method === a.method && b.path === a.path && b.sentAt >= a.answeredAt);
    if (again !== undefined) margins.push(again.sentAt - a.answeredAt - a.retryAfterS * 1000);
  });
  return margins;
}
