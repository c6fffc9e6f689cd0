//! A control plane component was asked for by a name envtest does not know.

import { EnvtestError } from './envtest-error.js';

/**
 * The `components` option (or `--components` flag) names a component envtest cannot start.
 * Thrown at the call, before anything starts; `field` names the entry at fault.
 */
export class UnknownComponentError extends EnvtestError {
  /** The name that was given. */
  readonly component: string;
  /** The option entry at fault, e.g. `components[1]`. */
  readonly field: string;
  /** The names envtest knows. */
  readonly known: readonly string[];

  constructor(component: string, field: string, known: readonly string[]) {
    super(
      'UnknownComponent',
      `unknown control plane component ${JSON.stringify(component)} (${field}); known: ${known.join(', ')}`,
    );
    this.component = component;
    this.field = field;
    this.known = known;
  }
}
