// The error for an object the encoder cannot write as protobuf.

import { CtrlkitError } from '@ctrlkit/core';

/**
 * Thrown when an object cannot be written as protobuf: a kind the schema does not know, a
 * field its Go type does not have (protobuf would drop it silently, JSON would not), or a
 * value of the wrong type. The message names the field; send the object as JSON instead.
 */
export class ProtobufEncodeError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason = 'ProtobufEncode' as const;
}
