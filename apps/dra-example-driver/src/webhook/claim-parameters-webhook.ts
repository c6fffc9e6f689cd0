//! The validating webhooks of ResourceClaims and ResourceClaimTemplates: the driver's opaque GpuConfigs must decode and validate (upstream's dra-example-webhook).

import {
  AdmissionDeniedError,
  type AdmissionRequest,
  type AdmissionWebhook,
  type CustomValidator,
  validatingWebhookFor,
} from '@ctrlkit/runtime/webhook';
import { decodeGpuConfig } from '../gpu-config/decode-gpu-config.js';
import { GpuConfigError } from '../gpu-config/gpu-config-error.js';

/**
 * The `resource.k8s.io` versions the webhooks are registered for: those whose claims carry
 * `spec.devices.config[].opaque` (the same shape in each). With matchPolicy `Equivalent` the
 * apiserver sends a request made through any served version in one of these.
 */
export const RESOURCE_API_VERSIONS = ['v1', 'v1beta2', 'v1beta1'] as const;

/** Where the ResourceClaim webhook is served. */
export const RESOURCE_CLAIM_WEBHOOK_PATH = '/validate-resource-claim-parameters';
/** Where the ResourceClaimTemplate webhook is served. */
export const RESOURCE_CLAIM_TEMPLATE_WEBHOOK_PATH = '/validate-resource-claim-template-parameters';

interface DeviceConfig {
  requests?: readonly string[];
  opaque?: { driver?: string; parameters?: unknown };
}

/**
 * The two validating webhooks (ResourceClaim, ResourceClaimTemplate; CREATE and UPDATE, as
 * upstream) that deny an object with a device configuration for `driverName` whose
 * `opaque.parameters` is not a valid GpuConfig (see `decodeGpuConfig`). Configurations for
 * other drivers are not looked at. The denial (code 422, reason `Invalid`) names the
 * object, and for each bad configuration its index, its requests and the field.
 */
export function resourceClaimParametersWebhooks(driverName: string): AdmissionWebhook[] {
  return [
    validatingWebhookFor(validator(driverName, 'spec'), {
      name: `resourceclaim.${driverName}`,
      group: 'resource.k8s.io',
      versions: RESOURCE_API_VERSIONS,
      kind: 'ResourceClaim',
      resource: 'resourceclaims',
      path: RESOURCE_CLAIM_WEBHOOK_PATH,
      operations: ['CREATE', 'UPDATE'],
    }),
    validatingWebhookFor(validator(driverName, 'spec.spec'), {
      name: `resourceclaimtemplate.${driverName}`,
      group: 'resource.k8s.io',
      versions: RESOURCE_API_VERSIONS,
      kind: 'ResourceClaimTemplate',
      resource: 'resourceclaimtemplates',
      path: RESOURCE_CLAIM_TEMPLATE_WEBHOOK_PATH,
      operations: ['CREATE', 'UPDATE'],
    }),
  ];
}

function validator(driverName: string, specPath: 'spec' | 'spec.spec'): CustomValidator<unknown> {
  const check = (object: unknown, request: AdmissionRequest): undefined => {
    const problems = configProblems(object, specPath, driverName);
    if (problems.length === 0) return undefined;
    throw new AdmissionDeniedError(
      `${describeObject(object, request)}: ${problems.length} of the device configs for driver ${driverName} failed to validate: ${problems.join('; ')}`,
      { code: 422, statusReason: 'Invalid' },
    );
  };
  return {
    validateCreate: (object, { request }) => check(object, request),
    validateUpdate: (_old, object, { request }) => check(object, request),
    validateDelete: () => undefined,
  };
}

/** One message per configuration for the driver that does not validate. */
function configProblems(object: unknown, specPath: string, driverName: string): string[] {
  let spec: unknown = object;
  for (const key of specPath.split('.'))
    spec = (spec as Record<string, unknown> | undefined)?.[key];
  const configs = (spec as { devices?: { config?: unknown } } | undefined)?.devices?.config;
  if (!Array.isArray(configs)) return [];
  const problems: string[] = [];
  configs.forEach((config: DeviceConfig, index) => {
    if (config?.opaque?.driver !== driverName) return;
    const at = `${specPath}.devices.config[${index}].opaque.parameters`;
    try {
      decodeGpuConfig(config.opaque.parameters);
    } catch (error) {
      if (!GpuConfigError.isInstance(error)) throw error;
      const field = error.field === '' ? at : `${at}.${error.field}`;
      const requests = config.requests?.length ? config.requests.join(', ') : 'all';
      problems.push(`config ${index} (requests: ${requests}): ${field}: ${error.problem}`);
    }
  });
  return problems;
}

function describeObject(object: unknown, request: AdmissionRequest): string {
  const metadata = (object as { metadata?: { name?: string; generateName?: string } } | undefined)
    ?.metadata;
  const name = request.name || metadata?.name || `${metadata?.generateName ?? ''}<generated>`;
  const where = request.namespace ? `${request.namespace}/${name}` : name;
  return `${request.kind.kind} ${where} (${request.kind.group}/${request.kind.version})`;
}
