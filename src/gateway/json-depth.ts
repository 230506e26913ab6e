const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/**
 * Returns true when the JSON text in `bytes` nests objects/arrays deeper than `maxDepth`. Runs on the
 * raw bytes before `JSON.parse`, in one pass and without recursion, so a hostile `[[[[…` can never
 * reach a recursive parser or validator. Strings are skipped with a native `indexOf` for speed.
 * Malformed JSON is not judged here (the parser does that); only nesting is counted.
 */
export function exceedsJsonDepth(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = skipString(bytes, i + 1);
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
function skipString(bytes: Uint8Array, from: number): number {
  const n = bytes.length;
  const walkTo = Math.min(n, from + SHORT_STRING);
  let i = from;
  for (; i < walkTo; i++) {
    const c = bytes[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  if (i >= n) return -1;
  // A long string: jump between quotes; one preceded by an odd run of backslashes is escaped.
  let j = i - 1;
  for (;;) {
    j = bytes.indexOf(QUOTE, j + 1);
    if (j === -1) return -1;
    let k = j - 1;
    while (k >= from && bytes[k] === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j;
  }
}
