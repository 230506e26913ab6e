/**
 * Size and depth caps applied to raw JSON text before it is parsed: a gateway must not let one
 * event exhaust memory or the stack (§13). Depth is measured by a linear scan of the bytes, so a
 * 100k-deep `[[[[…` is refused without recursion.
 */
export interface ParseCaps {
  /** Largest accepted document, in UTF-8 bytes. */
  maxBytes: number;
  /** Deepest accepted nesting of arrays and objects. */
  maxDepth: number;
}

export const DEFAULT_PARSE_CAPS: ParseCaps = { maxBytes: 1 << 20, maxDepth: 64 };

/**
 * A cap as given, or its default when absent (`undefined`). Anything else that is not a whole
 * number ≥ 1 is a RangeError naming it (docs/reliability.md: refused, never clamped): NaN, a string
 * or an explicit `undefined` spread over the defaults used to switch the cap off (every comparison
 * with it false), and 0 or a negative refused every document.
 */
export function resolveCap(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `${name} is ${typeof value === "number" ? String(value) : typeof value === "string" ? JSON.stringify(value) : typeof value}; give a whole number ≥ 1, or leave it out for the default ${fallback} (§13).`,
    );
  }
  return value;
}

/** Maximum nesting depth of a JSON text (strings and escapes skipped); stops early past `limit`. */
export function jsonDepth(text: string, limit = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** UTF-8 byte length without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
