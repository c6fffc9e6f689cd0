import { afterEach, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { serve, type TestServer } from '../test/test-server.js';
import { createClient } from './client.js';
import { defaultUserAgent, programName } from './user-agent.js';

let listener: TestServer | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

describe('User-Agent', () => {
  it("is '<program>/<version> (<os>/<arch>) ctrlkit/<version>', OS and architecture named as Go names them", () => {
    const ua = defaultUserAgent({ name: 'my-controller', version: 'v1.2.3' });
    expect(ua).toMatch(
      /^my-controller\/v1\.2\.3 \((linux|darwin|windows|freebsd)\/(amd64|arm64|386|arm|ppc64|s390x|riscv64)\) ctrlkit\/\d+\.\d+\.\d+/,
    );
    expect(ua.endsWith(`ctrlkit/${packageJson.version}`)).toBe(true);
  });

  it("defaults, as client-go, to the binary's base name and version 'unknown'", () => {
    expect(
      programName(['/usr/bin/node', '/opt/app/node_modules/.bin/ctrlkit-virtual-kubelet']),
    ).toBe('ctrlkit-virtual-kubelet');
    expect(programName(['node', '/srv/controller/dist/main.js'])).toBe('main');
    expect(programName(['/usr/local/bin/node'])).toBe('node');
    expect(defaultUserAgent().startsWith(`${programName()}/unknown (`)).toBe(true);
  });

  it('is sent with every request, LIST and WATCH included; `userAgent` replaces it whole', async () => {
    const agents: Array<string | undefined> = [];
    listener = await serve((req, res) => {
      agents.push(req.headers['user-agent']);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url?.includes('watch=true') ? '' : '{"kind":"List","items":[]}');
    });
    const client = createClient(listener.kubeConfig, { program: { name: 'prog', version: '2.0' } });
    await client.get('configmaps', 'a', { namespace: 'ns' });
    await client.getList('/api/v1/configmaps', {}, 'application/json');
    await client.watch('/api/v1/configmaps', {}, 'application/json', () => {});
    const custom = createClient(listener.kubeConfig, { userAgent: 'my-app/1.2.3' });
    await custom.list('configmaps');
    expect(agents).toEqual([client.userAgent, client.userAgent, client.userAgent, 'my-app/1.2.3']);
    expect(client.userAgent).toBe(defaultUserAgent({ name: 'prog', version: '2.0' }));
  });
});
