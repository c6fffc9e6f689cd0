import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// Every check's tests: each `*.test.mjs` / `*.test.ts` in this folder.
export default ctrlkitVitestConfig({ test: { include: ['*.test.mjs', '*.test.ts'] } });
