//! The Greeting custom resource: "keep a ConfigMap with this message".

import { type CustomResource, customResourceDefinition } from '@ctrlkit/runtime/crd';
import { Type } from 'typebox';

export const group = 'examples.ctrlkit.dev';
export const version = 'v1';
export const plural = 'greetings';

/** The Greeting schema: the one source of the type and the CRD. */
export const greetingSchema = Type.Object({
  spec: Type.Object({
    message: Type.String({ minLength: 1 }),
    /** Optional: rendered as the `signature` key when set. */
    signature: Type.Optional(Type.String()),
  }),
  status: Type.Optional(
    Type.Object({
      configMap: Type.Optional(Type.String()),
      observedGeneration: Type.Optional(Type.Integer()),
    }),
  ),
});

/** A Greeting as the API returns it. */
export type Greeting = CustomResource<typeof greetingSchema>;

/** The Greeting CRD. */
export const greetingCrd = customResourceDefinition({
  group,
  names: { kind: 'Greeting', plural },
  versions: [{ name: version, schema: greetingSchema, subresources: { status: {} } }],
});
