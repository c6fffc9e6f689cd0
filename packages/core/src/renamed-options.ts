// Rejecting an option passed under a name it no longer has.

import { InvalidArgumentError } from './invalid-argument-error.js';

/**
 * Throws {@link InvalidArgumentError} when `options` holds a value under an old option name,
 * naming the new one, so a renamed option fails at the call instead of being ignored:
 * `rejectRenamedOptions(options, { leaseDuration: 'leaseDurationMs' })` throws
 * `invalid leaseDuration: renamed to leaseDurationMs` for `{ leaseDuration: 15_000 }`.
 *
 * `renamed` maps each old name to its new one. `path` prefixes both in the message and the
 * error's `field` (`'lease'` gives `lease.leaseDuration`). An old name whose value is
 * `undefined` is ignored, as it would have been; anything but an object is left to the
 * caller's own checks.
 */
export function rejectRenamedOptions(
  options: unknown,
  renamed: Readonly<Record<string, string>>,
  path?: string,
): void {
  if (typeof options !== 'object' || options === null) return;
  const prefix = path === undefined || path === '' ? '' : `${path}.`;
  for (const [oldName, newName] of Object.entries(renamed)) {
    if ((options as Record<string, unknown>)[oldName] !== undefined) {
      throw new InvalidArgumentError(`${prefix}${oldName}`, `renamed to ${prefix}${newName}`);
    }
  }
}
