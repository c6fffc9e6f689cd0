/**
 * `@ctrlkit/runtime/events`: Kubernetes Events about the objects a controller manages,
 * client-go's `tools/record`.
 *
 * - {@link EventRecorder} writes Events in the background, never blocking the caller, and
 *   counts repeats on one Event ({@link EventRecorderOptions}); code that records takes an
 *   {@link EventRecorderLike}. A `Manager` hands one out (`manager.getEventRecorder`).
 * - {@link EventCorrelator} decides whether an Event is new, a repeat or spam (aggregation
 *   and the spam filter, with their keys: {@link getEventKey}, {@link getAggregateKey},
 *   {@link getSpamKey}).
 * - {@link EventSink} is where Events go; {@link CoreV1EventSink} writes them through the
 *   runtime's `Client`.
 *
 * A recorder that keeps events in memory for tests is `FakeRecorder`, in
 * `@ctrlkit/runtime/testing`.
 *
 * A first program:
 * ```ts
 * import { EventRecorder } from '@ctrlkit/runtime/events';
 *
 * const recorder = new EventRecorder({ client, component: 'my-controller' });
 * recorder.event(pod, 'Warning', 'FailedSync', 'quota exceeded');
 * recorder.eventf(pod, 'Normal', 'Scaled', 'scaled %s to %d', 'web', 3);
 * await recorder.shutDown(); // writes what is queued
 * ```
 *
 * @packageDocumentation
 */

export {
  COMBINED_PREFIX,
  type CorrelationResult,
  DEFAULT_AGGREGATION_WINDOW_MS,
  DEFAULT_LRU_CACHE_ENTRIES,
  DEFAULT_MAX_SIMILAR_EVENTS,
  DEFAULT_SIMILAR_EVENTS_WINDOW_MS,
  DEFAULT_SPAM_BURST,
  DEFAULT_SPAM_QPS,
  EventCorrelator,
  type EventCorrelatorOptions,
  getAggregateKey,
  getEventKey,
  getSpamKey,
} from './events/event-correlator.js';
export {
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_TRIES_PER_EVENT,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  EventRecorder,
  type EventRecorderLike,
  type EventRecorderOptions,
  type EventSubject,
  type EventType,
} from './events/event-recorder.js';
export { CoreV1EventSink, type EventSink } from './events/event-sink.js';
