//! API Priority and Fairness configured tight for one ServiceAccount: the apiserver answers its requests 429.

import type { DeployRbac } from '@ctrlkit/app-testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { FlowcontrolApiserverV1Api } from '@kubernetes/client-node';

/**
 * kube-apiserver flags of a plane on which {@link throttle} leaves the app one seat: the
 * server's concurrency (150 seats) shared by the built-in priority levels' 245 shares and the
 * tight level's 1 (ceil(150 × 1 / 246) = 1).
 */
export const SMALL_SERVER_CONCURRENCY = {
  'max-requests-inflight': '100',
  'max-mutating-requests-inflight': '50',
} as const;

/**
 * Puts every request of `rbac`'s ServiceAccount in a priority level of its own with 1
 * concurrency share, nothing lent or borrowed and no queue (`Reject`): whatever exceeds its
 * one seat is answered 429 with `Retry-After`. Returns `relax()`, which removes the
 * FlowSchema and the level (the requests fall back to the built-in `service-accounts` schema).
 */
export async function throttle(
  plane: ControlPlane,
  rbac: DeployRbac,
  name: string,
): Promise<{ relax(): Promise<void> }> {
  const api = plane.kubeConfig.makeApiClient(FlowcontrolApiserverV1Api);
  await api.createPriorityLevelConfiguration({
    body: {
      metadata: { name },
      spec: {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 1,
          lendablePercent: 0,
          borrowingLimitPercent: 0,
          limitResponse: { type: 'Reject' },
        },
      },
    },
  });
  const { namespace, name: serviceAccount } = rbac.serviceAccount;
  await api.createFlowSchema({
    body: {
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name },
        // Before the built-in `service-accounts` (9000) and `global-default` (9900).
        matchingPrecedence: 1000,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace, name: serviceAccount } }],
            resourceRules: [
              {
                verbs: ['*'],
                apiGroups: ['*'],
                resources: ['*'],
                clusterScope: true,
                namespaces: ['*'],
              },
            ],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          },
        ],
      },
    },
  });
  return {
    async relax() {
      await api.deleteFlowSchema({ name });
      await api.deletePriorityLevelConfiguration({ name });
    },
  };
}
