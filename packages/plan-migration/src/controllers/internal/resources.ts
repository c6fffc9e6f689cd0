//! The forklift resources as informer resources, and references resolved against their referrer.

import { type ApiGroup, GROUP, PLURALS, VERSION } from '../../crds.js';

/** The group/version/resource of a forklift kind, in `group` (default {@link GROUP}). */
export const forkliftResource = (kind: keyof typeof PLURALS, group: ApiGroup = GROUP) => ({
  group,
  version: VERSION,
  resource: PLURALS[kind],
});

/** A reference with an optional namespace, resolved against the referrer's namespace. */
export function refKey(
  ref: { namespace?: string; name?: string } | undefined,
  defaultNamespace: string,
): { namespace: string; name: string } | undefined {
  if (!ref?.name) return undefined;
  return { namespace: ref.namespace || defaultNamespace, name: ref.name };
}
