// The error for protobuf bytes the decoder cannot read.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Thrown when protobuf bytes from the API server cannot be decoded: a bad magic number, an
 * apiVersion/kind the schema does not know, a truncated message or a field whose wire type
 * is not the one its Go type is written with. The message says which.
 */
export class ProtobufDecodeError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'ProtobufDecode' as const;
}
