// The global setup of an app's integration tests: one control plane for the run with an audit
// log, and at the end the check that the app's suite used every rule its deploy/ grants.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { envtestGlobalSetup } from '@ctrlkit/envtest/vitest';
import type { TestProject } from 'vitest/node';
import { SERVICE_ACCOUNT_AUDIT_POLICY } from './audit-policy.js';
import { deployRbac, readManifests } from './deploy-rbac.js';
import {
  describeForbidden,
  describeUnused,
  forbiddenRequests,
  unusedGrants,
} from './rbac-usage.js';
import { readRecordedRequests, USAGE_DIR_ENV } from './usage-record.js';

/**
 * Starts the run's control plane (`@ctrlkit/envtest`, with {@link SERVICE_ACCOUNT_AUDIT_POLICY})
 * and a folder where each app's `stop()` records its requests. At teardown it lists the
 * grants of `<package>/deploy` that no request of the run used; when the run was the whole
 * integration suite, such a grant (or a 403) fails the run: the shipped RBAC must be least.
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
  const rbac = deployRbac(await readManifests(join(root, 'deploy')));
  const requests = await readRecordedRequests(usageDir, rbac.username);
  const forbidden = forbiddenRequests(requests);
  const unused = unusedGrants(rbac.grants, requests);
  const whole = await ranWholeSuite(project);
  const problems: string[] = [];
  if (forbidden.length > 0) {
    problems.push(`requests of ${rbac.username} refused:\n${describeForbidden(forbidden)}`);
  }
  if (unused.length > 0) {
    problems.push(
      `rules of ${relative(process.cwd(), join(root, 'deploy')) || 'deploy'}/ no request of ${rbac.username} used${whole ? '' : ' in this partial run'}:\n${describeUnused(unused)}`,
    );
  }
  if (problems.length === 0) return;
  const report = problems.join('\n');
  if (!whole && forbidden.length === 0) {
    console.warn(report);
    return;
  }
  // vitest logs an error thrown at teardown but still exits 0: fail the run by its exit code.
  console.error(`\nThe RBAC of deploy/ is not sufficient and least:\n${report}\n`);
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
