//! The key an object is hashed by: its own namespace/name, or its controller owner's, so dependents follow their owner.

/** What {@link shardKey} reads of an object. */
export interface ShardKeyObject {
  metadata?: {
    name?: string;
    namespace?: string;
    ownerReferences?: ReadonlyArray<{ name: string; controller?: boolean }>;
  };
}

/**
 * The hash key of `object`: `<namespace>/<name>` (`<name>` when cluster-scoped), where the name
 * is its controller owner's when it has one (`ownerReferences[].controller`). An owner and
 * the objects it controls in the same namespace hash alike, so they land on one shard.
 */
export function shardKey(object: ShardKeyObject): string {
  const metadata = object.metadata ?? {};
  const owner = metadata.ownerReferences?.find((reference) => reference.controller === true);
  const name = owner?.name ?? metadata.name ?? '';
  return metadata.namespace ? `${metadata.namespace}/${name}` : name;
}
