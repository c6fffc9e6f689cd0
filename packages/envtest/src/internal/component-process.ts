//! Starts kube-scheduler and kube-controller-manager beside a running apiserver, each as its own user.

import { writeFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { IssuedCertificate } from '@ctrlkit/core/certificates';
import type { ComponentName, RunningComponent } from '../components.js';
import { EnvtestError } from '../errors/envtest-error.js';
import { freePort } from '../free-port.js';
import type { ResolvedControlPlaneOptions } from '../options.js';
import type { ControlPlaneBinaries } from '../resolve-binaries.js';
import { componentFlags } from './component-flags.js';
import { get } from './http.js';
import { createComponentPki, kubeconfigFor } from './pki.js';
import type { ManagedProcess } from './process.js';
import { type Probe, retryOnOtherPort } from './readiness.js';

/** What a component needs from the control plane it joins. */
export interface ComponentHost {
  /** The control plane's temporary folder; `certs/` holds the shared files. */
  readonly directory: string;
  /** The apiserver's URL. */
  readonly server: string;
  readonly ca: IssuedCertificate;
  /** The CA certificate and key files, and the apiserver's service-account signing key file. */
  readonly files: { readonly ca: string; readonly caKey: string; readonly saPrivate: string };
  readonly binaries: ControlPlaneBinaries['components'];
  readonly options: ResolvedControlPlaneOptions;
  /** Spawns a process the control plane tracks (and stops). */
  spawn(name: string, binary: string, args: readonly string[], logPath: string): ManagedProcess;
  /** Waits for the probe, or throws the error naming the process and its (kept) log. */
  waitReady(process: ManagedProcess, port: number, what: string, probe: Probe): Promise<void>;
}

/**
 * Starts `options.components` side by side, and resolves once each one's `/healthz` answers
 * ok; rejects with the first failure after every start has settled (so no start is left
 * running unobserved).
 */
export async function startComponents(host: ComponentHost): Promise<RunningComponent[]> {
  const results = await Promise.allSettled(
    host.options.components.map((name) => startComponent(name, host)),
  );
  const failure = results.find((r) => r.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return results.map((r) => (r as PromiseFulfilledResult<RunningComponent>).value);
}

async function startComponent(name: ComponentName, host: ComponentHost): Promise<RunningComponent> {
  const binary = host.binaries[name];
  if (binary === undefined) throw new EnvtestError('BinariesMissing', `no ${name} binary resolved`);
  const pki = await createComponentPki(host.ca, name);
  const kubeconfigPath = join(host.directory, `${name}.kubeconfig`);
  const servingCert = join(host.directory, 'certs', `${name}.crt`);
  const servingKey = join(host.directory, 'certs', `${name}.key`);
  await Promise.all([
    writeFile(kubeconfigPath, kubeconfigFor(host.server, host.ca.certPem, pki.user, pki.client), {
      mode: 0o600,
    }),
    writeFile(servingCert, pki.serving.certPem),
    writeFile(servingKey, pki.serving.keyPem, { mode: 0o600 }),
  ]);
  const logPath = join(host.directory, `${name}.log`);
  const shared = {
    kubeconfig: kubeconfigPath,
    servingCert,
    servingKey,
    caCert: host.files.ca,
    caKey: host.files.caKey,
    serviceAccountKey: host.files.saPrivate,
  };
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = componentFlags(name, { ...shared, port }, host.options);
    const process = host.spawn(name, binary, args, logPath);
    const url = `https://127.0.0.1:${port}`;
    try {
      await host.waitReady(process, port, `${name} /healthz`, () => healthz(url, host.ca.certPem));
      return { name, url, port, kubeconfigPath, logPath };
    } catch (error) {
      await process.stop(0);
      if (!(await retryOnOtherPort(error, attempt))) throw error;
      host.options.logger.debug({}, `${name} port ${port} was taken; trying another`);
    }
  }
}

/** A component's `/healthz`, its serving certificate checked against the control plane's CA. */
async function healthz(url: string, caPem: string): Promise<string | undefined> {
  const response = await get(httpsRequest, `${url}/healthz`, { ca: caPem });
  if (response.status === 200) return undefined;
  return response.problem ?? `HTTP ${response.status}: ${response.body.slice(0, 500)}`;
}
