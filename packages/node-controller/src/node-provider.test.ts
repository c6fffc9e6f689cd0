import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Node } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { NaiveNodeProvider, newNaiveNodeProvider } from './node-provider.js';

describe('node providers', () => {
  it('NaiveNodeProvider pings fine while its signal is live and fails once aborted', async () => {
    const abort = new AbortController();
    const provider = new NaiveNodeProvider();
    await expect(provider.ping(abort.signal)).resolves.toBeUndefined();
    abort.abort(new Error('stopped'));
    await expect(provider.ping(abort.signal)).rejects.toThrow('stopped');
  });

  it('NaiveNodeProviderV2.updateStatus waits for the callback, then delivers', async () => {
    const provider = newNaiveNodeProvider();
    const abort = new AbortController();
    const seen: Wire<V1Node>[] = [];
    const pending = provider.updateStatus(abort.signal, { metadata: { name: 'n' } });
    provider.notifyNodeStatus(abort.signal, (n) => seen.push(n));
    await pending;
    expect(seen).toEqual([{ metadata: { name: 'n' } }]);
  });

  it('NaiveNodeProviderV2.updateStatus rejects when the signal aborts before registration', async () => {
    const provider = newNaiveNodeProvider();
    const abort = new AbortController();
    const pending = provider.updateStatus(abort.signal, { metadata: { name: 'n' } });
    abort.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
  });
});
