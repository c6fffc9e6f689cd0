//! The rules of Forklift's plan admitter that need no API call: warm migration and encrypted disks by source provider type, and static storage classes.

import type { Plan, ProviderType, StorageMap } from '@ctrlkit/plan-migration/api';

/** The provisioner of a static storage class (no dynamic provisioning), which a cold migration into the host cluster cannot use. */
export const STATIC_PROVISIONER = 'kubernetes.io/no-provisioner';

/** The source provider types that cannot migrate warm, as Forklift's plan admitter (OpenStack). */
export const WARM_UNSUPPORTED_PROVIDER_TYPES: readonly ProviderType[] = ['openstack'];

/** The source provider types whose LUKS-encrypted disks can be opened, as Forklift (vSphere, OVA). */
export const LUKS_PROVIDER_TYPES: readonly ProviderType[] = ['vsphere', 'ova'];

/** Forklift's refusal of a warm plan from a provider type that has no warm migration. */
export function warmMigrationProblem(warm: boolean, sourceType: ProviderType): string | undefined {
  return warm && WARM_UNSUPPORTED_PROVIDER_TYPES.includes(sourceType)
    ? 'warm migration is not supported by the provider'
    : undefined;
}

/** Forklift's refusal of a plan with a VM's LUKS Secret (`spec.vms[].luks`) from a provider type that cannot open it. */
export function luksProblem(
  plan: Pick<Plan, 'spec'>,
  sourceType: ProviderType,
): string | undefined {
  const hasLuks = plan.spec.vms.some((vm) => (vm.luks?.name ?? '') !== '');
  if (!hasLuks || LUKS_PROVIDER_TYPES.includes(sourceType)) return undefined;
  return `migration of encrypted disks from source provider of type ${sourceType} is not supported`;
}

/** A storage class as the admitter reads it: its name and provisioner. */
export interface StorageClassLike {
  readonly metadata?: { readonly name?: string };
  readonly provisioner?: string;
}

/**
 * Forklift's refusal of a storage map whose destinations include static storage classes
 * ({@link STATIC_PROVISIONER}), listed in map order as Go prints a string slice:
 * `Static storage class(es) found: [local slow]`.
 */
export function staticStorageProblem(
  storageMap: Pick<StorageMap, 'spec'>,
  storageClasses: readonly StorageClassLike[],
): string | undefined {
  const bad: string[] = [];
  for (const pair of storageMap.spec.map ?? []) {
    for (const sc of storageClasses) {
      if (
        sc.metadata?.name === pair.destination.storageClass &&
        sc.provisioner === STATIC_PROVISIONER
      )
        bad.push(sc.metadata.name);
    }
  }
  return bad.length === 0 ? undefined : `Static storage class(es) found: [${bad.join(' ')}]`;
}
