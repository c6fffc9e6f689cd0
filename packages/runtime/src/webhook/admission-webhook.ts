//! Validating and mutating admission webhooks for a kind, from typed handlers (controller-runtime's CustomValidator and CustomDefaulter).

import { InvalidArgumentError } from '@ctrlkit/core';
import type { V1LabelSelector } from '@kubernetes/client-node';
import {
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionReview,
  admissionReview,
} from './admission-review.js';
import { createJsonPatch } from './json-patch.js';
import { AdmissionDeniedError, InvalidReviewError } from './webhook-error.js';
import type { WebhookHandler } from './webhook-handler.js';

/** The apiserver's default and our default `timeoutSeconds` of a webhook: 10 s. */
export const DEFAULT_WEBHOOK_TIMEOUT_SECONDS = 10;

/** What a handler gets besides the object: the whole request, `dryRun`, and a stop signal. */
export interface AdmissionContext {
  readonly request: AdmissionRequest;
  /** True when the apiserver will not persist the change: make no side effects. */
  readonly dryRun: boolean;
  /** Aborts when the server stopped waiting for this handler. */
  readonly signal: AbortSignal;
}

/** Warnings a handler returns to the user (`kubectl` prints them), or nothing. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that returns nothing allows without warnings.
export type Warnings = readonly string[] | undefined | void;

/**
 * Validates a kind (controller-runtime's `CustomValidator`). Return warnings to allow;
 * throw an {@link AdmissionDeniedError} to refuse. Any other exception answers code 500.
 */
export interface CustomValidator<T> {
  validateCreate(object: T, context: AdmissionContext): Warnings | Promise<Warnings>;
  validateUpdate(
    oldObject: T,
    newObject: T,
    context: AdmissionContext,
  ): Warnings | Promise<Warnings>;
  validateDelete(object: T, context: AdmissionContext): Warnings | Promise<Warnings>;
}

/**
 * Defaults a kind (controller-runtime's `CustomDefaulter`): `default` mutates the object it
 * is given (a copy of the request's); the response's JSON Patch is the difference.
 */
export interface CustomDefaulter<T> {
  default(object: T, context: AdmissionContext): void | Promise<void>;
}

/** An admission operation a webhook is called for. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | '*';

/** Where and for what the apiserver calls an admission webhook (controller-gen's `+kubebuilder:webhook` marker). */
export interface AdmissionWebhookOptions {
  /** The webhook's name in its configuration, a qualified name such as `vwidget.example.com`. Required. */
  name: string;
  /** The API group of the kind (`''` for the core group). Required. */
  group: string;
  /** The versions the webhook is called for; the first names the default path. Required, non-empty. */
  versions: readonly string[];
  /** The kind, e.g. `Widget`. Required. */
  kind: string;
  /** The resource (plural), e.g. `widgets`. Required. */
  resource: string;
  /** Default `/validate-<group with dashes>-<version>-<kind lower case>` (`/mutate-…` for a mutating one), as controller-runtime. */
  path?: string;
  /** Default `CREATE` and `UPDATE` (and `DELETE` for a validating webhook). */
  operations?: readonly AdmissionOperation[];
  /** `Fail` (default, as controller-gen) or `Ignore` when the webhook cannot be called. */
  failurePolicy?: 'Fail' | 'Ignore';
  /** `Equivalent` (default) or `Exact`. */
  matchPolicy?: 'Exact' | 'Equivalent';
  namespaceSelector?: V1LabelSelector;
  objectSelector?: V1LabelSelector;
  /** How long the apiserver waits, 1 to 30 s. Default {@link DEFAULT_WEBHOOK_TIMEOUT_SECONDS}. */
  timeoutSeconds?: number;
  /**
   * How long the handler may take before the server answers `allowed: false` with code 504,
   * in ms. Default: `timeoutSeconds` less 1 s, or half of it when that is shorter, so that
   * the apiserver gets the answer before it gives up.
   */
  handlerTimeoutMs?: number;
}

/** An admission webhook: what the server serves, and what its configuration says. */
export interface AdmissionWebhook extends WebhookHandler {
  readonly type: 'validating' | 'mutating';
  /** The checked options, with defaults applied (read by the configuration generators). */
  readonly options: Readonly<
    Required<Omit<AdmissionWebhookOptions, 'namespaceSelector' | 'objectSelector'>>
  > &
    Pick<AdmissionWebhookOptions, 'namespaceSelector' | 'objectSelector'>;
}

/** A validating webhook that calls `validator` for the kind (controller-runtime's `WithValidator`). */
export function validatingWebhookFor<T = Record<string, unknown>>(
  validator: CustomValidator<T>,
  options: AdmissionWebhookOptions,
): AdmissionWebhook {
  for (const method of ['validateCreate', 'validateUpdate', 'validateDelete'] as const) {
    if (typeof validator?.[method] !== 'function') {
      throw new InvalidArgumentError(`validator.${method}`, 'expected a function');
    }
  }
  const checked = checkOptions(options, 'validating');
  return admissionWebhook('validating', checked, async (request, context) => {
    const warnings = await validate(validator, request, context);
    return { uid: request.uid, allowed: true, ...withWarnings(warnings) };
  });
}

/** A mutating webhook that calls `defaulter` for the kind (controller-runtime's `WithDefaulter`). */
export function mutatingWebhookFor<T = Record<string, unknown>>(
  defaulter: CustomDefaulter<T>,
  options: AdmissionWebhookOptions,
): AdmissionWebhook {
  if (typeof defaulter?.default !== 'function') {
    throw new InvalidArgumentError('defaulter.default', 'expected a function');
  }
  const checked = checkOptions(options, 'mutating');
  return admissionWebhook('mutating', checked, async (request, context) => {
    if (request.operation === 'DELETE' || request.object === undefined) {
      return { uid: request.uid, allowed: true };
    }
    const copy = structuredClone(request.object) as T;
    await defaulter.default(copy, context);
    const patch = createJsonPatch(request.object, JSON.parse(JSON.stringify(copy)));
    if (patch.length === 0) return { uid: request.uid, allowed: true };
    return {
      uid: request.uid,
      allowed: true,
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
    };
  });
}

async function validate<T>(
  validator: CustomValidator<T>,
  request: AdmissionRequest,
  context: AdmissionContext,
): Promise<Warnings> {
  switch (request.operation) {
    case 'CREATE':
      return validator.validateCreate(request.object as T, context);
    case 'UPDATE':
      return validator.validateUpdate(request.oldObject as T, request.object as T, context);
    case 'DELETE':
      return validator.validateDelete(request.oldObject as T, context);
    default:
      return undefined;
  }
}

function withWarnings(warnings: Warnings): { warnings?: readonly string[] } {
  return Array.isArray(warnings) && warnings.length > 0 ? { warnings: [...warnings] } : {};
}

type Admit = (request: AdmissionRequest, context: AdmissionContext) => Promise<AdmissionResponse>;

function admissionWebhook(
  type: 'validating' | 'mutating',
  options: AdmissionWebhook['options'],
  admit: Admit,
): AdmissionWebhook {
  return {
    type,
    path: options.path,
    options,
    handlerTimeoutMs: options.handlerTimeoutMs,
    async handle(review, signal): Promise<AdmissionReview> {
      const request = readRequest(review);
      const context = { request, dryRun: request.dryRun === true, signal };
      try {
        return admissionReview(await admit(request, context));
      } catch (error) {
        if (!AdmissionDeniedError.isInstance(error)) throw error;
        return admissionReview({
          uid: request.uid,
          allowed: false,
          status: { code: error.code, reason: error.statusReason, message: error.message },
          ...withWarnings(error.warnings),
        });
      }
    },
    errorReview(review, code, message): AdmissionReview {
      const uid = (review as { request?: { uid?: unknown } } | null)?.request?.uid;
      return admissionReview({
        uid: typeof uid === 'string' ? uid : '',
        allowed: false,
        status: { code, message },
      });
    },
  };
}

function readRequest(review: unknown): AdmissionRequest {
  const body = review as Partial<AdmissionReview> | null;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidReviewError('expected an AdmissionReview object');
  }
  if (body.apiVersion !== 'admission.k8s.io/v1' || body.kind !== 'AdmissionReview') {
    throw new InvalidReviewError(
      `expected apiVersion admission.k8s.io/v1 and kind AdmissionReview, got ${String(body.apiVersion)} ${String(body.kind)}`,
    );
  }
  const request = body.request;
  if (
    typeof request !== 'object' ||
    request === null ||
    typeof request.uid !== 'string' ||
    request.uid === ''
  ) {
    throw new InvalidReviewError('the AdmissionReview has no request.uid');
  }
  if (typeof request.operation !== 'string') {
    throw new InvalidReviewError('the AdmissionReview has no request.operation');
  }
  return request;
}

function checkOptions(
  options: AdmissionWebhookOptions,
  type: 'validating' | 'mutating',
): AdmissionWebhook['options'] {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'expected an options object');
  }
  for (const field of ['name', 'kind', 'resource'] as const) {
    if (typeof options[field] !== 'string' || options[field] === '') {
      throw new InvalidArgumentError(`options.${field}`, 'expected a non-empty string');
    }
  }
  if (typeof options.group !== 'string')
    throw new InvalidArgumentError('options.group', 'expected a string');
  if (!Array.isArray(options.versions) || options.versions.length === 0) {
    throw new InvalidArgumentError('options.versions', 'expected a non-empty array of versions');
  }
  const timeoutSeconds = options.timeoutSeconds ?? DEFAULT_WEBHOOK_TIMEOUT_SECONDS;
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 30) {
    throw new InvalidArgumentError(
      'options.timeoutSeconds',
      `must be an integer from 1 to 30, got ${String(options.timeoutSeconds)}`,
    );
  }
  const timeoutMs = timeoutSeconds * 1000;
  const handlerTimeoutMs = options.handlerTimeoutMs ?? Math.max(timeoutMs - 1000, timeoutMs / 2);
  if (!(handlerTimeoutMs > 0 && handlerTimeoutMs < timeoutMs)) {
    throw new InvalidArgumentError(
      'options.handlerTimeoutMs',
      `must be above 0 and below timeoutSeconds (${timeoutMs} ms), got ${String(options.handlerTimeoutMs)}`,
    );
  }
  const path =
    options.path ?? defaultPath(type, options.group, options.versions[0] as string, options.kind);
  if (!path.startsWith('/'))
    throw new InvalidArgumentError('options.path', `must start with /, got ${path}`);
  return {
    ...options,
    path,
    operations:
      options.operations ??
      (type === 'validating' ? ['CREATE', 'UPDATE', 'DELETE'] : ['CREATE', 'UPDATE']),
    failurePolicy: options.failurePolicy ?? 'Fail',
    matchPolicy: options.matchPolicy ?? 'Equivalent',
    timeoutSeconds,
    handlerTimeoutMs,
  };
}

/** controller-runtime's path for a kind: `/validate-example-com-v1-widget`. */
function defaultPath(
  type: 'validating' | 'mutating',
  group: string,
  version: string,
  kind: string,
): string {
  const prefix = type === 'validating' ? 'validate' : 'mutate';
  return `/${prefix}-${group.replaceAll('.', '-')}-${version}-${kind.toLowerCase()}`;
}
