import { noopLogger } from '@ctrlkit/core';
import { ApiStatusError, type Client } from '@ctrlkit/runtime/client';
import { describe, expect, it } from 'vitest';
import type { DRAPlugin, PrepareResult, ResourceClaim } from '../dra-plugin.js';
import { type NodeServiceDeps, prepare, unprepare } from './node-service.js';
import { Serializer } from './serializer.js';

const DRIVER = 'gpu.example.com';

function claim(name: string, uid: string, driver: string | null = DRIVER): ResourceClaim {
  return {
    metadata: { name, namespace: 'ns', uid },
    spec: {},
    status:
      driver === null
        ? {}
        : {
            allocation: {
              devices: { results: [{ driver, pool: 'node-a', device: 'gpu-0', request: 'gpu' }] },
            },
          },
  } as ResourceClaim;
}

/** A client whose GET answers from `claims` (404 for others): the unit-level stand-in for the apiserver. */
function clientOf(claims: ResourceClaim[]): Client {
  return {
    get: async (_resource: unknown, name: string) => {
      const found = claims.find((c) => c.metadata?.name === name);
      if (!found)
        throw new ApiStatusError(
          404,
          { reason: 'NotFound', message: `resourceclaims "${name}" not found` },
          'GET',
        );
      return found;
    },
  } as unknown as Client;
}

function deps(
  claims: ResourceClaim[],
  plugin: Partial<DRAPlugin>,
  serialize = true,
): NodeServiceDeps {
  return {
    client: clientOf(claims),
    driverName: DRIVER,
    plugin: { handleError: () => {}, ...plugin } as DRAPlugin,
    serializer: new Serializer(serialize),
    logger: noopLogger,
  };
}

const devicesFor = (claims: readonly ResourceClaim[]) =>
  new Map<string, PrepareResult>(
    claims.map((c) => [
      c.metadata?.uid ?? '',
      {
        devices: [
          {
            requests: ['gpu/sub'],
            poolName: 'node-a',
            deviceName: 'gpu-0',
            cdiDeviceIds: [`k8s.gpu.example.com/gpu=${c.metadata?.uid}-gpu-0`],
          },
        ],
      },
    ]),
  );

describe('NodePrepareResources', () => {
  it("passes only checked claims to the plugin; each failed check is that claim's error", async () => {
    const seen: string[] = [];
    const d = deps(
      [
        claim('ok', 'u1'),
        claim('replaced', 'new-uid'),
        claim('pending', 'u3', null),
        claim('other', 'u4', 'other.example.com'),
      ],
      {
        prepareResourceClaims: async (claims) => {
          seen.push(...claims.map((c) => c.metadata?.name ?? ''));
          return devicesFor(claims);
        },
      },
    );
    const wire = (name: string, uid: string) => ({ namespace: 'ns', name, uid });
    const response = await prepare(d, [
      wire('ok', 'u1'),
      wire('replaced', 'u2'),
      wire('pending', 'u3'),
      wire('other', 'u4'),
      wire('gone', 'u5'),
    ]);
    expect(seen).toEqual(['ok']);
    expect(response.claims.u1).toEqual({
      error: '',
      devices: [
        {
          requestNames: ['gpu'],
          poolName: 'node-a',
          deviceName: 'gpu-0',
          cdiDeviceIds: ['k8s.gpu.example.com/gpu=u1-gpu-0'],
        },
      ],
    });
    expect(response.claims.u2?.error).toBe(
      'claim ns/replaced: got replaced (UID new-uid, asked u2)',
    );
    expect(response.claims.u3?.error).toBe('claim ns/pending: not allocated');
    expect(response.claims.u4?.error).toBe(
      'claim ns/other: allocation has no device of driver gpu.example.com',
    );
    expect(response.claims.u5?.error).toBe(
      'claim ns/gone: retrieve claim: HTTP 404: resourceclaims "gone" not found',
    );
  });

  it('a plugin that throws fails each of its claims, not the call; a missing result is an error', async () => {
    const thrown = await prepare(
      deps([claim('a', 'u1')], {
        prepareResourceClaims: async () => {
          throw new Error('driver broke');
        },
      }),
      [{ namespace: 'ns', name: 'a', uid: 'u1' }],
    );
    expect(thrown.claims).toEqual({
      u1: { devices: [], error: 'prepare resource claims: driver broke' },
    });
    const partial = await prepare(
      deps([claim('a', 'u1'), claim('b', 'u2')], {
        prepareResourceClaims: async () => new Map([['u1', { error: new Error('device busy') }]]),
      }),
      [
        { namespace: 'ns', name: 'a', uid: 'u1' },
        { namespace: 'ns', name: 'b', uid: 'u2' },
      ],
    );
    expect(partial.claims).toEqual({
      u1: { devices: [], error: 'device busy' },
      u2: { devices: [], error: 'plugin returned no result for the claim' },
    });
  });

  it('keeps a share ID and leaves it out when there is none', async () => {
    const response = await prepare(
      deps([claim('a', 'u1')], {
        prepareResourceClaims: async () =>
          new Map([
            [
              'u1',
              {
                devices: [
                  {
                    requests: [],
                    poolName: 'p',
                    deviceName: 'd',
                    cdiDeviceIds: [],
                    shareId: 's-1',
                  },
                ],
              },
            ],
          ]),
      }),
      [{ namespace: 'ns', name: 'a', uid: 'u1' }],
    );
    expect(response.claims.u1?.devices).toEqual([
      { requestNames: [], poolName: 'p', deviceName: 'd', cdiDeviceIds: [], shareId: 's-1' },
    ]);
  });

  it('serializes plugin calls unless serialize is false', async () => {
    for (const serialize of [true, false]) {
      let active = 0;
      let maxActive = 0;
      const d = deps(
        [claim('a', 'u1')],
        {
          prepareResourceClaims: async (claims) => {
            maxActive = Math.max(maxActive, ++active);
            await new Promise((resolve) => setTimeout(resolve, 20));
            active--;
            return devicesFor(claims);
          },
        },
        serialize,
      );
      const one = { namespace: 'ns', name: 'a', uid: 'u1' };
      await Promise.all([prepare(d, [one]), prepare(d, [one]), prepare(d, [one])]);
      expect(maxActive).toBe(serialize ? 1 : 3);
    }
  });
});

describe('reading claims', () => {
  it('retries a read the apiserver failed with 5xx (DefaultBackoff), but not a 403, and names the status', async () => {
    const calls: string[] = [];
    const answers: Record<string, number[]> = {
      flaky: [503, 500],
      denied: [403],
      down: [503, 503, 503, 503],
    };
    const d = deps([], { prepareResourceClaims: async (claims) => devicesFor(claims) });
    (d as { client: Client }).client = {
      get: async (_resource: unknown, name: string) => {
        calls.push(name);
        const code = answers[name]?.shift();
        if (code !== undefined)
          throw new ApiStatusError(code, { message: `answer ${code}` }, `GET ${name}`);
        return claim(name, `${name}-uid`);
      },
    } as unknown as Client;
    const wire = (name: string) => ({ namespace: 'ns', name, uid: `${name}-uid` });
    const response = await prepare(d, [wire('flaky'), wire('denied'), wire('down')]);
    expect(response.claims['flaky-uid']?.error).toBe('');
    expect(response.claims['denied-uid']?.error).toBe(
      'claim ns/denied: retrieve claim: HTTP 403: answer 403',
    );
    expect(response.claims['down-uid']?.error).toBe(
      'claim ns/down: retrieve claim: HTTP 503: answer 503',
    );
    expect(calls.filter((name) => name === 'flaky')).toHaveLength(3);
    expect(calls.filter((name) => name === 'denied')).toHaveLength(1);
    expect(calls.filter((name) => name === 'down')).toHaveLength(4);
  });
});

describe('NodeUnprepareResources', () => {
  it('passes UID, namespace and name without reading the claim; errors are per claim', async () => {
    let refs: unknown;
    const d = deps([], {
      unprepareResourceClaims: async (claims) => {
        refs = claims;
        return new Map([
          ['u1', null],
          ['u2', new Error('still in use')],
        ]);
      },
    });
    const response = await unprepare(d, [
      { namespace: 'ns', name: 'gone', uid: 'u1' },
      { namespace: 'ns', name: 'b', uid: 'u2' },
      { namespace: 'ns', name: 'c', uid: 'u3' },
    ]);
    expect(refs).toEqual([
      { uid: 'u1', namespace: 'ns', name: 'gone' },
      { uid: 'u2', namespace: 'ns', name: 'b' },
      { uid: 'u3', namespace: 'ns', name: 'c' },
    ]);
    expect(response.claims).toEqual({
      u1: { error: '' },
      u2: { error: 'still in use' },
      u3: { error: 'plugin returned no result for the claim' },
    });
    const thrown = await unprepare(
      deps([], {
        unprepareResourceClaims: async () => {
          throw new Error('disk full');
        },
      }),
      [{ namespace: 'ns', name: 'a', uid: 'u1' }],
    );
    expect(thrown.claims).toEqual({ u1: { error: 'unprepare resource claims: disk full' } });
  });
});
