//! Cumulative CPU counters that never decrease, per container and for the node.

/**
 * The cumulative CPU time (`usageCoreNanoSeconds`) of each container and of the node, kept
 * between scrapes so that a counter never decreases, as consumers of `/stats/summary` and
 * `/metrics/resource` (metrics-server) require. The node's counter is the sum of every
 * increase of every container's, so it keeps growing when a pod goes.
 */
export class CpuCounters {
  readonly #containers = new Map<string, { atMs: number; totalNs: number; nanoCores: number }>();
  #nodeNs = 0;

  /**
   * Advances counter `id` by `usageNanoCores` over the time since its last sample (since
   * `startMs` the first time); returns its total in ns.
   */
  accumulate(id: string, startMs: number, nowMs: number, usageNanoCores: number): number {
    const last = this.#containers.get(id);
    const sinceMs = Math.max(0, nowMs - (last?.atMs ?? startMs));
    const totalNs = (last?.totalNs ?? 0) + Math.round((usageNanoCores * sinceMs) / 1000);
    return this.observe(id, totalNs, nowMs);
  }

  /**
   * Records a measured total for counter `id` (ns); a total below the last one (a restarted
   * process) is not a decrease: the counter keeps its value. Returns its total in ns.
   */
  observe(id: string, totalNs: number, nowMs: number): number {
    const last = this.#containers.get(id);
    const before = last?.totalNs ?? 0;
    const after = Math.max(before, Math.round(totalNs));
    this.#nodeNs += after - before;
    const sinceMs = last === undefined ? 0 : nowMs - last.atMs;
    const nanoCores = sinceMs > 0 ? Math.round(((after - before) * 1000) / sinceMs) : 0;
    this.#containers.set(id, { atMs: nowMs, totalNs: after, nanoCores });
    return after;
  }

  /** The total of counter `id` in ns (0 when never sampled). */
  total(id: string): number {
    return this.#containers.get(id)?.totalNs ?? 0;
  }

  /** The usage of counter `id` in nano cores between its last two samples (0 before two). */
  nanoCores(id: string): number {
    return this.#containers.get(id)?.nanoCores ?? 0;
  }

  /** Drops the counters whose id starts with `prefix` (a deleted pod's); the node keeps their time. */
  forget(prefix: string): void {
    for (const id of [...this.#containers.keys()]) {
      if (id.startsWith(prefix)) this.#containers.delete(id);
    }
  }

  /** The node's cumulative CPU time in ns: every increase of every counter. */
  get nodeNs(): number {
    return this.#nodeNs;
  }
}
