//! A min-heap of waiting items ordered by the time they become ready.

/** One waiting item; `index` is its place in the heap array. */
export interface WaitingEntry<T> {
  readonly item: T;
  readyAt: number;
  index: number;
}

/** A binary min-heap on `readyAt` whose entries know their index, so one can be moved up. */
export class ReadyHeap<T> {
  readonly #entries: WaitingEntry<T>[] = [];

  get size(): number {
    return this.#entries.length;
  }

  peek(): WaitingEntry<T> | undefined {
    return this.#entries[0];
  }

  push(entry: WaitingEntry<T>): void {
    entry.index = this.#entries.length;
    this.#entries.push(entry);
    this.#up(entry.index);
  }

  pop(): WaitingEntry<T> | undefined {
    const entries = this.#entries;
    const top = entries[0];
    const last = entries.pop();
    if (top === undefined || last === undefined) return undefined;
    if (last !== top) {
      entries[0] = last;
      last.index = 0;
      this.#down(0);
    }
    return top;
  }

  /** Restores order after `entry.readyAt` was lowered. */
  movedEarlier(entry: WaitingEntry<T>): void {
    this.#up(entry.index);
  }

  clear(): void {
    this.#entries.length = 0;
  }

  #up(index: number): void {
    const entries = this.#entries;
    const entry = entries[index]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = entries[parentIndex]!;
      if (parent.readyAt <= entry.readyAt) break;
      entries[index] = parent;
      parent.index = index;
      index = parentIndex;
    }
    entries[index] = entry;
    entry.index = index;
  }

  #down(index: number): void {
    const entries = this.#entries;
    const length = entries.length;
    const entry = entries[index]!;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= length) break;
      const right = left + 1;
      let child = left;
      if (right < length && entries[right]!.readyAt < entries[left]!.readyAt) child = right;
      const smaller = entries[child]!;
      if (smaller.readyAt >= entry.readyAt) break;
      entries[index] = smaller;
      smaller.index = index;
      index = child;
    }
    entries[index] = entry;
    entry.index = index;
  }
}
