//! How forklift-api refuses a request: code 400 with the message, as Forklift's util.ToAdmissionResponseError.

import { AdmissionDeniedError } from '@ctrlkit/runtime/webhook';

/** Forklift answers every refusal of its admitters and mutators with HTTP code 400 (`BadRequest`). */
export const DENIED_CODE = 400;

/** A refusal with `message`, code {@link DENIED_CODE}, reason `BadRequest`. */
export function denied(message: string): AdmissionDeniedError {
  return new AdmissionDeniedError(message, { code: DENIED_CODE, statusReason: 'BadRequest' });
}
