import { collectionPath, toGroupVersionResource } from '@ctrlkit/client';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { newListWatch, newListWatchFromClient, peekContinueToken } from './list-watch.js';

describe('peekContinueToken', () => {
  it('reads the continue token from the head of a list body without parsing it', () => {
    const body = Buffer.from(
      JSON.stringify({
        kind: 'ConfigMapList',
        apiVersion: 'v1',
        metadata: {
          resourceVersion: '42',
          continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDJ9',
          remainingItemCount: 3,
        },
        items: [{ metadata: { name: 'a' } }],
      }),
    );
    expect(peekContinueToken(body)).toBe('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDJ9');
  });

  it('finds nothing on the last page, and ignores "continue" inside items', () => {
    const last = Buffer.from(
      JSON.stringify({ metadata: { resourceVersion: '42' }, items: [{ data: { continue: 'x' } }] }),
    );
    expect(peekContinueToken(last)).toBeUndefined();
    const emptyToken = Buffer.from(JSON.stringify({ metadata: { continue: '' }, items: [] }));
    expect(peekContinueToken(emptyToken)).toBeUndefined();
  });

  it("reads a protobuf list body with the client's protobuf reader", () => {
    const field = (n: number, bytes: Buffer): Buffer =>
      Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
    // `k8s\0` + runtime.Unknown { raw: ConfigMapList { metadata: { continue } } }
    const listMeta = field(3, Buffer.from('eyJydiI6NDJ9'));
    const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(2, field(1, listMeta))]);
    expect(peekContinueToken(body)).toBe('eyJydiI6NDJ9');
  });
});

describe('resources and ListWatch construction', () => {
  it('parses resource strings and builds collection paths', () => {
    expect(toGroupVersionResource('configmaps')).toEqual({
      group: '',
      version: 'v1',
      resource: 'configmaps',
    });
    expect(toGroupVersionResource('apps/v1/deployments')).toEqual({
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
    });
    expect(collectionPath(toGroupVersionResource('pods'), 'ns')).toBe('/api/v1/namespaces/ns/pods');
    expect(collectionPath(toGroupVersionResource('example.com/v1/widgets'), undefined)).toBe(
      '/apis/example.com/v1/widgets',
    );
    expect(() => toGroupVersionResource('a/b/c/d')).toThrow(/resource/);
    expect(() => toGroupVersionResource({ group: 'x', version: 'V1', resource: 'w' })).toThrow(
      /resource\.version/,
    );
    expect(() => toGroupVersionResource({ group: '', version: 'v1', resource: 'Pods' })).toThrow(
      /resource\.resource/,
    );
  });

  it('rejects invalid options naming the field', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromClusterAndUser(
      { name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: false },
      { name: 'u' },
    );
    expect(() => newListWatch(kubeConfig, 'configmaps', { namespace: 5 as never })).toThrow(
      /namespace/,
    );
    expect(() => newListWatch(kubeConfig, 'configmaps', { metadataOnly: 'yes' as never })).toThrow(
      /metadataOnly/,
    );
    expect(() => newListWatchFromClient({} as KubeConfig, 'configmaps', '')).toThrow(/client/);
    expect(newListWatchFromClient(kubeConfig, 'configmaps', 'ns', 'metadata.name=x')).toBeDefined();
  });
});
