/**
 * UTF-8 well-formedness (RFC 3629, the Unicode "maximal subpart" rules a fatal `TextDecoder` uses):
 * AgJSON is UTF-8 JSON (§4), so a byte sequence that is not UTF-8 is refused with the offset of its
 * first bad byte rather than decoded to U+FFFD and accepted.
 */

/**
 * Index of the first byte of `bytes[start, end)` that is not part of a well-formed UTF-8 sequence,
 * or -1 when the range is well-formed. A sequence cut off by `end` counts as malformed at its start.
 */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start;
  while (i < end) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      else if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      else if (b === 0xf4) hi = 0x8f;
    } else return i;
    if (i + need >= end) return i;
    const c1 = bytes[i + 1]!;
    if (c1 < lo || c1 > hi) return i;
    for (let k = 2; k <= need; k++) {
      const c = bytes[i + k]!;
      if (c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or the offset of its first malformed byte. Native speed when well-formed. */
export function decodeUtf8Strict(bytes: Uint8Array): { ok: true; text: string } | { ok: false; offset: number } {
  try {
    return { ok: true, text: fatal.decode(bytes) };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    return { ok: false, offset: offset === -1 ? 0 : offset };
  }
}
