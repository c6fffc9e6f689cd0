//! Pool-wide checks the apiserver cannot make: duplicates and counter cross-references.

import type { V1CounterSet } from '@kubernetes/client-node';
import type { DriverResources, Pool } from '../driver-resources.js';
import { InvalidDriverResourcesError } from '../invalid-driver-resources-error.js';

/** Checks every pool; throws the first problem with upstream's message. */
export function validateDriverResources(resources: DriverResources): void {
  for (const [name, pool] of Object.entries(resources.pools)) validatePool(name, pool);
}

function validatePool(name: string, pool: Pool): void {
  const counterSets = new Map<string, V1CounterSet>();
  const slices = pool.slices ?? [];
  slices.forEach((slice, s) => {
    (slice.sharedCounters ?? []).forEach((counterSet, c) => {
      if (counterSets.has(counterSet.name)) {
        throw new InvalidDriverResourcesError(
          name,
          `slices[${s}].sharedCounters[${c}].name`,
          `found duplicate counter set ${JSON.stringify(counterSet.name)} in pool ${JSON.stringify(name)}`,
        );
      }
      counterSets.set(counterSet.name, counterSet);
    });
  });
  const devices = new Set<string>();
  slices.forEach((slice, s) => {
    (slice.devices ?? []).forEach((device, d) => {
      const at = `slices[${s}].devices[${d}]`;
      if (devices.has(device.name)) {
        throw new InvalidDriverResourcesError(
          name,
          `${at}.name`,
          `found duplicate device ${JSON.stringify(device.name)} in pool ${JSON.stringify(name)}`,
        );
      }
      devices.add(device.name);
      (device.consumesCounters ?? []).forEach((consumption, c) => {
        const counterSet = counterSets.get(consumption.counterSet);
        if (counterSet === undefined) {
          throw new InvalidDriverResourcesError(
            name,
            `${at}.consumesCounters[${c}].counterSet`,
            `counter set ${JSON.stringify(consumption.counterSet)} referenced by device ${JSON.stringify(device.name)} not found`,
          );
        }
        for (const counterName of Object.keys(consumption.counters ?? {})) {
          if (!(counterName in (counterSet.counters ?? {}))) {
            throw new InvalidDriverResourcesError(
              name,
              `${at}.consumesCounters[${c}].counters`,
              `counter ${JSON.stringify(counterName)} referenced by device ${JSON.stringify(device.name)} not found in counter set ${JSON.stringify(counterSet.name)}`,
            );
          }
        }
      });
    });
  });
}
