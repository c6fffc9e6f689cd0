// @ctrlkit/app-testing (private, test-only): an app's built binary as its deploy/
// ServiceAccount on an envtest control plane, its RBAC checked from the audit log.
//
//   vitest.config.ts:  ctrlkitVitestProjects('@ctrlkit/app-testing/global-setup', …)
//   a test:            const app = await startApp(appPackage('@ctrlkit/virtual-kubelet'), { args });
//                      …; expect(await app.stop()).toBe(0); // throws on a missing rule (403) or a wildcard
//   at teardown:       the run's least-privilege check (unused rules, ClusterRole where a Role
//                      serves, rules that could carry resourceNames), from every stop() and kill()

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
  deployServiceAccounts,
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
  AUTHENTICATED_USER_GRANTS,
  clusterRolesWhereRoleServes,
  describeProblems,
  type LeastPrivilegeProblem,
  type LeastPrivilegeProblemKind,
  leastPrivilegeProblems,
  missingRules,
  processProblems,
  type RecordedRun,
  rulesThatCouldNameObjects,
  wildcardRules,
} from './least-privilege.js';
export {
  describeForbidden,
  describeUnused,
  forbiddenRequests,
  grantCovers,
  type RecordedRequest,
  requestsOf,
  unusedGrants,
} from './rbac-usage.js';
export { runningProcesses } from './running-processes.js';
