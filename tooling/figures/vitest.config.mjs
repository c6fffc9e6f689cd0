import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

export default ctrlkitVitestConfig({ test: { include: ['*.test.mjs'] } });
