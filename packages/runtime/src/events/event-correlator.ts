//! Decides, before an Event is written, whether it is new, a repeat to count, or spam to drop (client-go's `EventCorrelator`).

import type { Wire } from '@ctrlkit/client';
import type { Clock } from '@ctrlkit/core';
import type { CoreV1Event } from '@kubernetes/client-node';
import { LruCache } from './lru-cache.js';

/** client-go's `maxLruCacheEntries`: how many keys each cache of the correlator keeps. */
export const DEFAULT_LRU_CACHE_ENTRIES = 4096;
/**
 * How long, in ms, after its last occurrence a repeat still counts into the same Event: 1 hour,
 * the apiserver's default `--event-ttl` (an Event not updated for that long is gone).
 */
export const DEFAULT_AGGREGATION_WINDOW_MS = 60 * 60 * 1000;
/** client-go's `defaultAggregateMaxEvents`: similar events (differing only in message) before they are combined. */
export const DEFAULT_MAX_SIMILAR_EVENTS = 10;
/** client-go's `defaultAggregateIntervalInSeconds`, in ms: the window in which similar events are counted. */
export const DEFAULT_SIMILAR_EVENTS_WINDOW_MS = 600_000;
/** client-go's `defaultSpamBurst`: events per (source, object) let through at once. */
export const DEFAULT_SPAM_BURST = 25;
/** client-go's `defaultSpamQPS`: the refill rate of the spam filter, one event per 5 minutes. */
export const DEFAULT_SPAM_QPS = 1 / 300;

/** Options of {@link EventCorrelator}; each has client-go's default unless said otherwise. */
export interface EventCorrelatorOptions {
  /** The clock for windows, the spam filter and the names of combined events. */
  clock: Clock;
  /** Keys each cache keeps. Default {@link DEFAULT_LRU_CACHE_ENTRIES}. */
  maxCacheEntries?: number;
  /**
   * A repeat within this many ms of the previous occurrence PATCHes the existing Event; later,
   * a new Event is created. Default {@link DEFAULT_AGGREGATION_WINDOW_MS} (1 h; client-go has no
   * window and relies on a 404 to create anew). `Infinity` for client-go's behaviour.
   */
  aggregationWindowMs?: number;
  /**
   * After this many events that differ only in message within `similarEventsWindowMs`, further
   * ones are combined into one Event "(combined from similar events): <message>".
   * Default {@link DEFAULT_MAX_SIMILAR_EVENTS}. `Infinity` turns combining off.
   */
  maxSimilarEvents?: number;
  /** Default {@link DEFAULT_SIMILAR_EVENTS_WINDOW_MS} (10 min). */
  similarEventsWindowMs?: number;
  /** Burst of the per-(source, object) token bucket. Default {@link DEFAULT_SPAM_BURST}. `Infinity` turns the spam filter off. */
  spamBurst?: number;
  /** Refill rate, events per second, of that bucket. Default {@link DEFAULT_SPAM_QPS}. */
  spamQps?: number;
}

/** What to do with an event: create it, patch an existing one, or drop it. */
export type CorrelationResult = { key: string; event: CoreV1Event } & (
  | { action: 'create' }
  | { action: 'patch'; patch: { count: number; lastTimestamp: Date; message: string } }
  | { action: 'skip' }
);

interface Observation {
  count: number;
  firstTimestamp: Date | undefined;
  name: string;
  resourceVersion: string | undefined;
  lastSeenAt: number;
}

interface SimilarRecord {
  messages: Set<string>;
  lastSeenAt: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const sep = '\u0000';

/** client-go's `getEventKey`: everything that makes two events the same occurrence. */
export function getEventKey(event: CoreV1Event): string {
  const o = event.involvedObject;
  return [
    event.source?.component,
    event.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.fieldPath,
    o.uid,
    o.apiVersion,
    event.type,
    event.reason,
    event.message,
  ].join(sep);
}

/** client-go's aggregate key (`EventAggregatorByReasonFunc`): the event key without the message. */
export function getAggregateKey(event: CoreV1Event): string {
  return [getSpamKey(event), event.type, event.reason].join(sep);
}

/** client-go's `getSpamKey`: the source and the object; not type, reason nor message. */
export function getSpamKey(event: CoreV1Event): string {
  const o = event.involvedObject;
  return [
    event.source?.component,
    event.source?.host,
    o.kind,
    o.namespace,
    o.name,
    o.uid,
    o.apiVersion,
  ].join(sep);
}

/**
 * client-go's `EventCorrelator`, in three steps applied to each event in order:
 * 1. similar events (same key but the message) beyond `maxSimilarEvents` in
 *    `similarEventsWindowMs` are rewritten into one combined event;
 * 2. a repeat of an event seen within `aggregationWindowMs` becomes a PATCH of the existing
 *    Event (count + 1, lastTimestamp, message), keyed by {@link getEventKey} in an LRU cache;
 * 3. a token bucket per {@link getSpamKey} drops events beyond `spamBurst` (refilled at
 *    `spamQps`); a dropped repeat still counts, so the next write carries the full count.
 */
export class EventCorrelator {
  readonly #clock: Clock;
  readonly #observations: LruCache<string, Observation>;
  readonly #similar: LruCache<string, SimilarRecord>;
  readonly #buckets: LruCache<string, Bucket>;
  readonly #aggregationWindowMs: number;
  readonly #maxSimilarEvents: number;
  readonly #similarEventsWindowMs: number;
  readonly #spamBurst: number;
  readonly #spamQps: number;
  #nameSequence = 0;

  constructor(options: EventCorrelatorOptions) {
    this.#clock = options.clock;
    const entries = options.maxCacheEntries ?? DEFAULT_LRU_CACHE_ENTRIES;
    this.#observations = new LruCache(entries);
    this.#similar = new LruCache(entries);
    this.#buckets = new LruCache(entries);
    this.#aggregationWindowMs = options.aggregationWindowMs ?? DEFAULT_AGGREGATION_WINDOW_MS;
    this.#maxSimilarEvents = options.maxSimilarEvents ?? DEFAULT_MAX_SIMILAR_EVENTS;
    this.#similarEventsWindowMs = options.similarEventsWindowMs ?? DEFAULT_SIMILAR_EVENTS_WINDOW_MS;
    this.#spamBurst = options.spamBurst ?? DEFAULT_SPAM_BURST;
    this.#spamQps = options.spamQps ?? DEFAULT_SPAM_QPS;
  }

  /** Correlates `event` (not modified) and records the observation. */
  correlate(event: CoreV1Event): CorrelationResult {
    const now = this.#clock.now();
    const [aggregated, key] = this.#aggregate(event, now);
    const result = this.#observe(aggregated, key, now);
    if (!this.#allow(result.event, now)) return { action: 'skip', key, event: result.event };
    return result;
  }

  /** Records what the server answered (its name, count and resourceVersion) for later patches. */
  updateState(written: CoreV1Event | Wire<CoreV1Event>, key: string): void {
    const previous = this.#observations.get(key);
    const first = written.firstTimestamp;
    this.#observations.set(key, {
      count: written.count ?? 1,
      firstTimestamp: typeof first === 'string' ? new Date(first) : first,
      name: written.metadata?.name ?? previous?.name ?? '',
      resourceVersion: written.metadata?.resourceVersion,
      lastSeenAt: previous?.lastSeenAt ?? this.#clock.now(),
    });
  }

  #aggregate(event: CoreV1Event, now: number): [CoreV1Event, string] {
    const eventKey = getEventKey(event);
    if (!Number.isFinite(this.#maxSimilarEvents)) return [event, eventKey];
    const aggregateKey = getAggregateKey(event);
    let record = this.#similar.get(aggregateKey);
    if (record === undefined || now - record.lastSeenAt > this.#similarEventsWindowMs) {
      record = { messages: new Set(), lastSeenAt: now };
    }
    record.messages.add(event.message ?? '');
    record.lastSeenAt = now;
    this.#similar.set(aggregateKey, record);
    if (record.messages.size < this.#maxSimilarEvents) return [event, eventKey];
    // Do not let the set grow beyond the threshold.
    const first = record.messages.values().next();
    if (!first.done) record.messages.delete(first.value);
    const combined: CoreV1Event = {
      ...event,
      metadata: { ...event.metadata, name: this.newEventName(event.involvedObject.name ?? '') },
      count: 1,
      message: `${COMBINED_PREFIX}${event.message ?? ''}`,
    };
    return [combined, aggregateKey];
  }

  #observe(event: CoreV1Event, key: string, now: number): CorrelationResult {
    const last = this.#observations.get(key);
    if (
      last !== undefined &&
      last.count > 0 &&
      now - last.lastSeenAt <= this.#aggregationWindowMs
    ) {
      const count = last.count + 1;
      const repeated: CoreV1Event = {
        ...event,
        count,
        firstTimestamp: last.firstTimestamp ?? event.firstTimestamp,
        metadata: { ...event.metadata, name: last.name, resourceVersion: last.resourceVersion },
      };
      this.#observations.set(key, { ...last, count, lastSeenAt: now });
      const lastTimestamp = event.lastTimestamp ?? new Date(0);
      return {
        action: 'patch',
        key,
        event: repeated,
        patch: { count, lastTimestamp, message: event.message ?? '' },
      };
    }
    this.#observations.set(key, {
      count: event.count ?? 1,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata?.name ?? '',
      resourceVersion: undefined,
      lastSeenAt: now,
    });
    return { action: 'create', key, event };
  }

  #allow(event: CoreV1Event, now: number): boolean {
    if (!Number.isFinite(this.#spamBurst)) return true;
    const key = getSpamKey(event);
    const bucket = this.#buckets.get(key) ?? { tokens: this.#spamBurst, at: now };
    bucket.tokens = Math.min(
      this.#spamBurst,
      bucket.tokens + ((now - bucket.at) / 1000) * this.#spamQps,
    );
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    return allowed;
  }

  /**
   * client-go's event name: `<object name>.<hex of the wall time in ns>`; a sequence number in the sub-millisecond digits keeps names unique within one millisecond.
   */
  newEventName(objectName: string): string {
    const ns =
      BigInt(Math.floor(this.#clock.now())) * 1_000_000n + BigInt(this.#nameSequence++ % 1_000_000);
    return `${objectName}.${ns.toString(16)}`;
  }
}

/** The message prefix of a combined event, as client-go writes it. */
export const COMBINED_PREFIX = '(combined from similar events): ';
