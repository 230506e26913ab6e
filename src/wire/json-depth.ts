const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Returns true when the JSON text in `bytes[start, end)` (default: all of it) nests objects/arrays
 * deeper than `maxDepth`. Runs on the raw bytes before `JSON.parse`, in one pass and without
 * recursion, so a hostile `[[[[…` can never reach a recursive parser or validator. Strings are
 * skipped with a native `indexOf` for speed. Malformed JSON is not judged here (the parser does
 * that); only nesting is counted.
 */
export function exceedsJsonDepth(bytes: Uint8Array, maxDepth: number, start = 0, end = bytes.length): boolean {
  // Nesting deeper than maxDepth takes more than maxDepth opening brackets, so more bytes than that.
  if (end - start <= maxDepth) return false;
  let depth = 0;
  const n = end;
  for (let i = start; i < n; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = skipString(bytes, i + 1, n);
      if (i === -1) return false;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** Short strings are walked byte by byte; after this many bytes the native `indexOf` is cheaper. */
const SHORT_STRING = 64;

/** Returns the index of the quote closing the string whose content starts at `from`, or -1. */
function skipString(bytes: Uint8Array, from: number, n: number): number {
  const walkTo = Math.min(n, from + SHORT_STRING);
  let i = from;
  for (; i < walkTo; i++) {
    const c = bytes[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  if (i >= n) return -1;
  // A long string: jump between quotes; one preceded by an odd run of backslashes is escaped. The
  // search is bounded to the payload (an unclosed string must not scan the rest of a large chunk).
  const hay = n === bytes.length ? bytes : bytes.subarray(0, n);
  let j = i - 1;
  for (;;) {
    j = hay.indexOf(QUOTE, j + 1);
    if (j === -1) return -1;
    let k = j - 1;
    while (k >= from && bytes[k] === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}

/**
 * `exceedsJsonDepth` for the payloads of one stream, cheap in the common case. Nesting deeper than
 * `maxDepth` takes more than `maxDepth` opening brackets, so a payload holding at most that many `{`
 * and `[` bytes (strings included) passes without a walk; only one holding more gets the exact scan.
 * The brackets are found with the native byte search, and the next position of each is remembered, so
 * the payloads of one chunk, asked about left to right, cost one search per bracket plus one per
 * chunk instead of a walk over every byte.
 */
export class DepthGuard {
  readonly #maxDepth: number;
  #bytes: Uint8Array | null = null;
  #lastEnd = 0;
  /** First `{` / `[` at or after `#lastEnd` (-1: none; -2: not searched yet). */
  #nextObject = -2;
  #nextArray = -2;

  constructor(maxDepth: number) {
    this.#maxDepth = maxDepth;
  }

  /**
   * Drops the remembered bracket positions. The stream calls it for every incoming chunk: the
   * cache is keyed by buffer identity, and a producer that reuses one buffer for new bytes must not
   * get a stale "no bracket ahead" answer, which would let a too-deep event past the cap.
   */
  forget(): void {
    this.#bytes = null;
    this.#nextObject = -2;
    this.#nextArray = -2;
  }

  /** Same answer as `exceedsJsonDepth(bytes, maxDepth, start, end)`. */
  exceeds(bytes: Uint8Array, start: number, end: number): boolean {
    const max = this.#maxDepth;
    if (end - start <= max) return false;
    if (bytes !== this.#bytes || start < this.#lastEnd) {
      this.#bytes = bytes;
      this.#nextObject = -2;
      this.#nextArray = -2;
    }
    this.#lastEnd = end;
    let count = 0;
    let p = this.#nextObject;
    if (p !== -1 && p < start) p = bytes.indexOf(OPEN_OBJECT, start);
    while (p !== -1 && p < end) {
      if (++count > max) return this.#exact(bytes, start, end);
      p = bytes.indexOf(OPEN_OBJECT, p + 1);
    }
    this.#nextObject = p;
    p = this.#nextArray;
    if (p !== -1 && p < start) p = bytes.indexOf(OPEN_ARRAY, start);
    while (p !== -1 && p < end) {
      if (++count > max) return this.#exact(bytes, start, end);
      p = bytes.indexOf(OPEN_ARRAY, p + 1);
    }
    this.#nextArray = p;
    return false;
  }

  #exact(bytes: Uint8Array, start: number, end: number): boolean {
    this.#nextObject = -2;
    this.#nextArray = -2;
    return exceedsJsonDepth(bytes, this.#maxDepth, start, end);
  }
}
