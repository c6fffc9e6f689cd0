//! Parses a LIST response body as it arrives: each item of `items` on its own, at once.

/** What {@link ListBodyParser.end} returns: the list's own fields and its parsed items. */
export interface ParsedList {
  readonly [field: string]: unknown;
  readonly items: unknown[];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Brackets open inside the `items` array (the body's `{` and the array's `[`). */
const ITEMS_DEPTH = 2;
/** Brackets open inside an item. */
const ITEM_DEPTH = 3;

/**
 * Splits a JSON list body (`{"kind":..,"metadata":{..},"items":[{..},{..}]}`) into its
 * top-level `items` while the bytes arrive, and parses each item as soon as its last byte
 * is in, so that parsing overlaps the transfer instead of following it. Everything else
 * (kind, apiVersion, metadata) is parsed at the end. Strings are skipped with
 * `Buffer.indexOf`, so the scan costs little beside `JSON.parse`.
 *
 * Feed chunks in order with {@link push}, then call {@link end}. Malformed JSON throws a
 * `SyntaxError` from `push` or `end`, as `JSON.parse` of the whole body would.
 */
export class ListBodyParser {
  readonly #items: unknown[] = [];
  /** The body without the contents of `items` (so `"items":[]`), in pieces. */
  readonly #envelope: Buffer[] = [];
  /** The pieces of the item being received, when it spans chunks. */
  #itemPieces: Buffer[] = [];
  #depth = 0;
  #inString = false;
  /** Inside a string, the number of backslashes just before the current position. */
  #backslashes = 0;
  /** Depth-1 string being read (a key or a value), and the last one completed. */
  #stringPieces: Buffer[] | undefined;
  #stringStart = 0;
  #lastTopString = '';
  /** Inside the top-level `items` array. */
  #inItems = false;
  #itemsDone = false;

  /** How many items were parsed so far. */
  get itemCount(): number {
    return this.#items.length;
  }

  /** Scans `chunk`, parsing each item it completes. */
  push(chunk: Buffer): void {
    const length = chunk.length;
    let envelopeStart = this.#inItems ? -1 : 0;
    let itemStart = this.#inItems && this.#depth >= ITEM_DEPTH ? 0 : -1;
    let i = 0;
    while (i < length) {
      if (this.#inString) {
        i = this.#skipString(chunk, i);
        continue;
      }
      const c = chunk[i] as number;
      if (c === QUOTE) {
        this.#inString = true;
        this.#backslashes = 0;
        if (this.#depth === 1 && !this.#inItems) this.#stringPieces = [];
        i++;
        if (this.#stringPieces !== undefined) this.#stringStart = i;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.#depth++;
        if (this.#inItems && this.#depth === ITEM_DEPTH && c === OPEN_OBJECT) itemStart = i;
        else if (
          !this.#inItems &&
          !this.#itemsDone &&
          this.#depth === ITEMS_DEPTH &&
          c === OPEN_ARRAY &&
          this.#lastTopString === 'items'
        ) {
          // Keep `[` in the envelope, leave the contents out until the matching `]`.
          this.#envelope.push(chunk.subarray(envelopeStart, i + 1));
          envelopeStart = -1;
          this.#inItems = true;
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.#depth--;
        if (this.#inItems) {
          if (this.#depth === ITEMS_DEPTH && c === CLOSE_OBJECT && itemStart !== -1) {
            this.#finishItem(chunk, itemStart, i + 1);
            itemStart = -1;
          } else if (this.#depth < ITEMS_DEPTH) {
            this.#inItems = false;
            this.#itemsDone = true;
            envelopeStart = i;
          }
        }
      }
      i++;
    }
    if (this.#inString) this.#keepString(chunk, length);
    if (envelopeStart !== -1) this.#envelope.push(chunk.subarray(envelopeStart));
    if (itemStart !== -1) this.#itemPieces.push(chunk.subarray(itemStart));
  }

  /** The whole list: its own fields and the items parsed so far (all of them, for a complete body). */
  end(): ParsedList {
    if (this.#inString || this.#depth !== 0) {
      throw new SyntaxError('the list body ended before its JSON was complete');
    }
    const envelope = JSON.parse(Buffer.concat(this.#envelope).toString('utf8')) as Record<
      string,
      unknown
    >;
    if (envelope === null || typeof envelope !== 'object' || Array.isArray(envelope)) {
      throw new SyntaxError('a list body is a JSON object');
    }
    return { ...envelope, items: this.#items };
  }

  /** Moves past string content from `i`; returns where scanning goes on. */
  #skipString(chunk: Buffer, i: number): number {
    // A run of backslashes carried over from the previous chunk.
    while (i < chunk.length && this.#backslashes > 0) {
      const c = chunk[i] as number;
      if (c === BACKSLASH) this.#backslashes++;
      else {
        const escaped = this.#backslashes % 2 === 1;
        this.#backslashes = 0;
        if (!escaped && c === QUOTE) return this.#closeString(chunk, i);
      }
      i++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, i);
      if (quote === -1) {
        // Count the backslashes that end the chunk: they may escape the next chunk's first byte.
        let j = chunk.length - 1;
        while (j >= i && chunk[j] === BACKSLASH) j--;
        this.#backslashes = chunk.length - 1 - j;
        return chunk.length;
      }
      let j = quote - 1;
      while (j >= i && chunk[j] === BACKSLASH) j--;
      if ((quote - 1 - j) % 2 === 0) return this.#closeString(chunk, quote);
      i = quote + 1;
    }
  }

  #closeString(chunk: Buffer, quote: number): number {
    this.#inString = false;
    this.#backslashes = 0;
    if (this.#stringPieces !== undefined) {
      this.#keepString(chunk, quote);
      this.#lastTopString = Buffer.concat(this.#stringPieces).toString('utf8');
      this.#stringPieces = undefined;
    }
    return quote + 1;
  }

  #keepString(chunk: Buffer, end: number): void {
    if (this.#stringPieces === undefined) return;
    this.#stringPieces.push(chunk.subarray(this.#stringStart, end));
    this.#stringStart = 0;
  }

  #finishItem(chunk: Buffer, start: number, end: number): void {
    let text: string;
    if (this.#itemPieces.length === 0) {
      text = chunk.toString('utf8', start, end);
    } else {
      this.#itemPieces.push(chunk.subarray(start, end));
      text = Buffer.concat(this.#itemPieces).toString('utf8');
      this.#itemPieces = [];
    }
    this.#items.push(JSON.parse(text));
  }
}
