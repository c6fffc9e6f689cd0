//! The command lines of kube-scheduler and kube-controller-manager, as kubeadm writes them.

import type { ComponentName } from '../components.js';
import type { ResolvedControlPlaneOptions } from '../options.js';

/** Flags by name (without `--`); an array repeats the flag. */
export type Flags = Readonly<Record<string, string | readonly string[]>>;

/** The files and port one component runs with. */
export interface ComponentSetup {
  /** Its kubeconfig: its own client certificate, as `system:<component>`. */
  readonly kubeconfig: string;
  /** Its secure port on 127.0.0.1, serving `/healthz` and `/metrics`. */
  readonly port: number;
  readonly servingCert: string;
  readonly servingKey: string;
  /** The control plane's CA certificate and key. */
  readonly caCert: string;
  readonly caKey: string;
  /** The apiserver's service-account signing key (kube-apiserver `--service-account-signing-key-file`). */
  readonly serviceAccountKey: string;
}

/**
 * The flags of `component`, with `options`' extra flags of that component applied over them.
 *
 * As kubeadm: the component's kubeconfig also for delegated authentication and authorization
 * of its own endpoints (`/healthz` is always allowed); its secure port on a loopback address
 * only. Unlike kubeadm: leader election is off (one instance), and the serving certificate
 * comes from the control plane's CA rather than being self-signed, so a client that trusts
 * the CA can read `/healthz` and `/metrics`.
 *
 * kube-controller-manager signs service-account tokens with the apiserver's key, runs each
 * controller with its own service account (`--use-service-account-credentials`), publishes
 * the CA as `kube-root-ca.crt` (`--root-ca-file`), signs CSRs with the CA
 * (`--cluster-signing-*`) and runs the default controllers plus the bootstrap-token ones.
 */
export function componentFlags(
  component: ComponentName,
  setup: ComponentSetup,
  options: ResolvedControlPlaneOptions,
): string[] {
  const common: Flags = {
    kubeconfig: setup.kubeconfig,
    'authentication-kubeconfig': setup.kubeconfig,
    'authorization-kubeconfig': setup.kubeconfig,
    'bind-address': '127.0.0.1',
    'secure-port': String(setup.port),
    'tls-cert-file': setup.servingCert,
    'tls-private-key-file': setup.servingKey,
    'leader-elect': 'false',
  };
  if (component === 'kube-scheduler') return toArgs({ ...common, ...options.schedulerFlags });
  const controllerManager: Flags = {
    ...common,
    'client-ca-file': setup.caCert,
    'cluster-name': 'envtest',
    'cluster-signing-cert-file': setup.caCert,
    'cluster-signing-key-file': setup.caKey,
    controllers: '*,bootstrap-signer-controller,token-cleaner-controller',
    'root-ca-file': setup.caCert,
    'service-account-private-key-file': setup.serviceAccountKey,
    'use-service-account-credentials': 'true',
    ...(options.nodeMonitorGracePeriodMs === undefined
      ? {}
      : { 'node-monitor-grace-period': `${options.nodeMonitorGracePeriodMs}ms` }),
  };
  return toArgs({ ...controllerManager, ...options.controllerManagerFlags });
}

/** `--name=value` arguments, one per value. */
export function toArgs(flags: Flags): string[] {
  const args: string[] = [];
  for (const [name, value] of Object.entries(flags)) {
    for (const v of typeof value === 'string' ? [value] : value) args.push(`--${name}=${v}`);
  }
  return args;
}
