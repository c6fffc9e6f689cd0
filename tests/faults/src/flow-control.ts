//! API Priority and Fairness configured tight for one ServiceAccount: the apiserver answers its requests 429.

import { request } from 'node:https';
import type { DeployRbac } from '@ctrlkit/app-testing';
import type { ControlPlane } from '@ctrlkit/envtest';
import { createClient } from '@ctrlkit/runtime/client';
import type { AuthenticationV1TokenRequest } from '@kubernetes/client-node';
import { startFaultPlane } from './harness.js';

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
 * A fault plane for the 410 and 429 cases: the apiserver compacts etcd every second (its
 * default is 5 min), with its watch cache on (the default), and has a small concurrency for
 * API Priority and Fairness to share ({@link SMALL_SERVER_CONCURRENCY}).
 */
export function startApiFaultPlane(): Promise<ControlPlane> {
  return startFaultPlane({
    etcdCompactionIntervalMs: 1_000,
    watchCache: true,
    apiServerFlags: SMALL_SERVER_CONCURRENCY,
  });
}

const LEVELS = 'flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';
const SCHEMAS = 'flowcontrol.apiserver.k8s.io/v1/flowschemas';

/**
 * Puts every request of `rbac`'s ServiceAccount in a priority level of its own with `shares`
 * concurrency shares (1: one seat on a plane with {@link SMALL_SERVER_CONCURRENCY}; 0: none),
 * nothing lent or borrowed and no queue (`Reject`): whatever exceeds its seats is answered
 * 429 with `Retry-After`. Returns `relax()`, which removes the FlowSchema and the level (the
 * requests fall back to the built-in `service-accounts` schema).
 */
export async function throttle(
  plane: ControlPlane,
  rbac: DeployRbac,
  name: string,
  shares: number,
): Promise<{ relax(): Promise<void> }> {
  const client = createClient(plane.kubeConfig);
  await client.create(LEVELS, {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent: 0,
        borrowingLimitPercent: 0,
        limitResponse: { type: 'Reject' },
      },
    },
  });
  const { namespace, name: serviceAccount } = rbac.serviceAccount;
  await client.create(SCHEMAS, {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name },
      // Before the built-in `service-accounts` (9000) and `global-default` (9900).
      matchingPrecedence: 1000,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [
            { kind: 'ServiceAccount', serviceAccount: { namespace, name: serviceAccount } },
          ],
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
  });
  return {
    async relax() {
      await client.delete(SCHEMAS, name);
      await client.delete(LEVELS, name);
      client.close();
    },
  };
}

/**
 * Another client of `rbac`'s ServiceAccount (as a DaemonSet's pods on other nodes share
 * theirs) that holds the priority level's seat: it POSTs to `path` with a token of its own and
 * sends only the first byte of its body, so its request is dispatched and waits in the
 * handler until `release()` abandons it. Meanwhile every other request of the level is
 * answered 429 (with one seat and no queue). `probe()` sends a GET of `probePath` with the same
 * token and returns its status and `Retry-After` header.
 */
export async function seatHolder(
  plane: ControlPlane,
  rbac: DeployRbac,
  path: string,
): Promise<{
  probe(probePath: string): Promise<{ status: number; retryAfter: string | undefined }>;
  release(): void;
}> {
  const { namespace, name } = rbac.serviceAccount;
  const client = createClient(plane.kubeConfig);
  const token =
    (
      await client
        .requestJson<AuthenticationV1TokenRequest>(
          'POST',
          `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
          { body: { spec: { audiences: [], expirationSeconds: 600 } } },
        )
        .finally(() => client.close())
    ).status?.token ?? '';
  const cluster = plane.kubeConfig.getCurrentCluster();
  const ca = Buffer.from(cluster?.caData ?? '', 'base64');
  const headers = { authorization: `Bearer ${token}` };
  const held = request(`${cluster?.server}${path}`, {
    method: 'POST',
    ca,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': '1000' },
  });
  held.on('error', () => {});
  held.write('{');
  return {
    probe: (probePath) =>
      new Promise((resolve, reject) => {
        const req = request(`${cluster?.server}${probePath}`, { ca, headers }, (res) => {
          res.resume();
          const retryAfter = res.headers['retry-after'];
          res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter }));
        });
        req.on('error', reject);
        req.end();
      }),
    release() {
      held.destroy();
    },
  };
}
