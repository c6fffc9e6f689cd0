import { join } from 'node:path';
import { checkManifests } from '@ctrlkit/runtime/crd';
import { expect, it } from 'vitest';
import {
  driverWebhookConfiguration,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from './webhook-configuration.js';

it('the committed deploy/webhook-configuration.yaml is what the registered webhooks generate', async () => {
  // Fails with "… regenerate it with: pnpm --filter @ctrlkit/dra-example-driver generate:deploy".
  const file = join(import.meta.dirname, '..', '..', WEBHOOK_CONFIGURATION_PATH);
  await checkManifests(file, [driverWebhookConfiguration()], {
    regenerateCommand: REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  });
}, 30_000); // loads client-node's serializer

it('calls both webhooks through the Service, for claims and templates of every version, failing closed', () => {
  const configuration = driverWebhookConfiguration();
  expect(configuration.webhooks?.map((w) => [w.name, w.clientConfig.service, w.rules])).toEqual(
    ['resourceclaims', 'resourceclaimtemplates'].map((resource) => [
      `${resource.slice(0, -1)}.gpu.example.com`,
      {
        name: 'dra-example-webhook',
        namespace: 'dra-example-driver',
        port: 443,
        path: `/validate-${resource === 'resourceclaims' ? 'resource-claim' : 'resource-claim-template'}-parameters`,
      },
      [
        {
          apiGroups: ['resource.k8s.io'],
          apiVersions: ['v1', 'v1beta2', 'v1beta1'],
          operations: ['CREATE', 'UPDATE'],
          resources: [resource],
        },
      ],
    ]),
  );
  expect(configuration.webhooks?.map((w) => w.failurePolicy)).toEqual(['Fail', 'Fail']);
});
