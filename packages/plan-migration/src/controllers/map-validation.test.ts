import { describe, expect, it } from 'vitest';
import type { NetworkMap, StorageMap } from '../api/mapping.js';
import type { Provider } from '../api/provider.js';
import { validateNetworkMap, validateStorageMap } from './map-validation.js';
import type { ProviderLookup } from './provider-pair.js';

const ready = [
  {
    type: 'Ready',
    status: 'True' as const,
    category: 'Required',
    lastTransitionTime: '2026-01-01T00:00:00Z',
  },
];
const providers: Record<string, Provider> = {
  'ns/src': {
    metadata: { name: 'src', namespace: 'ns' },
    spec: { type: 'simulated' },
    status: { conditions: ready },
  },
  'ns/host': {
    metadata: { name: 'host', namespace: 'ns' },
    spec: { type: 'openshift' },
    status: { conditions: ready },
  },
  'ns/cold': { metadata: { name: 'cold', namespace: 'ns' }, spec: { type: 'simulated' } },
  'other/remote': {
    metadata: { name: 'remote', namespace: 'other' },
    spec: { type: 'openshift', url: 'https://x' },
    status: { conditions: ready },
  },
};
const lookup: ProviderLookup = (ns, name) => providers[`${ns}/${name}`];
const pair = (source?: string, destination?: string) => ({
  source: source?.includes('/')
    ? { namespace: source.split('/')[0], name: source.split('/')[1] as string }
    : { name: source ?? '' },
  destination: destination?.includes('/')
    ? { namespace: destination.split('/')[0], name: destination.split('/')[1] as string }
    : { name: destination ?? '' },
});
const net = (provider: ReturnType<typeof pair>, map: NetworkMap['spec']['map']): NetworkMap => ({
  metadata: { name: 'n', namespace: 'ns' },
  spec: { provider, map },
});
const sto = (provider: ReturnType<typeof pair>, map: StorageMap['spec']['map']): StorageMap => ({
  metadata: { name: 's', namespace: 'ns' },
  spec: { provider, map },
});
const summary = (cs: Array<{ type: string; reason?: string; items?: string[] }>) =>
  cs.map((c) => [c.type, c.reason, ...(c.items ?? [])].filter(Boolean).join('/'));

describe('validateNetworkMap', () => {
  it('Ready providers and pod/multus destinations with ns/name: Ready', () => {
    const cs = validateNetworkMap(
      net(pair('src', 'host'), [
        { source: { id: 'net-1' }, destination: { type: 'pod' } },
        {
          source: { name: 'VM Network' },
          destination: { type: 'multus', namespace: 'ns', name: 'nad' },
        },
        { source: { id: 'net-3' }, destination: { type: 'ignored' } },
      ]),
      lookup,
    );
    expect(summary(cs)).toEqual(['Ready']);
    expect(cs[0]).toMatchObject({ message: 'The network map is ready.', category: 'Required' });
  });

  it('provider problems as upstream: NotSet, NotFound, NotReady, TypeNotValid; validation stops there', () => {
    const bad = [{ source: {}, destination: { type: 'multus' as const } }];
    expect(summary(validateNetworkMap(net(pair('', 'nope'), bad), lookup))).toEqual([
      'SourceProviderNotValid/NotSet',
      'DestinationProviderNotValid/NotFound',
    ]);
    expect(summary(validateNetworkMap(net(pair('cold', 'src'), bad), lookup))).toEqual([
      'SourceProviderNotReady',
      'DestinationProviderNotValid/TypeNotValid',
    ]);
  });

  it('a source without id or name, a multus destination without name or namespace: Critical, no Ready', () => {
    const cs = validateNetworkMap(
      net(pair('src', 'host'), [
        { source: {}, destination: { type: 'pod' } },
        { source: { id: 'a' }, destination: { type: 'multus' } },
        { source: { id: 'b' }, destination: { type: 'multus', name: 'nad' } },
      ]),
      lookup,
    );
    expect(summary(cs)).toEqual([
      'SourceNetworkNotValid/NotSet',
      'DestinationNetworkNotValid/NotSet',
      'DestinationNetworkNotValid/Ambiguous//nad',
    ]);
    expect(cs.every((c) => c.category === 'Critical')).toBe(true);
  });
});

describe('validateStorageMap', () => {
  const classes = new Set(['standard']);
  const exists = (name: string) => classes.has(name);

  it('existing storage classes on the host: Ready', () => {
    const cs = validateStorageMap(
      sto(pair('src', 'host'), [
        { source: { id: 'ds-1' }, destination: { storageClass: 'standard' } },
      ]),
      lookup,
      exists,
    );
    expect(summary(cs)).toEqual(['Ready']);
    expect(cs[0]?.message).toBe('The storage map is ready.');
  });

  it('a storage class missing from the host: DestinationStorageNotValid (NotFound) with the names, once each', () => {
    const cs = validateStorageMap(
      sto(pair('src', 'host'), [
        { source: { id: 'ds-1' }, destination: { storageClass: 'fast' } },
        { source: { id: 'ds-2' }, destination: { storageClass: 'fast' } },
        { source: {}, destination: { storageClass: 'standard' } },
      ]),
      lookup,
      exists,
    );
    expect(summary(cs)).toEqual([
      'SourceStorageNotValid/NotSet',
      'DestinationStorageNotValid/NotFound/fast',
    ]);
  });

  it('a remote openshift destination: its storage classes are not looked up on the host', () => {
    const cs = validateStorageMap(
      sto(pair('src', 'other/remote'), [
        { source: { id: 'ds-1' }, destination: { storageClass: 'fast' } },
      ]),
      lookup,
      exists,
    );
    expect(summary(cs)).toEqual(['Ready']);
  });
});
