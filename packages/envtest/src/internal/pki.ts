//! The certificates and keys of one control plane: CA, serving certs, users, service accounts.

import { generateKeyPairSync } from 'node:crypto';
import { createCertificate, type IssuedCertificate } from '@ctrlkit/core/certificates';
import type { ComponentName } from '../components.js';

/** Everything kube-apiserver and its admin need, PEM-encoded. */
export interface ControlPlanePki {
  readonly ca: IssuedCertificate;
  readonly serving: IssuedCertificate;
  readonly admin: IssuedCertificate;
  readonly serviceAccountPrivateKeyPem: string;
  readonly serviceAccountPublicKeyPem: string;
}

/** A component's identity towards the apiserver and its own serving certificate. */
export interface ComponentPki {
  /** The user the apiserver sees, as kubeadm names it (`system:kube-scheduler`). */
  readonly user: string;
  readonly client: IssuedCertificate;
  readonly serving: IssuedCertificate;
}

/** The admin user: in `system:masters`, so RBAC allows it everything. */
export const ADMIN_USER = 'ctrlkit-envtest-admin';
export const ADMIN_GROUPS = ['system:masters'] as const;

const LOOPBACK = { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] } as const;

/** Creates a CA, a serving certificate for 127.0.0.1 and localhost, the admin and a service-account key. */
export async function createPki(): Promise<ControlPlanePki> {
  const ca = await createCertificate({ commonName: 'ctrlkit-envtest-ca', usage: 'ca' });
  const [serving, admin] = await Promise.all([
    createCertificate(
      {
        commonName: 'kube-apiserver',
        usage: 'server',
        dnsNames: [
          ...LOOPBACK.dnsNames,
          'kubernetes',
          'kubernetes.default',
          'kubernetes.default.svc',
        ],
        ipAddresses: [...LOOPBACK.ipAddresses, '10.0.0.1'],
      },
      ca,
    ),
    issueUserCertificate(ca, ADMIN_USER, ADMIN_GROUPS),
  ]);
  const serviceAccount = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    ca,
    serving,
    admin,
    serviceAccountPrivateKeyPem: serviceAccount.privateKey
      .export({ type: 'pkcs8', format: 'pem' })
      .toString(),
    serviceAccountPublicKeyPem: serviceAccount.publicKey
      .export({ type: 'spki', format: 'pem' })
      .toString(),
  };
}

/**
 * The client certificate of `component` (user `system:<component>`, which the apiserver's
 * bootstrap RBAC binds to its ClusterRole, as kubeadm relies on) and a serving certificate
 * for its secure port on 127.0.0.1, both from the control plane's CA.
 */
export async function createComponentPki(
  ca: IssuedCertificate,
  component: ComponentName,
): Promise<ComponentPki> {
  const user = `system:${component}`;
  const [client, serving] = await Promise.all([
    issueUserCertificate(ca, user, []),
    createCertificate({ commonName: component, usage: 'server', ...LOOPBACK }, ca),
  ]);
  return { user, client, serving };
}

/** A client certificate for `user` in `groups`, signed by the control plane's CA. */
export function issueUserCertificate(
  ca: IssuedCertificate,
  user: string,
  groups: readonly string[],
): Promise<IssuedCertificate> {
  return createCertificate({ commonName: user, organizations: groups, usage: 'client' }, ca);
}

/** A kubeconfig (JSON, which kubectl reads as YAML) for `server` as a client certificate user. */
export function kubeconfigFor(
  server: string,
  caPem: string,
  user: string,
  client: IssuedCertificate,
): string {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  return `${JSON.stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        { name: 'envtest', cluster: { server, 'certificate-authority-data': b64(caPem) } },
      ],
      users: [
        {
          name: user,
          user: {
            'client-certificate-data': b64(client.certPem),
            'client-key-data': b64(client.keyPem),
          },
        },
      ],
      contexts: [{ name: `${user}@envtest`, context: { cluster: 'envtest', user } }],
      'current-context': `${user}@envtest`,
    },
    null,
    2,
  )}\n`;
}
