//! The few plain HTTP(S) requests envtest makes itself: readiness probes and etcd's JSON gateway.

import type { request as httpRequest } from 'node:http';
import type { request as httpsRequest } from 'node:https';
import { EnvtestError } from '../errors/envtest-error.js';

/** What a probe saw: the status and body, or the problem when there was no answer. */
export interface GetResult {
  readonly status: number;
  readonly body: string;
  readonly problem?: string;
}

/** GETs `url` without keep-alive, giving up after 2 s; never throws. */
export function get(
  request: typeof httpRequest | typeof httpsRequest,
  url: string,
  tls: { ca?: string; cert?: string; key?: string },
): Promise<GetResult> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false, timeout: 2_000, ...tls }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (error) => resolve({ status: 0, body, problem: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
    req.on('error', (error) => resolve({ status: 0, body: '', problem: error.message }));
    req.end();
  });
}

/** POSTs `body` to etcd's gRPC gateway at `path`; throws `EnvtestError` (`NotReady`) unless 2xx. */
export async function etcdGateway(
  etcdUrl: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok)
    throw new EnvtestError('NotReady', `etcd ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}
