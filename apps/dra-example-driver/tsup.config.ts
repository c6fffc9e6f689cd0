import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/main.ts',
  'src/webhook-main.ts',
  'src/kubeletplugin-main.ts',
]);
