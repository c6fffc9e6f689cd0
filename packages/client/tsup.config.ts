import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

// One entry per subpath of package.json `exports`.
export default ctrlkitTsupConfig(['src/index.ts', 'src/streaming.ts', 'src/testing.ts']);
