//! DRAPlugin (v1, and v1beta1 on the same handlers): NodePrepareResources and NodeUnprepareResources.

import type { Logger } from '@ctrlkit/core';
import type { Client } from '@ctrlkit/runtime/client';
import {
  status as grpcStatus,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { Device, DRAPlugin, NamespacedObject, ResourceClaim } from '../dra-plugin.js';
import type {
  WireClaim,
  WireDevice,
  WirePrepareResponse,
  WireUnprepareResponse,
} from '../kubelet-grpc.js';
import { type CheckedClaim, checkClaim } from './claim-check.js';
import type { Serializer } from './serializer.js';

/** What the node service needs of the helper. */
export interface NodeServiceDeps {
  readonly client: Client;
  readonly driverName: string;
  readonly plugin: DRAPlugin;
  readonly serializer: Serializer;
  readonly logger: Logger;
}

type Callback = (error: Partial<ServiceError> | null, value?: unknown) => void;
type Call = { request: { claims?: WireClaim[] } };

/** `request` or `request/subrequest` -> `request`, as upstream's `BaseRequestRef`. */
function baseRequest(name: string): string {
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(0, slash);
}

function toWireDevice(device: Device): WireDevice {
  const wire: WireDevice = {
    requestNames: device.requests.map(baseRequest),
    poolName: device.poolName,
    deviceName: device.deviceName,
    cdiDeviceIds: [...device.cdiDeviceIds],
  };
  if (device.shareId !== undefined) wire.shareId = device.shareId;
  return wire;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads and checks every claim (in parallel, before serializing), then calls the plugin once. */
export async function prepare(
  deps: NodeServiceDeps,
  claims: readonly WireClaim[],
): Promise<WirePrepareResponse> {
  const checked: CheckedClaim[] = await Promise.all(
    claims.map((claim) => checkClaim(deps.client, deps.driverName, claim)),
  );
  const response: WirePrepareResponse = { claims: {} };
  const ready: ResourceClaim[] = [];
  for (const entry of checked) {
    if ('error' in entry) response.claims[entry.uid] = { devices: [], error: entry.error.message };
    else ready.push(entry.claim);
  }
  if (ready.length === 0) return response;
  let results: ReadonlyMap<string, { devices: readonly Device[] } | { error: Error }>;
  try {
    results = await deps.serializer.run(() => deps.plugin.prepareResourceClaims(ready));
  } catch (error) {
    for (const claim of ready) {
      response.claims[claim.metadata?.uid ?? ''] = {
        devices: [],
        error: `prepare resource claims: ${messageOf(error)}`,
      };
    }
    return response;
  }
  for (const claim of ready) {
    const uid = claim.metadata?.uid ?? '';
    const result = results.get(uid);
    if (result === undefined)
      response.claims[uid] = { devices: [], error: 'plugin returned no result for the claim' };
    else if ('error' in result)
      response.claims[uid] = { devices: [], error: messageOf(result.error) };
    else response.claims[uid] = { devices: result.devices.map(toWireDevice), error: '' };
  }
  return response;
}

/** Calls the plugin with the claims' references (the claims may be gone). */
export async function unprepare(
  deps: NodeServiceDeps,
  claims: readonly WireClaim[],
): Promise<WireUnprepareResponse> {
  const refs: NamespacedObject[] = claims.map(({ uid, namespace, name }) => ({
    uid,
    namespace,
    name,
  }));
  const response: WireUnprepareResponse = { claims: {} };
  if (refs.length === 0) return response;
  let results: ReadonlyMap<string, Error | null>;
  try {
    results = await deps.serializer.run(() => deps.plugin.unprepareResourceClaims(refs));
  } catch (error) {
    for (const ref of refs)
      response.claims[ref.uid] = { error: `unprepare resource claims: ${messageOf(error)}` };
    return response;
  }
  for (const ref of refs) {
    const result = results.get(ref.uid);
    if (result === undefined)
      response.claims[ref.uid] = { error: 'plugin returned no result for the claim' };
    else response.claims[ref.uid] = { error: result === null ? '' : messageOf(result) };
  }
  return response;
}

/** The handlers of both DRAPlugin versions for `@grpc/grpc-js`'s `addService`. */
export function nodeServiceHandlers(deps: NodeServiceDeps): UntypedServiceImplementation {
  let requestId = 0;
  const handle =
    (
      method: string,
      fn: (deps: NodeServiceDeps, claims: readonly WireClaim[]) => Promise<unknown>,
    ) =>
    (call: Call, callback: Callback) => {
      const id = ++requestId;
      const claims = call.request.claims ?? [];
      deps.logger.debug({ requestId: id, method, claims }, 'handling request');
      fn(deps, claims).then(
        (response) => {
          deps.logger.debug({ requestId: id, method, response }, 'handling request succeeded');
          callback(null, response);
        },
        (error: unknown) => {
          deps.logger.error({ requestId: id, method, err: error }, 'handling request failed');
          callback({ code: grpcStatus.INTERNAL, details: `${method}: ${messageOf(error)}` });
        },
      );
    };
  return {
    NodePrepareResources: handle('NodePrepareResources', prepare),
    NodeUnprepareResources: handle('NodeUnprepareResources', unprepare),
  };
}
