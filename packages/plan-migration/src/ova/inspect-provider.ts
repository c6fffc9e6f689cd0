//! The OVA provider check: the conditions a Provider of type `ova` gets from a scan of its catalog.

import type { Provider } from '../api/provider.js';
import { Reason, ResourceConditionType } from '../condition-types.js';
import { Category, type NewCondition, True } from '../conditions.js';
import {
  type OvaCatalog,
  OvaInventory,
  type OvaInventoryOptions,
  type OvaProblem,
} from './inventory.js';
import { OvaError, type OvaErrorReason } from './ova-error.js';
import { catalogRelative } from './scan.js';

/** What {@link inspectOvaProvider} found. */
export interface OvaProviderInspection {
  /** The conditions to set on `Provider.status` (staged by the caller). */
  conditions: NewCondition[];
  /** `Provider.status.phase`: `Ready`, or `ConnectionFailed` when the catalog cannot be read. */
  phase: 'Ready' | 'ConnectionFailed';
  /** The scan, when the catalog could be read. */
  catalog?: OvaCatalog;
}

/** Options of {@link inspectOvaProvider}: the inventory to scan with, or options to make one. */
export type OvaProviderCheckOptions = OvaInventoryOptions | { inventory: OvaInventory };

const PROBLEM_CONDITIONS: Array<{
  reasons: OvaErrorReason[];
  type: string;
  reason: string;
  what: string;
}> = [
  {
    reasons: ['MalformedOvf', 'MalformedArchive', 'Unreadable'],
    type: ResourceConditionType.ApplianceMalformed,
    reason: Reason.Malformed,
    what: 'malformed or unreadable',
  },
  {
    reasons: ['UnresolvedProperty'],
    type: ResourceConditionType.AppliancePropertyUnresolved,
    reason: Reason.NotSet,
    what: 'using \u0024{property} values that are not set',
  },
  {
    reasons: ['UnsupportedOvfVersion'],
    type: ResourceConditionType.ApplianceVersionNotSupported,
    reason: Reason.NotSupported,
    what: 'in OVF 0.9 (not read)',
  },
  {
    reasons: ['OvfNotFound'],
    type: ResourceConditionType.ApplianceDescriptorNotFound,
    reason: Reason.NotFound,
    what: 'archives without an *.ovf descriptor',
  },
];

/**
 * Scans the catalog of an `ova` Provider (forced, not from a cached scan) and returns its
 * conditions:
 * - the catalog folder is missing or unreadable: `ConnectionTestFailed` (Critical, `Tested`);
 * - else `ConnectionTestSucceeded` (Required), `InventoryCreated` (Advisory, `Completed`), one
 *   Warn condition per kind of problem file (`ApplianceMalformed`, `AppliancePropertyUnresolved`,
 *   `ApplianceDescriptorNotFound`, `ApplianceVersionNotSupported`; message naming each file and its error, files in `items`),
 *   and `Ready` (Required). A problem file does not block the provider: its VMs are just
 *   not in the inventory.
 *
 * Errors: rejects only for a provider whose `spec.type` is not `ova` (`OvaError` `NotSupported`).
 */
export async function inspectOvaProvider(
  provider: Provider,
  options: OvaProviderCheckOptions = {},
): Promise<OvaProviderInspection> {
  if (provider.spec.type !== 'ova') {
    throw new OvaError('NotSupported', `provider type '${provider.spec.type}' is not ova`);
  }
  const inventory =
    'inventory' in options && options.inventory instanceof OvaInventory
      ? options.inventory
      : new OvaInventory(options as OvaInventoryOptions);
  let catalog: OvaCatalog;
  try {
    catalog = await inventory.catalog({ force: true });
  } catch (error) {
    if (!OvaError.isInstance(error) || error.reason !== 'CatalogNotFound') throw error;
    return {
      phase: 'ConnectionFailed',
      conditions: [
        {
          type: ResourceConditionType.ConnectionTestFailed,
          status: True,
          reason: Reason.Tested,
          category: Category.Critical,
          message: `Connection test, failed: ${error.message}`,
        },
      ],
    };
  }
  const conditions: NewCondition[] = [
    {
      type: ResourceConditionType.ConnectionTestSucceeded,
      status: True,
      reason: Reason.Tested,
      category: Category.Required,
      message: 'Connection test, succeeded.',
    },
    {
      type: ResourceConditionType.InventoryCreated,
      status: True,
      reason: Reason.Completed,
      category: Category.Advisory,
      message: `The inventory has been loaded: ${catalog.vms.length} VMs from ${
        catalog.files.filter((f) => f.complete).length - catalog.problems.length
      } appliance files.`,
    },
  ];
  for (const kind of PROBLEM_CONDITIONS) {
    const problems = catalog.problems.filter((p) => kind.reasons.includes(p.reason));
    if (problems.length === 0) continue;
    conditions.push({
      type: kind.type,
      status: True,
      reason: kind.reason,
      category: Category.Warn,
      message: `${problems.length} appliance file(s) ${kind.what}, their VMs are not in the inventory: ${problems
        .map((p) => describe(inventory.catalogPath, p))
        .join('; ')}`,
      items: problems.map((p) => catalogRelative(inventory.catalogPath, p.file)),
    });
  }
  conditions.push({
    type: ResourceConditionType.Ready,
    status: True,
    category: Category.Required,
    message: 'The provider is ready.',
  });
  return { phase: 'Ready', conditions, catalog };
}

function describe(catalogPath: string, problem: OvaProblem): string {
  const file = catalogRelative(catalogPath, problem.file);
  // Messages start with the absolute path: show it relative to the catalog.
  const message = problem.message.startsWith(problem.file)
    ? problem.message.slice(problem.file.length).replace(/^:\s*/, '')
    : problem.message;
  return `${file}: ${message}`;
}
