//! kube-apiserver's command line: envtest's defaults, then the caller's `apiServerFlags`.

import type { ResolvedControlPlaneOptions } from '../options.js';
import { toArgs } from './component-flags.js';

/** The files kube-apiserver's flags name. */
export interface ApiServerFiles {
  ca: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  saPublic: string;
  saPrivate: string;
  audit?: { policyPath: string; logPath: string };
}

/** Where this apiserver runs: its etcd, its port, its files and its certificate folder. */
export interface ApiServerSite {
  readonly etcdUrl: string;
  readonly port: number;
  readonly files: ApiServerFiles;
  readonly certDir: string;
}

/**
 * kube-apiserver's flags on 127.0.0.1: client certificates and RBAC, service-account keys,
 * the admission plugins (without `ServiceAccount` unless kube-controller-manager runs), the
 * audit log when asked for, then `o.apiServerFlags` over them.
 */
export function apiServerFlags(o: ResolvedControlPlaneOptions, at: ApiServerSite): string[] {
  const defaults: Record<string, string | readonly string[]> = {
    'etcd-servers': at.etcdUrl,
    'bind-address': '127.0.0.1',
    'advertise-address': '127.0.0.1',
    'secure-port': String(at.port),
    'cert-dir': at.certDir,
    'tls-cert-file': at.files.servingCert,
    'tls-private-key-file': at.files.servingKey,
    'client-ca-file': at.files.ca,
    'authorization-mode': 'Node,RBAC',
    'service-account-key-file': at.files.saPublic,
    'service-account-signing-key-file': at.files.saPrivate,
    'service-account-issuer': 'https://kubernetes.default.svc.cluster.local',
    'service-cluster-ip-range': '10.0.0.0/24',
    'allow-privileged': 'true',
    // Without kube-controller-manager no `default` service account would ever exist.
    ...(o.components.includes('kube-controller-manager')
      ? {}
      : { 'disable-admission-plugins': 'ServiceAccount' }),
    // Loopback addresses are refused by the endpoint reconciler (the `kubernetes` Service).
    'endpoint-reconciler-type': 'none',
    // Without a bound, open watches (informers, components) hold a graceful stop until
    // SIGKILL after stopTimeoutMs; with it the apiserver ends them and exits in about 1 s.
    'shutdown-watch-termination-grace-period': '2s',
    'etcd-compaction-interval': `${o.etcdCompactionIntervalMs}ms`,
    'watch-cache': String(o.watchCache),
    profiling: 'false',
    ...(at.files.audit && {
      'audit-policy-file': at.files.audit.policyPath,
      'audit-log-path': at.files.audit.logPath,
      'audit-log-format': 'json',
      // Each event is written before the request's handler returns: a test that has its
      // answer finds the event in the log.
      'audit-log-mode': 'blocking',
    }),
  };
  return toArgs({ ...defaults, ...o.apiServerFlags });
}
