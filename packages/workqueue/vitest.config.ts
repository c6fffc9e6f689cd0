import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// --expose-gc lets the GarbageCollection scenario check that done items are not retained.
export default ctrlkitVitestConfig({ test: { execArgv: ['--expose-gc'] } });
