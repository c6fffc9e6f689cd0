import { createClient } from '@ctrlkit/client';
import { createTestNamespace } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import type { V1Lease } from '@kubernetes/client-node';
import { expect, it } from 'vitest';
import { LeaderElector } from './leader-elector.js';
import { LeaseLock } from './lease-lock.js';

// A leader renews right after it acquires, so a stop a few ms after acquiring lands while a
// renewal is in flight: the release must still leave the Lease free (holder ''), or the next
// candidate would wait out the lease.
it('releases the Lease when stopped within milliseconds of acquiring, every time', async () => {
  const kubeConfig = testKubeConfig();
  const namespace = await createTestNamespace(kubeConfig, 'release-');
  const client = createClient(kubeConfig);
  const errors: string[] = [];
  for (let round = 0; round < 30; round++) {
    const stop = new AbortController();
    const identity = `candidate-${round}`;
    const elector = new LeaderElector({
      lock: new LeaseLock({ kubeConfig, namespace, name: 'release', identity }),
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      logger: {
        debug: () => {},
        info: () => {},
        warn: () => {},
        error: (context, message) =>
          errors.push(`${identity}: ${message} ${String((context as { error?: unknown }).error)}`),
      },
      callbacks: {
        onStartedLeading: () => void setTimeout(() => stop.abort(), round % 6),
        onStoppedLeading: () => {},
      },
    });
    const started = performance.now();
    await elector.run(stop.signal);
    // With a 15 s lease, a candidate that found the Lease held would still be waiting.
    expect(performance.now() - started).toBeLessThan(5_000);
    const lease = await client.get<V1Lease>('coordination.k8s.io/v1/leases', 'release', {
      namespace,
    });
    expect({ round, holder: lease.spec?.holderIdentity ?? '' }).toEqual({ round, holder: '' });
    expect(lease.spec?.leaseTransitions).toBe(round);
  }
  expect(errors).toEqual([]);
  client.close();
});
