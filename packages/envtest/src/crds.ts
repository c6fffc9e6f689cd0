//! Installs CustomResourceDefinitions and waits until they are served.

import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError } from '@ctrlkit/core';
import {
  ApiException,
  ApiextensionsV1Api,
  CustomObjectsApi,
  type KubeConfig,
  KubernetesObjectApi,
  loadAllYaml,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { NotReadyError } from './errors/not-ready-error.js';

/** How long `installCRDs` waits for each CRD to be Established and served: 30 s. */
export const DEFAULT_CRD_TIMEOUT_MS = 30_000;

/** Options of `installCRDs`. */
export interface InstallCRDsOptions {
  /** Time for all CRDs to be Established and served, in ms. Default {@link DEFAULT_CRD_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/**
 * Creates (or replaces) each CRD and waits until it is `Established` and its resources
 * answer a list, for every served version; for a CRD converted by a webhook (strategy
 * `Webhook`), whose server usually starts later, until every served version is in discovery
 * instead, as controller-runtime's envtest does (a list would call the webhook for the
 * objects stored at another version). A string is a path to a YAML or JSON file (several
 * documents allowed; documents that are not CRDs are rejected).
 *
 * Errors: `InvalidArgumentError` for a malformed CRD; `NotReadyError` after `timeoutMs`;
 * the client's `ApiException` when the apiserver rejects a CRD.
 */
export async function installCRDs(
  kubeConfig: KubeConfig,
  crds: ReadonlyArray<V1CustomResourceDefinition | string>,
  options: InstallCRDsOptions = {},
): Promise<V1CustomResourceDefinition[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CRD_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new InvalidArgumentError(
      'timeoutMs',
      `must be a positive integer, got ${String(options.timeoutMs)}`,
    );
  }
  if (!Array.isArray(crds)) throw new InvalidArgumentError('crds', 'must be an array');
  const definitions = (await Promise.all(crds.map((crd) => load(crd)))).flat();
  const api = kubeConfig.makeApiClient(ApiextensionsV1Api);
  const served = {
    custom: kubeConfig.makeApiClient(CustomObjectsApi),
    discovery: kubeConfig.makeApiClient(Discovery),
  };
  for (const crd of definitions) await createOrReplace(api, crd);
  const deadline = performance.now() + timeoutMs;
  const installed: V1CustomResourceDefinition[] = [];
  for (const crd of definitions) {
    installed.push(await waitEstablished(api, served, crd, deadline, timeoutMs));
  }
  return installed;
}

async function load(
  crd: V1CustomResourceDefinition | string,
): Promise<V1CustomResourceDefinition[]> {
  const documents =
    typeof crd === 'string' ? (loadAllYaml(await readFile(crd, 'utf8')) as unknown[]) : [crd];
  return documents
    .filter((d) => d !== null && d !== undefined)
    .map((d) => check(d, typeof crd === 'string' ? crd : undefined));
}

function check(document: unknown, file: string | undefined): V1CustomResourceDefinition {
  const crd = document as V1CustomResourceDefinition;
  const where = file === undefined ? 'crds' : `crds (${file})`;
  if (crd?.kind !== 'CustomResourceDefinition') {
    throw new InvalidArgumentError(
      where,
      `expected kind CustomResourceDefinition, got ${String(crd?.kind)}`,
    );
  }
  if (
    !crd.metadata?.name ||
    !crd.spec?.group ||
    !crd.spec.names?.plural ||
    !crd.spec.versions?.length
  ) {
    throw new InvalidArgumentError(
      where,
      'a CRD needs metadata.name, spec.group, spec.names.plural and spec.versions',
    );
  }
  return { ...crd, apiVersion: 'apiextensions.k8s.io/v1' };
}

async function createOrReplace(
  api: ApiextensionsV1Api,
  crd: V1CustomResourceDefinition,
): Promise<void> {
  try {
    await api.createCustomResourceDefinition({ body: crd });
  } catch (error) {
    if (!(error instanceof ApiException) || error.code !== 409) throw error;
    const name = crd.metadata!.name!;
    const current = await api.readCustomResourceDefinition({ name });
    await api.replaceCustomResourceDefinition({
      name,
      body: {
        ...crd,
        metadata: { ...crd.metadata, resourceVersion: current.metadata?.resourceVersion },
      },
    });
  }
}

/** Discovery of one group version (KubernetesObjectApi's, which keeps what it found). */
class Discovery extends KubernetesObjectApi {
  /** True when `apiVersion`'s discovery lists `kind`. */
  async lists(apiVersion: string, kind: string): Promise<boolean> {
    return (await this.resource(apiVersion, kind)) !== undefined;
  }
}

/** How `waitEstablished` sees a version served: a list, or discovery. */
interface Served {
  readonly custom: CustomObjectsApi;
  readonly discovery: Discovery;
}

/** The first served version of `crd` not served yet (see `installCRDs`), or undefined. */
async function unservedVersion(
  { custom, discovery }: Served,
  crd: V1CustomResourceDefinition,
): Promise<string | undefined> {
  const { group, names } = crd.spec;
  const byWebhook = crd.spec.conversion?.strategy === 'Webhook';
  for (const { name: version } of crd.spec.versions.filter((v) => v.served)) {
    if (!byWebhook) {
      await custom.listClusterCustomObject({ group, version, plural: names.plural, limit: 1 });
    } else if (!(await discovery.lists(`${group}/${version}`, names.kind))) {
      return version;
    }
  }
  return undefined;
}

async function waitEstablished(
  api: ApiextensionsV1Api,
  served: Served,
  crd: V1CustomResourceDefinition,
  deadline: number,
  timeoutMs: number,
): Promise<V1CustomResourceDefinition> {
  const name = crd.metadata!.name!;
  let problem = 'not checked yet';
  for (;;) {
    try {
      const current = await api.readCustomResourceDefinition({ name });
      const conditions = current.status?.conditions ?? [];
      const established = conditions.some((c) => c.type === 'Established' && c.status === 'True');
      if (!established) {
        const reasons = conditions.map(
          (c) => `${c.type}=${c.status}${c.message ? ` (${c.message})` : ''}`,
        );
        problem = `not Established yet; conditions: ${reasons.join(', ') || 'none'}`;
      } else {
        const version = await unservedVersion(served, crd);
        if (version === undefined) return current;
        problem = `version ${version} is not in discovery yet`;
      }
    } catch (error) {
      problem =
        error instanceof ApiException
          ? `HTTP ${error.code}: ${String(error.body).slice(0, 200)}`
          : String(error);
    }
    if (performance.now() >= deadline) throw new NotReadyError(`CRD ${name}`, timeoutMs, problem);
    await sleep(100);
  }
}
