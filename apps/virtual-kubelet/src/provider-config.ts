//! `--provider-config`: the provider's settings from a JSON or YAML file, as virtual-kubelet's mock reads them.

import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from '@ctrlkit/core';
import { load } from 'js-yaml';
import { DEFAULT_MOCK_CAPACITY, type ProviderCapacity } from './providers/provider-capacity.js';

/** What `--provider-config` gives the node named by `--nodename`. */
export interface ProviderConfig {
  /** Capacity and allocatable: the entry's `cpu`, `memory`, `pods` (defaults for the missing) and `others`. */
  capacity: ProviderCapacity;
  /** The entry's `providerID`: the Node's `spec.providerID`; undefined when absent or empty. */
  providerID: string | undefined;
  /** Keys of the node's entry this program does not know: ignored, as Go's JSON decoder ignores them. */
  unknownKeys: string[];
}

/** A Kubernetes quantity: a decimal number with an optional binary, decimal or exponent suffix. */
const QUANTITY = /^[+-]?(\d+(\.\d*)?|\.\d+)([KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?$/;

/** The fields of upstream's `MockConfig`, by their JSON names. */
const KNOWN_KEYS = ['cpu', 'memory', 'pods', 'others', 'providerID'] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];

/**
 * The settings the file at `path` gives node `nodeName`. The file is virtual-kubelet's mock
 * provider configuration (`MockConfig`), in JSON or YAML: an object keyed by node name, each
 * entry with optional `cpu`, `memory` and `pods` quantities (missing or empty ones default to
 * {@link DEFAULT_MOCK_CAPACITY}), `others` (more resources: name to quantity) and
 * `providerID`. Keys match as Go's JSON decoder matches them (exact, else case-insensitive);
 * other keys are returned in `unknownKeys`, never refused. A node without an entry gets the
 * defaults, as upstream.
 *
 * Errors: InvalidArgumentError naming `--provider-config` for an unreadable file, one that is
 * not such an object, or a malformed quantity.
 */
export function readProviderConfig(path: string, nodeName: string): ProviderConfig {
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
    document = load(text);
  } catch (error) {
    fail(`not JSON or YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObject(document)) return fail('must be an object keyed by node name');
  const entry = document[nodeName];
  const config: ProviderConfig = {
    capacity: { ...DEFAULT_MOCK_CAPACITY },
    providerID: undefined,
    unknownKeys: [],
  };
  if (entry === undefined || entry === null) return config;
  if (!isObject(entry)) return fail(`the entry of node "${nodeName}" must be an object`);
  const at = (key: string): string => `node "${nodeName}": ${key}`;
  for (const [given, value] of Object.entries(entry)) {
    const key = knownKey(given);
    if (key === undefined) config.unknownKeys.push(given);
    else if (key === 'providerID') config.providerID = stringValue(value, at(given), fail);
    else if (key === 'others') readOthers(value, config.capacity, at(given), fail);
    else {
      const quantity = quantityValue(value, at(given), fail);
      if (quantity !== '') config.capacity[key] = quantity; // empty: the default, as upstream
    }
  }
  return config;
}

/** The known key `given` names: itself, else the one equal to it ignoring case (Go's JSON rule). */
function knownKey(given: string): KnownKey | undefined {
  return (
    KNOWN_KEYS.find((k) => k === given) ??
    KNOWN_KEYS.find((k) => k.toLowerCase() === given.toLowerCase())
  );
}

/** `others`: resource name to quantity, added to the capacity (after cpu/memory/pods, as upstream). */
function readOthers(
  value: unknown,
  capacity: ProviderCapacity,
  where: string,
  fail: (why: string) => never,
): void {
  if (value === null) return;
  if (!isObject(value)) fail(`${where} must be an object of resource name to quantity`);
  for (const [resource, quantity] of Object.entries(value as Record<string, unknown>)) {
    capacity[resource] = quantityValue(quantity, `${where}.${resource}`, fail);
  }
}

/** A quantity (a number is taken as its decimal text); '' for an empty string. */
function quantityValue(value: unknown, where: string, fail: (why: string) => never): string {
  const quantity = typeof value === 'number' ? String(value) : value;
  if (quantity === '') return '';
  if (typeof quantity !== 'string' || !QUANTITY.test(quantity)) {
    return fail(`${where} must be a quantity (e.g. "20", "100Gi"), got ${JSON.stringify(value)}`);
  }
  return quantity;
}

/** A string, undefined for null or ''. */
function stringValue(
  value: unknown,
  where: string,
  fail: (why: string) => never,
): string | undefined {
  if (value === null || value === '') return undefined;
  if (typeof value !== 'string')
    return fail(`${where} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
