import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

// src/cli.ts starts with `#!/usr/bin/env node`, which esbuild keeps (and tsup makes dist/cli.js executable).
export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/binaries.ts',
  'src/certificates.ts',
  'src/vitest.ts',
  'src/global-setup.ts',
  'src/cli.ts',
]);
