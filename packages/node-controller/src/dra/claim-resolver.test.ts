import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { podClaimNames } from './claim-resolver.js';
import { DraError } from './dra-error.js';

const pod = (status: Wire<V1Pod>['status']): Wire<V1Pod> => ({
  metadata: { namespace: 'ns', name: 'p' },
  spec: {
    containers: [],
    resourceClaims: [
      { name: 'direct', resourceClaimName: 'shared' },
      { name: 'templated', resourceClaimTemplateName: 'gpu' },
    ],
  },
  status,
});

describe('podClaimNames', () => {
  it('names a claim directly, or from status.resourceClaimStatuses for a template', () => {
    const names = podClaimNames(
      pod({ resourceClaimStatuses: [{ name: 'templated', resourceClaimName: 'p-templated-x1' }] }),
    );
    expect(names).toEqual([
      { podClaimName: 'direct', claimName: 'shared' },
      { podClaimName: 'templated', claimName: 'p-templated-x1' },
    ]);
  });

  it('leaves out a template entry whose status says no claim was needed', () => {
    expect(podClaimNames(pod({ resourceClaimStatuses: [{ name: 'templated' }] }))).toEqual([
      { podClaimName: 'direct', claimName: 'shared' },
    ]);
  });

  it("throws ClaimNotCreated while a template's claim is not recorded yet", () => {
    let error: unknown;
    try {
      podClaimNames(pod({}));
    } catch (e) {
      error = e;
    }
    expect(DraError.isInstance(error) && error.reason).toBe('ClaimNotCreated');
    expect((error as Error).message).toBe(
      'claim ns/p#templated: the ResourceClaim of template "gpu" is not created yet',
    );
  });
});
