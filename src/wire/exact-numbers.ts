/**
 * JSON numbers kept as their source text (§13.2: opaque values — `providerMetadata`, `provider-raw`,
 * tool arguments and results, state — are echoed byte-identical). `JSON.parse` reads a number as
 * the nearest double, so `12345678901234567890123`, `1e400` (→ Infinity, written back as `null`),
 * `0.1000000000000000055511151231257827` (→ 0.1) and `-0` (written back as `0`) would come out
 * of a fold changed. A record holding such a number is parsed a second time here with each of
 * them as a {@link JsonNumberText} leaf, and {@link stringifyExact} writes the leaf's text back.
 *
 * The leaf is an object of its own class, so the fold (src/reduce/json.ts `isPlainObject`) treats
 * it as a scalar: never merged into, patched through or copied apart. Nothing here is imported
 * by the library's `reduce()`.
 */

/** A JSON number whose text a double cannot reproduce, kept verbatim (§13.2). */
export class JsonNumberText {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
    Object.freeze(this);
  }

  /** The number's source text, exactly as the input had it. */
  get text(): string {
    return this.#text;
  }

  /** Equal leaves compare by text (src/reduce/json.ts `jsonEqual`). */
  toString(): string {
    return this.#text;
  }

  /** A serializer that does not know the leaf writes the nearest double (`null` past the range). */
  toJSON(): number {
    return Number(this.#text);
  }
}

/** True when `JSON.stringify(JSON.parse(text))` would not give `text` back. */
export function isInexactNumber(text: string): boolean {
  return JSON.stringify(Number(text)) !== text;
}

// One JSON token at a time: a string (skipped whole, escapes and all) or a number.
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/gy;
// A number written with a fraction, an exponent, 16+ digits or as -0: the only forms a double may
// not reproduce. Most records have none outside strings, and skip the token scan.
const MAYBE_INEXACT = /[.eE]|\d{16}|-0/;

/**
 * True when the JSON `text` holds a number outside strings that a double cannot write back
 * verbatim. `text` is valid JSON (already parsed once).
 */
export function hasInexactNumber(text: string): boolean {
  if (!MAYBE_INEXACT.test(text)) return false;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */ || c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      TOKEN.lastIndex = i;
      const m = TOKEN.exec(text);
      if (m === null) return false;
      if (c !== 0x22 && isInexactNumber(m[0])) return true;
      i = TOKEN.lastIndex;
    } else i++;
  }
  return false;
}

/**
 * Parses valid JSON `text` (its depth already capped, so the recursion is bounded) as `JSON.parse`
 * does, except that each number a double cannot write back verbatim becomes a
 * {@link JsonNumberText}. Keys are own data properties, `__proto__` included, as `JSON.parse` makes
 * them; a repeated key keeps its last value.
 */
export function parseExactNumbers(text: string): unknown {
  let i = 0;
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const token = (): string => {
    TOKEN.lastIndex = i;
    const m = TOKEN.exec(text);
    if (m === null) throw new SyntaxError(`no JSON string or number at ${i}`);
    i = TOKEN.lastIndex;
    return m[0];
  };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        const key = JSON.parse(token()) as string;
        ws();
        if (text[i++] !== ":") throw new SyntaxError(`expected ':' at ${i - 1}`);
        Object.defineProperty(obj, key, { value: value(), writable: true, enumerable: true, configurable: true });
        ws();
        const sep = text[i++];
        if (sep === "}") return obj;
        if (sep !== ",") throw new SyntaxError(`expected ',' or '}' at ${i - 1}`);
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        const sep = text[i++];
        if (sep === "]") return arr;
        if (sep !== ",") throw new SyntaxError(`expected ',' or ']' at ${i - 1}`);
      }
    }
    if (c === '"') return JSON.parse(token()) as string;
    for (const [word, v] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const num = token();
    return isInexactNumber(num) ? new JsonNumberText(num) : Number(num);
  };
  const result = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`unexpected text at ${i}`);
  return result;
}

/**
 * Objects and arrays `JSON.parse` made of text holding a number a double cannot write back,
 * each with its twin from {@link parseExactNumbers}: the value stays plain doubles for whoever reads
 * it (a normalizer's facet reads `usage.input_tokens` as a number), and {@link stringifyExact}
 * writes the twin's text where the value it stands for is unchanged (§13.2).
 */
const EXACT_TWINS = new WeakMap<object, unknown>();
let twinsLinked = false;

/**
 * `JSON.parse(text)` (`text`'s depth already capped: the twin is parsed recursively); when `text`
 * holds a number a double cannot write back, each object and array of the result remembers its
 * exact twin, so {@link stringifyExact} writes the number's own text back.
 */
export function parseKeepingExact(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (typeof value === "object" && value !== null && hasInexactNumber(text)) {
    linkTwins(value, parseExactNumbers(text));
    twinsLinked = true;
  }
  return value;
}

/** True once {@link parseKeepingExact} has met a number a double cannot write back (in this process). */
export function hasExactTwins(): boolean {
  return twinsLinked;
}

function linkTwins(plain: unknown, exact: unknown): void {
  if (typeof plain !== "object" || plain === null || typeof exact !== "object" || exact === null || exact instanceof JsonNumberText) return;
  EXACT_TWINS.set(plain, exact);
  for (const key of Object.keys(plain)) linkTwins((plain as Record<string, unknown>)[key], (exact as Record<string, unknown>)[key]);
}

/** Whether `exact` still stands for `plain` (nothing replaced or changed since they were parsed). */
function standsFor(exact: unknown, plain: unknown): boolean {
  if (exact instanceof JsonNumberText) return Object.is(Number(exact.text), plain);
  if (typeof exact !== "object" || exact === null) return Object.is(exact, plain);
  if (typeof plain !== "object" || plain === null || Array.isArray(exact) !== Array.isArray(plain)) return false;
  const keys = Object.keys(exact);
  if (keys.length !== Object.keys(plain).length) return false;
  return keys.every(
    (k) => Object.hasOwn(plain, k) && standsFor((exact as Record<string, unknown>)[k], (plain as Record<string, unknown>)[k]),
  );
}

/** Every leaf of `value` under the JSON Pointer `path` turned back into its nearest double. */
export function dropNumberTexts(value: unknown, path: string): unknown {
  if (path === "") return toDoubles(value);
  const slash = path.indexOf("/", 1);
  const head = (slash === -1 ? path.slice(1) : path.slice(1, slash)).replace(/~1/g, "/").replace(/~0/g, "~");
  const rest = slash === -1 ? "" : path.slice(slash);
  if (Array.isArray(value)) {
    const at = Number(head);
    if (!Number.isInteger(at) || at < 0 || at >= value.length) return value;
    const copy = value.slice();
    copy[at] = dropNumberTexts(value[at], rest);
    return copy;
  }
  if (typeof value !== "object" || value === null || value instanceof JsonNumberText || !Object.hasOwn(value, head)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    Object.defineProperty(copy, key, {
      value: key === head ? dropNumberTexts(item, rest) : item,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return copy;
}

function toDoubles(value: unknown): unknown {
  if (value instanceof JsonNumberText) return Number(value.text);
  if (Array.isArray(value)) return value.map(toDoubles);
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: toDoubles((value as Record<string, unknown>)[key]),
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return copy;
}

/** How many {@link JsonNumberText} leaves `value` holds. */
export function countNumberTexts(value: unknown): number {
  if (value instanceof JsonNumberText) return 1;
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countNumberTexts(item), 0);
  if (typeof value !== "object" || value === null) return 0;
  let n = 0;
  for (const key of Object.keys(value)) n += countNumberTexts((value as Record<string, unknown>)[key]);
  return n;
}

/**
 * `JSON.stringify(value, null, indent)` except that a {@link JsonNumberText} is written as its
 * text, and so is a number of a value {@link parseKeepingExact} read, while that value is unchanged. Same rules otherwise: `toJSON` is honoured, an `undefined`, function or symbol member is
 * left out (`null` in an array), a non-finite number is `null`.
 */
export function stringifyExact(value: unknown, indent?: number): string {
  const pad = indent !== undefined && indent > 0 ? " ".repeat(Math.min(indent, 10)) : "";
  const write = (v: unknown, key: string, margin: string): string | undefined => {
    if (v instanceof JsonNumberText) return v.text;
    if (twinsLinked && typeof v === "object" && v !== null) {
      const twin = EXACT_TWINS.get(v);
      if (twin !== undefined && standsFor(twin, v)) v = twin;
    }
    if (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON === "function")
      v = (v as { toJSON(k: string): unknown }).toJSON(key);
    if (v instanceof JsonNumberText) return v.text;
    if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return JSON.stringify(v);
    if (typeof v !== "object") return undefined;
    const inner = margin + pad;
    const open = pad ? `\n${inner}` : "";
    const close = pad ? `\n${margin}` : "";
    const sep = pad ? `,\n${inner}` : ",";
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      const items = v.map((item, i) => write(item, String(i), inner) ?? "null");
      return `[${open}${items.join(sep)}${close}]`;
    }
    const members: string[] = [];
    for (const k of Object.keys(v)) {
      const text = write((v as Record<string, unknown>)[k], k, inner);
      if (text !== undefined) members.push(`${JSON.stringify(k)}:${pad ? " " : ""}${text}`);
    }
    if (members.length === 0) return "{}";
    return `{${open}${members.join(sep)}${close}}`;
  };
  return write(value, "", "") ?? "undefined";
}
