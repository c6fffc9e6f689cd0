//! The API calls the controller makes: ResourceSlice create/update/delete and a Node read.

import * as http from 'node:http';
import * as https from 'node:https';
import type { KubeConfig, V1Node, V1ResourceSlice } from '@kubernetes/client-node';

const SLICES = '/apis/resource.k8s.io/v1/resourceslices';

/** Preconditions of a delete. */
export interface DeletePreconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * What the controller needs to reach the cluster. Objects are plain JSON as the apiserver
 * sends them (attribute `int`, timestamps as RFC 3339 strings). Failed calls reject with an
 * error carrying the HTTP status as `code` and the apiserver's Status message as `message`.
 * {@link newKubeClient} makes one from a KubeConfig; tests wrap one to count calls.
 */
export interface KubeClient {
  /** For the informer's LIST and WATCH. */
  readonly kubeConfig: KubeConfig;
  createResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  updateResourceSlice(slice: V1ResourceSlice): Promise<V1ResourceSlice>;
  deleteResourceSlice(name: string, preconditions: DeletePreconditions): Promise<void>;
  readNode(name: string): Promise<V1Node>;
}

/** A failed call: `code` is the HTTP status (0 when there was no answer). */
export class KubeRequestError extends Error {
  readonly code: number;
  constructor(code: number, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'KubeRequestError';
    this.code = code;
  }
}

/** A {@link KubeClient} that sends JSON over the KubeConfig's TLS and credentials. */
export function newKubeClient(
  kubeConfig: KubeConfig,
  userAgent = 'ctrlkit-dra-resourceslice',
): KubeClient {
  const send = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new KubeRequestError(0, 'kubeconfig has no current cluster');
    const options: https.RequestOptions = {};
    await kubeConfig.applyToHTTPSOptions(options);
    const target = new URL(cluster.server.replace(/\/+$/, '') + path);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return await new Promise((resolve, reject) => {
      const request = (target.protocol === 'http:' ? http.request : https.request)(target, {
        ...options,
        method,
        headers: {
          ...options.headers,
          Accept: 'application/json',
          'User-Agent': userAgent,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': payload.length }
            : {}),
        },
      });
      request.on('error', (error) =>
        reject(new KubeRequestError(0, `${method} ${path}: ${error.message}`, { cause: error })),
      );
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) =>
          reject(new KubeRequestError(0, `${method} ${path}: ${error.message}`, { cause: error })),
        );
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = text === '' ? undefined : JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const code = response.statusCode ?? 0;
          if (code >= 200 && code < 300) resolve(parsed);
          else {
            const message = (parsed as { message?: unknown } | undefined)?.message;
            reject(
              new KubeRequestError(
                code,
                typeof message === 'string'
                  ? message
                  : `${method} ${path}: HTTP ${code} ${text.slice(0, 200)}`,
              ),
            );
          }
        });
      });
      request.end(payload);
    });
  };
  return {
    kubeConfig,
    createResourceSlice: async (slice) => (await send('POST', SLICES, slice)) as V1ResourceSlice,
    updateResourceSlice: async (slice) =>
      (await send(
        'PUT',
        `${SLICES}/${encodeURIComponent(slice.metadata?.name ?? '')}`,
        slice,
      )) as V1ResourceSlice,
    deleteResourceSlice: async (name, preconditions) => {
      await send('DELETE', `${SLICES}/${encodeURIComponent(name)}`, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        preconditions,
      });
    },
    readNode: async (name) =>
      (await send('GET', `/api/v1/nodes/${encodeURIComponent(name)}`)) as V1Node,
  };
}

/** The HTTP status of a failed call, if it has one. */
export function statusCodeOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && code > 0 ? code : undefined;
}
