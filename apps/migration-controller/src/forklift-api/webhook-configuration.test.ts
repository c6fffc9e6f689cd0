import { join } from 'node:path';
import { FORKLIFT_GROUP } from '@ctrlkit/plan-migration';
import { checkManifests } from '@ctrlkit/runtime/crd';
import { expect, it } from 'vitest';
import {
  forkliftApiWebhookConfigurations,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from './webhook-configuration.js';

it('the committed deploy/webhook-configuration.yaml is what the registered webhooks generate', async () => {
  // Fails with "… regenerate it with: pnpm --filter @ctrlkit/migration-controller generate:deploy".
  const file = join(import.meta.dirname, '..', '..', WEBHOOK_CONFIGURATION_PATH);
  await checkManifests(file, forkliftApiWebhookConfigurations(), {
    regenerateCommand: REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  });
}, 30_000); // loads client-node's serializer

it("has Forklift's paths and settings: admitters for plans, providers, migrations, hooks; mutators for plans, providers", () => {
  const [validating, mutating] = forkliftApiWebhookConfigurations({ apiGroup: FORKLIFT_GROUP });
  const summary = (w: {
    name: string;
    clientConfig: { service?: { path?: string } };
    rules?: Array<{ apiGroups?: string[]; resources?: string[]; operations?: string[] }>;
  }) => [
    w.name,
    w.clientConfig.service?.path,
    w.rules?.[0]?.resources?.[0],
    w.rules?.[0]?.apiGroups,
  ];
  expect(validating.webhooks?.map(summary)).toEqual([
    ['plans.forklift.konveyor.io', '/plan-validate', 'plans', [FORKLIFT_GROUP]],
    ['providers.forklift.konveyor.io', '/provider-validate', 'providers', [FORKLIFT_GROUP]],
    ['migrations.forklift.konveyor.io', '/migration-validate', 'migrations', [FORKLIFT_GROUP]],
    ['hooks.forklift.konveyor.io', '/hook-validate', 'hooks', [FORKLIFT_GROUP]],
  ]);
  expect(mutating.webhooks?.map(summary)).toEqual([
    ['plans.forklift.konveyor.io', '/plan-mutate', 'plans', [FORKLIFT_GROUP]],
    ['providers.forklift.konveyor.io', '/provider-mutate', 'providers', [FORKLIFT_GROUP]],
  ]);
  for (const w of [...(validating.webhooks ?? []), ...(mutating.webhooks ?? [])]) {
    expect(w).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 30,
      sideEffects: 'None',
      clientConfig: {
        service: { name: 'ctrlkit-forklift-api', namespace: 'ctrlkit-migration', port: 443 },
      },
    });
    expect(w.rules?.[0]?.operations).toEqual(['CREATE', 'UPDATE']);
  }
});
