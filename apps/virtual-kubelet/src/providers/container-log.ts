//! The kept output of one run of a container, read as the kubelet's /containerLogs reads it.

/** Bytes of each container's output kept for logs. */
export const LOG_BUFFER_BYTES = 1 << 20;

/** How to read a container's log (the kubelet's `/containerLogs` query). */
export interface ContainerLogOptions {
  /** The last N lines only. */
  tailLines?: number;
  /** Only output written in the last N seconds. */
  sinceSeconds?: number;
  /** The log of the previous run of a restarted container. */
  previous?: boolean;
}

interface Chunk {
  atMs: number;
  data: Buffer;
}

/**
 * The output (stdout and stderr interleaved) of one run of a container: the last
 * {@link LOG_BUFFER_BYTES}, each chunk with the time it was written; followers get each new
 * chunk and are ended when the run ends.
 */
export class ContainerLog {
  readonly #chunks: Chunk[] = [];
  #bytes = 0;
  #ended = false;
  readonly #followers = new Set<{ onData: (text: string) => void; onEnd: () => void }>();

  /** Keeps `data`, written at `atMs`, and passes it to the followers. */
  write(data: Buffer, atMs: number): void {
    this.#chunks.push({ atMs, data });
    this.#bytes += data.length;
    while (this.#bytes > LOG_BUFFER_BYTES && this.#chunks.length > 1)
      this.#bytes -= (this.#chunks.shift() as Chunk).data.length;
    for (const f of this.#followers) f.onData(data.toString('utf8'));
  }

  /** The run is over: followers are ended, later ones at once. */
  end(): void {
    this.#ended = true;
    for (const f of this.#followers) f.onEnd();
    this.#followers.clear();
  }

  /** The kept text written since `sinceSeconds` before `nowMs` (if set), its last `tailLines` lines (if set). */
  read(options: ContainerLogOptions, nowMs: number): string {
    const since =
      options.sinceSeconds === undefined ? -Infinity : nowMs - options.sinceSeconds * 1000;
    const text = Buffer.concat(
      this.#chunks.filter((c) => c.atMs >= since).map((c) => c.data),
    ).toString('utf8');
    if (options.tailLines === undefined) return text;
    if (options.tailLines <= 0) return '';
    const lines = text.split(/(?<=\n)/);
    return lines.slice(-options.tailLines).join('');
  }

  /** Calls `onData` with each chunk written from now on and `onEnd` when the run ends; returns the unsubscribe. */
  follow(onData: (text: string) => void, onEnd: () => void): () => void {
    if (this.#ended) {
      onEnd();
      return () => {};
    }
    const follower = { onData, onEnd };
    this.#followers.add(follower);
    return () => this.#followers.delete(follower);
  }
}
