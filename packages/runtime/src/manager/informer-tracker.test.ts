import { InvalidArgumentError } from '@ctrlkit/core';
import { FakeClock } from '@ctrlkit/core/testing';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ReflectorHealth } from '../informers/reflector.js';
import { Manager } from './manager.js';
import { DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS } from './manager-options.js';

/** A configuration that points nowhere: the manager starts no informer of its own. */
function kubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1' }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return config;
}

/** An informer made outside the manager's factory, whose health the test sets. */
function informer(name: string, health: ReflectorHealth) {
  return {
    name,
    current: health,
    health() {
      return this.current;
    },
  };
}

async function healthz(manager: Manager): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://${manager.healthProbeAddress}/healthz?verbose`);
  return { status: response.status, body: await response.text() };
}

describe('Manager.trackInformer', () => {
  it('reports a tracked informer in ctrlkit_informer_watch_state until untracked', async () => {
    const clock = new FakeClock();
    const m = new Manager({
      kubeConfig: kubeConfig(),
      clock,
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
    });
    const slices = informer('resourceslices', {
      state: 'backing-off',
      lastEventAtMs: undefined,
      unwatchedSinceMs: clock.now(),
    });
    const untrack = m.trackInformer(slices);
    const state = async () =>
      (await m.registry.getSingleMetricAsString('ctrlkit_informer_watch_state'))
        .split('\n')
        .filter((line) => line.startsWith('ctrlkit_informer_watch_state{'));
    expect(await state()).toContain(
      'ctrlkit_informer_watch_state{informer="resourceslices",state="backing-off"} 1',
    );
    slices.current = { state: 'watching', lastEventAtMs: clock.now(), unwatchedSinceMs: undefined };
    expect(await state()).toContain(
      'ctrlkit_informer_watch_state{informer="resourceslices",state="watching"} 1',
    );
    untrack();
    expect(await state()).toEqual([]);
  });

  it('fails /healthz naming a tracked informer without a watch for informerUnwatchedTimeoutMs', async () => {
    const clock = new FakeClock();
    const m = new Manager({
      kubeConfig: kubeConfig(),
      clock,
      metricsBindAddress: '0',
      healthProbeBindAddress: '127.0.0.1:0',
    });
    const slices = informer('resourceslices', {
      state: 'watching',
      lastEventAtMs: clock.now(),
      unwatchedSinceMs: undefined,
    });
    m.trackInformer(slices);
    const stop = new AbortController();
    const running = m.start(stop.signal);
    try {
      await m.elected;
      expect(await healthz(m)).toMatchObject({ status: 200 });
      slices.current = {
        state: 'backing-off',
        lastEventAtMs: undefined,
        unwatchedSinceMs: clock.now(),
      };
      clock.step(DEFAULT_INFORMER_UNWATCHED_TIMEOUT_MS + 1_000);
      const failed = await healthz(m);
      expect(failed.status).toBe(500);
      expect(failed.body).toContain('[-]informers failed');
    } finally {
      stop.abort();
      await running;
    }
  });

  it('rejects a second informer of a tracked name, and a non-informer', () => {
    const m = new Manager({
      kubeConfig: kubeConfig(),
      metricsBindAddress: '0',
      healthProbeBindAddress: '0',
    });
    const watching = { state: 'watching', lastEventAtMs: 0, unwatchedSinceMs: undefined } as const;
    m.trackInformer(informer('a', watching));
    expect(() => m.trackInformer(informer('a', watching))).toThrow(InvalidArgumentError);
    expect(() => m.trackInformer({} as never)).toThrow('must have a name and a health() method');
  });
});
