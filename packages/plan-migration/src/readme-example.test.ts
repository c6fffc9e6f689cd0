import { FakeClock } from '@ctrlkit/core/testing';
import { expect, it } from 'vitest';
import { PlanHarness } from './testing.js';

it('runs the README example: one VM fails, a second Migration re-runs only it', async () => {
  const clock = new FakeClock(Date.parse('2026-01-01T00:00:00Z'));
  const h = new PlanHarness({ clock, vms: 3, diskMiB: 1000, copyRateMiBPerSecond: 100 });
  h.source.failDiskCopy('vm-1', 'disk-0', 'importer restart limit exceeded', 300);

  h.addMigration();
  await h.runToEnd();
  expect(h.planConditions()).toEqual(['Ready', 'Failed']);
  expect(h.vm('vm-1').error).toEqual({
    phase: 'CopyDisks',
    reasons: ['importer restart limit exceeded'],
  });

  h.source.clearFailures('vm-1');
  h.addMigration();
  await h.runToEnd();
  expect(h.planConditions()).toEqual(['Ready', 'Succeeded']);
});
