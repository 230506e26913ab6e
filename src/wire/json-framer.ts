import { ByteFramer } from "./frame.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * Incremental framer for JSON documents (RFC 8259 text): a top-level array is cut into one frame per
 * element, and any other top-level value (an object, pretty-printed over many lines, or a scalar) is
 * one frame; several top-level values in a row are framed one after another. Only brackets, strings
 * and commas are tracked (a counter and two flags, never recursion), so a document nested a million
 * levels deep costs no stack here; whether each frame is valid JSON is the parser's business, so a
 * stray comma or an empty element becomes a frame with empty data that the parser then refuses.
 * Memory is bounded by `maxFrameBytes`: a longer element is reported `oversized` and skipped.
 */
export class JsonDocumentFramer extends ByteFramer {
  /** Inside the unwrapped top-level array (between its `[` and `]`). */
  #inArray = false;
  /** An element has begun: its bytes are being collected. */
  #inValue = false;
  /** The element is a bare scalar (number, true, false, null): it ends at a delimiter. */
  #scalar = false;
  #depth = 0;
  #inString = false;
  #escape = false;
  /** Inside the top-level array, no element has been seen since the last separator. */
  #expectElement = false;

  /** True while a top-level array is open (its closing `]` has not been seen). */
  get inArray(): boolean {
    return this.#inArray;
  }

  end(): number {
    const held = this.flushBom();
    if (held.length > 0) this.scan(held);
    let truncated = 0;
    if (this.#inValue && this.#scalar && !this.held.discarding) {
      this.#emit(new Uint8Array(0), 0, 0);
    } else if (this.#inValue) {
      truncated = this.held.discarding ? this.held.drop() : Math.max(1, this.held.length);
    } else if (this.#inArray) {
      truncated = 1;
    }
    this.held.drop();
    this.#inArray = this.#inValue = this.#scalar = this.#inString = this.#escape = false;
    this.#depth = 0;
    return truncated;
  }

  protected scan(chunk: Uint8Array): void {
    const n = chunk.length;
    let start = 0;
    let i = 0;
    while (i < n) {
      if (!this.#inValue) {
        const b = chunk[i]!;
        if (isSpace(b)) {
          i++;
          continue;
        }
        if (this.#inArray && (b === COMMA || b === CLOSE_ARRAY)) {
          // `[,` `[1,,2]` `[1,]`: an element is missing; the empty frame is refused by the parser.
          if (this.#expectElement && (b === COMMA || this.#sawSeparator))
            this.sink.frame({ kind: "event", raw: chunk.subarray(i, i), data: chunk.subarray(i, i) });
          this.#expectElement = true;
          this.#sawSeparator = b === COMMA;
          if (b === CLOSE_ARRAY) this.#inArray = false;
          i++;
          continue;
        }
        if (!this.#inArray && b === OPEN_ARRAY && !this.#topValueSeen) {
          this.#inArray = true;
          this.#expectElement = true;
          this.#sawSeparator = false;
          this.#topValueSeen = true;
          i++;
          continue;
        }
        if (!this.#inArray) this.#topValueSeen = true;
        this.#expectElement = false;
        this.#inValue = true;
        this.#scalar = b !== OPEN_OBJECT && b !== OPEN_ARRAY && b !== QUOTE;
        this.#depth = 0;
        start = i;
        // A value's first byte is its own, even a stray `}` or `,`: the parser refuses it, and
        // the scan always moves on.
        if (this.#scalar) i++;
      }
      if (this.#scalar) {
        // A scalar ends at whitespace or a structural byte; that byte is looked at again above.
        while (i < n) {
          const b = chunk[i]!;
          if (isSpace(b) || b === COMMA || b === CLOSE_ARRAY || b === OPEN_OBJECT || b === OPEN_ARRAY || b === QUOTE || b === CLOSE_OBJECT)
            break;
          i++;
        }
        if (i < n) this.#emit(chunk, start, i);
        continue;
      }
      // An object, an array or a string: walk to the byte that closes it.
      let closedAt = -1;
      while (i < n) {
        const b = chunk[i]!;
        if (this.#inString) {
          if (this.#escape) this.#escape = false;
          else if (b === BACKSLASH) this.#escape = true;
          else if (b === QUOTE) {
            this.#inString = false;
            if (this.#depth === 0) {
              closedAt = i;
              break;
            }
          }
        } else if (b === QUOTE) {
          this.#inString = true;
        } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
          this.#depth++;
        } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
          if (--this.#depth <= 0) {
            closedAt = i;
            break;
          }
        }
        i++;
      }
      if (closedAt !== -1) {
        i = closedAt + 1;
        this.#emit(chunk, start, i);
      }
    }
    if (this.#inValue) this.held.hold(chunk.subarray(start));
  }

  #topValueSeen = false;
  #sawSeparator = false;

  /** The element ending at `chunk[end]` is complete: its earlier bytes are held, the rest is in `chunk`. */
  #emit(chunk: Uint8Array, start: number, end: number): void {
    this.#inValue = false;
    this.#scalar = false;
    this.#depth = 0;
    const raw = this.held.finish(chunk, start, end);
    if (raw === null) return;
    this.sink.frame({ kind: "event", raw, data: raw });
  }
}
