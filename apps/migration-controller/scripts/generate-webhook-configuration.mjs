// Writes deploy/webhook-configuration.yaml from forklift-api's registered webhooks (built to dist/).
import { fileURLToPath } from 'node:url';
import {
  forkliftApiWebhookConfigurations,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from '@ctrlkit/migration-controller';
import { writeManifests } from '@ctrlkit/runtime/crd';

const file = fileURLToPath(new URL(`../${WEBHOOK_CONFIGURATION_PATH}`, import.meta.url));
await writeManifests(file, forkliftApiWebhookConfigurations(), {
  regenerateCommand: REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
});
console.log(`wrote ${file}`);
