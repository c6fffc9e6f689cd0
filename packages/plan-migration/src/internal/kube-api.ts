//! The API calls plan-migration makes, by client-node's method names, on the runtime's one client.

import { isNotFound } from '@ctrlkit/core';
import type { Client, DeleteOptions, ListOptions, Wire } from '@ctrlkit/runtime/client';
import type { ObjectList } from '@ctrlkit/runtime/informers';
import type {
  V1ConfigMap,
  V1Job,
  V1Namespace,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1Pod,
  V1Secret,
} from '@kubernetes/client-node';

/** A body written in code: client-node's model (its `Date`s become RFC 3339 strings) or the wire form. */
type Body<T> = T | Wire<T>;
type List<T> = Promise<ObjectList<Wire<T> & { metadata?: { name?: string } }>>;
type Named = { namespace: string; name: string };
type Selected = { namespace?: string; labelSelector?: string; fieldSelector?: string };
type Deleting = Named & Pick<DeleteOptions, 'gracePeriodSeconds' | 'propagationPolicy'>;
/** A patch: a JSON patch (an array of operations) or a JSON merge patch (an object). */
type Patch = { body: unknown };
/** client-node's custom object coordinates. */
type Custom = { group: string; version: string; plural: string };

function patchType(body: unknown): 'json' | 'merge' {
  return Array.isArray(body) ? 'json' : 'merge';
}

function selected(options: Selected): ListOptions {
  return {
    namespace: options.namespace,
    labelSelector: options.labelSelector,
    fieldSelector: options.fieldSelector,
  };
}

function deleting(options: Deleting): DeleteOptions {
  return {
    namespace: options.namespace,
    gracePeriodSeconds: options.gracePeriodSeconds,
    propagationPolicy: options.propagationPolicy,
  };
}

/** The core/v1 calls (client-node's `CoreV1Api` names) on `client`. */
export function coreApi(client: Client) {
  return {
    readNamespace: ({ name }: { name: string }) => client.get<V1Namespace>('namespaces', name),
    createNamespace: ({ body }: { body: Body<V1Namespace> }) => client.create('namespaces', body),
    listNamespacedPod: (o: Selected): List<V1Pod> => client.list<V1Pod>('pods', selected(o)),
    listPodForAllNamespaces: (o: Selected): List<V1Pod> => client.list<V1Pod>('pods', selected(o)),
    createNamespacedPod: ({ namespace, body }: { namespace: string; body: Body<V1Pod> }) =>
      client.create('pods', body, { namespace }),
    deleteNamespacedPod: (o: Deleting) => client.delete('pods', o.name, deleting(o)),
    listNamespacedSecret: (o: Selected): List<V1Secret> =>
      client.list<V1Secret>('secrets', selected(o)),
    listSecretForAllNamespaces: (o: Selected): List<V1Secret> =>
      client.list<V1Secret>('secrets', selected(o)),
    createNamespacedSecret: ({ namespace, body }: { namespace: string; body: Body<V1Secret> }) =>
      client.create('secrets', body, { namespace }),
    deleteNamespacedSecret: (o: Deleting) => client.delete('secrets', o.name, deleting(o)),
    readNamespacedConfigMap: ({ namespace, name }: Named) =>
      client.get<V1ConfigMap>('configmaps', name, { namespace }),
    listNamespacedConfigMap: (o: Selected): List<V1ConfigMap> =>
      client.list<V1ConfigMap>('configmaps', selected(o)),
    listConfigMapForAllNamespaces: (o: Selected): List<V1ConfigMap> =>
      client.list<V1ConfigMap>('configmaps', selected(o)),
    createNamespacedConfigMap: ({
      namespace,
      body,
    }: {
      namespace: string;
      body: Body<V1ConfigMap>;
    }) => client.create('configmaps', body, { namespace }),
    patchNamespacedConfigMap: ({ namespace, name, body }: Named & Patch) =>
      client.patch<V1ConfigMap>('configmaps', name, body, { namespace, type: patchType(body) }),
    deleteNamespacedConfigMap: (o: Deleting) => client.delete('configmaps', o.name, deleting(o)),
    listNamespacedPersistentVolumeClaim: (o: Selected): List<V1PersistentVolumeClaim> =>
      client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', selected(o)),
    listPersistentVolumeClaimForAllNamespaces: (o: Selected): List<V1PersistentVolumeClaim> =>
      client.list<V1PersistentVolumeClaim>('persistentvolumeclaims', selected(o)),
    createNamespacedPersistentVolumeClaim: ({
      namespace,
      body,
    }: {
      namespace: string;
      body: Body<V1PersistentVolumeClaim>;
    }) => client.create('persistentvolumeclaims', body, { namespace }),
    patchNamespacedPersistentVolumeClaim: ({ namespace, name, body }: Named & Patch) =>
      client.patch<V1PersistentVolumeClaim>('persistentvolumeclaims', name, body, {
        namespace,
        type: patchType(body),
      }),
    patchNamespacedPersistentVolumeClaimStatus: ({ namespace, name, body }: Named & Patch) =>
      client.patch<V1PersistentVolumeClaim>('persistentvolumeclaims', name, body, {
        namespace,
        type: patchType(body),
        subresource: 'status',
      }),
    deleteNamespacedPersistentVolumeClaim: (o: Deleting) =>
      client.delete('persistentvolumeclaims', o.name, deleting(o)),
    listPersistentVolume: (o: Selected): List<V1PersistentVolume> =>
      client.list<V1PersistentVolume>('persistentvolumes', selected(o)),
    createPersistentVolume: ({ body }: { body: Body<V1PersistentVolume> }) =>
      client.create('persistentvolumes', body),
    deletePersistentVolume: ({ name }: { name: string }) =>
      client.delete('persistentvolumes', name),
  };
}

const JOBS = 'batch/v1/jobs';

/** The batch/v1 calls (client-node's `BatchV1Api` names) on `client`. */
export function batchApi(client: Client) {
  return {
    listNamespacedJob: (o: Selected): List<V1Job> => client.list<V1Job>(JOBS, selected(o)),
    listJobForAllNamespaces: (o: Selected): List<V1Job> => client.list<V1Job>(JOBS, selected(o)),
    createNamespacedJob: ({ namespace, body }: { namespace: string; body: Body<V1Job> }) =>
      client.create(JOBS, body, { namespace }),
    deleteNamespacedJob: (o: Deleting) => client.delete(JOBS, o.name, deleting(o)),
  };
}

const resourceOf = (o: Custom) => ({ group: o.group, version: o.version, resource: o.plural });

/**
 * The custom object calls (client-node's `CustomObjectsApi` names) on `client`; objects are
 * `object`, as there, for the caller to type.
 */
export function customApi(client: Client) {
  return {
    getNamespacedCustomObject: (o: Custom & Named): Promise<object> =>
      client.get(resourceOf(o), o.name, { namespace: o.namespace }),
    listNamespacedCustomObject: (o: Custom & Selected): Promise<{ items: object[] }> =>
      client.list(resourceOf(o), selected(o)),
    listClusterCustomObject: (o: Custom & Selected): Promise<{ items: object[] }> =>
      client.list(resourceOf(o), selected({ ...o, namespace: undefined })),
    createNamespacedCustomObject: (o: Custom & { namespace: string; body: object }) =>
      client.create(resourceOf(o), o.body as never, { namespace: o.namespace }) as Promise<object>,
    deleteNamespacedCustomObject: (o: Custom & Deleting) =>
      client.delete(resourceOf(o), o.name, deleting(o)),
    patchNamespacedCustomObject: (o: Custom & Named & Patch): Promise<object> =>
      client.patch(resourceOf(o), o.name, o.body, {
        namespace: o.namespace,
        type: patchType(o.body),
      }),
    patchNamespacedCustomObjectStatus: (o: Custom & Named & Patch): Promise<object> =>
      client.patch(resourceOf(o), o.name, o.body, {
        namespace: o.namespace,
        type: patchType(o.body),
        subresource: 'status',
      }),
    replaceNamespacedCustomObjectStatus: (o: Custom & Named & { body: object }): Promise<object> =>
      client.replace(resourceOf(o), o.body as never, {
        namespace: o.namespace,
        subresource: 'status',
      }),
  };
}

/** What `request` resolves to, or undefined when the API server answers 404 Not Found. */
export async function unlessNotFound<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** The core/v1 calls of {@link coreApi}. */
export type CoreApi = ReturnType<typeof coreApi>;
/** The batch/v1 calls of {@link batchApi}. */
export type BatchApi = ReturnType<typeof batchApi>;
/** The custom object calls of {@link customApi}. */
export type CustomApi = ReturnType<typeof customApi>;
