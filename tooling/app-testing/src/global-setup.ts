// The global setup of an app's integration tests: one control plane for the run with an audit
// log, and at the end the check that the app's suite used every rule its deploy/ grants.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { envtestGlobalSetup } from '@ctrlkit/envtest/vitest';
import type { TestProject } from 'vitest/node';
import { SERVICE_ACCOUNT_AUDIT_POLICY } from './audit-policy.js';
import { deployRbac, deployServiceAccounts, readManifests } from './deploy-rbac.js';
import {
  describeProblems,
  type LeastPrivilegeProblem,
  leastPrivilegeProblems,
} from './least-privilege.js';
import { readRecordedRuns, USAGE_DIR_ENV } from './usage-record.js';

/**
 * Starts the run's control plane (`@ctrlkit/envtest`, with {@link SERVICE_ACCOUNT_AUDIT_POLICY})
 * and a folder where each app's `stop()` or `kill()` records its requests. At teardown it
 * checks `<package>/deploy` (each of its ServiceAccounts) against them (see `leastPrivilegeProblems`): a missing rule or a
 * wildcard fails the run; an unused rule, a ClusterRole where a Role serves or a rule that
 * could carry `resourceNames` fails it when the run was the whole integration suite.
 */
export default async function appGlobalSetup(project: TestProject): Promise<() => Promise<void>> {
  const usageDir = await mkdtemp(join(tmpdir(), 'ctrlkit-rbac-usage-'));
  process.env[USAGE_DIR_ENV] = usageDir;
  const stopPlane = await envtestGlobalSetup({ auditPolicy: SERVICE_ACCOUNT_AUDIT_POLICY })(
    project,
  );
  return async () => {
    try {
      await stopPlane();
      await checkUsage(project, usageDir);
    } finally {
      delete process.env[USAGE_DIR_ENV];
      await rm(usageDir, { recursive: true, force: true });
    }
  };
}

async function checkUsage(project: TestProject, usageDir: string): Promise<void> {
  const root = project.config.root;
  const deployDir = relative(process.cwd(), join(root, 'deploy')) || 'deploy';
  const objects = await readManifests(join(root, 'deploy'));
  const found: Array<{ username: string; runs: number; problems: LeastPrivilegeProblem[] }> = [];
  for (const name of deployServiceAccounts(objects)) {
    const rbac = deployRbac(objects, name);
    const runs = await readRecordedRuns(usageDir, rbac.username);
    const problems = leastPrivilegeProblems(rbac.grants, runs, rbac.serviceAccount.namespace);
    if (problems.length > 0) found.push({ username: rbac.username, runs: runs.length, problems });
  }
  if (found.length === 0) return;
  const whole = await ranWholeSuite(project);
  const report = found
    .map(
      (f) =>
        `The RBAC of ${deployDir}/ for ${f.username} is not least privilege (${f.runs} app runs${whole ? '' : ', a partial run'}):\n${describeProblems(f.problems)}`,
    )
    .join('\n');
  // A partial run cannot tell an unused rule (or one always used alike) from one its other
  // tests use; a missing rule or a wildcard it can.
  const always = found.some((f) =>
    f.problems.some((p) => p.kind === 'missing' || p.kind === 'wildcard'),
  );
  if (!whole && !always) {
    console.warn(report);
    return;
  }
  // vitest logs an error thrown at teardown but still exits 0: fail the run by its exit code.
  console.error(`\n${report}\n`);
  process.exitCode = 1;
}

/** Whether every integration test file of the project ran, with no test name filter. */
async function ranWholeSuite(project: TestProject): Promise<boolean> {
  if (project.vitest.config.testNamePattern !== undefined) return false;
  const { testFiles } = await project.globTestFiles();
  const ran = new Set(
    project.vitest.state
      .getFiles()
      .filter((f) => f.projectName === project.name && f.mode !== 'skip')
      .map((f) => f.filepath),
  );
  return testFiles.every((f) => ran.has(f));
}
