//! ListWatch: the LIST and WATCH calls of one resource, namespace and selector set.

import {
  type Client,
  type ClientSource,
  collectionPath,
  type GroupVersionResource,
  type KubeObject,
  type ObjectList,
  peekProtobufContinueToken,
  type Query,
  type RawWatchEvent,
  type ResourceLike,
  toClient,
  toGroupVersionResource,
  type Wire,
} from '@ctrlkit/client';
import { InvalidArgumentError } from '@ctrlkit/core';

/** The options of one LIST request (one page). */
export interface ListRequestOptions {
  /**
   * `''` (the default) asks for a consistent, most recent list (from etcd); `'0'` accepts
   * any state the watch cache holds (which ignores `limit` then); a version asks for a
   * state at least that new (served by the watch cache when `limit` is unset).
   */
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  /** The page size; `0` or undefined asks for everything at once. */
  limit?: number;
  /** The continue token of the previous page. */
  continue?: string;
  /** Added (with `,`) to the ListWatch's own label selector. */
  labelSelector?: string;
  /** Added (with `,`) to the ListWatch's own field selector. */
  fieldSelector?: string;
  /**
   * The caller drops `metadata.managedFields` from every item (the informers' default
   * transform): the ListWatch may leave the field out while it parses, sparing the objects
   * it would build. Items may still carry it. Default `false`.
   */
  dropManagedFields?: boolean;
  /**
   * Items that carry no `kind` and `apiVersion` (those of built-in types' lists) get the
   * list's (`kind` without `List`), as watch events carry them. Default `false`.
   */
  itemTypeMeta?: boolean;
  signal?: AbortSignal;
}

/** The options of one WATCH request. */
export interface WatchRequestOptions {
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan';
  /** The server ends the watch after this many seconds. */
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
  /** Streaming list: the server first sends the current state as ADDED events, then a bookmark. */
  sendInitialEvents?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
  signal?: AbortSignal;
  /** Closes a connection on which nothing arrived for this long, in ms. Default: never. */
  idleTimeoutMs?: number;
  /** Called once the server accepted the watch (answered 200), before any event. */
  onOpen?: () => void;
  /**
   * The caller drops `metadata.managedFields` from every object (as for a LIST): the
   * ListWatch may leave the field out while it decodes. Default `false`.
   */
  dropManagedFields?: boolean;
}

/** A watch event: `ADDED`, `MODIFIED`, `DELETED`, `BOOKMARK` or `ERROR` (its object a Status). */
export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | (string & {});
  object: T;
}

/**
 * LIST and WATCH of one resource, namespace and selector set (client-go's
 * `cache.ListerWatcher`). `watch` calls `onEvent` for each event in order and resolves
 * when the server ends the stream.
 */
export interface ListWatch<T extends KubeObject = KubeObject> {
  list(options: ListRequestOptions): Promise<ObjectList<T>>;
  watch(options: WatchRequestOptions, onEvent: (event: WatchEvent<T>) => void): Promise<void>;
}

/** What a ListWatch made by {@link newListWatch} asks for. */
export interface ListWatchOptions {
  /** Only this namespace; `''` or undefined for all namespaces (and for cluster-scoped resources). */
  namespace?: string;
  /** A label selector, e.g. `app=web,tier in (a,b)`. Default: none. */
  labelSelector?: string;
  /** A field selector, e.g. `metadata.name=foo`. Default: none. */
  fieldSelector?: string;
  /**
   * Ask for `PartialObjectMetadata` (metadata, kind and apiVersion only) instead of whole
   * objects. Default `false`.
   */
  metadataOnly?: boolean;
}

/** The Accept header of a full-object list or watch. */
export const ACCEPT_JSON = 'application/json';
/** The Accept header of a metadata-only list. */
export const ACCEPT_METADATA_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
/** The Accept header of a metadata-only watch. */
export const ACCEPT_METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/**
 * A ListWatch on `resource` in `namespace` (`''` for all), restricted by `fieldSelector`
 * (`''` for none): the seed's `NewListWatchFromClient`. `client` is the runtime's
 * {@link Client} (or a kubeconfig, for its default client). Objects are typed as they
 * arrive ({@link Wire}): `newListWatchFromClient<V1Pod>(…)` lists `Wire<V1Pod>`.
 */
export function newListWatchFromClient<T extends KubeObject = KubeObject>(
  client: ClientSource,
  resource: ResourceLike,
  namespace: string,
  fieldSelector = '',
): ListWatch<Wire<T>> {
  return newListWatch<T>(client, resource, { namespace, fieldSelector });
}

/** A ListWatch on `resource` with a namespace, selectors, and optionally metadata only; objects as they arrive ({@link Wire}). */
export function newListWatch<T extends KubeObject = KubeObject>(
  client: ClientSource,
  resource: ResourceLike,
  options: ListWatchOptions = {},
): ListWatch<Wire<T>> {
  const rest = toClient(client);
  const gvr = toGroupVersionResource(resource);
  const namespace = optionalString('namespace', options.namespace);
  const labelSelector = optionalString('labelSelector', options.labelSelector);
  const fieldSelector = optionalString('fieldSelector', options.fieldSelector);
  if (options.metadataOnly !== undefined && typeof options.metadataOnly !== 'boolean') {
    throw new InvalidArgumentError('metadataOnly', 'must be a boolean');
  }
  return new RestListWatch<Wire<T>>(
    rest,
    gvr,
    namespace,
    labelSelector,
    fieldSelector,
    options.metadataOnly === true,
  );
}

class RestListWatch<T extends KubeObject> implements ListWatch<T> {
  readonly #path: string;
  /** Pages requested before they were asked for, by request (see `#fetch`). */
  readonly #prefetched = new Map<string, Promise<ObjectList<T>>>();

  constructor(
    readonly client: Client,
    readonly resource: GroupVersionResource,
    namespace: string,
    readonly labelSelector: string,
    readonly fieldSelector: string,
    readonly metadataOnly: boolean,
  ) {
    this.#path = collectionPath(resource, namespace || undefined);
  }

  async list(options: ListRequestOptions): Promise<ObjectList<T>> {
    const key = prefetchKey(options);
    // A list without a continue token starts a new pagination: earlier prefetches are stale.
    if (options.continue === undefined) this.#prefetched.clear();
    const pending = this.#prefetched.get(key) ?? this.#fetch(options);
    this.#prefetched.delete(key);
    return await pending;
  }

  /**
   * Sends one LIST. When it asks for a page, the next page is requested as soon as this
   * one's continue token arrives (at the head of the body), so the apiserver prepares it
   * while this one is still being received and parsed; `list` then finds it ready.
   */
  #fetch(options: ListRequestOptions): Promise<ObjectList<T>> {
    const query: Query = {
      labelSelector: joinSelectors(this.labelSelector, options.labelSelector),
      fieldSelector: joinSelectors(this.fieldSelector, options.fieldSelector),
      resourceVersion: options.resourceVersion,
      resourceVersionMatch: options.resourceVersion ? options.resourceVersionMatch : undefined,
      limit: options.limit || undefined,
      continue: options.continue,
    };
    const accept = this.metadataOnly ? ACCEPT_METADATA_LIST : ACCEPT_JSON;
    const onHead = options.limit
      ? (head: Buffer) => {
          const token = peekContinueToken(head);
          if (token === undefined || options.signal?.aborted) return;
          // A continue page carries no resourceVersion: the token holds it.
          const next = {
            ...options,
            continue: token,
            resourceVersion: undefined,
            resourceVersionMatch: undefined,
          };
          const key = prefetchKey(next);
          if (this.#prefetched.has(key) || this.#prefetched.size >= MAX_PREFETCHED) return;
          const nextBody = this.#fetch(next);
          nextBody.catch(() => undefined);
          this.#prefetched.set(key, nextBody);
        }
      : undefined;
    return this.client.getList(this.#path, query, accept, options.signal, onHead, {
      dropManagedFields: options.dropManagedFields === true,
      typeMeta: options.itemTypeMeta === true,
    }) as unknown as Promise<ObjectList<T>>;
  }

  watch(options: WatchRequestOptions, onEvent: (event: WatchEvent<T>) => void): Promise<void> {
    const query: Query = {
      labelSelector: joinSelectors(this.labelSelector, options.labelSelector),
      fieldSelector: joinSelectors(this.fieldSelector, options.fieldSelector),
      resourceVersion: options.resourceVersion,
      resourceVersionMatch: options.resourceVersionMatch,
      timeoutSeconds: options.timeoutSeconds,
      allowWatchBookmarks: options.allowWatchBookmarks ? 'true' : undefined,
      sendInitialEvents: options.sendInitialEvents ? 'true' : undefined,
    };
    const accept = this.metadataOnly ? ACCEPT_METADATA : ACCEPT_JSON;
    return this.client.watch(
      this.#path,
      query,
      accept,
      onEvent as (event: RawWatchEvent) => void,
      options.signal,
      options.idleTimeoutMs,
      options.onOpen,
      { dropManagedFields: options.dropManagedFields === true },
    );
  }
}

function prefetchKey(options: ListRequestOptions): string {
  return JSON.stringify([
    options.dropManagedFields === true,
    options.itemTypeMeta === true,
    options.continue,
    options.limit,
    options.labelSelector,
    options.fieldSelector,
    options.resourceVersion,
    options.resourceVersionMatch,
  ]);
}

/** At most this many pages are requested ahead. */
const MAX_PREFETCHED = 2;
const CONTINUE_FIELD = Buffer.from('"continue":"');
const ITEMS_FIELD = Buffer.from('"items":');

/** The first byte of a protobuf answer (`k8s\0`); a JSON body starts with `{`. */
const PROTOBUF_FIRST_BYTE = 0x6b;

/**
 * The continue token of a list body (JSON or protobuf), read from its head without parsing
 * the body (the apiserver writes `metadata`, with `continue`, before `items`); undefined
 * when absent.
 */
export function peekContinueToken(body: Buffer): string | undefined {
  if (body[0] === PROTOBUF_FIRST_BYTE) return peekProtobufContinueToken(body);
  const head = body.subarray(0, 8192);
  const itemsAt = head.indexOf(ITEMS_FIELD);
  const limit = itemsAt === -1 ? head.length : itemsAt;
  const at = head.indexOf(CONTINUE_FIELD);
  if (at === -1 || at > limit) return undefined;
  const start = at + CONTINUE_FIELD.length;
  const end = head.indexOf(0x22, start);
  if (end === -1 || end > limit) return undefined;
  const token = head.toString('latin1', start, end);
  return token === '' || token.includes('\\') ? undefined : token;
}

function joinSelectors(a: string, b: string | undefined): string | undefined {
  if (!b) return a || undefined;
  return a ? `${a},${b}` : b;
}

function optionalString(field: string, value: unknown): string {
  if (value === undefined) return '';
  if (typeof value !== 'string')
    throw new InvalidArgumentError(field, `must be a string, got ${typeof value}`);
  return value;
}
