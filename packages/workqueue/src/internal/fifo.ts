//! The default item store of a queue: first in, first out.

/**
 * An array with a moving head, compacted once the consumed half outgrows the rest. It has the
 * shape of the queue's `Queue` store (checked where `queue.ts` uses it as one).
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  touch(_item: T): void {}

  push(item: T): void {
    this.#items.push(item);
  }

  len(): number {
    return this.#items.length - this.#head;
  }

  pop(): T {
    const items = this.#items;
    if (this.#head >= items.length) throw new RangeError('pop from an empty queue');
    const item = items[this.#head] as T;
    items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head === items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= items.length) {
      this.#items = items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
