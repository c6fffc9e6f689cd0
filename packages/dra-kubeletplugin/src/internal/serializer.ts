//! Runs async calls one at a time (upstream's grpcMutex), or all at once when turned off.

/** A FIFO lock for async work. */
export class Serializer {
  readonly #enabled: boolean;
  #tail: Promise<void> = Promise.resolve();

  constructor(enabled: boolean) {
    this.#enabled = enabled;
  }

  /** Runs `fn` after every earlier call has settled (at once when serialization is off). */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (!this.#enabled) return fn();
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
