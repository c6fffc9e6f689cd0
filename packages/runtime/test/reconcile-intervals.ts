//! Reconcile intervals read from replicas' start/end logs, and the checks the sharding tests make on them.

/** One line of a replica's reconcile log: `shard` started or ended a reconcile of `key` at `t` (wall-clock ms). */
export interface ReconcileEvent {
  ev: 'start' | 'end';
  key: string;
  shard: string;
  t: number;
}

/** One reconcile from its start to its end; `open` when no end was logged (`end` is then the bound given for it). */
export interface ReconcileInterval {
  key: string;
  shard: string;
  start: number;
  end: number;
  open: boolean;
}

/**
 * Pairs each start with the next end of the same shard and key, in log order (each shard's
 * events must keep the order its process wrote them in). A start without an end is an open
 * interval ending at `openUntil(shard)`: for a killed replica its Lease's expiry, for a live
 * one `Infinity`.
 * @throws Error on an end without a start, or a second start of a key while one of the same
 *   shard is open (a workqueue never reconciles one key twice at once).
 */
export function toIntervals(
  events: readonly ReconcileEvent[],
  openUntil: (shard: string) => number,
): ReconcileInterval[] {
  const open = new Map<string, ReconcileEvent>();
  const intervals: ReconcileInterval[] = [];
  for (const event of events) {
    const id = `${event.shard}\u0000${event.key}`;
    const started = open.get(id);
    if (event.ev === 'start') {
      if (started !== undefined) {
        throw new Error(`${event.shard} started ${event.key} at ${event.t} while already in it`);
      }
      open.set(id, event);
      continue;
    }
    if (started === undefined) {
      throw new Error(`${event.shard} ended ${event.key} at ${event.t} without a start`);
    }
    open.delete(id);
    intervals.push({
      key: event.key,
      shard: event.shard,
      start: started.t,
      end: event.t,
      open: false,
    });
  }
  for (const started of open.values()) {
    const end = openUntil(started.shard);
    intervals.push({ key: started.key, shard: started.shard, start: started.t, end, open: true });
  }
  return intervals;
}

/** Pairs of intervals of one key, of two shards, that share a moment (one ending as the other starts does not). */
export function overlaps(
  intervals: readonly ReconcileInterval[],
): Array<[ReconcileInterval, ReconcileInterval]> {
  const byKey = new Map<string, ReconcileInterval[]>();
  for (const interval of intervals) {
    const list = byKey.get(interval.key) ?? [];
    list.push(interval);
    byKey.set(interval.key, list);
  }
  const found: Array<[ReconcileInterval, ReconcileInterval]> = [];
  for (const list of byKey.values()) {
    list.sort((a, b) => a.start - b.start);
    for (const [i, a] of list.entries()) {
      for (const b of list.slice(i + 1)) {
        if (b.start >= a.end) continue;
        if (a.shard !== b.shard) found.push([a, b]);
      }
    }
  }
  return found;
}

/** The keys `shard` had started and not ended, in `events` (its open reconciles). */
export function openKeys(events: readonly ReconcileEvent[], shard: string): Map<string, number> {
  const open = new Map<string, number>();
  for (const event of events) {
    if (event.shard !== shard) continue;
    if (event.ev === 'start') open.set(event.key, event.t);
    else open.delete(event.key);
  }
  return open;
}
