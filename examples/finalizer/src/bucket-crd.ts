//! The Bucket custom resource: "keep a bucket in the (simulated) object store".

import { type CustomResource, customResourceDefinition } from '@ctrlkit/runtime/crd';
import { Type } from 'typebox';

export const group = 'examples.ctrlkit.dev';
export const version = 'v1';
export const plural = 'buckets';

/** The Bucket schema: the one source of the type and the CRD. */
export const bucketSchema = Type.Object({
  spec: Type.Object({
    region: Type.Union([Type.Literal('eu'), Type.Literal('us')], {
      description: 'Where the bucket lives.',
    }),
  }),
  status: Type.Optional(Type.Object({ phase: Type.Optional(Type.String()) })),
});

/** A Bucket as the API returns it. */
export type Bucket = CustomResource<typeof bucketSchema>;

/** The Bucket CRD. */
export const bucketCrd = customResourceDefinition({
  group,
  names: { kind: 'Bucket', plural },
  versions: [{ name: version, schema: bucketSchema, subresources: { status: {} } }],
});
