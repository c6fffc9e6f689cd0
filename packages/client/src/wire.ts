//! Kubernetes objects as they travel: client-node's model types with their times as the strings the apiserver sends.

import type { KubernetesObject } from '@kubernetes/client-node';

/**
 * `T` (a client-node model type such as `V1Pod`) as it is on the wire and in memory after
 * `JSON.parse`: every `Date` field (`metadata.creationTimestamp`, a condition's
 * `lastTransitionTime`, a Lease's `renewTime`) is the RFC 3339 string the apiserver sent,
 * and the few fields client-node's model renames have their JSON names (`_int` is `int`,
 * `_enum` `enum`, `_continue` `continue`, `x_kubernetes_list_type` `x-kubernetes-list-type`,
 * a JSON schema's `ref` `$ref`); every other field is as `T` says. The client and the
 * informers hand out `Wire<T>`, and take it as a body, instead of running client-node's
 * `ObjectSerializer` over every object (see the runtime README, "Objects on the wire").
 * `Wire<Wire<T>>` is `Wire<T>`.
 *
 * Write times with {@link formatTime} (a `metav1.Time`: whole seconds) or
 * {@link formatMicroTime} (a `MicroTime`: six fractional digits, as a Lease's or an
 * events.k8s.io Event's times need); read them with `Date.parse`.
 */
export type Wire<T> = 0 extends 1 & T
  ? T // any stays any
  : T extends Date
    ? string
    : T extends ReadonlyArray<infer Item>
      ? Array<Wire<Item>>
      : T extends object
        ? { [K in keyof T as WireKey<T, K>]: Wire<T[K]> }
        : T;

/** The JSON name of the model field `K` of `T` (client-node prefixes `_` to reserved words and spells `x-kubernetes-` with `_`). */
type WireKey<T, K> = K extends `_${infer Name}`
  ? Name
  : K extends `x_kubernetes_${infer Rest}`
    ? `x-kubernetes-${Hyphens<Rest>}`
    : 'x_kubernetes_preserve_unknown_fields' extends keyof T
      ? K extends 'ref' | 'schema'
        ? `$${K}` // only a JSON schema (V1JSONSchemaProps) names `$ref` and `$schema` so
        : K
      : K;

type Hyphens<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}-${Hyphens<Tail>}`
  : S;

/**
 * Any Kubernetes object the runtime's generic helpers accept: client-node's
 * `KubernetesObject` (built in code, with `Date` times) or one from the wire (times as
 * strings). Reading a time from it gives `Date | string`: convert with `Date.parse` /
 * `new Date(…)`.
 */
export type KubeObject = KubernetesObject | Wire<KubernetesObject>;

/**
 * `time` (a `Date` or epoch ms) as a `metav1.Time` is written: RFC 3339 in whole seconds,
 * UTC (`2024-05-01T12:00:00Z`); the fraction is dropped, as the apiserver does.
 */
export function formatTime(time: Date | number): string {
  const ms = typeof time === 'number' ? time : time.getTime();
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * `time` (a `Date` or epoch ms) as the apiserver wants a `MicroTime`: RFC 3339 with six
 * fractional digits (`2024-05-01T12:00:00.123000Z`); it rejects milliseconds there.
 */
export function formatMicroTime(time: Date | number): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  return date.toISOString().replace(/Z$/, '000Z');
}

/** A page of a LIST. */
export interface ObjectList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}
