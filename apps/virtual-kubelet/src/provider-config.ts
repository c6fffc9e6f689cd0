//! `--provider-config`: the provider's settings from a JSON or YAML file, as virtual-kubelet's mock reads them.

import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from '@ctrlkit/core';
import { loadYaml } from '@kubernetes/client-node';
import { DEFAULT_MOCK_CAPACITY } from './providers/mock-provider.js';

/** The node's capacity (and allocatable), as Kubernetes quantities. */
export interface ProviderCapacity {
  cpu: string;
  memory: string;
  pods: string;
}

/** A Kubernetes quantity: a decimal number with an optional binary, decimal or exponent suffix. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;

const KEYS = ['cpu', 'memory', 'pods'] as const;

/**
 * The capacity the file at `path` gives node `nodeName`. The file is virtual-kubelet's mock
 * provider configuration, in JSON or YAML: an object keyed by node name, each entry with
 * optional `cpu`, `memory` and `pods` quantities (missing ones default to
 * {@link DEFAULT_MOCK_CAPACITY}); a node without an entry gets the defaults, as upstream.
 * Throws InvalidArgumentError naming `--provider-config` for an unreadable file, one that is
 * not such an object, an unknown key or a malformed quantity.
 */
export function readProviderConfig(path: string, nodeName: string): ProviderCapacity {
  const fail = (why: string): never => {
    throw new InvalidArgumentError('--provider-config', `${path}: ${why}`);
  };
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    fail((error as Error).message);
  }
  let document: unknown;
  try {
    document = loadYaml<unknown>(text);
  } catch (error) {
    fail(`not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObject(document)) return fail('must be an object keyed by node name');
  const entry = document[nodeName];
  if (entry === undefined || entry === null) return { ...DEFAULT_MOCK_CAPACITY };
  if (!isObject(entry)) return fail(`the entry of node "${nodeName}" must be an object`);
  const capacity: ProviderCapacity = { ...DEFAULT_MOCK_CAPACITY };
  for (const [key, value] of Object.entries(entry)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      fail(`node "${nodeName}": unknown key "${key}" (known: ${KEYS.join(', ')})`);
    }
    const quantity = typeof value === 'number' ? String(value) : value;
    if (quantity === '') continue; // empty: the default, as upstream
    if (typeof quantity !== 'string' || !QUANTITY.test(quantity)) {
      fail(
        `node "${nodeName}": ${key} must be a quantity (e.g. "20", "100Gi"), got ${JSON.stringify(value)}`,
      );
    }
    capacity[key as (typeof KEYS)[number]] = quantity as string;
  }
  return capacity;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
