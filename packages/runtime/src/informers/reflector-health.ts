//! What a reflector reports of itself: what it is doing, and since when nothing arrived or no watch was open.

/**
 * What a reflector is doing: `'listing'` (a list or the initial events of a streaming
 * list), `'watching'` (a watch the server accepted is open), `'backing-off'` (after a failure).
 */
export type WatchState = 'listing' | 'watching' | 'backing-off';

/** A reflector's health, as {@link Reflector.health} reports it (times on the reflector's clock, in ms). */
export interface ReflectorHealth {
  readonly state: WatchState;
  /** When the last event, bookmark or list arrived; undefined before the first. */
  readonly lastEventAtMs: number | undefined;
  /**
   * Since when no watch accepted by the server has been open (since the start, or since
   * the last watch ended); undefined while one is open.
   */
  readonly unwatchedSinceMs: number | undefined;
}
