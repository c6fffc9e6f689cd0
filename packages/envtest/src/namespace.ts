//! Creates a uniquely named namespace, so that tests sharing a control plane do not meet.

import { InvalidArgumentError } from '@ctrlkit/core';
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

/** The prefix of namespaces from `createTestNamespace`: `test-`. */
export const DEFAULT_TEST_NAMESPACE_PREFIX = 'test-';

/**
 * Creates a namespace named `<prefix><5 random characters>` (the apiserver's
 * `generateName`) with the label `ctrlkit.dev/envtest: "true"`, and returns its name.
 *
 * Caveat: there is no namespace controller in this control plane, so a deleted namespace
 * stays `Terminating` and its objects remain; isolate tests by namespace rather than by
 * cleaning up.
 */
export async function createTestNamespace(
  kubeConfig: KubeConfig,
  prefix: string = DEFAULT_TEST_NAMESPACE_PREFIX,
): Promise<string> {
  if (typeof prefix !== 'string' || !/^[a-z0-9]([-a-z0-9]{0,56})$/.test(prefix)) {
    throw new InvalidArgumentError(
      'prefix',
      `must be 1 to 57 lower-case letters, digits or '-', starting with a letter or digit, got ${JSON.stringify(prefix)}`,
    );
  }
  const api = kubeConfig.makeApiClient(CoreV1Api);
  const namespace = await api.createNamespace({
    body: { metadata: { generateName: prefix, labels: { 'ctrlkit.dev/envtest': 'true' } } },
  });
  return namespace.metadata!.name!;
}
