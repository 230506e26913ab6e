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
      // Skip to the closing quote: a quote preceded by an odd run of backslashes is escaped.
      let j = i;
      for (;;) {
        j = bytes.indexOf(QUOTE, j + 1);
        if (j === -1) return false;
        let k = j - 1;
        while (bytes[k] === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}
