//! A factory that hands out one shared informer per resource and option set, and starts them.

import {
  Client,
  type ClientSource,
  formatGroupVersionResource,
  type KubeObject,
  type ResourceLike,
  toClient,
  toGroupVersionResource,
  type Wire,
} from '@ctrlkit/client';
import { type Clock, InvalidArgumentError } from '@ctrlkit/core';
import { type Logger, noopLogger } from '../logger.js';
import type { BackoffOptions } from './backoff.js';
import { newListWatch } from './list-watch.js';
import { type Lister, newLister } from './lister.js';
import type { InitialListMode, ReflectorHealth } from './reflector.js';
import { SharedIndexInformer } from './shared-informer.js';
import type { Indexers } from './store.js';
import type { TransformFunc } from './transform.js';

/**
 * What the informers of one resource default to (controller-runtime's `cache.ByObject`);
 * options given to `forResource` win over these.
 */
export interface ResourceCacheOptions {
  /** Only this namespace. Default: the factory's `namespace`. */
  namespace?: string;
  /** A label selector. Default: the factory's `labelSelector`. */
  labelSelector?: string;
  /** A field selector. Default: the factory's `fieldSelector`. */
  fieldSelector?: string;
  /** Cache `PartialObjectMetadata` only. Default `false`. */
  metadataOnly?: boolean;
  /** Applied to each object of this resource before it is cached; `null` for none. Default: the factory's `transform`. */
  transform?: TransformFunc<KubeObject> | null;
}

/** Options every informer of a factory shares (controller-runtime's `cache.Options`). */
export interface SharedInformerFactoryOptions {
  /** The default resync period of informers, in ms; `0` for none. Default `0`. */
  defaultResyncPeriodMs?: number;
  /** Restrict every informer to this namespace. Default: all namespaces. */
  namespace?: string;
  /** A label selector for every informer (`DefaultLabelSelector`). Default: none. */
  labelSelector?: string;
  /** A field selector for every informer (`DefaultFieldSelector`). Default: none. */
  fieldSelector?: string;
  /**
   * Defaults per resource (`ByObject`), keyed like `forResource`'s argument
   * (`'v1/configmaps'`, `'apps/v1/deployments'`). Default: none.
   */
  byResource?: Readonly<Record<string, ResourceCacheOptions>>;
  /** Applied to every object before it is cached; `null` for none. Default `dropManagedFields`. */
  transform?: TransformFunc<KubeObject> | null;
  /** How the initial state is fetched: `'list'`, `'stream'` or `'auto'` (stream, else LIST). Default `DEFAULT_INITIAL_LIST_MODE`. */
  initialListMode?: InitialListMode;
  /**
   * Objects per LIST page for every list. Default: client-go's choice (pages of 500 for a
   * list at `'0'` or `''`, one request for a relist from a version).
   */
  pageSize?: number;
  /**
   * Uncompressed answers (client-go's `DisableCompression`) are the `Client`'s option: the
   * factory makes no client of its own (one client, one pool per kubeconfig), so set it on
   * the client (`createClient(kubeConfig, { disableCompression: true })`, or the manager's
   * `cache.disableCompression`) and give the factory that client. Ignored when the factory
   * is given a `Client`; `true` with a kubeconfig is refused (`InvalidArgumentError`).
   * Default `false` (gzip).
   */
  disableCompression?: boolean;
  /** Watch timeouts are this × (1 + random), in ms. Default 5 min. */
  minWatchTimeoutMs?: number;
  /** Backoff after failures. Default: client-go's reflector backoff. */
  backoff?: BackoffOptions;
  clock?: Clock;
  logger?: Logger;
}

/** What distinguishes one informer of a factory from another. */
export interface InformerForOptions<T> {
  /** Only this namespace. Default: the factory's `namespace` (all namespaces). */
  namespace?: string;
  /** A label selector for LIST and WATCH. Default: none. */
  labelSelector?: string;
  /** A field selector for LIST and WATCH. Default: none. */
  fieldSelector?: string;
  /** Cache `PartialObjectMetadata` only. Default `false`. */
  metadataOnly?: boolean;
  /** This informer's resync period, in ms. Default: the factory's `defaultResyncPeriodMs`. Not part of the identity. */
  resyncPeriodMs?: number;
  /** Index functions, added to the informer (also when it already exists). */
  indexers?: Indexers<T>;
}

/**
 * Hands out one {@link SharedIndexInformer} per resource, namespace, selector set and
 * metadata-only flag (client-go's `SharedInformerFactory` / `dynamicinformer`): asking twice
 * returns the same informer, so its list+watch is shared. `start(signal)` runs every
 * informer not yet running; informers asked for later are started by the next `start`.
 */
export class SharedInformerFactory {
  /** The client of every LIST and WATCH. */
  readonly client: Client;
  readonly #options: SharedInformerFactoryOptions;
  readonly #byResource = new Map<string, ResourceCacheOptions>();
  readonly #informers = new Map<string, SharedIndexInformer<KubeObject>>();
  readonly #running = new Map<string, Promise<void>>();

  /**
   * `client`: the runtime's {@link Client} (`manager.client`), or a kubeconfig, whose one
   * default client (the one every helper given that kubeconfig shares) is used.
   */
  constructor(client: ClientSource, options: SharedInformerFactoryOptions = {}) {
    if (options === null || typeof options !== 'object')
      throw new InvalidArgumentError('options', 'must be an object');
    if (options.disableCompression === true && !(client instanceof Client)) {
      throw new InvalidArgumentError(
        'disableCompression',
        "is the Client's option (the factory makes no client of its own): give the factory createClient(kubeConfig, { disableCompression: true })",
      );
    }
    this.client = toClient(client);
    if (options.namespace !== undefined && typeof options.namespace !== 'string') {
      throw new InvalidArgumentError('namespace', 'must be a string');
    }
    const resync = options.defaultResyncPeriodMs;
    if (
      resync !== undefined &&
      (typeof resync !== 'number' || !(resync >= 0) || !Number.isFinite(resync))
    ) {
      throw new InvalidArgumentError(
        'defaultResyncPeriodMs',
        `must be a finite number of ms ≥ 0, got ${String(resync)}`,
      );
    }
    for (const field of ['labelSelector', 'fieldSelector'] as const) {
      if (options[field] !== undefined && typeof options[field] !== 'string') {
        throw new InvalidArgumentError(field, 'must be a string');
      }
    }
    for (const [resource, defaults] of Object.entries(options.byResource ?? {})) {
      const gvr = toGroupVersionResource(resource, `byResource['${resource}']`);
      if (defaults === null || typeof defaults !== 'object') {
        throw new InvalidArgumentError(`byResource['${resource}']`, 'must be an object');
      }
      this.#byResource.set(formatGroupVersionResource(gvr), defaults);
    }
    this.#options = options;
  }

  /**
   * The shared informer for `resource` with `options`, created on first use. Its objects
   * are typed as they arrive ({@link Wire}): `forResource<V1Pod>('pods')` caches `Wire<V1Pod>`.
   */
  forResource<T extends KubeObject = KubeObject>(
    resource: ResourceLike,
    options: InformerForOptions<Wire<T>> = {},
  ): SharedIndexInformer<Wire<T>> {
    const gvr = toGroupVersionResource(resource);
    const o = this.#options;
    const defaults = this.#byResource.get(formatGroupVersionResource(gvr)) ?? {};
    const identity = {
      namespace: options.namespace ?? defaults.namespace ?? o.namespace ?? '',
      labelSelector: options.labelSelector ?? defaults.labelSelector ?? o.labelSelector ?? '',
      fieldSelector: options.fieldSelector ?? defaults.fieldSelector ?? o.fieldSelector ?? '',
      metadataOnly: (options.metadataOnly ?? defaults.metadataOnly) === true,
    };
    const key = `${formatGroupVersionResource(gvr)}?${JSON.stringify(identity)}`;
    let informer = this.#informers.get(key) as SharedIndexInformer<Wire<T>> | undefined;
    if (informer === undefined) {
      const transform = 'transform' in defaults ? defaults.transform : o.transform;
      informer = new SharedIndexInformer<Wire<T>>({
        listWatch: newListWatch<T>(this.client, gvr, identity),
        name: informerName(formatGroupVersionResource(gvr), identity),
        resyncPeriodMs: options.resyncPeriodMs ?? o.defaultResyncPeriodMs,
        indexers: options.indexers,
        transform: transform as TransformFunc<Wire<T>> | null | undefined,
        initialListMode: o.initialListMode,
        pageSize: o.pageSize,
        minWatchTimeoutMs: o.minWatchTimeoutMs,
        backoff: o.backoff,
        clock: o.clock,
        logger: o.logger ?? noopLogger,
      });
      this.#informers.set(key, informer as unknown as SharedIndexInformer<KubeObject>);
    } else if (options.indexers !== undefined) {
      const present = new Set(informer.indexer.indexNames());
      const fresh = Object.fromEntries(
        Object.entries(options.indexers).filter(([name]) => !present.has(name)),
      );
      informer.addIndexers(fresh);
    }
    return informer;
  }

  /** A lister over the cache of `forResource(resource, options)`. */
  lister<T extends KubeObject = KubeObject>(
    resource: ResourceLike,
    options: InformerForOptions<Wire<T>> = {},
  ): Lister<Wire<T>> {
    return newLister(this.forResource<T>(resource, options).indexer);
  }

  /** Runs every informer not yet running, until `signal` aborts. */
  start(signal: AbortSignal): void {
    for (const [key, informer] of this.#informers) {
      if (this.#running.has(key)) continue;
      this.#running.set(key, informer.run(signal));
    }
  }

  /** Waits for every started informer to sync; a map from informer name to whether it did (false when `signal` aborted first). */
  async waitForCacheSync(signal: AbortSignal): Promise<Map<string, boolean>> {
    const entries = await Promise.all(
      [...this.#running.keys()].map(async (key) => {
        const informer = this.#informers.get(key) as SharedIndexInformer<KubeObject>;
        return [informer.name, await informer.whenSynced(signal)] as const;
      }),
    );
    return new Map(entries);
  }

  /** The health of every started informer, by informer name. */
  health(): Map<string, ReflectorHealth> {
    const health = new Map<string, ReflectorHealth>();
    for (const key of this.#running.keys()) {
      const informer = this.#informers.get(key) as SharedIndexInformer<KubeObject>;
      health.set(informer.name, informer.health());
    }
    return health;
  }

  /** Resolves once every started informer has stopped (after the `start` signal aborted). */
  async shutdown(): Promise<void> {
    await Promise.all(this.#running.values());
  }
}

/** `v1/configmaps in ns (labels app=web, fields metadata.name=x, metadata only)`: unique per identity. */
function informerName(
  resource: string,
  identity: {
    namespace: string;
    labelSelector: string;
    fieldSelector: string;
    metadataOnly: boolean;
  },
): string {
  const details = [
    identity.labelSelector ? `labels ${identity.labelSelector}` : '',
    identity.fieldSelector ? `fields ${identity.fieldSelector}` : '',
    identity.metadataOnly ? 'metadata only' : '',
  ].filter(Boolean);
  return (
    resource +
    (identity.namespace ? ` in ${identity.namespace}` : '') +
    (details.length > 0 ? ` (${details.join(', ')})` : '')
  );
}
