//! An app's `/healthz` and its informers' `ctrlkit_informer_watch_state`, polled through a fault.

import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@ctrlkit/envtest';

/** Where an app serves `/metrics` and `/healthz` (loopback, free ports). */
export interface AppEndpoints {
  readonly metrics: string;
  readonly healthz: string;
}

/** Two free loopback addresses for an app's `/metrics` and `/healthz`. */
export async function freeEndpoints(): Promise<AppEndpoints> {
  return { metrics: `127.0.0.1:${await freePort()}`, healthz: `127.0.0.1:${await freePort()}` };
}

/** One poll: `/healthz`'s status (0: no answer) and each informer's watch state. */
export interface HealthSample {
  readonly at: number;
  readonly healthz: number;
  /** Informer → its current state (`listing`, `watching`, `backing-off`); empty: no answer. */
  readonly states: ReadonlyMap<string, string>;
}

/** `/healthz`'s status and the informers' watch states of the app at `endpoints` now. */
export async function sampleHealth(endpoints: AppEndpoints): Promise<HealthSample> {
  const at = Date.now();
  const signal = AbortSignal.timeout(2_000);
  const healthz = await fetch(`http://${endpoints.healthz}/healthz`, { signal })
    .then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    })
    .catch(() => 0);
  const metrics = await fetch(`http://${endpoints.metrics}/metrics`, { signal })
    .then((r) => r.text())
    .catch(() => '');
  const states = new Map<string, string>();
  for (const m of metrics.matchAll(
    /^ctrlkit_informer_watch_state\{informer="([^"]*)",state="([^"]*)"\} 1$/gm,
  )) {
    states.set(m[1] ?? '', m[2] ?? '');
  }
  return { at, healthz, states };
}

/** `/healthz` 200 and every informer watching (an app that shows no informer state is not healthy). */
export const healthy = (s: HealthSample) =>
  s.healthz === 200 && s.states.size > 0 && [...s.states.values()].every((v) => v === 'watching');

/**
 * Polls the app at `endpoints()` (it may change: a restarted process) every `intervalMs` until
 * `stop()`, which returns the samples.
 */
export function pollHealth(
  endpoints: () => AppEndpoints,
  intervalMs = 250,
): { stop(): Promise<HealthSample[]> } {
  const samples: HealthSample[] = [];
  let polling = true;
  const loop = (async () => {
    while (polling) {
      const sample = await sampleHealth(endpoints());
      // From the app's first answer on (a process just started serves a moment later).
      if (samples.length > 0 || sample.healthz !== 0) samples.push(sample);
      await sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      polling = false;
      await loop;
      return samples;
    },
  };
}

/**
 * What the samples show: the longest stretch (ms, from the first sample with an informer out
 * of `watching` to the next with all of them back) in which an informer of an answering app
 * was not `watching`, and the `/healthz` answers that were not 200 (`failed/polled`).
 */
export function healthFigures(samples: readonly HealthSample[]): {
  unwatchedMs?: number;
  healthzFailed: string;
} {
  let unwatchedMs = 0;
  let since: number | undefined;
  for (const s of samples) {
    if (s.states.size === 0) continue;
    const notWatching = [...s.states.values()].some((v) => v !== 'watching');
    if (notWatching) since ??= s.at;
    else if (since !== undefined) {
      unwatchedMs = Math.max(unwatchedMs, s.at - since);
      since = undefined;
    }
  }
  const last = samples.at(-1);
  if (since !== undefined && last !== undefined)
    unwatchedMs = Math.max(unwatchedMs, last.at - since, 1);
  const failed = samples.filter((s) => s.healthz !== 200).length;
  const healthzFailed = `${failed}/${samples.length}`;
  // No informer state in any sample: nothing to measure (not 0 s).
  if (!samples.some((s) => s.states.size > 0)) return { healthzFailed };
  return { unwatchedMs, healthzFailed };
}

/**
 * Waits (up to `timeoutMs`) for the app at `endpoints` to be healthy: `/healthz` 200 and every
 * informer `watching`; returns the last sample (check it with {@link healthy}).
 */
export async function healthyAfter(
  endpoints: AppEndpoints,
  options: { timeoutMs?: number } = {},
): Promise<HealthSample> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  for (;;) {
    const sample = await sampleHealth(endpoints);
    if (healthy(sample) || Date.now() > deadline) return sample;
    await sleep(250);
  }
}

/** A sample as a line for an assertion's message. */
export const describeSample = (s: HealthSample) =>
  `/healthz ${s.healthz}; ${[...s.states].map(([i, st]) => `${i}: ${st}`).join(', ') || 'no informer state'}`;
