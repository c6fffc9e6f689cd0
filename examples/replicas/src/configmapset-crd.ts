//! The ConfigMapSet custom resource: "keep spec.replicas ConfigMaps like this one".
//! Its TypeScript type and its CRD (crds/configmapset.yaml) both come from one TypeBox schema.

import { type CustomResource, customResourceDefinition } from '@ctrlkit/runtime/crd';
import { Type } from 'typebox';

export const group = 'examples.ctrlkit.dev';
export const version = 'v1';
export const kind = 'ConfigMapSet';
export const plural = 'configmapsets';
/** The label every owned ConfigMap carries, with the owner's name as value. */
export const ownerLabel = 'examples.ctrlkit.dev/configmapset';

/** The schema of a ConfigMapSet: the one source of its type and its CRD. */
export const configMapSetSchema = Type.Object({
  spec: Type.Object({
    replicas: Type.Integer({
      minimum: 0,
      maximum: 250,
      description: 'How many ConfigMaps to keep.',
    }),
  }),
});

/** A ConfigMapSet as the API returns it. */
export type ConfigMapSet = CustomResource<typeof configMapSetSchema> & {
  metadata: { name: string; namespace: string; uid: string };
};

/** The CRD manifest, with the OpenAPI schema generated from {@link configMapSetSchema}. */
export const configMapSetCrd = customResourceDefinition({
  group,
  names: { kind, plural, singular: 'configmapset' },
  versions: [
    {
      name: version,
      schema: configMapSetSchema,
      additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
    },
  ],
});

/** Where the generated manifest is committed, relative to the package. */
export const crdManifestPath = 'crds/configmapset.yaml';
/** The command that regenerates {@link crdManifestPath}. */
export const regenerateCrdsCommand = 'pnpm --filter @ctrlkit/example-replicas generate:crds';
