import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/certificates.ts',
  'src/node-version.ts',
  'src/testing.ts',
]);
