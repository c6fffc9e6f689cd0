import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from './client.js';
import { ApiStatusError } from './errors/api-status-error.js';

// A socket-level check of the client against a local HTTP server (no apiserver needed).
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}

describe('Client', () => {
  it('requestJson sends the method, a JSON body and parses the answer; a non-2xx is an ApiStatusError', async () => {
    const seen: Array<{ method?: string; type?: string; body: string }> = [];
    const kubeConfig = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen.push({ method: req.method, type: req.headers['content-type'], body });
        if (req.method === 'DELETE') {
          res.writeHead(409, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              kind: 'Status',
              code: 409,
              reason: 'Conflict',
              message: 'uid differs',
            }),
          );
          return;
        }
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        res.end(body === '' ? JSON.stringify({ got: 'nothing' }) : body);
      });
    });
    const rest = createClient(kubeConfig);
    expect(await rest.requestJson('POST', '/apis/x/v1/things', { body: { int: 3 } })).toEqual({
      int: 3,
    });
    expect(await rest.requestJson('GET', '/apis/x/v1/things/a')).toEqual({ got: 'nothing' });
    const error = await rest
      .requestJson('DELETE', '/apis/x/v1/things/a', { body: { kind: 'DeleteOptions' } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    if (!ApiStatusError.isInstance(error)) throw new Error(`not an ApiStatusError: ${error}`);
    expect(error.statusCode).toBe(409);
    expect(error.status?.message).toBe('uid differs');
    expect(seen.map((s) => [s.method, s.type, s.body])).toEqual([
      ['POST', 'application/json', '{"int":3}'],
      ['GET', undefined, ''],
      ['DELETE', 'application/json', '{"kind":"DeleteOptions"}'],
    ]);
  });

  it('asks for gzip like client-go and decodes a gzipped LIST', async () => {
    const seen: Array<string | undefined> = [];
    const kubeConfig = await serve((req, res) => {
      seen.push(req.headers['accept-encoding']);
      const body = JSON.stringify({ kind: 'ConfigMapList', items: [{ metadata: { name: 'a' } }] });
      if (req.headers['accept-encoding'] === 'gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipSync(body));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }
    });
    const list = await createClient(kubeConfig).getJson(
      '/api/v1/configmaps',
      {},
      'application/json',
    );
    expect(list).toEqual({ kind: 'ConfigMapList', items: [{ metadata: { name: 'a' } }] });
    const plain = await createClient(kubeConfig, { disableCompression: true }).getJson(
      '/api/v1/configmaps',
      {},
      'application/json',
    );
    expect(plain).toEqual(list);
    const parsed = await createClient(kubeConfig).getList(
      '/api/v1/configmaps',
      {},
      'application/json',
    );
    expect(parsed).toEqual(list);
    expect(seen).toEqual(['gzip', 'identity', 'gzip']);
  });

  it('decodes a gzipped watch stream line by line', async () => {
    const kubeConfig = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(
        gzipSync(
          '{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n{"type":"DELETED","object":{"metadata":{"name":"a"}}}\n',
        ),
      );
    });
    const events: string[] = [];
    await createClient(kubeConfig).watch('/api/v1/configmaps', {}, 'application/json', (e) =>
      events.push(e.type),
    );
    expect(events).toEqual(['ADDED', 'DELETED']);
  });

  it('says that nothing was received for the idle timeout (not "connection aborted") when it closes a silent watch', async () => {
    const kubeConfig = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"ADDED","object":{"metadata":{"name":"a"}}}\n');
      // then silence: a half-open connection as the client sees it
    });
    const events: string[] = [];
    const error = await createClient(kubeConfig)
      .watch(
        '/api/v1/configmaps',
        {},
        'application/json',
        (e) => events.push(e.type),
        undefined,
        150,
      )
      .catch((e: Error) => e);
    expect(events).toEqual(['ADDED']);
    expect((error as Error).message).toMatch(/nothing received for 150 ms/);
    expect((error as Error).message).not.toMatch(/aborted|closed before/);
  });

  it('request sends the headers and body as given and returns any answer, a 404 included', async () => {
    const kubeConfig = await serve((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        res.writeHead(404, { 'content-type': 'text/plain', 'x-seen': req.headers['x-extra'] });
        res.end(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
      });
    });
    const answer = await createClient(kubeConfig).request('PATCH', '/api/v1/x?dryRun=All', {
      headers: { 'Content-Type': 'application/merge-patch+json', 'X-Extra': 'yes' },
      body: '{"a":1}',
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.headers['x-seen']).toBe('yes');
    expect(answer.body.toString()).toBe(
      'PATCH /api/v1/x?dryRun=All application/merge-patch+json {"a":1}',
    );
  });

  it('keeps connections alive: one connection for requests in sequence, a new pool when the TLS material changes', async () => {
    let connections = 0;
    const kubeConfig = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    server?.on('connection', () => {
      connections++;
    });
    const rest = createClient(kubeConfig);
    for (let i = 0; i < 5; i++) await rest.requestJson('PUT', '/api/v1/x', { body: { i } });
    await rest.getJson('/api/v1/x', {}, 'application/json');
    expect(connections).toBe(1);
    // A rotated client certificate: the next request needs a connection made with it.
    const user = kubeConfig.getCurrentUser();
    if (user === null) throw new Error('no user');
    Object.assign(user, { certData: Buffer.from('another certificate').toString('base64') });
    await rest.requestJson('GET', '/api/v1/x');
    expect(connections).toBe(2);
  });

  it('sends a GET again when its kept-alive connection was closed by the server, a POST not', async () => {
    const seen: string[] = [];
    const kubeConfig = await serve((req, res) => {
      seen.push(req.method ?? '');
      req.resume();
      req.on('end', () => {
        // The second request finds the connection closed under it, as after an idle close.
        if (seen.length === 2) {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    const rest = createClient(kubeConfig);
    expect(await rest.requestJson('GET', '/api/v1/x')).toEqual({ ok: true });
    expect(await rest.requestJson('GET', '/api/v1/x')).toEqual({ ok: true });
    expect(seen).toEqual(['GET', 'GET', 'GET']);

    seen.length = 0;
    const again = createClient(kubeConfig);
    await again.requestJson('POST', '/api/v1/x', { body: {} });
    const error = await again
      .requestJson('POST', '/api/v1/x', { body: {} })
      .catch((e: unknown) => e);
    expect((error as { code?: unknown }).code).toBe('ECONNRESET');
    expect(seen).toEqual(['POST', 'POST']);
  });

  it('gives up a request on whose connection nothing arrives for the idle timeout (a half-open connection)', async () => {
    const kubeConfig = await serve((req) => {
      req.resume(); // never answers
    });
    const rest = createClient(kubeConfig, { listIdleTimeoutMs: 200 });
    await expect(rest.requestJson('PUT', '/api/v1/x', { body: {} })).rejects.toThrow(
      /nothing received for 200 ms/,
    );
  });

  it('reports each request once to metrics: method, host, code, seconds; <error> when no answer came', async () => {
    const observed: Array<{ method: string; host: string; code: string; seconds: number }> = [];
    const kubeConfig = await serve((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(req.method === 'DELETE' ? 404 : 200, { 'content-type': 'application/json' });
        res.end('{"kind":"ConfigMapList","items":[]}');
      });
    });
    const rest = createClient(kubeConfig, { metrics: { observe: (r) => void observed.push(r) } });
    await rest.getList('/api/v1/configmaps', {}, 'application/json');
    await rest.request('DELETE', '/api/v1/namespaces/a/configmaps/b');
    const host = new URL(kubeConfig.getCurrentCluster()?.server ?? '').host;
    expect(observed.map(({ method, host, code }) => [method, host, code])).toEqual([
      ['GET', host, '200'],
      ['DELETE', host, '404'],
    ]);
    expect(observed.every((r) => r.seconds >= 0 && r.seconds < 60)).toBe(true);

    server?.closeAllConnections();
    server?.close();
    await rest.getJson('/api/v1/configmaps', {}, 'application/json').catch(() => undefined);
    expect(observed.at(-1)?.code).toBe('<error>');
    expect(() => createClient(kubeConfig, { metrics: {} as never })).toThrow(/metrics/);
  });

  it('rejects a disableCompression that is not a boolean, naming it', () => {
    expect(() =>
      createClient(new KubeConfig(), { disableCompression: 'yes' as unknown as boolean }),
    ).toThrow(/disableCompression/);
  });
});
