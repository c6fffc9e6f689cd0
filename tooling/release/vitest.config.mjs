import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// Unit tests of the round trip's parts: every `*.test.mjs` / `*.test.ts` in this folder.
export default ctrlkitVitestConfig({ test: { include: ['*.test.mjs', '*.test.ts'] } });
