//! The default item store of a queue: first in, first out.

/** An emptied FIFO keeps an array of up to this many slots for the next items. */
const KEEP_SLOTS = 1024;

/**
 * An array with a moving head and tail, compacted once the consumed part outgrows the rest.
 * Emptied, it starts again at slot 0 of the same array (up to {@link KEEP_SLOTS} slots), so a
 * queue that fills and drains in rounds does not allocate an array each round. It has the shape
 * of the queue's `Queue` store (checked where `queue.ts` uses it as one).
 */
export class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  #tail = 0;

  touch(_item: T): void {}

  push(item: T): void {
    if (this.#tail < this.#items.length) this.#items[this.#tail] = item;
    else this.#items.push(item);
    this.#tail++;
  }

  len(): number {
    return this.#tail - this.#head;
  }

  pop(): T {
    const items = this.#items;
    if (this.#head >= this.#tail) throw new RangeError('pop from an empty queue');
    const item = items[this.#head] as T;
    items[this.#head] = undefined;
    this.#head++;
    if (this.#head === this.#tail) {
      this.#head = 0;
      this.#tail = 0;
      if (items.length > KEEP_SLOTS) this.#items = [];
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#tail) {
      this.#items = items.slice(this.#head, this.#tail);
      this.#tail -= this.#head;
      this.#head = 0;
    }
    return item;
  }
}
