//! client-go's leader election metric (`leader_election_master_status`) on a prom-client registry.

import { Gauge, type Registry } from 'prom-client';

/**
 * `leader_election_master_status{name}`: 1 while this process leads the election `name`,
 * 0 otherwise (client-go's `leaderelection` metrics, which controller-runtime registers).
 */
export class PrometheusLeaderElectionMetrics {
  readonly #status: Gauge<'name'>;

  constructor(registry: Registry) {
    this.#status = new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'],
      registers: [registry],
    });
  }

  /** Records whether this process leads `name`. */
  setLeading(name: string, leading: boolean): void {
    this.#status.labels(name).set(leading ? 1 : 0);
  }
}
