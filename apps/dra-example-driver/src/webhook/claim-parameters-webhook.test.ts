import type { AdmissionReview } from '@ctrlkit/runtime/webhook';
import { describe, expect, it } from 'vitest';
import {
  RESOURCE_API_VERSIONS,
  RESOURCE_CLAIM_TEMPLATE_WEBHOOK_PATH,
  RESOURCE_CLAIM_WEBHOOK_PATH,
  resourceClaimParametersWebhooks,
} from './claim-parameters-webhook.js';

const DRIVER = 'gpu.example.com';
const TYPE = { apiVersion: 'gpu.resource.example.com/v1alpha1', kind: 'GpuConfig' };
const [claimWebhook, templateWebhook] = resourceClaimParametersWebhooks(DRIVER);

function gpuConfig(sharing: unknown, requests?: string[], driver = DRIVER) {
  return { ...(requests && { requests }), opaque: { driver, parameters: { ...TYPE, sharing } } };
}

async function admit(
  kind: 'ResourceClaim' | 'ResourceClaimTemplate',
  configs: unknown[],
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
  version = 'v1',
) {
  const spec = { devices: { requests: [], config: configs } };
  const object = {
    apiVersion: `resource.k8s.io/${version}`,
    kind,
    metadata: { name: 'c', namespace: 'ns' },
    spec: kind === 'ResourceClaim' ? spec : { spec },
  };
  const webhook = kind === 'ResourceClaim' ? claimWebhook : templateWebhook;
  const review = await webhook?.handle(
    {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u1',
        kind: { group: 'resource.k8s.io', version, kind },
        resource: {
          group: 'resource.k8s.io',
          version,
          resource: `${kind.toLowerCase()}s`,
        },
        name: 'c',
        namespace: 'ns',
        operation,
        userInfo: {},
        object,
        ...(operation === 'UPDATE' && { oldObject: object }),
      },
    },
    new AbortController().signal,
  );
  return (review as AdmissionReview).response;
}

describe('resourceClaimParametersWebhooks', () => {
  it('registers claims and templates of every resource.k8s.io version, CREATE and UPDATE, as upstream', () => {
    expect(claimWebhook?.options).toMatchObject({
      group: 'resource.k8s.io',
      versions: RESOURCE_API_VERSIONS,
      resource: 'resourceclaims',
      operations: ['CREATE', 'UPDATE'],
      path: RESOURCE_CLAIM_WEBHOOK_PATH,
    });
    expect(templateWebhook?.options).toMatchObject({
      resource: 'resourceclaimtemplates',
      path: RESOURCE_CLAIM_TEMPLATE_WEBHOOK_PATH,
    });
  });

  it('admits valid configs, configs for other drivers, and claims without configs', async () => {
    const response = await admit('ResourceClaim', [
      gpuConfig({ strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Long' } }),
      gpuConfig({ strategy: 'Bogus' }, undefined, 'other.example.com'),
      { opaque: { driver: 'other.example.com', parameters: { anything: 1 } } },
    ]);
    expect(response).toEqual({ uid: 'u1', allowed: true });
    expect(await admit('ResourceClaim', [])).toEqual({ uid: 'u1', allowed: true });
  });

  it('denies a claim with an invalid config: the object, each bad config index, its requests and the field', async () => {
    const response = await admit('ResourceClaim', [
      gpuConfig({ strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount: 2 } }),
      gpuConfig({ strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Forever' } }, ['gpu']),
      gpuConfig({ strategy: 'Shared' }),
    ]);
    expect(response).toEqual({
      uid: 'u1',
      allowed: false,
      status: {
        code: 422,
        reason: 'Invalid',
        message:
          'ResourceClaim ns/c (resource.k8s.io/v1): 2 of the device configs for driver gpu.example.com failed to validate: ' +
          'config 1 (requests: gpu): spec.devices.config[1].opaque.parameters.sharing.timeSlicingConfig.interval: unknown time-slice interval: "Forever" (expected one of Default, Short, Medium, Long); ' +
          'config 2 (requests: all): spec.devices.config[2].opaque.parameters.sharing.strategy: unknown GPU sharing strategy: "Shared" (expected one of TimeSlicing, SpacePartitioning)',
      },
    });
  });

  it('denies an update to an invalid config, and a template (spec.spec) of an older version', async () => {
    const update = await admit('ResourceClaim', [gpuConfig(undefined)], 'UPDATE');
    expect(update?.status?.message).toContain(
      'config 0 (requests: all): spec.devices.config[0].opaque.parameters.sharing: no sharing strategy set',
    );
    const template = await admit(
      'ResourceClaimTemplate',
      [{ opaque: { driver: DRIVER, parameters: { ...TYPE, kind: 'NetConfig' } } }],
      'CREATE',
      'v1beta1',
    );
    expect(template?.allowed).toBe(false);
    expect(template?.status?.message).toBe(
      'ResourceClaimTemplate ns/c (resource.k8s.io/v1beta1): 1 of the device configs for driver gpu.example.com failed to validate: ' +
        'config 0 (requests: all): spec.spec.devices.config[0].opaque.parameters.kind: expected "GpuConfig", got "NetConfig"',
    );
  });
});
