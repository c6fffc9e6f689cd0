//! An in-memory object tracker with the client methods the controllers call: the fake clientset of the unit tests.

import { ApiStatusError, type KubeObject, type Wire } from '@ctrlkit/runtime/client';
import type { ListWatch, ObjectList, WatchEvent } from '@ctrlkit/runtime/informers';
import type { KubernetesObject, V1Lease, V1Node, V1Pod } from '@kubernetes/client-node';
import { NODE_STATUS_MERGE_KEYS } from '../internal/node-status-patch.js';

/** An object as the fake keeps it: as it would be on the wire. */
type Stored = Wire<KubernetesObject>;

/** The resources the fake knows. */
export type FakeResource = 'nodes' | 'leases' | 'pods' | 'configmaps' | 'secrets' | 'services';
/** The verbs the fake records. */
export type FakeVerb = 'get' | 'create' | 'update' | 'patch' | 'delete';

/** One call made to the fake. */
export interface FakeAction {
  verb: FakeVerb;
  resource: FakeResource;
  subresource?: string;
  namespace: string;
  name: string;
  body?: unknown;
  gracePeriodSeconds?: number;
}

/**
 * Runs before the fake handles a call (client-go's reactor): throw to fail the call,
 * return an object to answer with it, return `undefined` to let the fake handle it.
 */
export type FakeReactor = (action: FakeAction) => unknown;

interface Watcher {
  resource: FakeResource;
  fieldSelector: Map<string, string>;
  onEvent: (event: WatchEvent<Stored>) => void;
}

/**
 * A fake clientset: nodes, leases, pods, ConfigMaps, Secrets and Services kept in memory
 * with resource versions, NotFound/Conflict as the runtime client's `ApiStatusError`, JSON merge
 * patch, graceful pod deletion as the apiserver does it, and ListWatches for the runtime's
 * informers. Every call is recorded in `actions`.
 */
export class FakeKube {
  /** Every call, in order. */
  readonly actions: FakeAction[] = [];
  readonly #objects = new Map<FakeResource, Map<string, Stored>>();
  readonly #watchers = new Set<Watcher>();
  readonly #reactors: FakeReactor[] = [];
  #resourceVersion = 0;
  #uid = 0;
  /** The wall time of deletion timestamps. */
  now: () => Date = () => new Date();

  /** Adds a reactor that runs before the ones added earlier. */
  prependReactor(reactor: FakeReactor): void {
    this.#reactors.unshift(reactor);
  }

  /** Stores `obj` as if created (no action recorded; times as the apiserver writes them, strings); returns the stored copy. */
  seed<T extends KubeObject>(resource: FakeResource, obj: T): Wire<T> {
    return this.#create(resource, onTheWire(obj)) as Wire<T>;
  }

  /** The stored object, or `undefined`. */
  get<T extends KubeObject>(
    resource: FakeResource,
    namespace: string,
    name: string,
  ): T | undefined {
    const obj = this.#store(resource).get(key(namespace, name));
    return obj === undefined ? undefined : (structuredClone(obj) as T);
  }

  /** Every stored object of `resource`. */
  list<T extends KubeObject>(resource: FakeResource): T[] {
    return [...this.#store(resource).values()].map((o) => structuredClone(o) as T);
  }

  /** Replaces a stored object (no action recorded, no resourceVersion check). */
  put<T extends KubeObject>(resource: FakeResource, obj: T): T {
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    const old = this.#store(resource).get(key(ns, name));
    if (old === undefined) throw apiError(404, `${resource} "${name}" not found`);
    return this.#write(resource, onTheWire(obj), 'MODIFIED') as T;
  }

  /** Removes a stored object at once (no action recorded). */
  remove(resource: FakeResource, namespace: string, name: string): void {
    const old = this.#store(resource).get(key(namespace, name));
    if (old === undefined) return;
    this.#store(resource).delete(key(namespace, name));
    this.#notify(resource, 'DELETED', old);
  }

  /** A ListWatch on `resource` for the runtime's `SharedIndexInformer`; `fieldSelector` supports `a.b=c[,...]`. */
  listWatch<T extends KubeObject>(resource: FakeResource, fieldSelector = ''): ListWatch<T> {
    const selector = parseSelector(fieldSelector);
    return {
      list: async () =>
        ({
          metadata: { resourceVersion: String(this.#resourceVersion) },
          items: this.list<T>(resource).filter((o) => matches(onTheWire(o), selector)),
        }) as ObjectList<T>,
      watch: (options, onEvent) =>
        new Promise<void>((resolve) => {
          const watcher: Watcher = {
            resource,
            fieldSelector: selector,
            onEvent: onEvent as (event: WatchEvent<Stored>) => void,
          };
          this.#watchers.add(watcher);
          const stop = (): void => {
            this.#watchers.delete(watcher);
            resolve();
          };
          if (options.signal?.aborted) stop();
          options.signal?.addEventListener('abort', stop, { once: true });
        }),
    };
  }

  // --- CoreV1Api: nodes -------------------------------------------------------------------

  readNode = async (param: { name: string }): Promise<Wire<V1Node>> =>
    this.#call({ verb: 'get', resource: 'nodes', namespace: '', name: param.name }, () =>
      this.#mustGet('nodes', '', param.name),
    );

  createNode = async (param: { body: Wire<V1Node> }): Promise<Wire<V1Node>> =>
    this.#call(
      {
        verb: 'create',
        resource: 'nodes',
        namespace: '',
        name: param.body.metadata?.name ?? '',
        body: param.body,
      },
      () => this.#create('nodes', param.body),
    );

  patchNodeStatus = async (param: { name: string; body: unknown }): Promise<Wire<V1Node>> =>
    this.#call(
      {
        verb: 'patch',
        resource: 'nodes',
        subresource: 'status',
        namespace: '',
        name: param.name,
        body: param.body,
      },
      () => this.#mergePatch('nodes', '', param.name, param.body, NODE_STATUS_PATCH_KEYS),
    );

  deleteNode = async (param: { name: string }): Promise<Wire<V1Node>> =>
    this.#call({ verb: 'delete', resource: 'nodes', namespace: '', name: param.name }, () => {
      const node = this.#mustGet('nodes', '', param.name);
      this.remove('nodes', '', param.name);
      return node;
    });

  // --- CoordinationV1Api: leases ----------------------------------------------------------

  readNamespacedLease = async (param: {
    name: string;
    namespace: string;
  }): Promise<Wire<V1Lease>> =>
    this.#call(
      { verb: 'get', resource: 'leases', namespace: param.namespace, name: param.name },
      () => this.#mustGet('leases', param.namespace, param.name),
    );

  createNamespacedLease = async (param: {
    namespace: string;
    body: Wire<V1Lease>;
  }): Promise<Wire<V1Lease>> =>
    this.#call(
      {
        verb: 'create',
        resource: 'leases',
        namespace: param.namespace,
        name: param.body.metadata?.name ?? '',
        body: param.body,
      },
      () =>
        this.#create('leases', {
          ...param.body,
          metadata: { ...param.body.metadata, namespace: param.namespace },
        }),
    );

  replaceNamespacedLease = async (param: {
    name: string;
    namespace: string;
    body: Wire<V1Lease>;
  }): Promise<Wire<V1Lease>> =>
    this.#call(
      {
        verb: 'update',
        resource: 'leases',
        namespace: param.namespace,
        name: param.name,
        body: param.body,
      },
      () => this.#replace('leases', param.namespace, param.name, param.body),
    );

  // --- CoreV1Api: pods --------------------------------------------------------------------

  createNamespacedPod = async (param: {
    namespace: string;
    body: Wire<V1Pod>;
  }): Promise<Wire<V1Pod>> =>
    this.#call(
      {
        verb: 'create',
        resource: 'pods',
        namespace: param.namespace,
        name: param.body.metadata?.name ?? '',
        body: param.body,
      },
      () =>
        this.#create('pods', {
          ...param.body,
          metadata: { ...param.body.metadata, namespace: param.namespace },
        }),
    );

  readNamespacedPod = async (param: { name: string; namespace: string }): Promise<Wire<V1Pod>> =>
    this.#call(
      { verb: 'get', resource: 'pods', namespace: param.namespace, name: param.name },
      () => this.#mustGet('pods', param.namespace, param.name),
    );

  replaceNamespacedPodStatus = async (param: {
    name: string;
    namespace: string;
    body: Wire<V1Pod>;
  }): Promise<Wire<V1Pod>> =>
    this.#call(
      {
        verb: 'update',
        resource: 'pods',
        subresource: 'status',
        namespace: param.namespace,
        name: param.name,
        body: param.body,
      },
      () => {
        const current = this.#mustGet<Wire<V1Pod>>('pods', param.namespace, param.name);
        const rv = param.body.metadata?.resourceVersion;
        if (rv !== undefined && rv !== '' && rv !== current.metadata?.resourceVersion) {
          throw apiError(
            409,
            `Operation cannot be fulfilled on pods "${param.name}": the object has been modified`,
          );
        }
        current.status = structuredClone(param.body.status);
        current.metadata = {
          ...current.metadata,
          labels: param.body.metadata?.labels,
          annotations: param.body.metadata?.annotations,
        };
        return this.#write('pods', current, 'MODIFIED');
      },
    );

  deleteNamespacedPod = async (param: {
    name: string;
    namespace: string;
    gracePeriodSeconds?: number;
    body?: { gracePeriodSeconds?: number; preconditions?: { uid?: string } };
  }): Promise<Wire<V1Pod>> =>
    this.#call(
      {
        verb: 'delete',
        resource: 'pods',
        namespace: param.namespace,
        name: param.name,
        gracePeriodSeconds: param.gracePeriodSeconds,
        body: param.body,
      },
      () => {
        const pod = this.#mustGet<Wire<V1Pod>>('pods', param.namespace, param.name);
        const uid = param.body?.preconditions?.uid;
        if (uid !== undefined && uid !== pod.metadata?.uid) {
          throw apiError(
            409,
            `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata?.uid}`,
          );
        }
        // as the apiserver: with a body, the options (grace period included) come from it
        const requested =
          param.body !== undefined ? param.body.gracePeriodSeconds : param.gracePeriodSeconds;
        const grace = requested ?? pod.spec?.terminationGracePeriodSeconds ?? 30;
        const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
        if (grace > 0 && pod.spec?.nodeName && !terminal) {
          pod.metadata ??= {};
          const meta = pod.metadata;
          if (
            meta.deletionTimestamp === undefined ||
            (meta.deletionGracePeriodSeconds ?? 0) > grace
          ) {
            meta.deletionTimestamp = new Date(this.now().getTime() + grace * 1000).toISOString();
            meta.deletionGracePeriodSeconds = grace;
            return this.#write('pods', pod, 'MODIFIED');
          }
          return pod;
        }
        this.remove('pods', param.namespace, param.name);
        return pod;
      },
    );

  // --- mechanism --------------------------------------------------------------------------

  async #call<T>(action: FakeAction, handle: () => Stored): Promise<T> {
    this.actions.push(action);
    for (const reactor of this.#reactors) {
      const answer = reactor(action);
      if (answer !== undefined) return structuredClone(answer) as T;
    }
    return structuredClone(handle()) as T;
  }

  #store(resource: FakeResource): Map<string, Stored> {
    let store = this.#objects.get(resource);
    if (store === undefined) {
      store = new Map();
      this.#objects.set(resource, store);
    }
    return store;
  }

  #mustGet<T extends Stored>(resource: FakeResource, namespace: string, name: string): T {
    const obj = this.get<T>(resource, namespace, name);
    if (obj === undefined) throw apiError(404, `${resource} "${name}" not found`);
    return obj;
  }

  #create(resource: FakeResource, body: Stored): Stored {
    const obj = structuredClone(body);
    const ns = obj.metadata?.namespace ?? '';
    const name = obj.metadata?.name ?? '';
    if (this.#store(resource).has(key(ns, name)))
      throw apiError(409, `${resource} "${name}" already exists`);
    obj.metadata = { ...obj.metadata, uid: obj.metadata?.uid ?? `uid-${++this.#uid}` };
    obj.metadata.creationTimestamp ??= this.now().toISOString();
    return this.#write(resource, obj, 'ADDED');
  }

  #replace(resource: FakeResource, namespace: string, name: string, body: Stored): Stored {
    const current = this.#mustGet(resource, namespace, name);
    const rv = body.metadata?.resourceVersion;
    if (rv !== undefined && rv !== '' && rv !== current.metadata?.resourceVersion) {
      throw apiError(
        409,
        `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified`,
      );
    }
    const obj = structuredClone(body);
    obj.metadata = { ...obj.metadata, uid: current.metadata?.uid, namespace };
    return this.#write(resource, obj, 'MODIFIED');
  }

  #mergePatch(
    resource: FakeResource,
    namespace: string,
    name: string,
    patch: unknown,
    mergeKeys: ReadonlyMap<string, string> = new Map(),
  ): Stored {
    const current = this.#mustGet(resource, namespace, name);
    const rv = (patch as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
    if (rv !== undefined && rv !== current.metadata?.resourceVersion) {
      throw apiError(
        409,
        `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified`,
      );
    }
    const merged = applyMergePatch(
      JSON.parse(JSON.stringify(current)),
      patch,
      mergeKeys,
      '',
    ) as Stored;
    return this.#write(resource, merged, 'MODIFIED');
  }

  #write(resource: FakeResource, obj: Stored, type: 'ADDED' | 'MODIFIED'): Stored {
    obj.metadata = { ...obj.metadata, resourceVersion: String(++this.#resourceVersion) };
    this.#store(resource).set(key(obj.metadata.namespace ?? '', obj.metadata.name ?? ''), obj);
    this.#notify(resource, type, obj);
    return obj;
  }

  #notify(resource: FakeResource, type: string, obj: Stored): void {
    for (const watcher of this.#watchers) {
      if (watcher.resource !== resource || !matches(obj, watcher.fieldSelector)) continue;
      watcher.onEvent({ type, object: structuredClone(obj) });
    }
  }
}

/** The runtime client's `ApiStatusError` with a Status, as the apiserver answers. */
export function apiError(code: number, message: string): ApiStatusError {
  const reason = code === 404 ? 'NotFound' : code === 409 ? 'Conflict' : 'InternalError';
  return new ApiStatusError(code, { code, reason, message }, 'fake');
}

/** `obj` as it would come back from the apiserver: a JSON copy, its `Date`s RFC 3339 strings. */
function onTheWire(obj: KubeObject): Stored {
  return JSON.parse(JSON.stringify(obj)) as Stored;
}

function key(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function parseSelector(selector: string): Map<string, string> {
  const result = new Map<string, string>();
  for (const part of selector.split(',').filter(Boolean)) {
    const [field, value] = part.split('=');
    result.set(field ?? '', value ?? '');
  }
  return result;
}

function matches(obj: Stored, selector: Map<string, string>): boolean {
  for (const [field, value] of selector) {
    let current: unknown = obj;
    for (const part of field.split('.'))
      current = (current as Record<string, unknown> | undefined)?.[part];
    if ((current ?? '') !== value) return false;
  }
  return true;
}

/** The node status lists a strategic merge patch merges by key, by their path. */
const NODE_STATUS_PATCH_KEYS: ReadonlyMap<string, string> = new Map(
  Object.entries(NODE_STATUS_MERGE_KEYS).map(([field, key]) => [`status.${field}`, key]),
);

/**
 * A JSON merge patch (RFC 7386), strategic for the lists at the paths of `mergeKeys`: their
 * items merge with the target's item of the same key, and `$patch: delete` removes one.
 */
function applyMergePatch(
  target: unknown,
  patch: unknown,
  mergeKeys: ReadonlyMap<string, string>,
  path: string,
): unknown {
  const mergeKey = mergeKeys.get(path);
  if (mergeKey !== undefined && Array.isArray(patch)) {
    return mergeList(Array.isArray(target) ? target : [], patch, mergeKey, mergeKeys, path);
  }
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as object) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete result[k];
    else result[k] = applyMergePatch(result[k], v, mergeKeys, path === '' ? k : `${path}.${k}`);
  }
  return result;
}

function mergeList(
  target: unknown[],
  patch: unknown[],
  mergeKey: string,
  mergeKeys: ReadonlyMap<string, string>,
  path: string,
): unknown[] {
  const result = [...target];
  for (const item of patch as Array<Record<string, unknown>>) {
    const index = result.findIndex(
      (t) => (t as Record<string, unknown> | null)?.[mergeKey] === item[mergeKey],
    );
    if (item.$patch === 'delete') {
      if (index >= 0) result.splice(index, 1);
    } else if (index >= 0) {
      result[index] = applyMergePatch(result[index], item, mergeKeys, `${path}[]`);
    } else {
      result.push(applyMergePatch({}, item, mergeKeys, `${path}[]`));
    }
  }
  return result;
}
