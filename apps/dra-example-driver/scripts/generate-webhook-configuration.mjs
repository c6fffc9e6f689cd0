// Writes deploy/webhook-configuration.yaml from the registered webhooks (built to dist/).
import { fileURLToPath } from 'node:url';
import {
  driverWebhookConfiguration,
  REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
  WEBHOOK_CONFIGURATION_PATH,
} from '@ctrlkit/dra-example-driver';
import { writeManifests } from '@ctrlkit/runtime/crd';

const file = fileURLToPath(new URL(`../${WEBHOOK_CONFIGURATION_PATH}`, import.meta.url));
await writeManifests(file, [driverWebhookConfiguration()], {
  regenerateCommand: REGENERATE_WEBHOOK_CONFIGURATION_COMMAND,
});
console.log(`wrote ${file}`);
