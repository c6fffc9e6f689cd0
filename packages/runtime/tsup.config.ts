import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

// One entry per subpath of package.json `exports`.
export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/cli.ts',
  'src/client.ts',
  'src/controller.ts',
  'src/crd.ts',
  'src/events.ts',
  'src/informers.ts',
  'src/leader-election.ts',
  'src/manager.ts',
  'src/sharding.ts',
  'src/testing.ts',
  'src/webhook.ts',
]);
