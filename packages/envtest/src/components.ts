//! The control plane components envtest starts on request beside etcd and kube-apiserver.

import { InvalidArgumentError } from '@ctrlkit/core';
import { UnknownComponentError } from './errors/unknown-component-error.js';

/**
 * The components `startControlPlane({ components })` can start, in the order they start:
 * - `kube-scheduler`: binds pods to nodes (and allocates DRA claims);
 * - `kube-controller-manager`: the garbage collector, node lifecycle, service account and
 *   token controllers, `kube-root-ca.crt` publisher, workload controllers and the rest of
 *   its default set, each with its own service account (`--use-service-account-credentials`).
 */
export const COMPONENTS = ['kube-scheduler', 'kube-controller-manager'] as const;

/** A component envtest can start: `kube-scheduler` or `kube-controller-manager`. */
export type ComponentName = (typeof COMPONENTS)[number];

/**
 * Validates a list of component names and returns it in start order without duplicates.
 *
 * Errors: `InvalidArgumentError` when `value` is not an array of strings;
 * `UnknownComponentError` for a name that is not in {@link COMPONENTS}.
 */
export function resolveComponents(value: unknown, field = 'components'): readonly ComponentName[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError(
      field,
      `must be an array of component names, got ${String(value)}`,
    );
  }
  const wanted = new Set<ComponentName>();
  value.forEach((name: unknown, i) => {
    if (!isComponentName(name)) {
      throw new UnknownComponentError(String(name), `${field}[${i}]`, COMPONENTS);
    }
    wanted.add(name);
  });
  return COMPONENTS.filter((name) => wanted.has(name));
}

function isComponentName(name: unknown): name is ComponentName {
  return typeof name === 'string' && (COMPONENTS as readonly string[]).includes(name);
}

/** A component running beside the apiserver (option `components`). */
export interface RunningComponent {
  readonly name: ComponentName;
  /** `https://127.0.0.1:<port>`: `/healthz`, `/metrics`; its certificate is from the control plane's CA. */
  readonly url: string;
  readonly port: number;
  /** Its kubeconfig: its own client certificate, user `system:<name>`. Removed by `stop()`. */
  readonly kubeconfigPath: string;
  /** Its stdout and stderr. Removed by `stop()`. */
  readonly logPath: string;
}
