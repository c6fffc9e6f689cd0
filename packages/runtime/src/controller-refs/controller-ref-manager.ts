//! Adopts orphans that match a selector and releases owned objects that no longer match (kube's and KubeVirt's `BaseControllerRefManager` and claim functions).

import type { ClientSource, KubeConfigLike, KubeObject } from '@ctrlkit/client';
import { InvalidArgumentError, statusCode } from '@ctrlkit/core';
import type { V1OwnerReference } from '@kubernetes/client-node';
import type { ObjectWriter } from '../apply/object-writer.js';
import { type LabelSelectorLike, toLabelMatcher } from '../informers/label-selector.js';
import { MERGE_PATCH, objectClient } from '../internal/object-client.js';
import { type Logger, noopLogger } from '../logger.js';
import { type GroupVersionKind, getControllerOf, newControllerRef } from './controller-ref.js';
import { ControllerRefError } from './controller-ref-error.js';

/** Writes a JSON merge patch to an object: what the manager needs from a client. */
export interface MergePatcher {
  /** Applies `patch` (a JSON merge patch) to the object identified by `target`. */
  mergePatch(target: KubeObject, patch: object): Promise<unknown>;
}

/**
 * A {@link MergePatcher} on the runtime's client: the object's resource is found by its
 * apiVersion and kind (API discovery, cached per client).
 */
export class KubernetesObjectMergePatcher implements MergePatcher {
  readonly #writer: ObjectWriter;
  /** `client`: the runtime's `Client` (`manager.client`), or a kubeconfig for its default client. */
  constructor(client: ClientSource) {
    this.#writer = objectClient(client);
  }

  async mergePatch(target: KubeObject, patch: { metadata?: object }): Promise<unknown> {
    const meta = target.metadata ?? {};
    const body = {
      ...patch,
      apiVersion: target.apiVersion,
      kind: target.kind,
      metadata: { name: meta.name, namespace: meta.namespace, ...patch.metadata },
    } as KubeObject;
    return this.#writer.patchObject(body, MERGE_PATCH);
  }
}

/** Decides whether an object should be owned: the selector and any extra filters. */
export type MatchFunc<T> = (object: T) => boolean;
/** Adopts or releases an object; throwing a 404 (`code: 404`) means it is gone. */
export type ObjectAction<T> = (object: T) => Promise<void>;

/** Options of {@link ControllerRefManager}. */
export interface ControllerRefManagerOptions {
  /** The owner: its UID decides what is owned; its deletionTimestamp stops adoption. */
  controller: KubeObject;
  /** The owner's kind, for the ownerReference (`apiVersion` and `kind`). */
  controllerKind: GroupVersionKind;
  /**
   * Which objects the owner wants, by their labels: a `V1LabelSelector` (`{}` matches all), its
   * string form (`app=web,tier in (a,b)`) or a predicate. `null` matches nothing, as a nil
   * selector does in apimachinery.
   */
  selector: LabelSelectorLike | null;
  /**
   * Checked before the first adoption, at most once per manager: throw to forbid adopting.
   * Use {@link recheckDeletionTimestamp} with a live read of the owner (not the cache).
   */
  canAdopt: () => Promise<void> | void;
  /** How to patch owned objects. Default: a {@link KubernetesObjectMergePatcher} on `client`. */
  patcher?: MergePatcher;
  /**
   * The runtime's client (`manager.client`), or a kubeconfig for its default client:
   * where owned objects are patched. Ignored when `patcher` is given.
   */
  client?: ClientSource;
  /** @deprecated Use `client`; a kubeconfig here is the same as `client: kubeConfig`. */
  kubeConfig?: KubeConfigLike;
  /**
   * `apiVersion` and `kind` of the owned objects, for the patch path, when the objects lack
   * them (items of a typed client-node list do). Ignored for objects that have them.
   */
  objectType?: { apiVersion: string; kind: string };
  /** Where to log adoptions and releases (debug). Default: nowhere. */
  logger?: Logger;
}

function describe(object: KubeObject): string {
  const meta = object.metadata ?? {};
  return `${object.kind ?? 'object'} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name} (${meta.uid})`;
}

/**
 * Returns a `canAdopt` function that reads the owner fresh with `getFresh` (from the
 * apiserver, not a cache) and refuses adoption if it is being deleted (kube's and KubeVirt's
 * `RecheckDeletionTimestamp`). Errors: `ControllerRefError` `RecheckFailed` ("can't recheck
 * DeletionTimestamp: ...") when the read fails; `OwnerDeleting` ("<ns>/<name> has just been
 * deleted at <time>") when it has a deletionTimestamp.
 */
export function recheckDeletionTimestamp(getFresh: () => Promise<KubeObject>): () => Promise<void> {
  return async () => {
    let fresh: KubeObject;
    try {
      fresh = await getFresh();
    } catch (error) {
      throw new ControllerRefError(
        'RecheckFailed',
        `can't recheck DeletionTimestamp: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const deleted = fresh.metadata?.deletionTimestamp;
    if (deleted !== undefined && deleted !== null) {
      const at = deleted instanceof Date ? deleted.toISOString() : String(deleted);
      throw new ControllerRefError(
        'OwnerDeleting',
        `${fresh.metadata?.namespace}/${fresh.metadata?.name} has just been deleted at ${at}`,
      );
    }
  };
}

/**
 * Claims objects for a controller: adopts orphans that match, keeps owned ones that match,
 * releases owned ones that no longer match, and ignores objects owned by another controller.
 *
 * Guarantees (kube's `BaseControllerRefManager.ClaimObject` and `KubeVirt`'s decision table):
 * - Owned and matching: claimed, even while the controller is being deleted (no write).
 * - Owned, not matching: released, unless the controller is being deleted; a release of an
 *   object that is gone (404) is no error. Never claimed.
 * - Orphan and matching: adopted unless the controller or the object is being deleted, or the
 *   object is in another namespace than a namespaced controller, or `canAdopt` fails. An
 *   adoption of an object that is gone (404) is no error, and not claimed.
 * - Owned by another controller, or an orphan not matching: ignored.
 * - `canAdopt` runs at most once per manager; its result (or error) is cached. Make a manager
 *   per sync of the controller, as kube does.
 *
 * Caveats: adoption and release are JSON merge patches, which replace the whole
 * `ownerReferences` list: the patch keeps the object's other owner references and carries its
 * `uid` and `resourceVersion` as preconditions, so a stale object fails with 409 Conflict
 * (requeue and retry) instead of overwriting a concurrent change.
 */
export class ControllerRefManager<T extends KubeObject = KubeObject> {
  readonly #controller: KubeObject;
  readonly #controllerKind: GroupVersionKind;
  readonly #selector: (labels: Readonly<Record<string, string>> | undefined) => boolean;
  readonly #canAdoptFunc: () => Promise<void> | void;
  readonly #patcher: MergePatcher | undefined;
  readonly #objectType: { apiVersion: string; kind: string } | undefined;
  readonly #logger: Logger;
  #canAdoptResult: Promise<void> | undefined;

  constructor(options: ControllerRefManagerOptions) {
    const uid = options.controller?.metadata?.uid;
    if (!uid) {
      throw new InvalidArgumentError('controller.metadata.uid', 'is required');
    }
    if (typeof options.canAdopt !== 'function') {
      throw new InvalidArgumentError('canAdopt', 'must be a function');
    }
    this.#controller = options.controller;
    this.#controllerKind = options.controllerKind;
    newControllerRef(options.controller, options.controllerKind); // validates name and kind early
    const selector = options.selector;
    this.#selector =
      selector === null || selector === undefined ? () => false : toLabelMatcher(selector);
    this.#canAdoptFunc = options.canAdopt;
    const client = options.client ?? options.kubeConfig;
    this.#patcher =
      options.patcher ??
      (client === undefined ? undefined : new KubernetesObjectMergePatcher(client));
    this.#objectType = options.objectType;
    this.#logger = options.logger ?? noopLogger;
  }

  /** Runs `canAdopt` once per manager; later calls return the same result or error. */
  canAdopt(): Promise<void> {
    this.#canAdoptResult ??= (async () => this.#canAdoptFunc())();
    return this.#canAdoptResult;
  }

  /**
   * The claim decision for one object (kube's `ClaimObject`): true when the controller owns
   * it afterwards. `adopt`/`release` make the writes; a 404 from them means the object is gone
   * (not owned, no error); any other error is thrown.
   */
  async claimObject(
    object: T,
    match: MatchFunc<T>,
    adopt: ObjectAction<T>,
    release: ObjectAction<T>,
  ): Promise<boolean> {
    const ref = getControllerOf(object);
    if (ref !== undefined) {
      if (ref.uid !== this.#controller.metadata!.uid) return false; // owned by another
      if (match(object)) return true; // ours and wanted, even while the controller is deleted
      return this.releaseDetachedObject(object, match, release);
    }
    // An orphan.
    if (this.#isBeingDeleted(this.#controller) || !match(object)) return false;
    if (this.#isBeingDeleted(object)) return false;
    const namespace = this.#controller.metadata?.namespace;
    if (namespace && namespace !== object.metadata?.namespace) return false;
    try {
      await adopt(object);
    } catch (error) {
      if (statusCode(error) === 404) return false;
      throw error;
    }
    return true;
  }

  /**
   * Releases `object` if the controller owns it and it no longer matches, unless the controller
   * is being deleted (KubeVirt's `ReleaseDetachedObject`). Returns whether the controller owns
   * it afterwards: false after a release (or a 404), `isControlledBy` otherwise.
   */
  async releaseDetachedObject(
    object: T,
    match: MatchFunc<T>,
    release: ObjectAction<T>,
  ): Promise<boolean> {
    const ref = getControllerOf(object);
    const owned = ref !== undefined && ref.uid === this.#controller.metadata!.uid;
    if (!owned || match(object)) return owned;
    if (this.#isBeingDeleted(this.#controller)) return false;
    try {
      await release(object);
    } catch (error) {
      if (statusCode(error) === 404) return false;
      throw error;
    }
    return false;
  }

  /**
   * Claims each of `objects` that matches the selector and every filter, adopting and
   * releasing through the patcher (kube's `ClaimPods`, KubeVirt's
   * `ClaimVirtualMachineInstances`). Returns the claimed objects; if some writes failed,
   * throws `ControllerRefError` (`ClaimFailed`) with each error and the objects claimed anyway.
   */
  async claimObjects(objects: readonly T[], ...filters: MatchFunc<T>[]): Promise<T[]> {
    const match: MatchFunc<T> = (object) =>
      this.#selector(object.metadata?.labels) && filters.every((filter) => filter(object));
    return this.#batch(objects, (object) =>
      this.claimObject(
        object,
        match,
        (o) => this.adoptObject(o),
        (o) => this.releaseObject(o),
      ),
    );
  }

  /**
   * Releases each owned object that no longer matches the selector and filters (KubeVirt's
   * `ReleaseDetachedVirtualMachines`). Returns the objects still owned.
   */
  async releaseDetachedObjects(objects: readonly T[], ...filters: MatchFunc<T>[]): Promise<T[]> {
    const match: MatchFunc<T> = (object) =>
      this.#selector(object.metadata?.labels) && filters.every((filter) => filter(object));
    return this.#batch(objects, (object) =>
      this.releaseDetachedObject(object, match, (o) => this.releaseObject(o)),
    );
  }

  /**
   * Adopts `object`: checks `canAdopt` (failure: `ControllerRefError` `CannotAdopt`), then sets
   * a controller reference with `blockOwnerDeletion` by a merge patch with `uid` and
   * `resourceVersion` preconditions.
   */
  async adoptObject(object: T): Promise<void> {
    try {
      await this.canAdopt();
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ControllerRefError(
        'CannotAdopt',
        `can't adopt ${describe(this.#typed(object))}: ${why}`,
        {
          cause: error,
        },
      );
    }
    const ours = newControllerRef(this.#controller, this.#controllerKind);
    const others = (object.metadata?.ownerReferences ?? []).filter((ref) => ref.uid !== ours.uid);
    await this.#patch(object, [...others, ours]);
    this.#logger.debug({ object: describe(this.#typed(object)) }, 'adopted');
  }

  /**
   * Releases `object`: removes this controller's reference by a merge patch with `uid` and
   * `resourceVersion` preconditions. A 404 (gone) or 422 (the uid changed: deleted and
   * recreated) is no error.
   */
  async releaseObject(object: T): Promise<void> {
    const uid = this.#controller.metadata!.uid;
    const rest: V1OwnerReference[] = (object.metadata?.ownerReferences ?? []).filter(
      (ref) => ref.uid !== uid,
    );
    try {
      await this.#patch(object, rest);
    } catch (error) {
      const code = statusCode(error);
      if (code === 404 || code === 422) return;
      throw error;
    }
    this.#logger.debug({ object: describe(this.#typed(object)) }, 'released');
  }

  async #batch(objects: readonly T[], claim: (object: T) => Promise<boolean>): Promise<T[]> {
    const claimed: T[] = [];
    const errors: unknown[] = [];
    for (const object of objects) {
      try {
        if (await claim(object)) claimed.push(object);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
      throw new ControllerRefError(
        'ClaimFailed',
        `${errors.length} claim(s) failed: ${messages.join('; ')}`,
        {
          errors,
          claimed,
        },
      );
    }
    return claimed;
  }

  async #patch(object: T, ownerReferences: V1OwnerReference[]): Promise<void> {
    if (this.#patcher === undefined) {
      throw new InvalidArgumentError(
        'patcher',
        'adopting or releasing needs options.patcher or options.client',
      );
    }
    const meta = object.metadata ?? {};
    const metadata: Record<string, unknown> = { uid: meta.uid, ownerReferences };
    if (meta.resourceVersion) metadata.resourceVersion = meta.resourceVersion;
    await this.#patcher.mergePatch(this.#typed(object), { metadata });
  }

  #typed(object: T): KubeObject {
    if (object.apiVersion && object.kind) return object;
    return {
      ...object,
      apiVersion: object.apiVersion ?? this.#objectType?.apiVersion,
      kind: object.kind ?? this.#objectType?.kind,
    };
  }

  #isBeingDeleted(object: KubeObject): boolean {
    const at = object.metadata?.deletionTimestamp;
    return at !== undefined && at !== null;
  }
}
