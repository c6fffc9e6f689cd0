import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

// One entry per subpath of package.json `exports`.
export default ctrlkitTsupConfig([
  'src/index.ts',
  'src/api.ts',
  'src/controllers.ts',
  'src/kubevirt.ts',
  'src/ova.ts',
  'src/pipeline.ts',
  'src/testing.ts',
]);
