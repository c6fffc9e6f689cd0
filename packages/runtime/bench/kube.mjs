// Plain HTTPS to the apiserver for the benchmark's own traffic (seeding, the writer, the
// bare LIST floor): node:https with a keep-alive agent built from a kubeconfig, no client
// library in between.
import { Agent, request } from 'node:https';

/** A connection to the kubeconfig's current cluster allowing `maxSockets` requests at once. */
export async function connect(kubeConfig, maxSockets = 1) {
  const options = {};
  await kubeConfig.applyToHTTPSOptions(options);
  const agent = new Agent({
    keepAlive: true,
    maxSockets,
    ca: options.ca,
    cert: options.cert,
    key: options.key,
    rejectUnauthorized: options.rejectUnauthorized,
    servername: options.servername,
  });
  const server = new URL(kubeConfig.getCurrentCluster().server);
  return { agent, server, headers: options.headers ?? {}, auth: options.auth, maxSockets };
}

/**
 * One request; resolves `{ status, body, headersAt }`: the body as a Buffer, and when the
 * response headers arrived (`performance.now()`). `payload` (an object)
 * is sent as JSON, or as a merge patch when `method` is PATCH.
 */
export function call(conn, method, path, payload) {
  return new Promise((resolve, reject) => {
    const body = payload === undefined ? undefined : JSON.stringify(payload);
    const headers = { ...conn.headers, accept: 'application/json' };
    if (body !== undefined) {
      headers['content-type'] =
        method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request(
      {
        host: conn.server.hostname,
        port: conn.server.port,
        path,
        method,
        agent: conn.agent,
        headers,
        auth: conn.auth,
      },
      (res) => {
        const headersAt = performance.now();
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode, body: Buffer.concat(chunks), headersAt }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `call`, failing unless the status is one of `ok`; resolves the parsed JSON body. */
export async function callJson(conn, method, path, payload, ok = [200, 201]) {
  const { status, body } = await call(conn, method, path, payload);
  if (!ok.includes(status)) {
    throw new Error(`${method} ${path}: HTTP ${status}: ${body.toString('utf8').slice(0, 300)}`);
  }
  return body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function pool(count, concurrency, task) {
  let next = 0;
  const lane = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
}
