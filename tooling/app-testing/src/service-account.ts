// deploy/'s ServiceAccount on a control plane: its RBAC applied as shipped, a real token from
// the TokenRequest API, and a kubeconfig that authenticates with it (no impersonation).

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlreadyExists, isNotFound } from '@ctrlkit/core';
import {
  CoreV1Api,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
} from '@kubernetes/client-node';
import type { DeployRbac } from './deploy-rbac.js';

/** How long a token lives: an hour, longer than any test file. */
const TOKEN_SECONDS = 3_600;

/** A token kubeconfig for a ServiceAccount, and how to take the ServiceAccount away again. */
export interface ServiceAccountLogin {
  readonly kubeconfigPath: string;
  readonly token: string;
  /** Removes the kubeconfig; the last login of a ServiceAccount also deletes its RBAC objects and itself. */
  release(): Promise<void>;
}

/** Logins per control plane and ServiceAccount in this process (`server username`). */
const active = new Map<string, number>();

/**
 * Creates deploy/'s Namespaces (kept), its ServiceAccount and the roles and bindings that
 * grant it anything, exactly as written (an existing one is replaced with the manifest),
 * asks the TokenRequest API for a token, and writes a kubeconfig with the control plane's
 * server and CA (or `options.certificateAuthority`: another CA's PEM, `null` for none) and
 * that token.
 */
export async function loginAsServiceAccount(
  kubeConfig: KubeConfig,
  rbac: DeployRbac,
  options: { certificateAuthority?: string | null } = {},
): Promise<ServiceAccountLogin> {
  const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  for (const namespace of rbac.namespaces) {
    await objects.create(namespace).catch((error: unknown) => {
      if (!isAlreadyExists(error)) throw error;
    });
  }
  for (const object of rbac.objects) await createOrReplace(objects, object);
  const key = `${kubeConfig.getCurrentCluster()?.server} ${rbac.username}`;
  active.set(key, (active.get(key) ?? 0) + 1);
  const { namespace, name } = rbac.serviceAccount;
  const request = await kubeConfig.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({
    namespace,
    name,
    body: { spec: { audiences: [], expirationSeconds: TOKEN_SECONDS } },
  });
  const token = request.status?.token ?? '';
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) throw new Error('the kubeconfig has no current cluster');
  const dir = await mkdtemp(join(tmpdir(), 'ctrlkit-sa-'));
  const kubeconfigPath = join(dir, 'kubeconfig');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'envtest',
        cluster: {
          server: cluster.server,
          ...caOf(cluster.caData, options.certificateAuthority),
        },
      },
    ],
    users: [{ name: rbac.username, user: { token } }],
    contexts: [{ name: 'sa', context: { cluster: 'envtest', user: rbac.username, namespace } }],
    'current-context': 'sa',
  };
  await writeFile(kubeconfigPath, JSON.stringify(config), { mode: 0o600 });
  let released = false;
  return {
    kubeconfigPath,
    token,
    async release() {
      if (released) return;
      released = true;
      await rm(dir, { recursive: true, force: true });
      const left = (active.get(key) ?? 1) - 1;
      if (left > 0) {
        active.set(key, left);
        return;
      }
      active.delete(key);
      // Leave the control plane as the deploy/ dry run expects it: nothing but Namespaces.
      for (const object of [...rbac.objects].reverse()) {
        await objects.delete(object).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
      }
    },
  };
}

/** The kubeconfig cluster's CA: the control plane's, another (PEM), or none (`null`). */
function caOf(planeCaData: string | undefined, certificateAuthority: string | null | undefined) {
  if (certificateAuthority === null) return {};
  const data =
    certificateAuthority === undefined
      ? planeCaData
      : Buffer.from(certificateAuthority).toString('base64');
  return { 'certificate-authority-data': data };
}

async function createOrReplace(
  objects: KubernetesObjectApi,
  object: KubernetesObject,
): Promise<void> {
  try {
    await objects.create(object);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    const stored = await objects.read(object as KubernetesObject & { metadata: { name: string } });
    await objects.replace({
      ...object,
      metadata: { ...object.metadata, resourceVersion: stored.metadata?.resourceVersion },
    });
  }
}
