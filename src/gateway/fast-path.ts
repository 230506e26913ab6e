/**
 * The byte-level fast path: judges the payload of an event (a JSON object of strings, small
 * non-negative integers, booleans, opaque values, open bags, tagged-union objects such as
 * `content.block`'s block and a media block's source, and arrays of them such as `tool.done.content`,
 * §2, §7) against the table `agjson gen` derives from the schemas (`generated/fast-path.ts`, emitter
 * `codegen/emit-fast-path.ts`: per posture and event type, the required fields, the type and union
 * tags, each field's check, which values are left to the validator, the cross-field rules
 * tabulated), without decoding or parsing it.
 *
 * It answers "valid" only when it is certain the posture's validator would accept the parsed value
 * (§0.2, §12), and "unsure" otherwise — an unknown or `ext.*` type, a field it cannot check (an
 * object with typed members that is not a modelled union, an array of anything but a modelled
 * union, a pattern, a number that is not a plain integer), a duplicate key, an escaped key, a type or
 * block tag that is not the first key, a combination of fields the object's cross-field rules refuse
 * (the table holds their outcome for every combination), malformed UTF-8, anything that is not plain
 * JSON. Unsure payloads take the usual decode + `JSON.parse` + validator path, so refusals, their
 * messages and every other behaviour stay those of the validator; the fast path never refuses
 * anything. `fast-path.test.ts` holds it to that against the validators on every fixture.
 *
 * The table is generated; this scanner, which interprets it, is the gateway's one hand-written
 * piece of schema checking. It is there because it makes validated forwarding several times cheaper
 * than decode + `JSON.parse` + `validateEvent` — cheaper even than decode + `JSON.parse` alone —
 * and a gateway validates every event (`make bench` measures it; docs/gateway.md "Performance"
 * gives the figures). A scanner specialised per event type, as a generator would emit it, gained
 * too little over this table-driven one to carry a second, generated scanner.
 */
import {
  FAST_PATH_EVENT_TAG,
  FAST_PATH_LENIENT,
  FAST_PATH_LENIENT_UNIONS,
  FAST_PATH_STRICT,
  FAST_PATH_STRICT_UNIONS,
  type FastPathCheck,
  type FastPathEntry,
  type FastPathUnion,
} from "../../generated/fast-path.js";
import { DEFAULT_CAPS } from "./caps.js";
import type { Posture } from "./validator.js";

/** `check()`'s answer when the payload must go to the validator. */
export const UNSURE = -1;

const STRING = 0;
const ENUM = 1;
const INTEGER = 2;
const BOOLEAN = 3;
const TRUE = 4;
const FALSE = 5;
const JSON_VALUE = 6;
const JSON_OBJECT = 7;
const UNCHECKED = 8;
const UNION_ARRAY = 9;
const UNION_OBJECT = 10;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;

/** The SSE field name `data` read as a little-endian 32-bit word. */
const DATA_WORD = 0x61746164;

/** Integers of up to 15 digits are exact in a double; longer ones go to the validator. */
const MAX_INTEGER_DIGITS = 15;

interface CompiledField {
  name: BytePattern;
  /** The member's compact opening, `,"name":`, tried first where the field is expected next. */
  member: BytePattern;
  /**
   * The field that followed this one in the last event of the type (a hint: a producer writes its
   * fields in one order, so the next key is usually tried against one name only).
   */
  next: CompiledField | null;
  kind: number;
  values: Uint8Array[];
  minimum: number;
  bit: number;
  isSeq: boolean;
  /** The union of a `union-object` field, or the item union of a `union-array` one. */
  union: CompiledUnion | null;
  /** The field's weight in its type's cross-field state index, 0 when no rule reads it. */
  crossRadix: number;
}

interface CompiledType {
  type: string;
  /** Position in `CompiledTable.types`, the answer of `check()`. */
  index: number;
  typeBytes: BytePattern;
  /** The type that followed this one in the stream last time (a hint, as `CompiledField.next`). */
  next: CompiledType | null;
  closed: boolean;
  required: number;
  typeBit: number;
  typeField: CompiledField;
  /** Fields by the byte length of their name, for a lookup that compares few candidates. */
  byLength: (CompiledField[] | undefined)[];
  /** The cross-field rules: `allowed[Σ state × radix]` is 1 when they hold (see `FastPathCross`). */
  allowed: Uint8Array | null;
}

/** A tag value of a union: its variant, or `null` for a known tag the scanner defers on. */
interface CompiledTag {
  bytes: Uint8Array;
  variant: CompiledType | null;
}

interface CompiledUnion {
  /** The tag's name. */
  tag: Uint8Array;
  /** The tag's name and its closing quote (the first key of every item). */
  tagKeyTail: BytePattern;
  open: boolean;
  /** Known tags by byte length. */
  byLength: (CompiledTag[] | undefined)[];
}

interface CompiledTable {
  types: CompiledType[];
  /** Types by the byte length of their `type` value. */
  byLength: (CompiledType[] | undefined)[];
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function kindOf(check: FastPathCheck): number {
  switch (check.kind) {
    case "string":
      return STRING;
    case "enum":
      return ENUM;
    case "integer":
      return INTEGER;
    case "boolean":
      return BOOLEAN;
    case "const":
      return check.value ? TRUE : FALSE;
    case "json":
      return JSON_VALUE;
    case "object":
      return JSON_OBJECT;
    case "union-array":
      return UNION_ARRAY;
    case "union-object":
      return UNION_OBJECT;
    case "unchecked":
      return UNCHECKED;
    default: {
      const exhaustive: never = check;
      return exhaustive;
    }
  }
}

/**
 * One object type (an event, or a union's variant) whose `tag` field holds its type, or
 * `undefined` when the table is not trusted.
 */
function compileType(
  entry: FastPathEntry,
  tag: string,
  index: number,
  unionOf: (def: string) => CompiledUnion | null,
): CompiledType | undefined {
  const names = Object.keys(entry.fields);
  // The generator keeps entries within a 32-bit mask; a table that does not is not trusted.
  if (names.length > 31) return undefined;
  const fieldsByLength: (CompiledField[] | undefined)[] = [];
  let required = 0;
  let typeBit = 0;
  let typeField: CompiledField | undefined;
  for (const [k, name] of names.entries()) {
    const check = entry.fields[name]!;
    const holdsUnion = check.kind === "union-array" || check.kind === "union-object";
    const union = holdsUnion ? unionOf(check.union) : null;
    const field: CompiledField = {
      name: bytePattern(name),
      member: bytePattern(`,"${name}":`),
      next: null,
      // A union the table does not hold: the field is unchecked.
      kind: holdsUnion && union === null ? UNCHECKED : kindOf(check),
      values: check.kind === "enum" ? check.values.map(ascii) : [],
      minimum: check.kind === "integer" && check.minimum !== undefined ? check.minimum : -Infinity,
      bit: 1 << k,
      isSeq: name === "seq",
      union,
      crossRadix: entry.cross?.fields[name] ?? 0,
    };
    (fieldsByLength[name.length] ??= []).push(field);
    if (entry.required.includes(name)) required |= field.bit;
    if (name === tag) {
      typeBit = field.bit;
      typeField = field;
    }
  }
  if (typeField === undefined) return undefined;
  const allowed = entry.cross === undefined ? null : Uint8Array.from(entry.cross.allowed, (c) => (c === "1" ? 1 : 0));
  return {
    type: entry.type,
    index,
    typeBytes: bytePattern(entry.type),
    next: null,
    closed: entry.closed,
    required,
    typeBit,
    typeField,
    byLength: fieldsByLength,
    allowed,
  };
}

function compile(
  entries: readonly FastPathEntry[],
  unions: { readonly [def: string]: FastPathUnion },
  skip: ReadonlySet<string>,
): CompiledTable {
  const compiledUnions = new Map<string, CompiledUnion | null>();
  const unionOf = (def: string): CompiledUnion | null => {
    const known = compiledUnions.get(def);
    if (known !== undefined) return known;
    const source = unions[def];
    if (source === undefined) {
      compiledUnions.set(def, null);
      return null;
    }
    const union: CompiledUnion = { tag: ascii(source.tag), tagKeyTail: bytePattern(`${source.tag}"`), open: source.open, byLength: [] };
    // Registered before its variants compile: a variant may hold the union again.
    compiledUnions.set(def, union);
    for (const variant of source.variants) {
      // A variant the scanner does not trust keeps its tag known, and deferred on.
      const compiled = compileType(variant, source.tag, -1, unionOf) ?? null;
      (union.byLength[variant.type.length] ??= []).push({ bytes: ascii(variant.type), variant: compiled });
    }
    for (const tag of Object.keys(source.excluded)) (union.byLength[tag.length] ??= []).push({ bytes: ascii(tag), variant: null });
    return union;
  };
  const types: CompiledType[] = [];
  const byLength: (CompiledType[] | undefined)[] = [];
  for (const entry of entries) {
    if (skip.has(entry.type)) continue;
    const compiled = compileType(entry, FAST_PATH_EVENT_TAG, types.length, unionOf);
    if (compiled === undefined) continue;
    types.push(compiled);
    (byLength[entry.type.length] ??= []).push(compiled);
  }
  return { types, byLength };
}

/** A posture's table as `generated/fast-path.ts` holds it. */
export interface FastPathTable {
  readonly entries: readonly FastPathEntry[];
  readonly unions: { readonly [def: string]: FastPathUnion };
}

const compiledTables = new Map<string, CompiledTable>();
function tableFor(posture: Posture, skip: ReadonlySet<string>): CompiledTable {
  const key = `${posture}\u0000${[...skip].sort().join("\u0000")}`;
  let table = compiledTables.get(key);
  if (table === undefined) {
    table =
      posture === "strict"
        ? compile(FAST_PATH_STRICT, FAST_PATH_STRICT_UNIONS, skip)
        : compile(FAST_PATH_LENIENT, FAST_PATH_LENIENT_UNIONS, skip);
    compiledTables.set(key, table);
  }
  return table;
}

function isWhitespace(c: number | undefined): boolean {
  return c === 0x20 || c === 0x09 || ((c === 0x0a || c === 0x0d) && lineBreaksAreSpace);
}

function sameBytes(bytes: Uint8Array, start: number, expected: Uint8Array): boolean {
  for (let k = 0; k < expected.length; k++) if (bytes[start + k] !== expected[k]) return false;
  return true;
}

/**
 * A name or type the scanner compares often: its bytes, and the same as little-endian 32-bit words,
 * the last of which ends with the pattern (it overlaps the one before when the length is not a
 * multiple of four), so that a pattern of four bytes or more is compared in ⌈length / 4⌉ reads.
 */
interface BytePattern {
  readonly bytes: Uint8Array;
  readonly length: number;
  readonly words: Int32Array;
  /**
   * The first, second and last word as plain numbers, for patterns of 4 to 12 bytes (every field
   * name, member opening and type the table holds): compared with no loop and no array load.
   */
  readonly first: number;
  readonly second: number;
  readonly last: number;
}

function bytePattern(s: string): BytePattern {
  const bytes = ascii(s);
  const n = bytes.length;
  const word = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
  const words = new Int32Array(n < 4 ? 0 : (n + 3) >> 2);
  for (let k = 0; k + 1 < words.length; k++) words[k] = word(4 * k);
  if (n >= 4) words[words.length - 1] = word(n - 4);
  return { bytes, length: n, words, first: n >= 4 ? word(0) : 0, second: n >= 8 ? word(4) : 0, last: n >= 4 ? word(n - 4) : 0 };
}

/** Whether `bytes[start, start + p.length)` (within bounds) holds `p`. */
function matches(bytes: Uint8Array, start: number, p: BytePattern): boolean {
  const n = p.length;
  const view = words;
  if (view !== null && n >= 4) {
    if (n <= 12) {
      return (
        view.getInt32(start, true) === p.first &&
        view.getInt32(start + n - 4, true) === p.last &&
        (n <= 8 || view.getInt32(start + 4, true) === p.second)
      );
    }
    const w = p.words;
    const last = w.length - 1;
    for (let k = 0; k < last; k++) if (view.getInt32(start + 4 * k, true) !== w[k]) return false;
    return view.getInt32(start + n - 4, true) === w[last];
  }
  const b = p.bytes;
  for (let k = 0; k < n; k++) if (bytes[start + k] !== b[k]) return false;
  return true;
}

/** The event's type key with its quotes (`"type"`), from the generated table. */
const EVENT_TAG_KEY = bytePattern(`"${FAST_PATH_EVENT_TAG}"`);
/** An event's compact opening up to its type's value (`{"type":"`). */
const EVENT_OPENING = bytePattern(`{"${FAST_PATH_EVENT_TAG}":"`);

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46));
}

function isContinuation(c: number | undefined): boolean {
  return c !== undefined && (c & 0xc0) === 0x80;
}

/**
 * Index past the UTF-8 sequence led by `bytes[i]` (≥ 0x80), or -1 when it is not well-formed
 * (Unicode Table 3-7, what a fatal `TextDecoder` accepts: no overlongs, no surrogates, ≤ U+10FFFF).
 */
function skipUtf8(bytes: Uint8Array, i: number, end: number): number {
  const c = bytes[i]!;
  if (c < 0xc2) return -1;
  if (c < 0xe0) return i + 1 < end && isContinuation(bytes[i + 1]) ? i + 2 : -1;
  if (c < 0xf0) {
    if (i + 2 >= end) return -1;
    const c1 = bytes[i + 1]!;
    const lo = c === 0xe0 ? 0xa0 : 0x80;
    const hi = c === 0xed ? 0x9f : 0xbf;
    return c1 >= lo && c1 <= hi && isContinuation(bytes[i + 2]) ? i + 3 : -1;
  }
  if (c < 0xf5) {
    if (i + 3 >= end) return -1;
    const c1 = bytes[i + 1]!;
    const lo = c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xf4 ? 0x8f : 0xbf;
    return c1 >= lo && c1 <= hi && isContinuation(bytes[i + 2]) && isContinuation(bytes[i + 3]) ? i + 4 : -1;
  }
  return -1;
}

/**
 * Node's native UTF-8 validator (simdutf), where the runtime offers it without an import (the
 * gateway stream uses Web APIs only). Elsewhere the scanner checks each multi-byte sequence itself.
 */
const nativeIsUtf8: ((bytes: Uint8Array) => boolean) | undefined = (() => {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const mod = typeof getBuiltin === "function" ? (getBuiltin("node:buffer") as { isUtf8?: unknown } | undefined) : undefined;
  return typeof mod?.isUtf8 === "function" ? (mod.isUtf8 as (bytes: Uint8Array) => boolean) : undefined;
})();

// Per-call scanning context, set by `FastPath.check` (the scanner is synchronous, so one suffices).
/** Whether the string just scanned held an escape. */
let escaped = false;
/** The payload is known to be well-formed UTF-8: bytes ≥ 0x80 need no check. */
let utf8Known = false;
/**
 * Whether CR and LF count as JSON whitespace. `scanFrames` clears it: there a line break ends the
 * SSE data line or the NDJSON line, so one inside a payload ends the run.
 */
let lineBreaksAreSpace = true;
/**
 * The type index of the payload `#scanEvent` accepted last, and where its `seq`'s digits start (-1
 * when it has none): only the last accepted event's `seq` is needed, so it is read only then.
 */
let scannedType = -1;
let scannedSeqAt = -1;
/**
 * The payload's buffer as a `DataView` whose offsets are those of `bytes`: names are compared and
 * ordinary string bytes skipped four at a time (unaligned little-endian reads).
 */
let words: DataView | null = null;

const ONES = 0x01010101;
const HIGH_BITS = 0x80808080 | 0;

/**
 * Index of the quote closing the JSON string whose content starts at `i`, or -1 when the string is
 * not well-formed JSON text in well-formed UTF-8 (raw control character, unknown escape, short
 * `\u`, malformed UTF-8, no closing quote before `end`). A `\u` escape of a lone surrogate is
 * well-formed JSON (`JSON.parse` accepts it) and so is accepted here.
 */
function scanString(bytes: Uint8Array, i: number, end: number): number {
  escaped = false;
  const view = words;
  // A word "has something" when one of its bytes is a quote, a backslash, a control character or
  // (unless the UTF-8 is known good) ≥ 0x80: the classic SWAR zero-byte tests, exact for "any".
  const highMask = utf8Known ? 0 : -1;
  for (;;) {
    if (view !== null) {
      const last = end - 4;
      while (i <= last) {
        const x = view.getInt32(i, true);
        // x ^ 0x02 maps the quote to 0x20 and the control characters onto 0x00–0x1f (and nothing
        // else below 0x21), so one "byte < 0x21" test finds both; the backslash takes a zero test.
        const y = x ^ 0x02020202;
        const b = x ^ 0x5c5c5c5c;
        const m = ((((y - 0x21212121) | 0) & ~y) | (((b - ONES) | 0) & ~b) | (x & highMask)) & HIGH_BITS;
        if (m !== 0) {
          // The lowest flagged byte is exact (a borrow only flags bytes above a true hit): step to it.
          i += (31 - Math.clz32(m & -m)) >> 3;
          break;
        }
        i += 4;
      }
    }
    // Ordinary bytes up to the one the word test stopped at.
    let c = 0;
    for (; i < end; i++) {
      c = bytes[i]!;
      if (c === QUOTE || c === BACKSLASH || c < 0x20 || (c >= 0x80 && !utf8Known)) break;
    }
    if (i >= end) return -1;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      escaped = true;
      // `\"` and `\\` (the escapes text carries most) without a call; the rest in `skipEscape`.
      const e = bytes[i + 1];
      if (e === QUOTE || e === BACKSLASH) {
        i += 2;
        continue;
      }
      i = skipEscape(bytes, i, end);
      if (i === -1) return -1;
      continue;
    }
    if (c < 0x20) return -1;
    i = skipUtf8(bytes, i, end);
    if (i === -1) return -1;
  }
}

/**
 * Index past the escape whose backslash is at `i`, or -1 when it is not one of JSON's. Kept out of
 * `scanString`, which is then small enough for V8 to inline where strings are scanned.
 */
function skipEscape(bytes: Uint8Array, i: number, end: number): number {
  const e = i + 1 < end ? bytes[i + 1] : undefined;
  if (e === 0x75) {
    if (i + 5 >= end || !isHex(bytes[i + 2]) || !isHex(bytes[i + 3]) || !isHex(bytes[i + 4]) || !isHex(bytes[i + 5])) return -1;
    return i + 6;
  }
  if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) return i + 2;
  return -1;
}

function skipDigits(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && bytes[i]! >= ZERO && bytes[i]! <= NINE) i++;
  return i;
}

/** Index past the JSON number starting at `i`, or -1 when it is not one (RFC 8259 §6 grammar). */
function skipNumber(bytes: Uint8Array, i: number, end: number): number {
  if (i < end && bytes[i] === MINUS) i++;
  if (i >= end) return -1;
  const c = bytes[i]!;
  if (c === ZERO) i++;
  else if (c > ZERO && c <= NINE) i = skipDigits(bytes, i + 1, end);
  else return -1;
  if (i < end && bytes[i] === DOT) {
    const from = i + 1;
    i = skipDigits(bytes, from, end);
    if (i === from) return -1;
  }
  if (i < end && (bytes[i] === LOWER_E || bytes[i] === UPPER_E)) {
    i++;
    if (i < end && (bytes[i] === PLUS || bytes[i] === MINUS)) i++;
    const from = i;
    i = skipDigits(bytes, from, end);
    if (i === from) return -1;
  }
  return i;
}

const TRUE_BYTES = ascii("true");
const FALSE_BYTES = ascii("false");
const NULL_BYTES = ascii("null");

function literalEnd(bytes: Uint8Array, i: number, end: number, literal: Uint8Array): number {
  return i + literal.length <= end && sameBytes(bytes, i, literal) ? i + literal.length : -1;
}

/** Index past a scalar JSON value of a field the table does not name (lenient only), or -1. */
function skipScalar(bytes: Uint8Array, i: number, end: number): number {
  const c = bytes[i];
  // Callers have checked i < end.
  if (c === QUOTE) {
    const close = scanString(bytes, i + 1, end);
    return close === -1 ? -1 : close + 1;
  }
  if (c === 0x74) return literalEnd(bytes, i, end, TRUE_BYTES);
  if (c === 0x66) return literalEnd(bytes, i, end, FALSE_BYTES);
  if (c === 0x6e) return literalEnd(bytes, i, end, NULL_BYTES);
  return skipNumber(bytes, i, end);
}

function skipWhitespace(bytes: Uint8Array, i: number, end: number): number {
  while (i < end && isWhitespace(bytes[i])) i++;
  return i;
}

/** Nesting the container bitmask of `skipValue` can follow; deeper values go to the validator. */
const MAX_NESTING = 30;

/**
 * Index past the JSON value starting at `i` (any value: §0.1's opaque value or an open bag such as
 * `_meta`), or -1 when it is not well-formed JSON or nests deeper than `maxNesting` levels (a
 * scalar is 0, `{}` is 1). Iterative: the kind of each open container is one bit of `objects`.
 */
function skipValue(bytes: Uint8Array, i: number, end: number, maxNesting: number): number {
  let depth = 0;
  let objects = 0;
  for (;;) {
    // At the start of a value.
    if (i >= end) return -1;
    let c = bytes[i]!;
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxNesting) return -1;
      const isObject = c === OPEN_OBJECT;
      objects = isObject ? objects | (1 << depth) : objects & ~(1 << depth);
      i = skipWhitespace(bytes, i + 1, end);
      if (i >= end) return -1;
      if (bytes[i] === (isObject ? CLOSE_OBJECT : CLOSE_ARRAY)) {
        i++;
        depth--;
      } else {
        if (isObject) {
          i = skipMemberName(bytes, i, end);
          if (i === -1) return -1;
        }
        continue;
      }
    } else {
      i = skipScalar(bytes, i, end);
      if (i === -1) return -1;
    }
    // After a value: close containers, or move to the next element.
    for (;;) {
      if (depth === 0) return i;
      i = skipWhitespace(bytes, i, end);
      if (i >= end) return -1;
      c = bytes[i]!;
      const inObject = (objects & (1 << depth)) !== 0;
      if (c === COMMA) {
        i = skipWhitespace(bytes, i + 1, end);
        if (inObject) {
          i = skipMemberName(bytes, i, end);
          if (i === -1) return -1;
        }
        break;
      }
      if (c !== (inObject ? CLOSE_OBJECT : CLOSE_ARRAY)) return -1;
      i++;
      depth--;
    }
  }
}

/** From a member's name to the start of its value (`"name" : `), or -1. */
function skipMemberName(bytes: Uint8Array, i: number, end: number): number {
  if (i >= end || bytes[i] !== QUOTE) return -1;
  const close = scanString(bytes, i + 1, end);
  if (close === -1) return -1;
  i = skipWhitespace(bytes, close + 1, end);
  if (i >= end || bytes[i] !== COLON) return -1;
  i = skipWhitespace(bytes, i + 1, end);
  return i < end ? i : -1;
}

/** The state (see `FastPathCross`) of the value `scanValue` checked last: its enum index + 1, 2 for `false`, else 1. */
let valueState = 0;
/**
 * Index past a non-negative integer written as plain digits (at most `MAX_INTEGER_DIGITS`) starting
 * at `i`, or -1; its value is not computed (see `readDigits`).
 */
function skipInteger(bytes: Uint8Array, i: number, end: number): number {
  const from = i;
  if (bytes[i] === ZERO) i++;
  else while (i < end && (bytes[i]! - ZERO) >>> 0 <= 9) i++;
  if (i === from || i - from > MAX_INTEGER_DIGITS) return -1;
  if (i < end) {
    const next = bytes[i]!;
    if (next === DOT || next === LOWER_E || next === UPPER_E || (next >= ZERO && next <= NINE)) return -1;
  }
  return i;
}

/** The value of the plain digits `skipInteger` accepted at `bytes[i…)`. */
function readDigits(bytes: Uint8Array, i: number): number {
  let value = 0;
  for (let d = bytes[i]! - ZERO; d >= 0 && d <= 9; d = bytes[++i]! - ZERO) value = value * 10 + d;
  return value;
}

/** The value of the integer `scanInteger` read last. */
let integerValue = 0;

/**
 * Index past a non-negative integer written as plain digits starting at `i`, or -1; sets
 * `integerValue`. `-0`, `1.0`, `1e2` and the like are integers to the validator too, but are rare
 * enough to leave to it; more than `MAX_INTEGER_DIGITS` digits may not be exact in a double.
 */
function scanInteger(bytes: Uint8Array, i: number, end: number): number {
  let value = 0;
  const from = i;
  if (bytes[i] === ZERO) {
    i++;
  } else {
    while (i < end) {
      const d = bytes[i]!;
      if (d < ZERO || d > NINE) break;
      value = value * 10 + (d - ZERO);
      i++;
    }
    if (i === from || i - from > MAX_INTEGER_DIGITS) return -1;
  }
  if (i < end) {
    const next = bytes[i]!;
    if (next === DOT || next === LOWER_E || next === UPPER_E || (next >= ZERO && next <= NINE)) return -1;
  }
  integerValue = value;
  return i;
}
/** The field `lookUpKey` found, or `undefined` for a name the type does not declare. */
let foundField: CompiledField | undefined;

/**
 * Index past the value of `field` starting at `i` (which is < `end`), or -1 when it does not
 * certainly pass the field's check. `budget`: the nesting the value may have (a scalar is 0).
 */
function scanValue(field: CompiledField, bytes: Uint8Array, i: number, end: number, budget: number): number {
  const kind = field.kind;
  valueState = 1;
  if (kind === STRING) {
    if (bytes[i] !== QUOTE) return -1;
    const close = scanString(bytes, i + 1, end);
    return close === -1 ? -1 : close + 1;
  }
  if (kind === ENUM) {
    if (bytes[i] !== QUOTE) return -1;
    const from = i + 1;
    const close = scanString(bytes, from, end);
    if (close === -1 || escaped) return -1;
    for (let k = 0; k < field.values.length; k++) {
      const v = field.values[k]!;
      if (v.length === close - from && sameBytes(bytes, from, v)) {
        valueState = k + 1;
        return close + 1;
      }
    }
    return -1;
  }
  if (kind === INTEGER) {
    const after = scanInteger(bytes, i, end);
    return after === -1 || integerValue < field.minimum ? -1 : after;
  }
  if (kind === JSON_VALUE || kind === JSON_OBJECT) {
    if (kind === JSON_OBJECT && bytes[i] !== OPEN_OBJECT) return -1;
    return skipValue(bytes, i, end, budget);
  }
  if (kind === BOOLEAN || kind === TRUE || kind === FALSE) {
    const c0 = bytes[i];
    const literal = c0 === 0x74 && kind !== FALSE ? TRUE_BYTES : c0 === 0x66 && kind !== TRUE ? FALSE_BYTES : null;
    if (literal === null) return -1;
    // A boolean's states are true (1) and false (2); a const has one.
    if (kind === BOOLEAN && literal === FALSE_BYTES) valueState = 2;
    return literalEnd(bytes, i, end, literal);
  }
  if (kind === UNION_ARRAY) {
    const after = scanUnionArray(field.union!, bytes, i, end, budget);
    valueState = 1;
    return after;
  }
  if (kind === UNION_OBJECT) {
    const after = scanUnionObject(field.union!, bytes, i, end, budget);
    valueState = 1;
    return after;
  }
  return -1;
}

/**
 * From a key's first byte after its opening quote to its closing quote, or -1 to defer; sets
 * `foundField`. Names are plain ASCII: a key is looked up only when it is too; an escape could
 * spell a known name, so it defers; any other key can only be a field the table does not name.
 */
function lookUpKey(type: CompiledType, bytes: Uint8Array, keyStart: number, end: number): number {
  foundField = undefined;
  let keyEnd = keyStart;
  for (; keyEnd < end; keyEnd++) {
    const b = bytes[keyEnd]!;
    if (b === QUOTE) break;
    if (b === BACKSLASH) return -1;
    if (b < 0x20 || b >= 0x80) {
      keyEnd = scanString(bytes, keyStart, end);
      return keyEnd === -1 || escaped ? -1 : keyEnd;
    }
  }
  if (keyEnd >= end) return -1;
  const named = type.byLength[keyEnd - keyStart];
  if (named !== undefined) {
    for (let k = 0; k < named.length; k++) {
      if (matches(bytes, keyStart, named[k]!.name)) {
        foundField = named[k];
        break;
      }
    }
  }
  return keyEnd;
}

/**
 * Index past an array of `union` objects starting at `i`, or -1 when it is not certainly valid
 * (each item's variant chosen by its tag, the first key: §7's blocks in `tool.done.content`).
 */
function scanUnionArray(union: CompiledUnion, bytes: Uint8Array, i: number, end: number, budget: number): number {
  if (budget < 1 || bytes[i] !== OPEN_ARRAY) return -1;
  i++;
  if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
  if (i >= end) return -1;
  if (bytes[i] === CLOSE_ARRAY) return i + 1;
  for (;;) {
    i = scanUnionObject(union, bytes, i, end, budget - 1);
    if (i === -1) return -1;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end) return -1;
    const c = bytes[i]!;
    if (c === CLOSE_ARRAY) return i + 1;
    if (c !== COMMA) return -1;
    i++;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end) return -1;
  }
}

/**
 * Index past one object of `union` starting at `i`, or -1. Its tag must come first, unescaped: a
 * known tag selects its variant (or defers, for one the table cannot judge); an unknown one is
 * refused by the producer-strict validator (defer) and, in an open union (consumer-lenient,
 * §0.2), makes any object with that string tag valid.
 */
function scanUnionObject(union: CompiledUnion, bytes: Uint8Array, i: number, end: number, budget: number): number {
  if (budget < 1 || bytes[i] !== OPEN_OBJECT) return -1;
  i++;
  if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
  const tagKey = union.tagKeyTail;
  if (i + 1 + tagKey.length > end || bytes[i] !== QUOTE || !matches(bytes, i + 1, tagKey)) return -1;
  i = i + 1 + tagKey.length;
  if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
  if (i >= end || bytes[i] !== COLON) return -1;
  i++;
  if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
  if (i >= end || bytes[i] !== QUOTE) return -1;
  const from = i + 1;
  const close = scanString(bytes, from, end);
  if (close === -1 || escaped) return -1;
  const tags = union.byLength[close - from];
  if (tags !== undefined) {
    for (let k = 0; k < tags.length; k++) {
      const tag = tags[k]!;
      if (sameBytes(bytes, from, tag.bytes)) return tag.variant === null ? -1 : scanMembers(tag.variant, bytes, close + 1, end, budget - 1);
    }
  }
  return union.open ? skipOpenMembers(union, bytes, close + 1, end, budget - 1) : -1;
}

/** From after a variant's tag value to past its closing brace, checking its fields; or -1. */
function scanMembers(type: CompiledType, bytes: Uint8Array, i: number, end: number, budget: number): number {
  let seen = type.typeBit;
  let cross = 0;
  for (;;) {
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end) return -1;
    const c = bytes[i]!;
    if (c === CLOSE_OBJECT) break;
    if (c !== COMMA) return -1;
    i++;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end || bytes[i] !== QUOTE) return -1;
    const keyEnd = lookUpKey(type, bytes, i + 1, end);
    if (keyEnd === -1) return -1;
    const field = foundField;
    i = keyEnd + 1;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end || bytes[i] !== COLON) return -1;
    i++;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end) return -1;
    if (field === undefined) {
      if (type.closed) return -1;
      i = skipValue(bytes, i, end, budget);
      if (i === -1) return -1;
      continue;
    }
    // A repeated key: JSON.parse keeps the last value; rather than model that, defer.
    if ((seen & field.bit) !== 0) return -1;
    seen |= field.bit;
    i = scanValue(field, bytes, i, end, budget);
    if (i === -1) return -1;
    if (field.crossRadix !== 0) cross += field.crossRadix * valueState;
  }
  if ((seen & type.required) !== type.required) return -1;
  if (type.allowed !== null && type.allowed[cross] !== 1) return -1;
  return i + 1;
}

/**
 * From after an unknown tag's value to past the object's closing brace (any members but a second
 * tag, which `JSON.parse` would keep in place of the first), or -1.
 */
function skipOpenMembers(union: CompiledUnion, bytes: Uint8Array, i: number, end: number, budget: number): number {
  for (;;) {
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end) return -1;
    const c = bytes[i]!;
    if (c === CLOSE_OBJECT) return i + 1;
    if (c !== COMMA) return -1;
    i++;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end || bytes[i] !== QUOTE) return -1;
    const keyStart = i + 1;
    const keyEnd = scanString(bytes, keyStart, end);
    if (keyEnd === -1 || escaped) return -1;
    if (keyEnd - keyStart === union.tag.length && sameBytes(bytes, keyStart, union.tag)) return -1;
    i = keyEnd + 1;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    if (i >= end || bytes[i] !== COLON) return -1;
    i++;
    if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
    i = skipValue(bytes, i, end, budget);
    if (i === -1) return -1;
  }
}

/**
 * The scanner for one stream's posture. `check()` returns the index of the payload's type in
 * `types` when the posture's validator certainly accepts it (then `seq` holds its `seq`), or
 * `UNSURE`.
 */
export class FastPath {
  readonly #table: CompiledTable;
  /** The event types this scanner can accept, indexed as `check()` answers. */
  readonly types: readonly string[];
  /** `seq` of the last payload `check()` accepted. */
  seq = -1;
  // What is known about the buffer the last payload lay in: its word view, and a range of it that
  // is well-formed UTF-8 (checked once per chunk rather than once per payload).
  #bytes: Uint8Array | null = null;
  #words: DataView | null = null;
  #utf8From = 0;
  #utf8To = 0;
  #utf8RangeFailed = false;

  readonly #isUtf8: ((bytes: Uint8Array) => boolean) | undefined;
  /** Frames the last `scanFrames` accepted. */
  frames = 0;
  /** Nesting allowed inside a field's value: the event itself is one level of the depth cap. */
  readonly #maxNesting: number;
  #lastType: CompiledType | null = null;

  /**
   * `skip`: types always left to the validator (the gateway keeps turn tracking on parsed events).
   * `maxDepth`: the depth cap (as `exceedsJsonDepth` counts it) a payload must keep to be accepted;
   * deeper payloads go to the validator path, whose depth guard refuses them.
   * `portable`: check UTF-8 in JavaScript even where Node's native check exists, as on Web runtimes.
   * `table`: a table in place of the generated one, for tests (a wrong table must fail the proofs).
   */
  constructor(
    posture: Posture,
    skip: ReadonlySet<string> = new Set(),
    opts: { maxDepth?: number; portable?: boolean; table?: FastPathTable } = {},
  ) {
    this.#table = opts.table === undefined ? tableFor(posture, skip) : compile(opts.table.entries, opts.table.unions, skip);
    this.#maxNesting = Math.min(MAX_NESTING, (opts.maxDepth ?? DEFAULT_CAPS.maxDepth) - 1);
    this.#isUtf8 = opts.portable ? undefined : nativeIsUtf8;
    this.types = this.#table.types.map((t) => t.type);
  }

  /**
   * Drops what is remembered about the last buffer. Call it whenever a buffer may have been refilled
   * with new bytes (the stream does, per chunk): the memory is keyed by buffer identity.
   */
  forget(): void {
    this.#bytes = null;
    this.#words = null;
  }

  /**
   * Judges the frames of `chunk` from `start`, a frame boundary, up to `end`: accepts the run of
   * frames there that are each `data:` + one event payload `check` would accept + a blank line (LF
   * LF) — or, with `lines`, NDJSON lines (the payload from its `{`, then LF or CR LF) — at most
   * `maxFrameBytes` long each and at most `maxEvents` of them. Returns where the run ends (`start`
   * when no frame was accepted) and sets `frames` and `seq` (the last frame's). Anything else there
   * is for the caller's framer and `check`. One pass finds each frame's end and judges its payload,
   * so a chunk of valid frames costs no per-frame line search, call or frame bookkeeping.
   */
  scanFrames(chunk: Uint8Array, start: number, end: number, maxFrameBytes: number, maxEvents: number, lines = false): number {
    this.frames = 0;
    if (start >= end || maxEvents <= 0) return start;
    // The chunk's UTF-8 is checked once, natively, up to its last line end (see #prepare); beyond
    // that range, or without the native check, the scanner checks each multi-byte sequence itself.
    if (!this.#prepare(chunk, start, start + 1)) return start;
    utf8Known = this.#utf8From <= start && this.#utf8To > start + 1;
    const to = utf8Known ? Math.min(end, this.#utf8To) : end;
    this.#useWords(chunk);
    lineBreaksAreSpace = false;
    let i = start;
    let frames = 0;
    let seqAt = -1;
    try {
      while (frames < maxEvents) {
        let p = i;
        if (!lines) {
          // `data` as one little-endian word, then the colon.
          if (p + 6 > to || words!.getInt32(p, true) !== DATA_WORD || chunk[p + 4] !== COLON) break;
          p += chunk[p + 5] === 0x20 ? 6 : 5;
        } else if (chunk[p] !== OPEN_OBJECT) {
          break;
        }
        const limit = Math.min(to, i + maxFrameBytes);
        p = this.#scanEvent(chunk, p, limit);
        if (p === -1) break;
        if (p < limit && chunk[p]! <= 0x20) p = skipWhitespace(chunk, p, limit);
        if (p < limit && chunk[p] === 0x0a) p++;
        else if (lines && p + 1 < limit && chunk[p] === 0x0d && chunk[p + 1] === 0x0a) p += 2;
        else break;
        if (!lines) {
          if (p >= limit || chunk[p] !== 0x0a) break;
          p++;
        }
        i = p;
        frames++;
        seqAt = scannedSeqAt;
      }
    } finally {
      lineBreaksAreSpace = true;
    }
    this.frames = frames;
    if (frames > 0) this.seq = seqAt === -1 ? -1 : readDigits(chunk, seqAt);
    return i;
  }

  /** Points the scanner's word view at the buffer `#prepare` saw last, built once per buffer. */
  #useWords(bytes: Uint8Array): void {
    this.#words ??= new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    words = this.#words;
  }

  #prepare(bytes: Uint8Array, start: number, end: number): boolean {
    if (bytes !== this.#bytes) {
      this.#bytes = bytes;
      this.#words = null;
      this.#utf8From = this.#utf8To = 0;
      this.#utf8RangeFailed = false;
    }
    utf8Known = false;
    const isUtf8 = this.#isUtf8;
    if (isUtf8 === undefined) return true;
    if (start < this.#utf8From || end > this.#utf8To) {
      // Check from here to the last complete line of the buffer at once: the payloads that follow
      // in the same chunk then cost nothing. If that range is bad, each payload is checked alone.
      const lastLf = this.#utf8RangeFailed ? -1 : bytes.lastIndexOf(0x0a);
      const to = lastLf + 1 > end ? lastLf + 1 : end;
      if (to > end && isUtf8(bytes.subarray(start, to))) {
        this.#utf8From = start;
        this.#utf8To = to;
      } else {
        if (to > end) this.#utf8RangeFailed = true;
        if (!isUtf8(bytes.subarray(start, end))) return false;
        this.#utf8From = start;
        this.#utf8To = end;
      }
    }
    // A well-formed range cut where no sequence is split (the byte there is no continuation byte)
    // leaves well-formed pieces.
    utf8Known = !isContinuation(bytes[start]) && (end === this.#utf8To || !isContinuation(bytes[end]));
    return true;
  }

  /**
   * The index in `types` of the event type of the payload `bytes[start, end)` when it is certainly
   * valid, else `UNSURE`.
   */
  check(bytes: Uint8Array, start: number, end: number): number {
    if (!this.#prepare(bytes, start, end)) return UNSURE;
    this.#useWords(bytes);
    const i = this.#scanEvent(bytes, start, end);
    if (i === -1) return UNSURE;
    if (i < end && skipWhitespace(bytes, i, end) !== end) return UNSURE;
    this.seq = scannedSeqAt === -1 ? -1 : readDigits(bytes, scannedSeqAt);
    return scannedType;
  }

  /**
   * Judges the event payload at `bytes[start…)`, before `end`: the index past its closing brace when
   * it is certainly valid (then `scannedType` and `scannedSeq` hold its type's index and its `seq`),
   * else -1. What follows the brace is the caller's to check.
   */
  #scanEvent(bytes: Uint8Array, start: number, end: number): number {
    // Written flat, with whitespace skipped only where there is some: in this hot loop a call that
    // V8 does not inline costs as much as the work it does.
    let i = start;
    // The type (§4) must come first: every field's check depends on it, and producers write it first.
    // Written compactly (`{"type":"`), the opening is one comparison of three words.
    if (i + EVENT_OPENING.length <= end && matches(bytes, i, EVENT_OPENING)) {
      i += EVENT_OPENING.length - 1;
    } else {
      if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
      if (i >= end || bytes[i] !== OPEN_OBJECT) return UNSURE;
      i++;
      if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
      if (i + EVENT_TAG_KEY.length > end || !matches(bytes, i, EVENT_TAG_KEY)) return UNSURE;
      i += EVENT_TAG_KEY.length;
      if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
      if (i >= end || bytes[i] !== COLON) return UNSURE;
      i++;
      if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
      if (i >= end || bytes[i] !== QUOTE) return UNSURE;
    }
    const typeStart = i + 1;
    // Type names are plain ASCII without quote or backslash, so a byte match is the whole check.
    // Events of one type come in runs: the last type is tried first.
    const last = this.#lastType;
    let type = last;
    let typeEnd = type === null ? -1 : typeStart + type.typeBytes.length;
    if (type !== null && (typeEnd >= end || bytes[typeEnd] !== QUOTE || !matches(bytes, typeStart, type.typeBytes))) {
      // A stream's types follow each other in a pattern (text.end after the deltas, tool.start
      // after it, …): the type that followed this one last time is tried next.
      type = type.next;
      typeEnd = type === null ? -1 : typeStart + type.typeBytes.length;
      if (type !== null && (typeEnd >= end || bytes[typeEnd] !== QUOTE || !matches(bytes, typeStart, type.typeBytes))) type = null;
      if (type !== null) this.#lastType = type;
    }
    if (type === null) {
      typeEnd = typeStart;
      while (typeEnd < end && bytes[typeEnd] !== QUOTE) typeEnd++;
      const candidates = this.#table.byLength[typeEnd - typeStart];
      if (typeEnd >= end || candidates === undefined) return UNSURE;
      type = null;
      for (let k = 0; k < candidates.length; k++) {
        if (matches(bytes, typeStart, candidates[k]!.typeBytes)) {
          type = candidates[k]!;
          break;
        }
      }
      if (type === null) return UNSURE;
      if (last !== null) last.next = type;
      this.#lastType = type;
    }
    let seen = type.typeBit;
    let cross = 0;
    let seqAt = -1;
    let previous = type.typeField;
    i = typeEnd + 1;
    for (;;) {
      let field: CompiledField | undefined;
      // The member a producer wrote after the previous one last time, written compactly
      // (`,"name":`), is one compare; anything else takes the general steps.
      const guess = previous.next;
      if (guess !== null && i + guess.member.length <= end && matches(bytes, i, guess.member)) {
        field = guess;
        i += guess.member.length;
        previous = guess;
      } else {
        if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
        if (i >= end) return UNSURE;
        const c = bytes[i]!;
        if (c === CLOSE_OBJECT) break;
        if (c !== COMMA) return UNSURE;
        i++;
        if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
        if (i >= end || bytes[i] !== QUOTE) return UNSURE;
        const keyStart = i + 1;
        // Field names are plain ASCII: a key is looked up only when it is too; an escape could
        // spell a known name, so it defers; any other key can only be a field the table does not name.
        let keyEnd = keyStart;
        let plain = true;
        for (; keyEnd < end; keyEnd++) {
          const b = bytes[keyEnd]!;
          if (b === QUOTE) break;
          if (b === BACKSLASH) return UNSURE;
          if (b < 0x20 || b >= 0x80) {
            plain = false;
            break;
          }
        }
        if (plain) {
          if (keyEnd >= end) return UNSURE;
          const named = type.byLength[keyEnd - keyStart];
          if (named !== undefined) {
            for (let k = 0; k < named.length; k++) {
              if (matches(bytes, keyStart, named[k]!.name)) {
                field = named[k];
                break;
              }
            }
          }
        } else {
          keyEnd = scanString(bytes, keyStart, end);
          if (keyEnd === -1 || escaped) return UNSURE;
        }
        if (field !== undefined) previous.next = field;
        if (field !== undefined) previous = field;
        i = keyEnd + 1;
        if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
        if (i >= end || bytes[i] !== COLON) return UNSURE;
        i++;
      }
      if (i < end && bytes[i]! <= 0x20) i = skipWhitespace(bytes, i, end);
      if (i >= end) return UNSURE;
      if (field === undefined) {
        // An open (lenient) object takes any value under a name it does not declare (§0.2), as a
        // block does; nested values spend the depth cap as a declared opaque value would.
        if (type.closed) return UNSURE;
        i = skipValue(bytes, i, end, this.#maxNesting);
        if (i === -1) return UNSURE;
        continue;
      }
      // A repeated key: JSON.parse keeps the last value; rather than model that, defer.
      if ((seen & field.bit) !== 0) return UNSURE;
      seen |= field.bit;
      const kind = field.kind;
      if (kind === STRING) {
        if (bytes[i] !== QUOTE) return UNSURE;
        const close = scanString(bytes, i + 1, end);
        if (close === -1) return UNSURE;
        i = close + 1;
      } else if (kind === INTEGER) {
        const from = i;
        i = skipInteger(bytes, i, end);
        if (i === -1 || (field.minimum > 0 && readDigits(bytes, from) < field.minimum)) return UNSURE;
        if (field.isSeq) seqAt = from;
      } else {
        i = scanValue(field, bytes, i, end, this.#maxNesting);
        if (i === -1) return UNSURE;
      }
      if (field.crossRadix !== 0) cross += field.crossRadix * (kind === STRING || kind === INTEGER ? 1 : valueState);
    }
    if ((seen & type.required) !== type.required) return UNSURE;
    if (type.allowed !== null && type.allowed[cross] !== 1) return UNSURE;
    scannedSeqAt = seqAt;
    scannedType = type.index;
    return i + 1;
  }
}
