//! Parses a LIST response body as it arrives: each item of `items` on its own, at once.

/** What {@link ListBodyParser.end} returns: the list's own fields and its parsed items. */
export interface ParsedList {
  readonly [field: string]: unknown;
  readonly items: unknown[];
}

/** Options of a {@link ListBodyParser}. */
export interface ListBodyParserOptions {
  /**
   * Leave `metadata.managedFields` out of each item's text before it is parsed, where the
   * field is recognised on the way (compact JSON, as the apiserver writes it): the same
   * objects as parsing them whole and dropping the field afterwards, without building the
   * field's objects first. Where it is not recognised (e.g. split across chunks at an odd
   * place) the item keeps it, so a caller that must not see it still drops it after
   * parsing. Default `false`.
   */
  dropManagedFields?: boolean;
  /**
   * Give items that carry no `kind` and `apiVersion` (those of built-in types' lists) the
   * list's (`kind` without `List`), as watch events carry them, written into the item's text
   * so that they are parsed with it. Default `false`.
   */
  typeMeta?: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Brackets open inside the `items` array (the body's `{` and the array's `[`). */
const ITEMS_DEPTH = 2;
/** Brackets open inside an item. */
const ITEM_DEPTH = 3;
/** Brackets open inside an item's `metadata`. */
const METADATA_DEPTH = 4;
/** `"metadata":{`, the key of an item's metadata and the start of its value. */
const METADATA_KEY = Buffer.from('"metadata":{');
/** `"managedFields":[`, the key of the metadata field left out and the start of its value. */
const MANAGED_FIELDS_KEY = Buffer.from('"managedFields":[');
/** How an item without `kind` and `apiVersion` starts (a typed object's TypeMeta comes first). */
const ITEM_WITHOUT_TYPE_META = Buffer.from('{"metadata":');

/**
 * Splits a JSON list body (`{"kind":..,"metadata":{..},"items":[{..},{..}]}`) into its
 * top-level `items` while the bytes arrive, and parses each item as soon as its last byte
 * is in, so that parsing overlaps the transfer instead of following it. Everything else
 * (kind, apiVersion, metadata) is parsed at the end. Strings are skipped with
 * `Buffer.indexOf`, so the scan costs a fraction of `JSON.parse`.
 *
 * Feed chunks in order with {@link push}, then call {@link end}. Malformed JSON throws a
 * `SyntaxError` from `push` or `end`, as `JSON.parse` of the whole body would.
 */
export class ListBodyParser {
  readonly #dropManagedFields: boolean;
  readonly #typeMeta: boolean;
  #items: unknown[] = [];
  /** The body without the contents of `items` (so `"items":[]`), in pieces. */
  #envelope: Buffer[] = [];
  /** The kept pieces of the item being received, when it spans chunks or has a cut. */
  #itemPieces: Buffer[] = [];
  #depth = 0;
  #inString = false;
  /** Inside a string, the previous byte was a backslash that escapes the next one. */
  #escaped = false;
  /** The next string at the current depth is a key (the last structural byte was `{` or `,`). */
  #keyNext = false;
  /** Depth-1 string being read (a key or a value), where it starts in the chunk, and the last one completed. */
  #stringPieces: Buffer[] | undefined;
  #stringStart = 0;
  #lastTopString = '';
  /** The depth-1 string being read is a key; the last depth-1 key. */
  #topStringIsKey = false;
  #topKey = '';
  /** The list's `kind` and `apiVersion`, as they went by. */
  #listKind = '';
  #listApiVersion = '';
  /** The text that opens an item given `kind` and `apiVersion` (`{"kind":..,"apiVersion":..,`), once known. */
  #typeMetaOpening: string | undefined;
  /** The current item's text starts after its `{`: {@link #typeMetaOpening} goes first. */
  #itemTyped = false;
  /** Inside the top-level `items` array. */
  #inItems = false;
  #itemsDone = false;
  /** Inside the current item's `metadata` object. */
  #inMetadata = false;
  /** The item's last depth-3 key was `metadata` (its value opens the metadata). */
  #metadataKey = false;
  /** Leaving out the bytes of `managedFields` (until its array closes). */
  #cutting = false;
  /** After the cut, a comma follows that must go too (managedFields was the first key). */
  #skipComma = false;
  /** Where, in the chunk being scanned, the envelope's and the current item's kept bytes start (-1: none). */
  #envelopeStart = 0;
  #keepStart = -1;

  constructor(options: ListBodyParserOptions = {}) {
    this.#dropManagedFields = options.dropManagedFields === true;
    this.#typeMeta = options.typeMeta === true;
  }

  /** How many items were parsed so far. */
  get itemCount(): number {
    return this.#items.length;
  }

  /** Scans `chunk`, parsing each item it completes. */
  push(chunk: Buffer): void {
    const length = chunk.length;
    this.#envelopeStart = this.#inItems ? -1 : 0;
    this.#keepStart = this.#inItems && this.#depth >= ITEM_DEPTH && !this.#cutting ? 0 : -1;
    let i = 0;
    if (this.#skipComma && !this.#cutting) i = this.#afterCut(chunk, -1);
    while (i < length) {
      if (this.#inString) {
        i = this.#skipString(chunk, i);
        continue;
      }
      const c = chunk[i] as number;
      if (c === QUOTE) i = this.#openString(chunk, i);
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) i = this.#open(chunk, i, c);
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) i = this.#close(chunk, i, c);
      else {
        if (c === COMMA) this.#keyNext = true;
        else if (c === COLON) this.#keyNext = false;
        i++;
      }
    }
    if (this.#inString && this.#stringPieces !== undefined) this.#keepTopString(chunk, length);
    if (this.#envelopeStart !== -1) this.#envelope.push(chunk.subarray(this.#envelopeStart));
    const keep = this.#keepStart;
    if (keep !== -1 && keep < length) this.#itemPieces.push(chunk.subarray(keep));
  }

  /** Moves past string content from `i` (inside a string); returns where scanning goes on. */
  #skipString(chunk: Buffer, i: number): number {
    if (this.#escaped) {
      this.#escaped = false;
      i++;
    }
    // The closing quote: the next one not escaped by an odd run of backslashes.
    for (;;) {
      const quote = chunk.indexOf(QUOTE, i);
      const at = quote === -1 ? chunk.length : quote;
      let j = at - 1;
      while (j >= i && chunk[j] === BACKSLASH) j--;
      const odd = (at - 1 - j) % 2 === 1;
      if (quote === -1) {
        // The chunk ends inside the string, maybe with a backslash for the next one's first byte.
        this.#escaped = odd;
        return chunk.length;
      }
      if (!odd) {
        this.#inString = false;
        if (this.#stringPieces !== undefined) this.#closeTopString(chunk, quote);
        return quote + 1;
      }
      i = quote + 1;
    }
  }

  /** At a quote outside strings: a string starts, or the cut of `managedFields`. */
  #openString(chunk: Buffer, i: number): number {
    const key = this.#keyNext;
    this.#keyNext = false;
    if (key && this.#dropManagedFields && this.#inItems) {
      if (this.#depth === ITEM_DEPTH) this.#metadataKey = startsWith(chunk, i, METADATA_KEY);
      else if (this.#depth === METADATA_DEPTH && this.#inMetadata) {
        const next = this.#cutManagedFields(chunk, i);
        if (next !== -1) return next;
      }
    }
    if (this.#depth === 1 && !this.#inItems) {
      this.#stringPieces = [];
      this.#stringStart = i + 1;
      this.#topStringIsKey = key;
    }
    this.#inString = true;
    return i + 1;
  }

  /**
   * When `"managedFields":[` starts at `i`, preceded in this chunk by `,` or `{`: starts
   * leaving it out (with the comma before it, or the one after it when it comes first) and
   * returns where scanning goes on, inside its array; otherwise -1.
   */
  #cutManagedFields(chunk: Buffer, i: number): number {
    const keep = this.#keepStart;
    if (keep === -1 || i <= keep || !startsWith(chunk, i, MANAGED_FIELDS_KEY)) return -1;
    const before = chunk[i - 1];
    if (before !== COMMA && before !== OPEN_OBJECT) return -1;
    const cutFrom = before === COMMA ? i - 1 : i;
    if (cutFrom > keep) this.#itemPieces.push(chunk.subarray(keep, cutFrom));
    this.#keepStart = -1;
    this.#cutting = true;
    this.#skipComma = before === OPEN_OBJECT;
    this.#depth++;
    return i + MANAGED_FIELDS_KEY.length;
  }

  /** At `{` or `[`. */
  #open(chunk: Buffer, i: number, c: number): number {
    const depth = ++this.#depth;
    this.#keyNext = c === OPEN_OBJECT;
    if (this.#inItems) {
      if (depth === ITEM_DEPTH) {
        this.#itemTyped =
          this.#typeMeta && startsWith(chunk, i, ITEM_WITHOUT_TYPE_META) && this.#typed();
        this.#keepStart = this.#itemTyped ? i + 1 : i;
        this.#metadataKey = false;
        this.#inMetadata = false;
      } else if (depth === METADATA_DEPTH) this.#inMetadata = this.#metadataKey;
    } else if (
      !this.#itemsDone &&
      depth === ITEMS_DEPTH &&
      c === OPEN_ARRAY &&
      this.#lastTopString === 'items'
    ) {
      // Keep `[` in the envelope, leave the contents out until the matching `]`.
      this.#envelope.push(chunk.subarray(this.#envelopeStart, i + 1));
      this.#envelopeStart = -1;
      this.#inItems = true;
    }
    return i + 1;
  }

  /** At `}` or `]`. */
  #close(chunk: Buffer, i: number, c: number): number {
    const depth = --this.#depth;
    this.#keyNext = false;
    if (!this.#inItems) return i + 1;
    if (this.#cutting && depth === METADATA_DEPTH) return this.#afterCut(chunk, i);
    if (depth === ITEMS_DEPTH) {
      const keep = this.#keepStart;
      if (c === CLOSE_OBJECT && keep !== -1) this.#finishItem(chunk, keep, i + 1);
      this.#keepStart = -1;
      this.#inMetadata = false;
    } else if (depth === ITEM_DEPTH) this.#inMetadata = false;
    else if (depth < ITEMS_DEPTH) {
      this.#inItems = false;
      this.#itemsDone = true;
      this.#envelopeStart = i;
    }
    return i + 1;
  }

  /**
   * `managedFields`' array closed at `end` (-1: at the end of the previous chunk): keeps
   * what follows, but for the comma that followed a first key. Returns where scanning goes on.
   */
  #afterCut(chunk: Buffer, end: number): number {
    this.#cutting = false;
    let next = end + 1;
    if (this.#skipComma && next < chunk.length) {
      this.#skipComma = false;
      if (chunk[next] === COMMA) {
        next++;
        this.#keyNext = true;
      }
    }
    this.#keepStart = next;
    return next;
  }

  /**
   * The whole list: its own fields and the items parsed so far (all of them, for a complete
   * body). The parser lets go of them: call once.
   */
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
    // Hand the items over: a parser outlives its response (Node keeps the first request on
    // a kept-alive socket reachable, and with it the listeners that hold this parser).
    const items = this.#items;
    this.#items = [];
    this.#envelope = [];
    return { ...envelope, items };
  }

  #closeTopString(chunk: Buffer, quote: number): void {
    this.#keepTopString(chunk, quote);
    const text = Buffer.concat(this.#stringPieces as Buffer[]).toString('utf8');
    this.#lastTopString = text;
    this.#stringPieces = undefined;
    if (this.#topStringIsKey) this.#topKey = text;
    else if (this.#topKey === 'kind') this.#listKind = text;
    else if (this.#topKey === 'apiVersion') this.#listApiVersion = text;
  }

  /** True when items can be given the list's kind and apiVersion (both seen, kind `…List`). */
  #typed(): boolean {
    if (this.#typeMetaOpening !== undefined) return true;
    const kind = this.#listKind;
    const apiVersion = this.#listApiVersion;
    if (!kind.endsWith('List') || kind.length === 4 || apiVersion === '') return false;
    // Raw JSON text: a value with an escape is left to the caller.
    if (kind.includes('\\') || apiVersion.includes('\\')) return false;
    this.#typeMetaOpening = `{"kind":"${kind.slice(0, -4)}","apiVersion":"${apiVersion}",`;
    return true;
  }

  #keepTopString(chunk: Buffer, end: number): void {
    (this.#stringPieces as Buffer[]).push(chunk.subarray(this.#stringStart, end));
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
    if (this.#itemTyped) text = (this.#typeMetaOpening as string) + text;
    this.#items.push(JSON.parse(text));
  }
}

/** True when `chunk` holds `prefix` at `at` (false when the chunk ends before it would). */
function startsWith(chunk: Buffer, at: number, prefix: Buffer): boolean {
  if (at + prefix.length > chunk.length) return false;
  for (let j = 1; j < prefix.length; j++) {
    if (chunk[at + j] !== prefix[j]) return false;
  }
  return true;
}
