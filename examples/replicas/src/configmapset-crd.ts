//! The ConfigMapSet custom resource: "keep spec.replicas ConfigMaps like this one".

import type { V1CustomResourceDefinition, V1ObjectMeta } from '@kubernetes/client-node';

export const group = 'examples.ctrlkit.dev';
export const version = 'v1';
export const kind = 'ConfigMapSet';
export const plural = 'configmapsets';
/** The label every owned ConfigMap carries, with the owner's name as value. */
export const ownerLabel = 'examples.ctrlkit.dev/configmapset';

/** A ConfigMapSet as the API returns it. */
export interface ConfigMapSet {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta & { name: string; namespace: string; uid: string };
  spec: { replicas: number };
}

/** The CRD manifest, with its OpenAPI schema. */
export const configMapSetCrd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind, plural, singular: 'configmapset', listKind: `${kind}List` },
    versions: [
      {
        name: version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['spec'],
            properties: {
              spec: {
                type: 'object',
                required: ['replicas'],
                properties: { replicas: { type: 'integer', minimum: 0, maximum: 250 } },
              },
            },
          },
        },
      },
    ],
  },
};
