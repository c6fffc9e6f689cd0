import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ProviderInspector } from '../adapter.js';
import type { Provider } from '../api/provider.js';
import {
  DEFAULT_PROVIDER_INSPECTORS,
  inspectProvider,
  ProviderController,
} from './provider-controller.js';

const provider = (type: string, url?: string): Provider =>
  ({ metadata: { name: 'p', namespace: 'ns' }, spec: { type, ...(url && { url }) } }) as Provider;
const signal = new AbortController().signal;
const types = (cs: Array<{ type: string }>) => cs.map((c) => c.type);

describe('inspectProvider', () => {
  it('the host cluster (openshift without url) and simulated are Ready and Validated', async () => {
    for (const p of [provider('openshift'), provider('simulated')]) {
      const cs = await inspectProvider(p, DEFAULT_PROVIDER_INSPECTORS, signal);
      expect(types(cs)).toEqual(['Validated', 'Ready']);
      expect(cs[1]).toMatchObject({
        status: 'True',
        category: 'Required',
        message: 'The provider is ready.',
      });
    }
  });

  it('a remote openshift provider gets UrlNotValid (NotSupported) and no Ready', async () => {
    const cs = await inspectProvider(
      provider('openshift', 'https://api.remote:6443'),
      DEFAULT_PROVIDER_INSPECTORS,
      signal,
    );
    expect(cs).toEqual([
      expect.objectContaining({
        type: 'UrlNotValid',
        reason: 'NotSupported',
        category: 'Critical',
      }),
    ]);
  });

  it('a type without an inspector gets ProviderTypeNotSupported (Critical) naming the supported types', async () => {
    const cs = await inspectProvider(provider('vsphere'), DEFAULT_PROVIDER_INSPECTORS, signal);
    expect(cs).toEqual([
      expect.objectContaining({
        type: 'ProviderTypeNotSupported',
        reason: 'NotSupported',
        category: 'Critical',
        message: 'The `type` must be: [openshift simulated]',
      }),
    ]);
    // inherited keys of the map are not inspectors
    expect(
      types(await inspectProvider(provider('toString'), DEFAULT_PROVIDER_INSPECTORS, signal)),
    ).toEqual(['ProviderTypeNotSupported']);
  });

  it("an inspector's own conditions are kept; its blocker keeps Ready off; its own Ready wins", async () => {
    const found: ProviderInspector = () => [
      { type: 'InventoryCreated', status: 'True', category: 'Advisory' },
    ];
    expect(types(await inspectProvider(provider('ova'), { ova: found }, signal))).toEqual([
      'InventoryCreated',
      'Validated',
      'Ready',
    ]);
    const broken: ProviderInspector = async () => [
      { type: 'ConnectionTestFailed', status: 'True', category: 'Critical', reason: 'Tested' },
    ];
    expect(types(await inspectProvider(provider('ova'), { ova: broken }, signal))).toEqual([
      'ConnectionTestFailed',
    ]);
    const notYet: ProviderInspector = () => [
      { type: 'Ready', status: 'False', category: 'Required' },
    ];
    const cs = await inspectProvider(provider('ova'), { ova: notYet }, signal);
    expect(cs.filter((c) => c.type === 'Ready')).toEqual([
      expect.objectContaining({ status: 'False' }),
    ]);
  });
});

describe('ProviderController options', () => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const field = (options: object) => {
    try {
      new ProviderController({ kubeConfig, ...options });
    } catch (error) {
      return (error as { field?: string }).field;
    }
    return undefined;
  };

  it('rejects bad options naming the field', () => {
    // Neither the runtime client nor a kubeconfig for its default client.
    expect(field({ kubeConfig: undefined })).toBe('client');
    expect(field({ readyIntervalMs: 0 })).toBe('readyIntervalMs');
    expect(field({ notReadyIntervalMs: Number.NaN })).toBe('notReadyIntervalMs');
    expect(field({ inspectors: { ova: 'yes' } })).toBe('inspectors.ova');
    expect(field({ inspectors: { ova: () => [] }, readyIntervalMs: 1 })).toBeUndefined();
  });
});
