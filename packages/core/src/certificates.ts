/**
 * `@ctrlkit/core/certificates`: X.509 certificates (a CA, serving and client certificates)
 * made with `@peculiar/x509` on WebCrypto. A subpath of its own, loaded only by what makes a
 * certificate (the virtual kubelet's self-signed serving certificate, envtest's control plane);
 * the library is itself loaded on first use.
 *
 * - {@link createCertificate}: a certificate for a {@link CertificateRequest} (usage, common name,
 *   organizations, DNS names and IP addresses), self-signed or signed by a CA; a
 *   {@link CertificateUsage} says what for. It gives an {@link IssuedCertificate}.
 *
 * A first program:
 * ```ts
 * import { createCertificate } from '@ctrlkit/core/certificates';
 *
 * const ca = await createCertificate({ usage: 'ca', commonName: 'my-ca' });
 * const serving = await createCertificate({ usage: 'server', commonName: 'localhost', ipAddresses: ['127.0.0.1'] }, ca);
 * ```
 *
 * @packageDocumentation
 */

export {
  type CertificateRequest,
  type CertificateUsage,
  createCertificate,
  type IssuedCertificate,
} from './create-certificate.js';
