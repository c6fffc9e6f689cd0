//! The certificates and keys of one control plane: CA, serving cert, users, service accounts.

import { generateKeyPairSync } from 'node:crypto';
import { type IssuedCertificate, issueCertificate } from './x509.js';

const HOUR_MS = 3_600_000;
const YEAR_MS = 365 * 24 * HOUR_MS;

/** Everything kube-apiserver and its admin need, PEM-encoded. */
export interface ControlPlanePki {
  readonly ca: IssuedCertificate;
  readonly serving: IssuedCertificate;
  readonly admin: IssuedCertificate;
  readonly serviceAccountPrivateKeyPem: string;
  readonly serviceAccountPublicKeyPem: string;
}

/** The admin user: in `system:masters`, so RBAC allows it everything. */
export const ADMIN_USER = 'ctrlkit-envtest-admin';
export const ADMIN_GROUPS = ['system:masters'] as const;

/** Creates a CA, a serving certificate for 127.0.0.1 and localhost, the admin and a service-account key. */
export function createPki(now: Date = new Date()): ControlPlanePki {
  const notBefore = new Date(now.getTime() - HOUR_MS);
  const ca = issueCertificate({
    commonName: 'ctrlkit-envtest-ca',
    usage: 'ca',
    notBefore,
    notAfter: new Date(now.getTime() + 10 * YEAR_MS),
  });
  const serving = issueCertificate(
    {
      commonName: 'kube-apiserver',
      usage: 'server',
      dnsNames: ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
      ipAddresses: ['127.0.0.1', '10.0.0.1'],
      notBefore,
      notAfter: new Date(now.getTime() + YEAR_MS),
    },
    ca,
  );
  const admin = issueUserCertificate(ca, ADMIN_USER, ADMIN_GROUPS, now);
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

/** A client certificate for `user` in `groups`, signed by the control plane's CA. */
export function issueUserCertificate(
  ca: IssuedCertificate,
  user: string,
  groups: readonly string[],
  now: Date = new Date(),
): IssuedCertificate {
  return issueCertificate(
    {
      commonName: user,
      organizations: groups,
      usage: 'client',
      notBefore: new Date(now.getTime() - HOUR_MS),
      notAfter: new Date(now.getTime() + YEAR_MS),
    },
    ca,
  );
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
