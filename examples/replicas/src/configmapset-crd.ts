//! The ConfigMapSet custom resource: "keep spec.replicas ConfigMaps like this one".
//! Its TypeScript types and its CRD (crds/configmapset.yaml) come from TypeBox schemas, one per
//! served version; `spec.conversion` comes from the registered conversion webhook.

import { type CustomResource, customResourceDefinition } from '@ctrlkit/runtime/crd';
import {
  type ConversionWebhook,
  conversionWebhookFor,
  crdConversion,
  type WebhookClientOptions,
} from '@ctrlkit/runtime/webhook';
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { Type } from 'typebox';
import {
  configMapSetV1alpha1Schema,
  v1alpha1,
  v1alpha1Converter,
} from './configmapset-v1alpha1.js';

export const group = 'examples.ctrlkit.dev';
/** The version the controller reads and writes: the storage version and the conversion hub. */
export const version = 'v1';
export const kind = 'ConfigMapSet';
export const plural = 'configmapsets';
/** The label every owned ConfigMap carries, with the owner's name as value. */
export const ownerLabel = 'examples.ctrlkit.dev/configmapset';

/** The schema of a ConfigMapSet in v1: the one source of its type and of its CRD version. */
export const configMapSetSchema = Type.Object({
  spec: Type.Object({
    replicas: Type.Integer({
      minimum: 0,
      maximum: 250,
      description: 'How many ConfigMaps to keep.',
    }),
    data: Type.Optional(
      Type.Record(Type.String(), Type.String(), {
        description: 'Entries every ConfigMap created from now on carries, besides `owner`.',
      }),
    ),
  }),
});

/** A ConfigMapSet (v1) as the API returns it. */
export type ConfigMapSet = CustomResource<typeof configMapSetSchema> & {
  metadata: { name: string; namespace: string; uid: string };
};

/**
 * The conversion webhook of ConfigMapSets (served at `/convert`): v1 is the hub, v1alpha1
 * converts to and from it without loss (see `configmapset-v1alpha1.ts`).
 */
export const configMapSetConversion: ConversionWebhook = conversionWebhookFor({
  group,
  kind,
  hub: version,
  spokes: { [v1alpha1]: v1alpha1Converter },
});

/**
 * Where the apiserver reaches the conversion webhook in a cluster: the Service in front of
 * the controller's webhook server (kubebuilder's `webhook-service` in `system`). envtest's
 * `installWebhooks` points it at a local server instead.
 */
export const conversionWebhookClient: WebhookClientOptions = {
  service: { name: 'replicas-webhook-service', namespace: 'ctrlkit-system' },
};

/**
 * The CRD manifest: v1 (storage, hub) and v1alpha1 with OpenAPI schemas generated from
 * {@link configMapSetSchema} and the v1alpha1 schema, and `spec.conversion` from
 * {@link configMapSetConversion} (`crdConversion`).
 */
export const configMapSetCrd: V1CustomResourceDefinition = withConversion(
  customResourceDefinition({
    group,
    names: { kind, plural, singular: 'configmapset' },
    versions: [
      {
        name: version,
        storage: true,
        schema: configMapSetSchema,
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        ],
      },
      {
        name: v1alpha1,
        storage: false,
        schema: configMapSetV1alpha1Schema,
        additionalPrinterColumns: [{ name: 'Count', type: 'integer', jsonPath: '.spec.count' }],
      },
    ],
  }),
);

function withConversion(crd: V1CustomResourceDefinition): V1CustomResourceDefinition {
  return {
    ...crd,
    spec: {
      ...crd.spec,
      conversion: crdConversion(configMapSetConversion, conversionWebhookClient),
    },
  };
}

/** Where the generated manifest is committed, relative to the package. */
export const crdManifestPath = 'crds/configmapset.yaml';
/** The command that regenerates {@link crdManifestPath}. */
export const regenerateCrdsCommand = 'pnpm --filter @ctrlkit/example-replicas generate:crds';
