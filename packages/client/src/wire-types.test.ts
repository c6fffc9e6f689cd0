// Compile-time checks of Wire<T> (vitest's expectTypeOf), and that the names it gives are the JSON names.
import type {
  V1CustomResourceDefinition,
  V1DeviceAttribute,
  V1Lease,
  V1ListMeta,
  V1Pod,
} from '@kubernetes/client-node';
import { describe, expectTypeOf, it } from 'vitest';
import type { KubeObject, Wire } from './wire.js';

describe('Wire<T>', () => {
  it('types every Date field as the string the apiserver sends, at any depth', () => {
    expectTypeOf<NonNullable<Wire<V1Pod>['metadata']>['creationTimestamp']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<NonNullable<Wire<V1Pod>['metadata']>['name']>().toEqualTypeOf<
      string | undefined
    >();
    type Condition = NonNullable<NonNullable<Wire<V1Pod>['status']>['conditions']>[number];
    expectTypeOf<Condition['lastTransitionTime']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<Wire<V1Lease>['spec']>['renewTime']>().toEqualTypeOf<
      string | undefined
    >();
    expectTypeOf<Wire<V1Pod>>().toMatchTypeOf<KubeObject>();
    expectTypeOf<Wire<Wire<V1Pod>>>().toEqualTypeOf<Wire<V1Pod>>();
  });

  it("gives the fields client-node's model renames their JSON names", () => {
    expectTypeOf<Wire<V1DeviceAttribute>>().toHaveProperty('int');
    expectTypeOf<Wire<V1DeviceAttribute>>().not.toHaveProperty('_int');
    expectTypeOf<Wire<V1ListMeta>>().toHaveProperty('continue');
    type Schema = NonNullable<
      NonNullable<
        Wire<V1CustomResourceDefinition>['spec']['versions'][number]['schema']
      >['openAPIV3Schema']
    >;
    expectTypeOf<Schema>().toHaveProperty('enum');
    expectTypeOf<Schema>().toHaveProperty('$ref');
    expectTypeOf<Schema>().toHaveProperty('x-kubernetes-preserve-unknown-fields');
    expectTypeOf<Schema>().not.toHaveProperty('x_kubernetes_preserve_unknown_fields');
  });
});
