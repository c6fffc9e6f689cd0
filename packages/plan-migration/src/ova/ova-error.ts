//! The error of the OVA source: a catalog file it cannot read, or an operation OVA does not support.

import { CtrlkitError } from '@ctrlkit/core';

/** Why an OVA operation failed. */
export type OvaErrorReason =
  /** The catalog folder does not exist or cannot be read. */
  | 'CatalogNotFound'
  /** A catalog file cannot be read (permissions, I/O error). */
  | 'Unreadable'
  /** A `.ova` archive is not a readable tar. */
  | 'MalformedArchive'
  /** A `.ova` archive holds no `*.ovf` entry. */
  | 'OvfNotFound'
  /** An OVF descriptor is not well-formed XML or not an OVF `Envelope`. */
  | 'MalformedOvf'
  /** An OVF descriptor still holds `${property}` placeholders where values are needed. */
  | 'UnresolvedProperty'
  /** An OVF 0.9 descriptor (`<Section xsi:type=…>`): only OVF 1.x and 2.x are read. */
  | 'UnsupportedOvfVersion'
  /** The VM is not in the catalog's inventory. */
  | 'VMNotFound'
  /** The operation (snapshot, disk transfer) does not exist for OVA: the pipeline is cold, through virt-v2v. */
  | 'NotSupported';

/** Thrown by the OVA source; `file` names the catalog file at fault when there is one. */
export class OvaError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: OvaErrorReason;
  /** The catalog file at fault, if any. */
  readonly file: string | undefined;

  constructor(
    reason: OvaErrorReason,
    message: string,
    options?: { file?: string; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.file = options?.file;
  }
}
