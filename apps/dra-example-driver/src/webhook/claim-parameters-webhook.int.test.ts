// The claim-parameter webhooks on the real apiserver (envtest's installWebhooks, the generated
// configuration pointed at a local server run by a Manager): for every resource.k8s.io version
// the apiserver serves (discovered), a ResourceClaim and a ResourceClaimTemplate with an
// invalid GpuConfig are denied with the webhook's message, valid ones admitted. This file
// starts its own control plane with the beta versions turned on (the shared one serves v1 only).
import { noopLogger } from '@ctrlkit/core';
import {
  type ControlPlane,
  createTestNamespace,
  installWebhooks,
  startControlPlane,
} from '@ctrlkit/envtest';
import { Manager } from '@ctrlkit/runtime';
import { ApiStatusError } from '@ctrlkit/runtime/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driverWebhookConfiguration } from './webhook-configuration.js';
import { driverWebhookServer } from './webhook-server.js';

const BETA_VERSIONS = 'resource.k8s.io/v1beta1=true,resource.k8s.io/v1beta2=true';
const DRIVER = 'gpu.example.com';
const stop = new AbortController();
let manager: Manager;
let done: Promise<void>;
let uninstall: () => Promise<void>;
let namespace: string;
let versions: string[];
let plane: ControlPlane;

beforeAll(async () => {
  plane = await startControlPlane({
    apiServerFlags: { 'runtime-config': BETA_VERSIONS },
    logger: noopLogger,
  });
  const { kubeConfig } = plane;
  const installed = await installWebhooks(kubeConfig, {
    validatingWebhookConfigurations: [
      driverWebhookConfiguration({ name: 'int-dra-example-webhook' }),
    ],
  });
  uninstall = installed.uninstall;
  manager = new Manager({
    kubeConfig,
    metricsBindAddress: '0',
    healthProbeBindAddress: '0',
    webhookServer: driverWebhookServer({
      host: installed.host,
      port: installed.port,
      certDir: installed.certDir,
      certName: 'tls.crt',
      keyName: 'tls.key',
      driverName: DRIVER,
    }),
  });
  done = manager.start(stop.signal);
  await installed.waitReachable();
  namespace = await createTestNamespace(kubeConfig);
  const group = (await manager.client.getJson('/apis/resource.k8s.io', {}, 'application/json')) as {
    versions: Array<{ version: string }>;
  };
  versions = group.versions.map((v) => v.version);
});

afterAll(async () => {
  stop.abort();
  await done;
  await uninstall?.();
  await plane?.stop();
});

/** A device request of `version` (v1beta1 and older name the class at the top; later ones under `exactly`). */
function request(version: string) {
  const exactly = { deviceClassName: DRIVER };
  return /^v1(alpha|beta1$)/.test(version) ? { name: 'gpu', ...exactly } : { name: 'gpu', exactly };
}

function spec(version: string, sharing: unknown) {
  return {
    devices: {
      requests: [request(version)],
      config: [
        {
          requests: ['gpu'],
          opaque: {
            driver: DRIVER,
            parameters: {
              apiVersion: 'gpu.resource.example.com/v1alpha1',
              kind: 'GpuConfig',
              sharing,
            },
          },
        },
      ],
    },
  };
}

const VALID = { strategy: 'SpacePartitioning', spacePartitioningConfig: { partitionCount: 2 } };
const INVALID = { strategy: 'TimeSlicing', timeSlicingConfig: { interval: 'Forever' } };

async function create(
  version: string,
  kind: 'ResourceClaim' | 'ResourceClaimTemplate',
  name: string,
  sharing: unknown,
): Promise<unknown> {
  const body = kind === 'ResourceClaim' ? spec(version, sharing) : { spec: spec(version, sharing) };
  return manager.client
    .create(`resource.k8s.io/${version}/${kind.toLowerCase()}s`, {
      apiVersion: `resource.k8s.io/${version}`,
      kind,
      metadata: { name, namespace },
      spec: body,
    })
    .catch((error: unknown) => error);
}

describe('the webhooks on the real apiserver', () => {
  it('the apiserver serves resource.k8s.io v1, v1beta2 and v1beta1 (each tested below)', () => {
    expect(versions).toEqual(expect.arrayContaining(['v1', 'v1beta2', 'v1beta1']));
  });

  for (const kind of ['ResourceClaim', 'ResourceClaimTemplate'] as const) {
    const specPath = kind === 'ResourceClaim' ? 'spec' : 'spec.spec';
    it(`${kind}: an invalid GpuConfig is denied with the message, a valid one admitted, in every served version`, async () => {
      for (const version of versions) {
        const denied = await create(version, kind, `bad-${version}`, INVALID);
        expect(ApiStatusError.isInstance(denied), `${version}: ${String(denied)}`).toBe(true);
        const message = (denied as ApiStatusError).status?.message;
        expect(message).toContain(`${kind} ${namespace}/bad-${version}`);
        expect(message).toContain(
          `config 0 (requests: gpu): ${specPath}.devices.config[0].opaque.parameters.sharing.timeSlicingConfig.interval: unknown time-slice interval: "Forever"`,
        );
        const admitted = await create(version, kind, `good-${version}`, VALID);
        expect(admitted, `${version}: ${String(admitted)}`).toMatchObject({
          metadata: { name: `good-${version}` },
        });
      }
    });
  }
});
