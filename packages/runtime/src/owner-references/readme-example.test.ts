// The "Owner references" example of README.md, with an owner Deployment and a cluster-scoped owner.
import { expect, it } from 'vitest';
import { AlreadyOwnedError, setControllerReference, setOwnerReference } from '../controller.js';

it('runs the owner references README example', () => {
  const namespace = 'web';
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace, uid: 'uid-web' },
  };
  const team = {
    apiVersion: 'example.com/v1',
    kind: 'Team',
    metadata: { name: 'a', uid: 'uid-a' },
  };

  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'web-config', namespace },
  };
  setControllerReference(deployment, configMap); // controller: true, blockOwnerDeletion: true
  setOwnerReference(team, configMap); // a plain owner reference

  expect(configMap.metadata).toEqual({
    name: 'web-config',
    namespace,
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: 'uid-web',
        controller: true,
        blockOwnerDeletion: true,
      },
      { apiVersion: 'example.com/v1', kind: 'Team', name: 'a', uid: 'uid-a' },
    ],
  });
  const other = {
    ...deployment,
    metadata: { ...deployment.metadata, name: 'api', uid: 'uid-api' },
  };
  expect(() => setControllerReference(other, configMap)).toThrow(AlreadyOwnedError);
});
