//! A CRD's conversion webhook: apiextensions.k8s.io/v1 ConversionReview, hub-and-spoke converters per version.

import { InvalidArgumentError } from '@ctrlkit/core';
import { InvalidReviewError, WebhookError } from './webhook-error.js';
import { messageOf, type WebhookHandler } from './webhook-handler.js';

/** controller-runtime's path of the conversion webhook: `/convert`. */
export const DEFAULT_CONVERSION_PATH = '/convert';
/** How long a conversion may take before the server answers a failure: 25 s (the apiserver waits 30 s). */
export const DEFAULT_CONVERSION_TIMEOUT_MS = 25_000;

/** A custom resource as JSON: its `apiVersion` says which version it is. */
export interface ConvertibleObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { annotations?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * Converts one spoke version to and from the hub (controller-runtime's `Convertible`:
 * `ConvertTo(hub)` and `ConvertFrom(hub)`). Each gets a copy it may change; `apiVersion` is
 * set by the webhook. To be lossless, `fromHub` keeps what the spoke cannot hold (see
 * {@link setConversionData}) and `toHub` restores it.
 */
export interface SpokeConverter {
  toHub(spoke: ConvertibleObject): ConvertibleObject | Promise<ConvertibleObject>;
  fromHub(hub: ConvertibleObject): ConvertibleObject | Promise<ConvertibleObject>;
}

/** The CRD a conversion webhook converts, and how. */
export interface ConversionWebhookOptions {
  /** The CRD's group, e.g. `example.com`. Required. */
  group: string;
  /** The CRD's kind. Required. */
  kind: string;
  /** The hub version (usually the storage version), e.g. `v1`. Required. */
  hub: string;
  /** A converter per other served version. Required, non-empty. */
  spokes: Readonly<Record<string, SpokeConverter>>;
  /** Default {@link DEFAULT_CONVERSION_PATH}. */
  path?: string;
  /** Default {@link DEFAULT_CONVERSION_TIMEOUT_MS}. */
  handlerTimeoutMs?: number;
}

/** A conversion webhook: what the server serves, and what the CRD's `spec.conversion` says. */
export interface ConversionWebhook extends WebhookHandler {
  readonly type: 'conversion';
  readonly group: string;
  readonly kind: string;
  /** The hub and spoke versions. */
  readonly versions: readonly string[];
  /** Converts `object` to `apiVersion` (`<group>/<version>`) through the hub. */
  convert(object: ConvertibleObject, apiVersion: string): Promise<ConvertibleObject>;
}

interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: ConvertibleObject[];
}

/** A conversion webhook for a CRD whose versions convert through `hub` (hub and spoke). */
export function conversionWebhookFor(options: ConversionWebhookOptions): ConversionWebhook {
  const { group, kind, hub, spokes } = checkOptions(options);
  const versions = [hub, ...Object.keys(spokes)];
  const versionOf = (apiVersion: unknown): string => {
    const [g, v] = String(apiVersion).split('/');
    if (g !== group || v === undefined || !versions.includes(v)) {
      throw new WebhookError(
        'ConversionFailed',
        `${kind}: cannot convert apiVersion ${String(apiVersion)}; known: ${versions.map((x) => `${group}/${x}`).join(', ')}`,
      );
    }
    return v;
  };
  const convert = async (object: ConvertibleObject, apiVersion: string) => {
    const from = versionOf(object.apiVersion);
    const to = versionOf(apiVersion);
    if (from === to) return object;
    let current = structuredClone(object);
    if (from !== hub) current = await (spokes[from] as SpokeConverter).toHub(current);
    current = { ...current, apiVersion: `${group}/${hub}` };
    if (to !== hub)
      current = await (spokes[to] as SpokeConverter).fromHub(structuredClone(current));
    return { ...current, apiVersion, kind: object.kind };
  };
  return {
    type: 'conversion',
    path: options.path ?? DEFAULT_CONVERSION_PATH,
    handlerTimeoutMs: options.handlerTimeoutMs ?? DEFAULT_CONVERSION_TIMEOUT_MS,
    group,
    kind,
    versions,
    convert,
    async handle(review) {
      const request = readRequest(review);
      try {
        const convertedObjects = [];
        for (const object of request.objects) {
          convertedObjects.push(await convert(object, request.desiredAPIVersion));
        }
        return conversionReview({
          uid: request.uid,
          result: { status: 'Success' },
          convertedObjects,
        });
      } catch (error) {
        if (!WebhookError.isInstance(error)) throw error;
        return conversionReview({
          uid: request.uid,
          result: { status: 'Failure', message: error.message },
        });
      }
    },
    errorReview(review, code, message) {
      const uid = (review as { request?: { uid?: unknown } } | null)?.request?.uid;
      return conversionReview({
        uid: typeof uid === 'string' ? uid : '',
        result: { status: 'Failure', code, message },
      });
    },
  };
}

function conversionReview(response: unknown): unknown {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response };
}

function readRequest(review: unknown): ConversionRequest {
  const body = review as {
    apiVersion?: unknown;
    kind?: unknown;
    request?: Partial<ConversionRequest>;
  } | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidReviewError('expected a ConversionReview object');
  }
  if (body.apiVersion !== 'apiextensions.k8s.io/v1' || body.kind !== 'ConversionReview') {
    throw new InvalidReviewError(
      `expected apiVersion apiextensions.k8s.io/v1 and kind ConversionReview, got ${String(body.apiVersion)} ${String(body.kind)}`,
    );
  }
  const request = body.request;
  if (
    typeof request?.uid !== 'string' ||
    typeof request.desiredAPIVersion !== 'string' ||
    !Array.isArray(request.objects)
  ) {
    throw new InvalidReviewError(
      'the ConversionReview needs request.uid, request.desiredAPIVersion and request.objects',
    );
  }
  return request as ConversionRequest;
}

function checkOptions(options: ConversionWebhookOptions): ConversionWebhookOptions {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError('options', 'expected an options object');
  for (const field of ['group', 'kind', 'hub'] as const) {
    if (typeof options[field] !== 'string' || options[field] === '') {
      throw new InvalidArgumentError(`options.${field}`, 'expected a non-empty string');
    }
  }
  const spokes = Object.entries(options.spokes ?? {});
  if (spokes.length === 0)
    throw new InvalidArgumentError(
      'options.spokes',
      'expected a converter for at least one version',
    );
  for (const [version, converter] of spokes) {
    if (version === options.hub)
      throw new InvalidArgumentError(`options.spokes.${version}`, 'the hub needs no converter');
    if (typeof converter?.toHub !== 'function' || typeof converter.fromHub !== 'function') {
      throw new InvalidArgumentError(
        `options.spokes.${version}`,
        'expected toHub and fromHub functions',
      );
    }
  }
  return options;
}

/**
 * Keeps `data` (JSON) in annotation `annotation` of `object`: what a spoke's `fromHub`
 * cannot hold in its own fields, restored by its `toHub` with {@link takeConversionData}
 * (as kubebuilder projects keep `conversion-data` annotations).
 */
export function setConversionData(
  object: ConvertibleObject,
  annotation: string,
  data: unknown,
): void {
  object.metadata ??= {};
  object.metadata.annotations = {
    ...object.metadata.annotations,
    [annotation]: JSON.stringify(data),
  };
}

/**
 * Removes annotation `annotation` from `object` and returns the data {@link setConversionData}
 * kept in it, or undefined when there is none. Throws `WebhookError` (`ConversionFailed`)
 * when it is not JSON.
 */
export function takeConversionData(object: ConvertibleObject, annotation: string): unknown {
  const annotations = object.metadata?.annotations;
  const raw = annotations?.[annotation];
  if (raw === undefined || annotations === undefined) return undefined;
  const { [annotation]: _, ...rest } = annotations;
  const metadata = object.metadata as NonNullable<ConvertibleObject['metadata']>;
  if (Object.keys(rest).length > 0) metadata.annotations = rest;
  else delete metadata.annotations;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new WebhookError(
      'ConversionFailed',
      `annotation ${annotation} is not JSON: ${messageOf(error)}`,
    );
  }
}
