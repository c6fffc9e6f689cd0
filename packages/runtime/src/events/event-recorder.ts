//! Records Kubernetes Events about objects, counting repeats instead of writing one per occurrence (client-go's `tools/record`).

import { hostname } from 'node:os';
import { format } from 'node:util';
import type { ClientSource, KubeConfigLike, KubeObject, Wire } from '@ctrlkit/client';
import { type Clock, InvalidArgumentError, realClock, statusCode } from '@ctrlkit/core';
import type { CoreV1Event, V1ObjectReference } from '@kubernetes/client-node';
import { type Logger, noopLogger } from '../logger.js';
import {
  type CorrelationResult,
  EventCorrelator,
  type EventCorrelatorOptions,
} from './event-correlator.js';
import { CoreV1EventSink, type EventSink } from './event-sink.js';

/** The two event types Kubernetes knows. */
export type EventType = 'Normal' | 'Warning';

/** client-go's `maxTriesPerEvent`: writes of one event, including the first, before it is dropped. */
export const DEFAULT_MAX_TRIES_PER_EVENT = 12;
/** The first retry delay after a failed write, in ms; it doubles up to {@link DEFAULT_RETRY_MAX_DELAY_MS}. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
/** The longest retry delay, in ms: client-go's `sleepDuration` (10 s). */
export const DEFAULT_RETRY_MAX_DELAY_MS = 10_000;
/** client-go's `maxQueuedEvents`: events waiting to be written; more are dropped (logged). */
export const DEFAULT_MAX_QUEUED_EVENTS = 1000;

/** Options of {@link EventRecorder}. */
export interface EventRecorderOptions extends Omit<EventCorrelatorOptions, 'clock'> {
  /** `source.component` of every event, e.g. the controller's name. Required, not empty. */
  component: string;
  /** `source.host`. Default: `os.hostname()`. */
  host?: string;
  /**
   * Where to write: the runtime's client (`manager.client`), or a kubeconfig for its
   * default client. Ignored when `sink` is given.
   */
  client?: ClientSource;
  /** @deprecated Use `client`; a kubeconfig here is the same as `client: kubeConfig`. */
  kubeConfig?: KubeConfigLike;
  /** The sink to write to. Default: a {@link CoreV1EventSink} on `client`. */
  sink?: EventSink;
  /** Writes of one event before it is dropped (logged). Default {@link DEFAULT_MAX_TRIES_PER_EVENT}. */
  maxTriesPerEvent?: number;
  /** Default {@link DEFAULT_RETRY_BASE_DELAY_MS}. */
  retryBaseDelayMs?: number;
  /** Default {@link DEFAULT_RETRY_MAX_DELAY_MS}. */
  retryMaxDelayMs?: number;
  /** Default {@link DEFAULT_MAX_QUEUED_EVENTS}. */
  maxQueuedEvents?: number;
  /**
   * The clock for windows, retries, the spam filter and the times written into events
   * (`new Date(clock.now())`). Default: the real clock.
   */
  clock?: Clock;
  /** Where to log failed writes and dropped events. Default: nowhere. */
  logger?: Logger;
}

/** What code that records events needs: {@link EventRecorder} and `FakeRecorder` satisfy it. */
export interface EventRecorderLike {
  event(subject: EventSubject, type: EventType, reason: string, message: string): void;
  eventf(
    subject: EventSubject,
    type: EventType,
    reason: string,
    messageFormat: string,
    ...args: unknown[]
  ): void;
}

/** Something an event can be about: an object with `kind` (and `apiVersion`), or a reference. */
export type EventSubject = KubeObject | V1ObjectReference;

function isReference(subject: EventSubject): subject is V1ObjectReference {
  return !('metadata' in subject) || subject.metadata === undefined;
}

function toReference(subject: EventSubject): V1ObjectReference {
  if (isReference(subject)) return { ...subject };
  const meta = (subject as KubeObject).metadata ?? {};
  const reference: V1ObjectReference = {
    apiVersion: subject.apiVersion,
    kind: subject.kind,
    name: meta.name,
    namespace: meta.namespace,
    uid: meta.uid,
    resourceVersion: meta.resourceVersion,
  };
  for (const key of Object.keys(reference) as (keyof V1ObjectReference)[]) {
    if (reference[key] === undefined) delete reference[key];
  }
  return reference;
}

/** Retried: transport errors (no status), 408, 429 and 5xx. client-go does not retry other statuses. */
function isRetryable(error: unknown): boolean {
  const code = statusCode(error);
  return code === undefined || code === 408 || code === 429 || code >= 500;
}

/**
 * Writes core/v1 Events about objects (client-go's `EventRecorder` with its broadcaster to an
 * API sink).
 *
 * Guarantees:
 * - `event` never blocks nor throws for a write: events are queued and written in order, one
 *   at a time, by a background loop.
 * - A repeat of the same (source, object, type, reason, message) within `aggregationWindowMs`
 *   PATCHes the existing Event's `count` and `lastTimestamp` (merge patch) instead of creating
 *   one; if that Event is gone (404), a new one is created.
 * - Similar events and spam are limited as client-go's `EventCorrelator` does (see
 *   {@link EventCorrelator}).
 * - A failed write is retried with exponential backoff (transport errors, 408, 429, 5xx) up to
 *   `maxTriesPerEvent` writes; an event given up is logged at error level, never silently lost.
 * - `shutDown()` stops accepting events and resolves once the queue is written.
 *
 * Caveats: the queue lives in memory; events queued when the process exits are lost. An event
 * about an object without `kind` (e.g. an item of a client-node list, which lacks it) is
 * dropped with an error log, as client-go does: pass an object with `apiVersion` and `kind`.
 */
export class EventRecorder implements EventRecorderLike {
  readonly #component: string;
  readonly #host: string;
  readonly #sink: EventSink;
  readonly #correlator: EventCorrelator;
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #maxTries: number;
  readonly #baseDelay: number;
  readonly #maxDelay: number;
  readonly #maxQueued: number;
  readonly #queue: CoreV1Event[] = [];
  #draining: Promise<void> | undefined;
  #shutDown = false;

  constructor(options: EventRecorderOptions) {
    if (typeof options.component !== 'string' || options.component === '') {
      throw new InvalidArgumentError('component', 'must be a non-empty string');
    }
    const client = options.client ?? options.kubeConfig;
    if (options.sink === undefined && client === undefined) {
      throw new InvalidArgumentError('sink', 'give options.sink or options.client');
    }
    for (const field of ['maxTriesPerEvent', 'maxQueuedEvents'] as const) {
      const value = options[field];
      if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
        throw new InvalidArgumentError(field, `must be an integer >= 1, got ${value}`);
      }
    }
    for (const field of ['retryBaseDelayMs', 'retryMaxDelayMs'] as const) {
      const value = options[field];
      if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
        throw new InvalidArgumentError(field, `must be a finite number of ms >= 0, got ${value}`);
      }
    }
    this.#component = options.component;
    this.#host = options.host ?? hostname();
    this.#sink = options.sink ?? new CoreV1EventSink(client as ClientSource);
    this.#clock = options.clock ?? realClock;
    this.#correlator = new EventCorrelator({ ...options, clock: this.#clock });
    this.#logger = options.logger ?? noopLogger;
    this.#maxTries = options.maxTriesPerEvent ?? DEFAULT_MAX_TRIES_PER_EVENT;
    this.#baseDelay = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
    this.#maxDelay = options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS;
    this.#maxQueued = options.maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS;
  }

  /**
   * Records an event about `subject`: `type` is `Normal` or `Warning`, `reason` a short
   * UpperCamelCase machine-readable word (e.g. `FailedCreate`), `message` for humans.
   */
  event(subject: EventSubject, type: EventType, reason: string, message: string): void {
    if (this.#shutDown) {
      this.#logger.warn({ reason, message }, 'event recorded after shutDown: dropped');
      return;
    }
    if (type !== 'Normal' && type !== 'Warning') {
      this.#logger.error({ type, reason, message }, 'unsupported event type: dropped');
      return;
    }
    const involvedObject = toReference(subject);
    if (!involvedObject.kind || !involvedObject.name) {
      this.#logger.error(
        { involvedObject, reason, message },
        'could not construct a reference (kind and name are required): event dropped',
      );
      return;
    }
    if (this.#queue.length >= this.#maxQueued) {
      this.#logger.error({ involvedObject, reason, message }, 'event queue is full: event dropped');
      return;
    }
    // Whole seconds: the precision of an Event's timestamps.
    const now = new Date(Math.floor(this.#clock.now() / 1000) * 1000);
    this.#queue.push({
      metadata: {
        name: this.#correlator.newEventName(involvedObject.name),
        namespace: involvedObject.namespace || 'default',
      },
      involvedObject,
      reason,
      message,
      type,
      source: { component: this.#component, host: this.#host },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    });
    this.#kick();
  }

  /** Starts the writing loop unless it runs; restarts it if events arrived as it finished. */
  #kick(): void {
    if (this.#draining !== undefined) return;
    this.#draining = this.#drain().finally(() => {
      this.#draining = undefined;
      if (this.#queue.length > 0) this.#kick();
    });
  }

  /** {@link event} with a message formatted by Node's `util.format` (`%s`, `%d`, `%j`, `%o`). */
  eventf(
    subject: EventSubject,
    type: EventType,
    reason: string,
    messageFormat: string,
    ...args: unknown[]
  ): void {
    this.event(subject, type, reason, format(messageFormat, ...args));
  }

  /** Stops accepting events and resolves when every queued event has been written or given up. */
  async shutDown(): Promise<void> {
    this.#shutDown = true;
    while (this.#draining !== undefined) await this.#draining;
  }

  async #drain(): Promise<void> {
    await undefined; // never write on the caller's stack
    for (let event = this.#queue.shift(); event !== undefined; event = this.#queue.shift()) {
      try {
        await this.#record(event);
      } catch (error) {
        this.#logger.error(
          { error, reason: event.reason },
          'unexpected error recording event: dropped',
        );
      }
    }
  }

  async #record(event: CoreV1Event): Promise<void> {
    const result = this.#correlator.correlate(event);
    if (result.action === 'skip') {
      this.#logger.debug(
        { involvedObject: event.involvedObject, reason: event.reason },
        'event throttled by the spam filter',
      );
      return;
    }
    let delay = this.#baseDelay;
    for (let attempt = 1; ; attempt++) {
      try {
        const written = await this.#write(result);
        this.#correlator.updateState(written, result.key);
        return;
      } catch (error) {
        const context = {
          event: result.event.metadata.name,
          involvedObject: result.event.involvedObject,
          reason: result.event.reason,
          attempt,
          error,
        };
        if (statusCode(error) === 409 && result.action === 'create') {
          this.#logger.debug(context, 'event already exists');
          return;
        }
        if (!isRetryable(error)) {
          this.#logger.error(context, 'server rejected event (will not retry)');
          return;
        }
        if (attempt >= this.#maxTries) {
          this.#logger.error(context, `unable to write event after ${attempt} tries: dropped`);
          return;
        }
        this.#logger.warn(context, `unable to write event (retrying in ${delay} ms)`);
        await new Promise<void>((resolve) => this.#clock.setTimer(resolve, delay));
        delay = Math.min(this.#maxDelay, delay * 2);
      }
    }
  }

  async #write(
    result: Exclude<CorrelationResult, { action: 'skip' }>,
  ): Promise<CoreV1Event | Wire<CoreV1Event>> {
    if (result.action === 'patch') {
      try {
        return await this.#sink.patch(result.event, {
          count: result.patch.count,
          lastTimestamp: result.patch.lastTimestamp.toISOString(),
          message: result.patch.message,
        });
      } catch (error) {
        // The Event may have expired (event TTL) or been deleted: create it anew.
        if (statusCode(error) !== 404) throw error;
      }
    }
    const { resourceVersion: _, ...metadata } = result.event.metadata;
    return this.#sink.create({ ...result.event, metadata });
  }
}
