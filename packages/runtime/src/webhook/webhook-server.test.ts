import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type ClientHttp2Session, connect as http2Connect } from 'node:http2';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { createCertificate, type IssuedCertificate } from '@ctrlkit/envtest/certificates';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutatingWebhookFor, validatingWebhookFor } from './admission-webhook.js';
import { AdmissionDeniedError } from './webhook-error.js';
import { WebhookServer } from './webhook-server.js';

type Widget = { spec?: Record<string, unknown> };
const widgets = { group: 'example.com', versions: ['v1'], kind: 'Widget', resource: 'widgets' };

const validator = validatingWebhookFor<Widget>(
  {
    validateCreate: async (w, { dryRun, signal }) => {
      if (w.spec?.deny)
        throw new AdmissionDeniedError(`spec.deny is ${w.spec.deny}`, {
          code: 422,
          statusReason: 'Invalid',
          warnings: ['careful'],
        });
      if (w.spec?.throw) throw new Error('handler broke');
      if (w.spec?.hang) await new Promise((resolve) => signal.addEventListener('abort', resolve));
      return dryRun ? ['dry run'] : ['created'];
    },
    validateUpdate: (old, next) => (old.spec?.size !== next.spec?.size ? ['size changed'] : []),
    validateDelete: (w) => {
      if (w.spec?.protected) throw new AdmissionDeniedError('widget is protected');
    },
  },
  { ...widgets, name: 'vwidget.example.com', timeoutSeconds: 1 },
);
const defaulter = mutatingWebhookFor<Widget>(
  {
    default: (w) => {
      w.spec = { size: 1, ...w.spec, defaulted: true };
    },
  },
  { ...widgets, name: 'mwidget.example.com' },
);

/** The review the server answers (or its error review). */
interface Reply {
  response: {
    uid: string;
    allowed: boolean;
    status: { code: number; message: string; reason?: string };
    warnings?: string[];
    patch: string;
  };
}

let dir: string;
let ca: IssuedCertificate;
let serving: IssuedCertificate;
let server: WebhookServer;
const registry = new Registry();
const errors: string[] = [];
const logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (_context: object, message?: string) => errors.push(String(message)),
};
const stop = new AbortController();
let done: Promise<void>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'webhook-server-'));
  ca = await createCertificate({ usage: 'ca', commonName: 'test-ca' });
  serving = await createCertificate(
    { usage: 'server', commonName: 'localhost', ipAddresses: ['127.0.0.1'] },
    ca,
  );
  await writePair(serving);
  server = new WebhookServer({
    host: '127.0.0.1',
    port: 0,
    certDir: dir,
    maxRequestBytes: 4096,
    logger,
    registry,
  });
  server.register(validator).register(defaulter);
  done = server.start(stop.signal);
  await server.ready;
});

afterAll(async () => {
  stop.abort();
  await done;
  await rm(dir, { recursive: true, force: true });
});

async function writePair(pair: IssuedCertificate): Promise<void> {
  await writeFile(join(dir, 'tls.crt'), pair.certPem);
  await writeFile(join(dir, 'tls.key'), pair.keyPem);
}

function post(
  path: string,
  body: string | Buffer,
  contentType = 'application/json',
  cas = [ca.certPem],
  agent: Agent | false = false,
  port = server.port,
) {
  return new Promise<{ status: number; body: Reply }>((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        ca: cas,
        headers: { 'content-type': contentType },
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString()),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function review(operation: string, object: unknown, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${operation}`,
      kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      operation,
      userInfo: {},
      ...(operation === 'DELETE' ? { oldObject: object } : { object }),
      ...extra,
    },
  });
}

function peerCertificate(): Promise<PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: server.port as number, rejectUnauthorized: false },
      () => {
        resolve(socket.getPeerCertificate());
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

describe('WebhookServer: admission', () => {
  it('allows with the validator warnings and the request uid', async () => {
    const { status, body } = await post(validator.path, review('CREATE', { spec: {} }));
    expect(status).toBe(200);
    expect(body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'uid-CREATE', allowed: true, warnings: ['created'] },
    });
  });

  it('passes dryRun to the handler', async () => {
    const { body } = await post(validator.path, review('CREATE', { spec: {} }, { dryRun: true }));
    expect(body.response.warnings).toEqual(['dry run']);
  });

  it('denies with the denial code, reason, message and warnings', async () => {
    const { body } = await post(validator.path, review('CREATE', { spec: { deny: 'yes' } }));
    expect(body.response).toEqual({
      uid: 'uid-CREATE',
      allowed: false,
      status: { code: 422, reason: 'Invalid', message: 'spec.deny is yes' },
      warnings: ['careful'],
    });
  });

  it('validates a delete on the old object', async () => {
    const { body } = await post(validator.path, review('DELETE', { spec: { protected: true } }));
    expect(body.response).toMatchObject({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'widget is protected' },
    });
  });

  it('answers a handler that throws with allowed false, code 500 and its message', async () => {
    const { status, body } = await post(
      validator.path,
      review('CREATE', { spec: { throw: true } }),
    );
    expect(status).toBe(200);
    expect(body.response).toEqual({
      uid: 'uid-CREATE',
      allowed: false,
      status: { code: 500, message: 'handler broke' },
    });
  });

  it('answers a hanging handler before the webhook timeoutSeconds', async () => {
    const started = performance.now();
    const { body } = await post(validator.path, review('CREATE', { spec: { hang: true } }));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(body.response).toEqual({
      uid: 'uid-CREATE',
      allowed: false,
      status: { code: 504, message: 'webhook handler did not answer within 500 ms' },
    });
  });

  it('mutates through a JSON Patch of the object before and after', async () => {
    const { body } = await post(defaulter.path, review('CREATE', { spec: { size: 3 } }));
    expect(body.response).toMatchObject({
      uid: 'uid-CREATE',
      allowed: true,
      patchType: 'JSONPatch',
    });
    expect(JSON.parse(Buffer.from(body.response.patch, 'base64').toString())).toEqual([
      { op: 'add', path: '/spec/defaulted', value: true },
    ]);
  });

  it('answers an object already defaulted without a patch', async () => {
    const { body } = await post(
      defaulter.path,
      review('CREATE', { spec: { size: 3, defaulted: true } }),
    );
    expect(body.response).toEqual({ uid: 'uid-CREATE', allowed: true });
  });
});

describe('WebhookServer: bad requests', () => {
  it('answers malformed JSON with 400', async () => {
    const { status, body } = await post(validator.path, '{"apiVersion":');
    expect(status).toBe(400);
    expect(body.response.status.code).toBe(400);
    expect(body.response.status.message).toMatch(/^request body is not JSON/);
  });

  it('answers JSON that is not an AdmissionReview with 400', async () => {
    const { status, body } = await post(validator.path, JSON.stringify({ kind: 'Pod' }));
    expect(status).toBe(400);
    expect(body.response.status.message).toMatch(/expected apiVersion admission.k8s.io\/v1/);
  });

  it('answers an empty body with 400', async () => {
    const { status, body } = await post(validator.path, '');
    expect(status).toBe(400);
    expect(body.response.status.message).toBe('request body is empty');
  });

  it('answers a wrong content type with 415', async () => {
    const { status, body } = await post(validator.path, review('CREATE', {}), 'text/plain');
    expect(status).toBe(415);
    expect(body.response.status.message).toMatch(/content type text\/plain not supported/);
  });

  it('answers a body over the limit with 413', async () => {
    const { status, body } = await post(
      validator.path,
      review('CREATE', { spec: { pad: 'x'.repeat(5000) } }),
    );
    expect(status).toBe(413);
    expect(body.response.status.message).toMatch(/over the limit of 4096 bytes/);
  });

  it('answers an unknown path with 404', async () => {
    const { status } = await post('/nowhere', review('CREATE', {}));
    expect(status).toBe(404);
  });

  it('counts requests by webhook and code, and none in flight after', async () => {
    const text = await registry.metrics();
    expect(text).toMatch(
      new RegExp(
        `controller_runtime_webhook_requests_total\\{webhook="${validator.path}",code="200"\\} \\d+`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `controller_runtime_webhook_requests_total\\{webhook="${validator.path}",code="415"\\} 1`,
      ),
    );
    expect(text).toMatch(
      new RegExp(
        `controller_runtime_webhook_requests_in_flight\\{webhook="${validator.path}"\\} 0`,
      ),
    );
    expect(text).toMatch(
      /controller_runtime_webhook_latency_seconds_count\{webhook="\/validate-example-com-v1-widget"\} \d+/,
    );
    // controller-runtime's buckets: ExponentialBuckets(10e-9, 10, 12).
    const bounds = [
      ...text.matchAll(/latency_seconds_bucket\{le="([^"]+)",webhook="\/validate-example/g),
    ].map((m) => m[1]);
    expect(bounds).toEqual([
      ...['1e-8', '1e-7', '0.000001', '0.00001', '0.0001', '0.001', '0.01', '0.1'],
      ...['1', '10', '100', '1000', '+Inf'],
    ]);
  });

  it('refuses TLS below 1.2', async () => {
    await expect(
      new Promise((resolve, reject) => {
        const socket = connect(
          {
            host: '127.0.0.1',
            port: server.port as number,
            ca: [ca.certPem],
            maxVersion: 'TLSv1.1',
            minVersion: 'TLSv1',
          },
          () => resolve(socket.end()),
        );
        socket.on('error', reject);
      }),
    ).rejects.toThrow();
  });
});

describe('WebhookServer: certificate reload', () => {
  it('serves a new pair to new connections, and keeps the pair when the new one does not load', async () => {
    const before = await peerCertificate();
    const otherCa = await createCertificate({ usage: 'ca', commonName: 'other-ca' });
    const next = await createCertificate(
      { usage: 'server', commonName: 'localhost', ipAddresses: ['127.0.0.1'] },
      otherCa,
    );
    await writePair(next);
    await expect
      .poll(async () => (await peerCertificate()).fingerprint256, { timeout: 5000 })
      .not.toBe(before.fingerprint256);
    const { status } = await post(
      validator.path,
      review('CREATE', { spec: {} }),
      'application/json',
      [otherCa.certPem],
    );
    expect(status).toBe(200);

    // A key that does not match the certificate: logged, the current pair kept.
    await writeFile(join(dir, 'tls.key'), serving.keyPem);
    await expect
      .poll(() => errors, { timeout: 5000 })
      .toContain('new certificate does not load; keeping the current one');
    const { status: after } = await post(
      validator.path,
      review('CREATE', { spec: {} }),
      'application/json',
      [otherCa.certPem],
    );
    expect(after).toBe(200);
    await writeFile(join(dir, 'tls.key'), next.keyPem);
  });
});

/** A server of the test's own (the validator only), started; `halt` stops it. */
async function startOwnServer() {
  await writePair(serving);
  const own = new WebhookServer({ host: '127.0.0.1', port: 0, certDir: dir });
  own.register(validator);
  const halt = new AbortController();
  const running = own.start(halt.signal);
  await own.ready;
  return { own, halt, running };
}

describe('WebhookServer: stop', () => {
  it('answers the request in flight, then closes kept-alive connections at once', async () => {
    const { own, halt, running } = await startOwnServer();
    const agent = new Agent({ keepAlive: true });
    const cas = [ca.certPem];
    const first = await post(
      validator.path,
      review('CREATE', { spec: {} }),
      'application/json',
      cas,
      agent,
      own.port,
    );
    expect(first.status).toBe(200);
    const hanging = post(
      validator.path,
      review('CREATE', { spec: { hang: true } }),
      'application/json',
      cas,
      agent,
      own.port,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = performance.now();
    halt.abort();
    expect((await hanging).body.response.status.code).toBe(504);
    await running;
    expect(performance.now() - stopped).toBeLessThan(2000);
    expect(own.listening).toBe(false);
    agent.destroy();
  });
});

/** POSTs `body` to `path` on an HTTP/2 `session`; resolves the status and the review. */
function post2(session: ClientHttp2Session, path: string, body: string) {
  return new Promise<{ status: number; body: Reply }>((resolve, reject) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/json',
    });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (headers) => {
      status = Number(headers[':status']);
    });
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status, body: JSON.parse(Buffer.concat(chunks).toString()) }));
    stream.on('error', reject);
    stream.end(body);
  });
}

describe('WebhookServer: HTTP/2', () => {
  it('offers h2 (as controller-runtime) and answers reviews on one connection', async () => {
    const session = http2Connect(`https://127.0.0.1:${server.port}`, { ca: [ca.certPem] });
    try {
      const [first, second] = await Promise.all([
        post2(session, validator.path, review('CREATE', { spec: {} })),
        post2(session, defaulter.path, review('CREATE', { spec: {} })),
      ]);
      expect(session.alpnProtocol).toBe('h2');
      expect(first).toMatchObject({ status: 200, body: { response: { allowed: true } } });
      expect(second.body.response.patch).toBeTruthy();
    } finally {
      session.close();
    }
  });

  it('on stop, answers the stream in flight, then ends the HTTP/2 connection', async () => {
    const { own, halt, running } = await startOwnServer();
    const session = http2Connect(`https://127.0.0.1:${own.port}`, { ca: [ca.certPem] });
    const ended = new Promise((resolve) => session.on('close', resolve));
    session.on('error', () => {});
    expect((await post2(session, validator.path, review('CREATE', { spec: {} }))).status).toBe(200);
    const hanging = post2(session, validator.path, review('CREATE', { spec: { hang: true } }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = performance.now();
    halt.abort();
    expect((await hanging).body.response.status.code).toBe(504);
    await running;
    await ended;
    expect(performance.now() - stopped).toBeLessThan(2000);
  });
});
