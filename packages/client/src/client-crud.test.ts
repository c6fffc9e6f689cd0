import { isNotFound } from '@ctrlkit/core';
import type { V1ConfigMap, V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type TestServer } from '../test/test-server.js';
import { createClient } from './client.js';
import type { Wire } from './wire.js';

let listener: TestServer | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

interface Seen {
  method?: string;
  url?: string;
  type?: string;
  auth?: string;
  body: string;
}

/** Answers every request with the object it names (or a 404 Status for `missing`), recording it. */
async function echo(seen: Seen[]) {
  listener = await serve((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        type: req.headers['content-type'],
        auth: req.headers.authorization,
        body,
      });
      if (req.url?.includes('missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"kind":"Status","code":404,"reason":"NotFound","message":"missing"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        body !== '' && req.method !== 'DELETE' && req.method !== 'PATCH'
          ? body
          : '{"metadata":{"name":"a","creationTimestamp":"2026-01-02T03:04:05Z"},"items":[]}',
      );
    });
  });
  return listener.kubeConfig;
}

describe('Client requests by resource', () => {
  it('builds each verb’s path, query, content type and body, with the kubeconfig’s credentials', async () => {
    const seen: Seen[] = [];
    const client = createClient(await echo(seen));
    const pod: Wire<V1Pod> = await client.get<V1Pod>('pods', 'a', { namespace: 'ns' });
    expect(pod.metadata?.creationTimestamp).toBe('2026-01-02T03:04:05Z');
    await client.list<V1Pod>('pods', { labelSelector: 'app=web', limit: 10 });
    await client.list('apps/v1/deployments', { namespace: 'ns', fieldSelector: 'metadata.name=x' });
    const configMap: Wire<V1ConfigMap> = {
      metadata: { name: 'c', namespace: 'ns' },
      data: { a: 'b' },
    };
    await client.create('configmaps', configMap, { fieldManager: 'me', dryRun: true });
    await client.replace('configmaps', {
      ...configMap,
      metadata: { ...configMap.metadata, resourceVersion: '7' },
    });
    await client.replace(
      'v1/pods',
      { metadata: { name: 'p', namespace: 'ns' } },
      { subresource: 'status' },
    );
    await client.patch('nodes', 'n', { metadata: { labels: { a: 'b' } } });
    await client.patch('nodes', 'n', { status: {} }, { subresource: 'status', type: 'strategic' });
    await client.patch('pods', 'p', [{ op: 'remove', path: '/x' }], {
      namespace: 'ns',
      type: 'json',
    });
    await client.patch(
      { group: 'example.com', version: 'v1', resource: 'widgets' },
      'w',
      { apiVersion: 'example.com/v1', kind: 'Widget' },
      { type: 'apply', fieldManager: 'ctl', force: true },
    );
    await client.delete('pods', 'p', {
      namespace: 'ns',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'u1' },
    });
    await client.delete('namespaces', 'x');
    await client.deleteCollection('pods', { namespace: 'ns', labelSelector: 'a=b' });
    expect(
      seen.map((s) => [s.method, s.url, s.type, s.body === '' ? '' : JSON.parse(s.body)]),
    ).toEqual([
      ['GET', '/api/v1/namespaces/ns/pods/a', undefined, ''],
      ['GET', '/api/v1/pods?labelSelector=app%3Dweb&limit=10', undefined, ''],
      [
        'GET',
        '/apis/apps/v1/namespaces/ns/deployments?fieldSelector=metadata.name%3Dx',
        undefined,
        '',
      ],
      [
        'POST',
        '/api/v1/namespaces/ns/configmaps?fieldManager=me&dryRun=All',
        'application/json',
        configMap,
      ],
      [
        'PUT',
        '/api/v1/namespaces/ns/configmaps/c',
        'application/json',
        { ...configMap, metadata: { ...configMap.metadata, resourceVersion: '7' } },
      ],
      [
        'PUT',
        '/api/v1/namespaces/ns/pods/p/status',
        'application/json',
        { metadata: { name: 'p', namespace: 'ns' } },
      ],
      [
        'PATCH',
        '/api/v1/nodes/n',
        'application/merge-patch+json',
        { metadata: { labels: { a: 'b' } } },
      ],
      ['PATCH', '/api/v1/nodes/n/status', 'application/strategic-merge-patch+json', { status: {} }],
      [
        'PATCH',
        '/api/v1/namespaces/ns/pods/p',
        'application/json-patch+json',
        [{ op: 'remove', path: '/x' }],
      ],
      [
        'PATCH',
        '/apis/example.com/v1/widgets/w?fieldManager=ctl&force=true',
        'application/apply-patch+yaml',
        { apiVersion: 'example.com/v1', kind: 'Widget' },
      ],
      [
        'DELETE',
        '/api/v1/namespaces/ns/pods/p',
        'application/json',
        {
          apiVersion: 'v1',
          kind: 'DeleteOptions',
          gracePeriodSeconds: 0,
          preconditions: { uid: 'u1' },
        },
      ],
      ['DELETE', '/api/v1/namespaces/x', undefined, ''],
      ['DELETE', '/api/v1/namespaces/ns/pods?labelSelector=a%3Db', undefined, ''],
    ]);
    expect(seen.every((s) => s.auth === 'Bearer secret')).toBe(true);
  });

  it('throws the API error for a non-2xx answer, readable with core’s helpers', async () => {
    const client = createClient(await echo([]));
    const error = await client.get('pods', 'missing', { namespace: 'ns' }).catch((e: unknown) => e);
    expect(isNotFound(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /GET \/api\/v1\/namespaces\/ns\/pods\/missing: 404 NotFound: missing/,
    );
  });

  it('rejects an empty name before sending anything', async () => {
    const seen: Seen[] = [];
    const client = createClient(await echo(seen));
    await expect(client.get('pods', '')).rejects.toMatchObject({ field: 'name' });
    expect(seen).toEqual([]);
  });
});
