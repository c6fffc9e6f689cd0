//! The error of a name template that cannot be used.

import { CtrlkitError } from '@ctrlkit/core';

/** Thrown for a template or name that cannot be used. */
export class NameTemplateError extends CtrlkitError {
  /** What a program can branch on. */
  readonly reason: 'TemplateNotValid' | 'TemplateOutputEmpty' | 'NameNotValid';

  constructor(reason: NameTemplateError['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}
