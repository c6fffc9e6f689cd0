// @ctrlkit/app-testing (private, test-only): an app's built binary as its deploy/
// ServiceAccount on an envtest control plane, its RBAC checked from the audit log.
//
//   vitest.config.ts:  ctrlkitVitestProjects('@ctrlkit/app-testing/global-setup', …)
//   a test:            const app = await startApp(appPackage('@ctrlkit/virtual-kubelet'), { args });
//                      …; expect(await app.stop()).toBe(0); // throws on any 403

export {
  type AppCluster,
  type AppPackage,
  type AppProcess,
  appPackage,
  type StartAppOptions,
  startApp,
} from './app-process.js';
export { SERVICE_ACCOUNT_AUDIT_POLICY } from './audit-policy.js';
export {
  type DeployRbac,
  deployRbac,
  type Grant,
  type Permission,
  readManifests,
  type ServiceAccountRef,
  withoutPermission,
} from './deploy-rbac.js';
export {
  type ChartTestOptions,
  type ChartValues,
  DEPLOY_RELEASE,
  describeChart,
} from './describe-chart.js';
export {
  checkAppDockerfile,
  type DockerfileExpectations,
  type DockerInstruction,
  type DockerStage,
  dockerfileProblems,
  parseDockerfile,
  probePort,
} from './dockerfile.js';
export {
  findHelm,
  HELM_PIN_FILE,
  helmTemplate,
  helmVersion,
  requireHelm,
  runHelm,
  sharedObjects,
  sortObjects,
  type TemplateOptions,
} from './helm.js';
export {
  describeForbidden,
  describeUnused,
  forbiddenRequests,
  grantCovers,
  type RecordedRequest,
  requestsOf,
  unusedGrants,
} from './rbac-usage.js';
