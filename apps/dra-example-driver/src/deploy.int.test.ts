// The manifests in deploy/ pass a server-side dry run against the test apiserver (the
// Namespace is created for real first: a dry run of it would not make it exist for the rest).

import { join } from 'node:path';
import { dryRunManifests } from '@ctrlkit/envtest';
import { testKubeConfig } from '@ctrlkit/envtest/vitest';
import { expect, it } from 'vitest';

const deploy = join(import.meta.dirname, '..', 'deploy');

it('deploy/ manifests pass a server-side dry run', async () => {
  const { objects, results } = await dryRunManifests(testKubeConfig(), deploy);
  const kinds = objects.map((o) => o.kind);
  expect(kinds).toEqual(
    expect.arrayContaining([
      'DaemonSet',
      'DeviceClass',
      'ClusterRole',
      'ClusterRoleBinding',
      'ServiceAccount',
      'Namespace',
      'Deployment',
      'Service',
      'ValidatingWebhookConfiguration',
    ]),
  );
  expect(results.map((o) => o.metadata?.name)).toEqual(
    objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata?.name),
  );
  // Least privilege: the ClusterRole grants only what the controller uses (the integration
  // suite proves it: the driver runs as this ServiceAccount and every rule must be used).
  const role = objects.find((o) => o.kind === 'ClusterRole') as unknown as {
    rules: Array<{ resources: string[]; verbs: string[] }>;
  };
  expect(role.rules).toEqual([
    expect.objectContaining({
      resources: ['resourceslices'],
      verbs: ['list', 'watch', 'create', 'update', 'delete'],
    }),
    expect.objectContaining({ resources: ['nodes'], verbs: ['get'] }),
    expect.objectContaining({ resources: ['resourceclaims'], verbs: ['get'] }),
  ]);
  // The DaemonSet runs the kubelet plugin with the kubelet's host paths.
  const daemonSet = objects.find((o) => o.kind === 'DaemonSet') as unknown as {
    spec: {
      template: {
        spec: {
          containers: Array<{ command: string[] }>;
          volumes: Array<{ hostPath: { path: string } }>;
        };
      };
    };
  };
  expect(daemonSet.spec.template.spec.containers[0]?.command).toEqual([
    'node',
    '/app/dist/kubeletplugin-main.js',
  ]);
  expect(daemonSet.spec.template.spec.volumes.map((v) => v.hostPath.path)).toEqual([
    '/var/lib/kubelet/plugins_registry',
    '/var/lib/kubelet/plugins',
    '/var/run/cdi',
  ]);
});
