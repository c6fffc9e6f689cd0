//! The simulated GPUs of one node, as kubernetes-sigs/dra-example-driver enumerates them.

import type { DriverResources, Slice } from '@ctrlkit/dra-resourceslice';
import type { Wire } from '@ctrlkit/runtime/client';
import type { V1Device } from '@kubernetes/client-node';

/** The driver name of the example driver: `gpu.example.com`. */
export const DRIVER_NAME = 'gpu.example.com';
/** GPUs per node unless `--num-devices` says otherwise: 8. */
export const DEFAULT_NUM_DEVICES = 8;
/** The `model` attribute of every GPU. */
export const GPU_MODEL = 'LATEST-GPU-MODEL';
/** The `driverVersion` attribute of every GPU. */
export const DRIVER_VERSION = '1.0.0';
/** The `memory` capacity of every GPU. */
export const GPU_MEMORY = '80Gi';
/** The `compute` counter of a partitionable GPU. */
export const GPU_COMPUTE = '100';

/** The seed upstream derives from the node name: h = 31·h + c over its UTF-16 code units, as a signed 32-bit int. */
export function nodeSeed(nodeName: string): number {
  let h = 0;
  for (let i = 0; i < nodeName.length; i++) h = (Math.imul(31, h) + nodeName.charCodeAt(i)) | 0;
  return h;
}

/** A small deterministic PRNG (mulberry32) from a 32-bit seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `count` version-4 UUIDs, the same for the same node name (seeded by {@link nodeSeed}). */
export function gpuUuids(nodeName: string, count: number): string[] {
  const next = prng(nodeSeed(nodeName));
  return Array.from({ length: count }, () => {
    const bytes = Array.from({ length: 16 }, () => next() & 0xff);
    bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}

/** How to simulate the node's GPUs. */
export interface GpuOptions {
  nodeName: string;
  /** GPUs on the node. */
  numDevices: number;
  /** Partitions per GPU; 0 publishes whole GPUs only (one slice). */
  partitions: number;
}

function gpuAttributes(index: number, uuid: string): Wire<V1Device>['attributes'] {
  return {
    index: { int: index },
    uuid: { string: `gpu-${uuid}` },
    model: { string: GPU_MODEL },
    driverVersion: { version: DRIVER_VERSION },
  };
}

/**
 * The desired resources: one pool named after the node. Without partitions, ONE slice with
 * devices `gpu-0`..`gpu-(N-1)`, each with attributes `index`, `uuid`, `model`,
 * `driverVersion` and capacity `memory`. With partitions, a slice of counter sets
 * `gpu-<i>-counters` (memory, compute) and a slice of devices `gpu-<i>-full` and
 * `gpu-<i>-partition-<j>` that consume them.
 */
export function gpuResources(options: GpuOptions): DriverResources {
  const uuids = gpuUuids(options.nodeName, options.numDevices);
  if (options.partitions === 0) {
    const devices: Wire<V1Device>[] = uuids.map((uuid, i) => ({
      name: `gpu-${i}`,
      attributes: gpuAttributes(i, uuid),
      capacity: { memory: { value: GPU_MEMORY } },
    }));
    return { pools: { [options.nodeName]: { slices: [{ devices }] } } };
  }
  const counters: Slice = { sharedCounters: [] };
  const devices: Wire<V1Device>[] = [];
  const memoryGi = 80;
  uuids.forEach((uuid, i) => {
    const counterSet = `gpu-${i}-counters`;
    counters.sharedCounters?.push({
      name: counterSet,
      counters: { memory: { value: GPU_MEMORY }, compute: { value: GPU_COMPUTE } },
    });
    devices.push({
      name: `gpu-${i}-full`,
      attributes: gpuAttributes(i, uuid),
      capacity: { memory: { value: GPU_MEMORY } },
      consumesCounters: [
        {
          counterSet,
          counters: { memory: { value: GPU_MEMORY }, compute: { value: GPU_COMPUTE } },
        },
      ],
    });
    const memory = `${Math.floor((memoryGi * 1024) / options.partitions)}Mi`;
    const compute = `${Math.floor(100 / options.partitions)}`;
    for (let j = 0; j < options.partitions; j++) {
      devices.push({
        name: `gpu-${i}-partition-${j}`,
        attributes: { ...gpuAttributes(i, uuid), partition: { int: j } },
        capacity: { memory: { value: memory } },
        consumesCounters: [
          { counterSet, counters: { memory: { value: memory }, compute: { value: compute } } },
        ],
      });
    }
  });
  return { pools: { [options.nodeName]: { slices: [counters, { devices }] } } };
}
