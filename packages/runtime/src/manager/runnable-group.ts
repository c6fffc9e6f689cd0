//! What a manager runs (a `Runnable`), and a group of runnables started on one signal and stopped together (controller-runtime's `runnableGroup`).

/**
 * Work the manager runs (controller-runtime's `manager.Runnable`): `start` runs until its
 * signal aborts, then finishes what it is doing and resolves. A rejection stops the manager.
 */
export interface Runnable {
  /** A name for logs and errors. */
  name: string;
  /**
   * Run only while this replica leads (and only once it leads). Default `true`, as
   * controller-runtime treats a runnable that does not say. `false` for work every replica
   * does, such as a node agent or a cache warmer.
   */
  needLeaderElection?: boolean;
  /** Runs until `signal` aborts. */
  start(signal: AbortSignal): void | Promise<void>;
}

interface Task {
  name: string;
  done: Promise<void>;
  finished: boolean;
}

/** Runs runnables on the group's signal; a rejection goes to `onError`. */
export class RunnableGroup {
  readonly #abort = new AbortController();
  readonly #tasks: Task[] = [];
  readonly #onError: (runnable: Runnable, cause: unknown) => void;

  constructor(onError: (runnable: Runnable, cause: unknown) => void) {
    this.#onError = onError;
  }

  /** Starts `runnable` on the group's signal. */
  start(runnable: Runnable): void {
    const task: Task = { name: runnable.name, done: Promise.resolve(), finished: false };
    const signal = this.#abort.signal;
    task.done = (async () => {
      try {
        await runnable.start(signal);
      } catch (cause) {
        this.#onError(runnable, cause);
      } finally {
        task.finished = true;
      }
    })();
    this.#tasks.push(task);
  }

  /** Aborts the group's signal with `reason`. */
  abort(reason?: unknown): void {
    this.#abort.abort(reason);
  }

  /** Resolves once every runnable started so far has returned. */
  done(): Promise<unknown> {
    return Promise.all(this.#tasks.map((task) => task.done));
  }

  /** The names of the runnables that have not returned. */
  stillRunning(): string[] {
    return this.#tasks.filter((task) => !task.finished).map((task) => task.name);
  }
}
