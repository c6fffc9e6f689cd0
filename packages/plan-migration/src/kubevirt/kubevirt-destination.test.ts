import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../api/plan.js';
import { JobHookRunner } from './job-hook-runner.js';
import { KubeVirtDestination } from './kubevirt-destination.js';

const plan = { metadata: { name: 'p' }, spec: { targetNamespace: 't' } } as Plan;

describe('KubeVirtDestination and JobHookRunner options', () => {
  it('name the missing or invalid option', () => {
    expect(() => new KubeVirtDestination({ plan, migrationUID: '' } as never)).toThrow(
      /kubeConfig/,
    );
    expect(
      () => new KubeVirtDestination({ kubeConfig: new KubeConfig(), migrationUID: '' } as never),
    ).toThrow(/plan/);
    expect(() => new KubeVirtDestination({ kubeConfig: new KubeConfig(), plan } as never)).toThrow(
      /migrationUID/,
    );
    expect(() => new JobHookRunner({ kubeConfig: new KubeConfig(), hookRetry: -1 })).toThrow(
      /hookRetry/,
    );
  });

  it('refuses to import disks or convert when the builder cannot describe them', async () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
    const d = new KubeVirtDestination({
      kubeConfig,
      plan,
      migrationUID: 'm',
      builder: { tasks: async () => [] },
    });
    await expect(
      d.ensureDataVolumes({ id: 'vm-1', phase: 'CreateDataVolumes', pipeline: [] }, []),
    ).rejects.toThrow('VM vm-1: the source builder does not describe CDI DataVolume sources');
    await expect(
      d.ensureConversionPod({ id: 'vm-1', phase: 'CreateGuestConversionPod', pipeline: [] }),
    ).rejects.toThrow("VM vm-1: the source builder does not give the conversion pod's environment");
  });
});
