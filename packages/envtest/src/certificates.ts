/**
 * `@ctrlkit/envtest/certificates`: the certificate helper the control plane makes its
 * certificates with, `@ctrlkit/core/certificates`'s (it lives there, once, because programs
 * that ship need it too); here for tests that import it beside the control plane.
 *
 * ```ts
 * import { createCertificate } from '@ctrlkit/envtest/certificates';
 *
 * const ca = await createCertificate({ usage: 'ca', commonName: 'my-ca' });
 * ```
 *
 * @packageDocumentation
 */

export {
  type CertificateRequest,
  type CertificateUsage,
  createCertificate,
  type IssuedCertificate,
} from '@ctrlkit/core/certificates';
