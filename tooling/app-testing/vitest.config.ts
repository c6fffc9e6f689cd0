import { ctrlkitVitestConfig } from '@ctrlkit/vitest-config';

// Unit tests only: the RBAC and audit-log logic on fixed inputs.
export default ctrlkitVitestConfig();
