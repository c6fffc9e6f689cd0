//! The plan-level checks: providers, target namespace, maps, migration type and name templates.

import type { Plan } from '../api/plan.js';
import { isWarm } from '../api/plan.js';
import { ConditionType, Reason } from '../condition-types.js';
import type { Conditions } from '../conditions.js';
import { isDNS1123Subdomain } from '../name-templates.js';
import { critical, hasReady } from './ready.js';
import type { PlanReferences, SourceAccess } from './validation-input.js';

/** The source provider: set, found and Ready. */
export function validateSourceProvider(cnd: Conditions, plan: Plan, refs: PlanReferences): void {
  const src = plan.spec.provider.source;
  if (!src?.name) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotValid,
        'The source provider is not valid.',
        Reason.NotSet,
      ),
    );
  } else if (refs.source === undefined) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotValid,
        'The source provider is not valid.',
        Reason.NotFound,
      ),
    );
  } else if (!hasReady(refs.source)) {
    cnd.setCondition(
      critical(
        ConditionType.SourceProviderNotReady,
        'The source provider does not have the Ready condition.',
      ),
    );
  }
}

/** The destination provider: set, found, Ready, and of type `openshift`. */
export function validateDestinationProvider(
  cnd: Conditions,
  plan: Plan,
  refs: PlanReferences,
): void {
  const dst = plan.spec.provider.destination;
  if (!dst?.name) {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotValid,
        'The destination provider is not valid.',
        Reason.NotSet,
      ),
    );
    return;
  }
  if (refs.destination === undefined) {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotValid,
        'The destination provider is not valid.',
        Reason.NotFound,
      ),
    );
    return;
  }
  if (!hasReady(refs.destination)) {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotReady,
        'The destination provider does not have the Ready condition.',
      ),
    );
  }
  if (refs.destination.spec.type !== 'openshift') {
    cnd.setCondition(
      critical(
        ConditionType.DestinationProviderNotValid,
        'The destination provider is not valid.',
        Reason.TypeNotValid,
      ),
    );
  }
}

/** The target namespace: set and a DNS-1123 subdomain. */
export function validateTargetNamespace(cnd: Conditions, plan: Plan): void {
  const target = plan.spec.targetNamespace ?? '';
  if (target === '') {
    cnd.setCondition(
      critical(ConditionType.NamespaceNotValid, 'Target namespace is not valid.', Reason.NotSet),
    );
  } else if (!isDNS1123Subdomain(target)) {
    cnd.setCondition(
      critical(ConditionType.NamespaceNotValid, 'Target namespace is not valid.', Reason.NotValid),
    );
  }
}

/** The NetworkMap and (except for a conversion-only plan) the StorageMap: set, found and Ready. */
export function validateMaps(cnd: Conditions, plan: Plan, refs: PlanReferences): void {
  if (!plan.spec.map?.network?.name) {
    cnd.setCondition(
      critical(ConditionType.NetRefNotValid, 'Map.Network is not valid.', Reason.NotSet),
    );
  } else if (refs.networkMap === undefined) {
    cnd.setCondition(
      critical(ConditionType.NetRefNotValid, 'Map.Network is not valid.', Reason.NotFound),
    );
  } else if (!hasReady(refs.networkMap)) {
    cnd.setCondition(
      critical(ConditionType.NetMapNotReady, 'Map.Network does not have Ready condition.'),
    );
  }
  if (plan.spec.type === 'conversion') return;
  if (!plan.spec.map?.storage?.name) {
    cnd.setCondition(
      critical(ConditionType.DsRefNotValid, 'Map.Storage is not valid.', Reason.NotSet),
    );
  } else if (refs.storageMap === undefined) {
    cnd.setCondition(
      critical(ConditionType.DsRefNotValid, 'Map.Storage is not valid.', Reason.NotFound),
    );
  } else if (!hasReady(refs.storageMap)) {
    cnd.setCondition(
      critical(ConditionType.DsMapNotReady, 'Map.Storage does not have Ready condition.'),
    );
  }
}

/** Warm migration and the migration type, as far as the source's validator supports them. */
export function validateMigrationType(
  cnd: Conditions,
  plan: Plan,
  source: SourceAccess | undefined,
): void {
  if (isWarm(plan) && source !== undefined && !source.validator.warmMigration()) {
    cnd.setCondition(
      critical(
        ConditionType.WarmMigrationNotReady,
        'Warm migration from the source provider is not supported.',
        Reason.NotSupported,
      ),
    );
  }
  if (source !== undefined && !source.validator.migrationType()) {
    cnd.setCondition(
      critical(
        ConditionType.MigrationTypeNotValid,
        'The migration type is not supported by the source provider.',
        Reason.NotSupported,
      ),
    );
  }
}
