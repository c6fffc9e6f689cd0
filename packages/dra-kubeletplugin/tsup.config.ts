import { ctrlkitTsupConfig } from '@ctrlkit/tsup-config';

export default ctrlkitTsupConfig(['src/index.ts', 'src/protocol.ts']);
