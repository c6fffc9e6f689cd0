import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/main.ts',
  'src/migrate.ts',
  'src/forklift-api-main.ts',
]);
