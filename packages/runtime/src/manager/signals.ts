//! SIGTERM and SIGINT as an AbortSignal, as controller-runtime's `SetupSignalHandler`.

/** What {@link setupSignalHandler} listens on and exits through; `process` satisfies it. */
export interface SignalTarget {
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  exit(code: number): void;
}

const handled = new WeakMap<SignalTarget, AbortSignal>();

/**
 * An AbortSignal that aborts on the first SIGTERM or SIGINT, so a `Manager` stops
 * gracefully; a second signal exits the process with code 1 at once (controller-runtime's
 * behaviour). Calling it again returns the same signal.
 */
export function setupSignalHandler(target: SignalTarget = process): AbortSignal {
  const existing = handled.get(target);
  if (existing !== undefined) return existing;
  const controller = new AbortController();
  let received = 0;
  const onSignal = (name: 'SIGTERM' | 'SIGINT') => () => {
    received += 1;
    if (received > 1) target.exit(1);
    else controller.abort(new Error(`received ${name}`));
  };
  target.on('SIGTERM', onSignal('SIGTERM'));
  target.on('SIGINT', onSignal('SIGINT'));
  handled.set(target, controller.signal);
  return controller.signal;
}
