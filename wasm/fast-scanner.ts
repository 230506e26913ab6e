// AssemblyScript source of the gateway's WebAssembly scanner (compiled by `agjson gen` into
// generated/fast-scanner.wasm.ts; see src/gateway/wasm-scanner.ts for the JavaScript side).
//
// It judges event payloads against the fast-path table on their bytes — string contents sixteen
// at a time — with the rules of the JavaScript scanner (src/gateway/fast-path.ts): strings, enums,
// integers, booleans, opaque values and bags, tagged unions and arrays of them, undeclared fields
// of open (lenient) objects, cross-field tables, the depth cap. It answers -1 on anything it cannot
// be sure of — an `unchecked` field, a variant the table leaves out, an escaped key, a doubtful
// number, a non-ASCII byte in a payload whose UTF-8 the caller has not checked — and the JavaScript
// scanner then judges the payload: -1 is never a refusal, and a payload is accepted here only when
// the JavaScript scanner accepts it too (fast-path.test.ts holds both to the validators).
//
// A payload shaped like the last one its type accepted (same bytes but for its strings and
// integers) is judged against that template, with no key lookup (see "Templates" below).
//
// `scanFrames` runs the same check over consecutive SSE frames (`data: …` then a blank line) or
// NDJSON lines of one chunk, so a chunk of valid events costs one call rather than one per event.
//
// Memory (one linear memory, addresses absolute): [0, 64) the outputs below; [64, 320) scratch for
// templates (below); the table that the JavaScript side lays out from the compiled fast-path table,
// from 320; then the bytes being judged.

const QUOTE: u32 = 0x22;
const BACKSLASH: u32 = 0x5c;
const LF: u32 = 0x0a;

// Field kinds, as src/gateway/wasm-scanner.ts writes them.
const STRING: i32 = 0;
const ENUM: i32 = 1;
const INTEGER: i32 = 2;
const BOOLEAN: i32 = 3;
const TRUE: i32 = 4;
const FALSE: i32 = 5;
/** Any JSON value (§0.1's opaque value). */
const JSON_VALUE: i32 = 6;
/** Any JSON object (an open bag such as `_meta`). */
const JSON_OBJECT: i32 = 7;
/** An array of objects of a tagged union (`tool.done`'s content blocks). */
const UNION_ARRAY: i32 = 9;
/** One object of a tagged union (`content.block`'s block, a media block's source). */
const UNION_OBJECT: i32 = 10;

/** Output: the `seq` of the last payload accepted (f64, exact up to 15 digits). */
const SEQ_ADDRESS: i32 = 8;
/** Output of `scanFrames`: the number of frames it accepted (i32). */
const COUNT_ADDRESS: i32 = 16;
/** Output of `scanFrames`: the address of the payload it stopped at for not judging it, else 0. */
const DECLINED_ADDRESS: i32 = 20;
/** Output: payloads accepted by a template (u32, wrapping): for tests and measurements. */
const TEMPLATE_HITS_ADDRESS: i32 = 24;

// Per-call context.
let escaped: bool = false;
let utf8Ok: bool = false;
let highMask: v128 = i8x16.splat(0);
/** In an SSE data line, CR and LF end the line: they are not whitespace inside the payload. */
let lineBreaksAreSpace: bool = true;
let seqOut: f64 = -1;

@inline function byte(p: i32): u32 {
  return <u32>load<u8>(p);
}

@inline function isSpace(c: u32): bool {
  return c == 0x20 || c == 0x09 || (lineBreaksAreSpace && (c == 0x0a || c == 0x0d));
}

@inline function skipSpace(i: i32, end: i32): i32 {
  while (i < end && isSpace(byte(i))) i++;
  return i;
}

@inline function isHex(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6;
}

@inline function sameBytes(a: i32, b: i32, n: i32): bool {
  let k = 0;
  for (; k + 8 <= n; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
  for (; k < n; k++) if (load<u8>(a + k) != load<u8>(b + k)) return false;
  return true;
}

/** Bit c of the pair is set for each c that may follow a backslash alone: `"` `/` (low word), `\` b f n r t (high word). */
const SIMPLE_ESCAPES_LOW: u64 = (<u64>1 << 0x22) | (<u64>1 << 0x2f);
const SIMPLE_ESCAPES_HIGH: u64 = (<u64>1 << (0x5c - 64)) | (<u64>1 << (0x62 - 64)) | (<u64>1 << (0x66 - 64)) | (<u64>1 << (0x6e - 64)) | (<u64>1 << (0x72 - 64)) | (<u64>1 << (0x74 - 64));

/**
 * Index of the quote closing the JSON string whose content starts at `i`, or -1 when it is not
 * certainly well-formed (raw control byte, unknown escape, short `\u`, no closing quote before
 * `end`, or a byte >= 0x80 while the UTF-8 is unchecked). Sets `escaped`.
 */
function scanString(i: i32, end: i32): i32 {
  escaped = false;
  const quotes = i8x16.splat(0x22);
  const slashes = i8x16.splat(0x5c);
  const controls = i8x16.splat(0x20);
  const high = highMask;
  while (true) {
    // Sixteen bytes at a time while none is a quote, a backslash, a control byte (or, with the
    // UTF-8 unchecked, >= 0x80).
    while (i + 16 <= end) {
      const v = v128.load(i);
      const hit = v128.or(v128.or(i8x16.eq(v, quotes), i8x16.eq(v, slashes)), v128.or(i8x16.lt_u(v, controls), v128.and(v, high)));
      const mask = i8x16.bitmask(hit);
      if (mask != 0) {
        i += ctz(mask);
        break;
      }
      i += 16;
    }
    if (i >= end) return -1;
    const c = byte(i);
    if (c == QUOTE) return i;
    if (c == BACKSLASH) {
      escaped = true;
      if (i + 1 >= end) return -1;
      const e = byte(i + 1);
      // The one-character escapes (" / \ b f n r t) as bits of two words: one test, not eight.
      if (e < 128 && ((e < 64 ? SIMPLE_ESCAPES_LOW : SIMPLE_ESCAPES_HIGH) >> <u64>(e & 63)) & 1) {
        i += 2;
      } else if (e == 0x75) {
        if (i + 5 >= end || !isHex(byte(i + 2)) || !isHex(byte(i + 3)) || !isHex(byte(i + 4)) || !isHex(byte(i + 5))) return -1;
        i += 6;
      } else {
        return -1;
      }
      continue;
    }
    if (c < 0x20 || (c >= 0x80 && !utf8Ok)) return -1;
    i++;
  }
  return -1;
}

@inline function skipDigits(i: i32, end: i32): i32 {
  while (i < end && byte(i) - 0x30 <= 9) i++;
  return i;
}

/** Index past the JSON number starting at `i`, or -1 when it is not one (RFC 8259 §6 grammar). */
function skipNumber(i: i32, end: i32): i32 {
  if (i < end && byte(i) == 0x2d) i++;
  if (i >= end) return -1;
  const c = byte(i);
  if (c == 0x30) i++;
  else if (c - 0x31 <= 8) i = skipDigits(i + 1, end);
  else return -1;
  if (i < end && byte(i) == 0x2e) {
    const from = i + 1;
    i = skipDigits(from, end);
    if (i == from) return -1;
  }
  if (i < end && (byte(i) | 0x20) == 0x65) {
    i++;
    if (i < end && (byte(i) == 0x2b || byte(i) == 0x2d)) i++;
    const from = i;
    i = skipDigits(from, end);
    if (i == from) return -1;
  }
  return i;
}

/** Index past a scalar JSON value at `i` (< `end`), or -1. */
function skipScalar(i: i32, end: i32): i32 {
  const c = byte(i);
  if (c == QUOTE) {
    const close = scanString(i + 1, end);
    return close < 0 ? -1 : close + 1;
  }
  if (c == 0x74) return i + 4 <= end && load<u32>(i) == 0x65757274 ? i + 4 : -1;
  if (c == 0x66) return i + 5 <= end && load<u32>(i) == 0x736c6166 && byte(i + 4) == 0x65 ? i + 5 : -1;
  if (c == 0x6e) return i + 4 <= end && load<u32>(i) == 0x6c6c756e ? i + 4 : -1;
  return skipNumber(i, end);
}

/** From a member's name to the start of its value (`"name" : `), or -1. */
function skipMemberName(i: i32, end: i32): i32 {
  if (i >= end || byte(i) != QUOTE) return -1;
  const close = scanString(i + 1, end);
  if (close < 0) return -1;
  i = skipSpace(close + 1, end);
  if (i >= end || byte(i) != 0x3a) return -1;
  i = skipSpace(i + 1, end);
  return i < end ? i : -1;
}

/**
 * Index past the JSON value starting at `i`, or -1 when it is not well-formed JSON or nests deeper
 * than `maxNesting` levels (a scalar is 0, `{}` is 1): `skipValue` of src/gateway/fast-path.ts.
 * Iterative: the kind of each open container is one bit of `objects`.
 */
function skipValue(i: i32, end: i32, maxNesting: i32): i32 {
  let depth = 0;
  let objects: u32 = 0;
  while (true) {
    // At the start of a value.
    if (i >= end) return -1;
    let c = byte(i);
    if (c == 0x7b || c == 0x5b) {
      if (++depth > maxNesting) return -1;
      const isObject = c == 0x7b;
      objects = isObject ? objects | (<u32>1 << depth) : objects & ~(<u32>1 << depth);
      i = skipSpace(i + 1, end);
      if (i >= end) return -1;
      if (byte(i) == (isObject ? 0x7d : 0x5d)) {
        i++;
        depth--;
      } else {
        if (isObject) {
          i = skipMemberName(i, end);
          if (i < 0) return -1;
        }
        continue;
      }
    } else {
      i = skipScalar(i, end);
      if (i < 0) return -1;
    }
    // After a value: close containers, or move to the next element.
    while (true) {
      if (depth == 0) return i;
      i = skipSpace(i, end);
      if (i >= end) return -1;
      c = byte(i);
      const inObject = (objects & (<u32>1 << depth)) != 0;
      if (c == 0x2c) {
        i = skipSpace(i + 1, end);
        if (inObject) {
          i = skipMemberName(i, end);
          if (i < 0) return -1;
        }
        break;
      }
      if (c != (inObject ? 0x7d : 0x5d)) return -1;
      i++;
      depth--;
    }
  }
  return -1;
}

/** The state (see the cross-field table) of the value `scanFieldValue` checked last. */
let valueState: i32 = 0;
/** The value of the integer `scanFieldValue` read last. */
let integerValue: i64 = 0;
/** The field record `lookUpKey` found, or 0. */
let foundField: i32 = 0;

/**
 * Index past the integer of field record `field` at `i` (< `end`), or -1: plain digits only, at
 * most 15 (exact in a double), no leading zero, at least the field's minimum; -0, 1.0, 1e2 defer.
 * Sets `integerValue`.
 */
@inline function scanInteger(field: i32, i: i32, end: i32): i32 {
  let value: i64 = 0;
  const from = i;
  if (byte(i) == 0x30) {
    i++;
  } else {
    while (i < end) {
      const d = byte(i) - 0x30;
      if (d > 9) break;
      value = value * 10 + <i64>d;
      i++;
    }
    if (i == from || i - from > 15) return -1;
  }
  if (i < end) {
    const next = byte(i);
    if (next == 0x2e || next == 0x65 || next == 0x45 || next - 0x30 <= 9) return -1;
  }
  if (value < <i64>load<i32>(field + 12)) return -1;
  integerValue = value;
  return i;
}

/**
 * Index past the value of field record `field` starting at `i` (< `end`), or -1 when it does not
 * certainly pass the field's check (inlined into its two callers: 6–11% off a frame's scan); `budget`: the nesting the value may have (a scalar is 0). Sets
 * `valueState` and, for an integer, `integerValue`.
 */
@inline function scanFieldValue(field: i32, i: i32, end: i32, budget: i32): i32 {
  const kind = load<i32>(field + 8);
  const c = byte(i);
  valueState = 1;
  if (kind == STRING) {
    if (c != QUOTE) return -1;
    const close = scanString(i + 1, end);
    return close < 0 ? -1 : close + 1;
  }
  if (kind == INTEGER) return scanInteger(field, i, end);
  if (kind == ENUM) {
    if (c != QUOTE) return -1;
    const from = i + 1;
    const close = scanString(from, end);
    if (close < 0 || escaped) return -1;
    const n = load<i32>(field + 28);
    const len = close - from;
    for (let k = 0; k < n; k++) {
      if (load<i32>(field + 48 + 8 * k) == len && sameBytes(from, load<i32>(field + 52 + 8 * k), len)) {
        valueState = k + 1;
        return close + 1;
      }
    }
    return -1;
  }
  if (kind == BOOLEAN || kind == TRUE || kind == FALSE) {
    if (c == 0x74 && kind != FALSE) {
      return i + 4 <= end && load<u32>(i) == 0x65757274 ? i + 4 : -1;
    }
    if (c == 0x66 && kind != TRUE) {
      if (i + 5 > end || load<u32>(i) != 0x736c6166 || byte(i + 4) != 0x65) return -1;
      // A boolean's states are true (1) and false (2); a const has one.
      if (kind == BOOLEAN) valueState = 2;
      return i + 5;
    }
    return -1;
  }
  if (kind == JSON_VALUE || (kind == JSON_OBJECT && c == 0x7b)) return skipValue(i, end, budget);
  if (kind == UNION_ARRAY) return scanUnionArray(load<i32>(field + 44), i, end, budget);
  if (kind == UNION_OBJECT) return scanUnionObject(load<i32>(field + 44), i, end, budget);
  // Unchecked fields, a bag that is not an object: the JavaScript scanner's.
  return -1;
}

/** An array of `union` objects at `i`, or -1 (each item's variant chosen by its tag, its first key). */
function scanUnionArray(union: i32, i: i32, end: i32, budget: i32): i32 {
  if (budget < 1 || byte(i) != 0x5b) return -1;
  i = skipSpace(i + 1, end);
  if (i >= end) return -1;
  if (byte(i) == 0x5d) return i + 1;
  while (true) {
    i = scanUnionObject(union, i, end, budget - 1);
    if (i < 0) return -1;
    i = skipSpace(i, end);
    if (i >= end) return -1;
    const c = byte(i);
    if (c == 0x5d) return i + 1;
    if (c != 0x2c) return -1;
    i = skipSpace(i + 1, end);
    if (i >= end) return -1;
  }
  return -1;
}

/**
 * One object of `union` at `i`, or -1. Its tag comes first, unescaped: a known tag selects its
 * variant (or defers, for one the table leaves out); an unknown one defers in a closed (strict)
 * union and, in an open (lenient) one, makes any object with that string tag valid.
 *
 * Union record: tag length, tag address, open, longest tag, then per tag length the address of a
 * bucket (count, then per tag: its address and its variant's type record, or 0 when it defers).
 */
function scanUnionObject(union: i32, i: i32, end: i32, budget: i32): i32 {
  if (budget < 1 || byte(i) != 0x7b) return -1;
  i = skipSpace(i + 1, end);
  const tagLen = load<i32>(union);
  if (i + 2 + tagLen > end || byte(i) != QUOTE || byte(i + 1 + tagLen) != QUOTE || !sameBytes(i + 1, load<i32>(union + 4), tagLen)) return -1;
  i = skipSpace(i + 2 + tagLen, end);
  if (i >= end || byte(i) != 0x3a) return -1;
  i = skipSpace(i + 1, end);
  if (i >= end || byte(i) != QUOTE) return -1;
  const from = i + 1;
  const close = scanString(from, end);
  if (close < 0 || escaped) return -1;
  const len = close - from;
  if (len <= load<i32>(union + 12)) {
    const bucket = load<i32>(union + 16 + 4 * len);
    if (bucket != 0) {
      const count = load<i32>(bucket);
      for (let k = 0; k < count; k++) {
        if (sameBytes(from, load<i32>(bucket + 4 + 8 * k), len)) {
          const variant = load<i32>(bucket + 8 + 8 * k);
          return variant == 0 ? -1 : scanMembers(variant, close + 1, end, budget - 1);
        }
      }
    }
  }
  return load<i32>(union + 8) != 0 ? skipOpenMembers(union, close + 1, end, budget - 1) : -1;
}

/** The field record of type record `type` named by the `len` bytes at `name`, or 0. */
@inline function findField(type: i32, name: i32, len: i32): i32 {
  if (len > load<i32>(type + 28)) return 0;
  const fields = load<i32>(type + 40 + 4 * len);
  if (fields == 0) return 0;
  const count = load<i32>(fields);
  for (let k = 0; k < count; k++) {
    const f = load<i32>(fields + 4 + 4 * k);
    if (sameBytes(name, load<i32>(f + 4), len)) return f;
  }
  return 0;
}

/**
 * From a key's first byte (after its opening quote) to its closing quote, or -1 to defer; sets
 * `foundField` (0 for a name `type` does not declare). Names are plain ASCII: a key is looked up
 * only when it is too; an escape could spell a known name, so it defers.
 */
function lookUpKey(type: i32, keyStart: i32, end: i32): i32 {
  foundField = 0;
  let keyEnd = keyStart;
  for (; keyEnd < end; keyEnd++) {
    const b = byte(keyEnd);
    if (b == QUOTE) break;
    if (b == BACKSLASH) return -1;
    if (b < 0x20 || b >= 0x80) {
      keyEnd = scanString(keyStart, end);
      return keyEnd < 0 || escaped ? -1 : keyEnd;
    }
  }
  if (keyEnd >= end) return -1;
  foundField = findField(type, keyStart, keyEnd - keyStart);
  return keyEnd;
}

/** From after a variant's tag value to past its closing brace, checking its fields; or -1. */
function scanMembers(type: i32, i: i32, end: i32, budget: i32): i32 {
  const flags = load<i32>(type + 32);
  if ((flags & 2) != 0) return -1;
  let seen: i32 = load<i32>(type + 20);
  let cross: i32 = 0;
  while (true) {
    i = skipSpace(i, end);
    if (i >= end) return -1;
    const c = byte(i);
    if (c == 0x7d) break;
    if (c != 0x2c) return -1;
    i = skipSpace(i + 1, end);
    if (i >= end || byte(i) != QUOTE) return -1;
    const keyEnd = lookUpKey(type, i + 1, end);
    if (keyEnd < 0) return -1;
    const field = foundField;
    i = skipSpace(keyEnd + 1, end);
    if (i >= end || byte(i) != 0x3a) return -1;
    i = skipSpace(i + 1, end);
    if (i >= end) return -1;
    if (field == 0) {
      if ((flags & 1) != 0) return -1;
      i = skipValue(i, end, budget);
      if (i < 0) return -1;
      continue;
    }
    // A repeated key: JSON.parse keeps the last value; rather than model that, defer.
    const bit = load<i32>(field + 16);
    if ((seen & bit) != 0) return -1;
    seen |= bit;
    i = scanFieldValue(field, i, end, budget);
    if (i < 0) return -1;
    cross += load<i32>(field + 24) * valueState;
  }
  const required = load<i32>(type + 16);
  if ((seen & required) != required) return -1;
  const allowed = load<i32>(type + 24);
  if (allowed != 0 && load<u8>(allowed + cross) != 1) return -1;
  return i + 1;
}

/**
 * From after an unknown tag's value to past the object's closing brace (any members but a second
 * tag, which `JSON.parse` would keep in place of the first), or -1.
 */
function skipOpenMembers(union: i32, i: i32, end: i32, budget: i32): i32 {
  const tagLen = load<i32>(union);
  const tag = load<i32>(union + 4);
  while (true) {
    i = skipSpace(i, end);
    if (i >= end) return -1;
    const c = byte(i);
    if (c == 0x7d) return i + 1;
    if (c != 0x2c) return -1;
    i = skipSpace(i + 1, end);
    if (i >= end || byte(i) != QUOTE) return -1;
    const keyStart = i + 1;
    const keyEnd = scanString(keyStart, end);
    if (keyEnd < 0 || escaped) return -1;
    if (keyEnd - keyStart == tagLen && sameBytes(keyStart, tag, tagLen)) return -1;
    i = skipSpace(keyEnd + 1, end);
    if (i >= end || byte(i) != 0x3a) return -1;
    i = skipSpace(i + 1, end);
    i = skipValue(i, end, budget);
    if (i < 0) return -1;
  }
  return -1;
}

/** Whether the `len` bytes at `a` equal those at `b` (the memory is padded: 8-byte loads past `a + len` are safe). */
@inline function samePrefix(a: i32, b: i32, len: i32): bool {
  if (len <= 8) {
    const mask: u64 = len == 8 ? <u64>-1 : (<u64>1 << (<u64>len * 8)) - 1;
    return ((load<u64>(a) ^ load<u64>(b)) & mask) == 0;
  }
  return load<u64>(a) == load<u64>(b) && sameBytes(a + 8, b + 8, len - 8);
}

// Templates. A producer writes every event of a type the same way but for a few values: the
// same keys in the same order, the same enum values, the same whitespace. When `scanObject` accepts
// a payload, it keeps it in its type's template area as constant segments around the values that
// vary (strings and integers); a later payload whose bytes equal every segment and whose variable
// values pass their field's check is accepted with no key lookup at all. That is exactly the
// general path's verdict: equal bytes at the same places parse the same (keys, their order, every
// constant value, so the required set, repeated keys and the cross-field states too), and a string
// or integer value passes its field's check on its own (a string's state is always 1, an
// integer's too). What could differ is guarded: the depth cap (a template serves a call whose
// nesting allowance is at least the one it was learned under) and line breaks (never kept in a
// segment: an SSE data line or NDJSON line ends at one, and `check` takes them as whitespace).
// UTF-8 needs no guard: segments begin and end at ASCII bytes, so a segment equal to one of a
// well-formed payload is well-formed wherever it lies; the variable strings are checked anew.
//
// Template area (JavaScript allocates TEMPLATE_AREA bytes per event type; the type record's word 9
// holds its address): present (0/1), slot count, tail length, tail offset, the nesting allowance
// it was learned under, then per slot (segment length, segment offset, field record), then the
// segments' bytes. A slot is the segment before a variable value (a string's segment ends with its
// opening quote, and the next segment starts with its closing quote); the tail is what follows the
// last value up to and including the closing brace.

/** Bytes of one type's template area (the JavaScript side allocates it; see wasm-scanner.ts). */
const TEMPLATE_AREA: i32 = 768;
const MAX_SLOTS: i32 = 16;
const SLOTS_AT: i32 = 20;
const BYTES_AT: i32 = SLOTS_AT + 12 * MAX_SLOTS;
/** Scratch: the variable values of the payload being scanned (start, end, field record each). */
const SCRATCH_ADDRESS: i32 = 64;
/** Variable values recorded so far for the payload being scanned; -1 once it cannot be a template. */
let slotCount: i32 = 0;

/** Whether the `len` bytes at `a` equal those at `b` (8-byte loads; the memory is padded). */
@inline function sameSegment(a: i32, b: i32, len: i32): bool {
  if (len >= 8) {
    for (let k = 0; k + 8 < len; k += 8) if (load<u64>(a + k) != load<u64>(b + k)) return false;
    return load<u64>(a + len - 8) == load<u64>(b + len - 8);
  }
  if (len == 0) return true;
  const mask: u64 = (<u64>1 << (<u64>len * 8)) - 1;
  return ((load<u64>(a) ^ load<u64>(b)) & mask) == 0;
}

/** Index past the object at `p` when it fits template `tpl`, else -1; sets `seqOut`. */
function matchTemplate(tpl: i32, p: i32, end: i32): i32 {
  let seq: f64 = -1;
  const n = load<i32>(tpl + 4);
  for (let k = 0; k < n; k++) {
    const slot = tpl + SLOTS_AT + 12 * k;
    const len = load<i32>(slot);
    if (p + len >= end || !sameSegment(p, tpl + load<i32>(slot + 4), len)) return -1;
    p += len;
    const field = load<i32>(slot + 8);
    if (load<i32>(field + 8) == STRING) {
      // At the string's content; the next segment starts with its closing quote.
      p = scanString(p, end);
    } else {
      p = scanInteger(field, p, end);
      if (load<i32>(field + 20) != 0) seq = <f64>integerValue;
    }
    if (p < 0) return -1;
  }
  const tail = load<i32>(tpl + 8);
  if (p + tail > end || !sameSegment(p, tpl + load<i32>(tpl + 12), tail)) return -1;
  seqOut = seq;
  store<u32>(TEMPLATE_HITS_ADDRESS, load<u32>(TEMPLATE_HITS_ADDRESS) + 1);
  return p + tail;
}

/** Whether the `len` bytes at `a` hold no line break. */
@inline function noLineBreak(a: i32, len: i32): bool {
  for (let k = 0; k < len; k++) {
    const c = byte(a + k);
    if (c == LF || c == 0x0d) return false;
  }
  return true;
}

/**
 * Keeps the payload [start, end), just accepted, as template `tpl`, its variable values being the
 * `slotCount` recorded at SCRATCH_ADDRESS; leaves `tpl` as it is when the payload does not fit.
 */
function learnTemplate(tpl: i32, start: i32, end: i32, maxNesting: i32): void {
  const n = slotCount;
  if (n < 0) return;
  let size = end - start;
  for (let k = 0; k < n; k++) size -= load<i32>(SCRATCH_ADDRESS + 12 * k + 4) - load<i32>(SCRATCH_ADDRESS + 12 * k);
  if (BYTES_AT + size > TEMPLATE_AREA) return;
  // Only `check` takes line breaks as whitespace; in `scanFrames` an accepted payload has none
  // (strings refuse control bytes), so the byte loop runs only where one could be.
  if (lineBreaksAreSpace && !noLineBreak(start, end - start)) return;
  let from = start;
  let at = BYTES_AT;
  for (let k = 0; k < n; k++) {
    const valueStart = load<i32>(SCRATCH_ADDRESS + 12 * k);
    const len = valueStart - from;
    memory.copy(tpl + at, from, len);
    const slot = tpl + SLOTS_AT + 12 * k;
    store<i32>(slot, len);
    store<i32>(slot + 4, at);
    store<i32>(slot + 8, load<i32>(SCRATCH_ADDRESS + 12 * k + 8));
    at += len;
    from = load<i32>(SCRATCH_ADDRESS + 12 * k + 4);
  }
  memory.copy(tpl + at, from, end - from);
  store<i32>(tpl + 4, n);
  store<i32>(tpl + 8, end - from);
  store<i32>(tpl + 12, at);
  store<i32>(tpl + 16, maxNesting);
  store<i32>(tpl, 1);
}

/** Records the variable value [start, end) of `field` for `learnTemplate`. */
@inline function noteValue(field: i32, start: i32, end: i32): void {
  const n = slotCount;
  if (n < 0) return;
  if (n == MAX_SLOTS) {
    slotCount = -1;
    return;
  }
  store<i32>(SCRATCH_ADDRESS + 12 * n, start);
  store<i32>(SCRATCH_ADDRESS + 12 * n + 4, end);
  store<i32>(SCRATCH_ADDRESS + 12 * n + 8, field);
  slotCount = n + 1;
}

/** The type record the last payload had: producers send runs of one type. */
let lastType: i32 = 0;
let typeOut: i32 = -1;

/**
 * Index past the event object starting at `i` (whitespace before it skipped), or -1; sets
 * `typeOut` (the type's index) and `seqOut`.
 *
 * Table layout (written by src/gateway/wasm-scanner.ts). Header: the longest type name, then per
 * name length the address of a bucket (count, then type record addresses), or 0. Type record:
 * index, name length, name address, the hint slot (below), required mask, the type field's bit,
 * address of the cross-field table or 0, longest field name, flags (1: closed, no undeclared
 * field; 2: a required field is of a kind this scanner does not judge, so it never accepts the type), the
 * address of its template area (an event type's; 0 for a union's variant), then per name length the address of a field bucket (count, then field record addresses), or 0. Field record: name length, name address,
 * kind, minimum, bit, is `seq`, cross-field radix, enum value count, the hint slot, the address and
 * length of the field's key pattern `,"name":`, the union record of a union field (or 0), then
 * (length, address) per enum value.
 *
 * Hint slots: a producer writes an event type's fields in one order, so each type and field
 * remembers the field that followed it last time, and the next key is first compared with that
 * field's whole key pattern, eight bytes at a time. A hint only saves work: a key that matches the
 * pattern is exactly that field's name, as the general lookup would have found it.
 */
function scanObject(table: i32, i: i32, end: i32, maxNesting: i32): i32 {
  const objectStart = i;
  // A run of one type: the last type's template first, before anything is looked up.
  const last = lastType;
  let tried = 0;
  if (last != 0) {
    tried = load<i32>(last + 36);
    if (tried != 0 && load<i32>(tried) != 0 && maxNesting >= load<i32>(tried + 16)) {
      const after = matchTemplate(tried, i, end);
      if (after >= 0) {
        typeOut = load<i32>(last);
        return after;
      }
    }
  }
  let typeStart: i32;
  // `{"type":"` as one word and a byte (little-endian), or the general form with whitespace.
  if (i + 9 <= end && load<u64>(i) == 0x3a2265707974227b && byte(i + 8) == QUOTE) {
    typeStart = i + 9;
  } else {
    i = skipSpace(i, end);
    if (i >= end || byte(i) != 0x7b) return -1;
    i = skipSpace(i + 1, end);
    // The type comes first, as `"type"` (quote t y p e quote).
    if (i + 6 > end || load<u32>(i) != 0x70797422 || load<u16>(i + 4) != 0x2265) return -1;
    i = skipSpace(i + 6, end);
    if (i >= end || byte(i) != 0x3a) return -1;
    i = skipSpace(i + 1, end);
    if (i >= end || byte(i) != QUOTE) return -1;
    typeStart = i + 1;
  }
  let type = lastType;
  let typeEnd = 0;
  if (type != 0) {
    typeEnd = typeStart + load<i32>(type + 4);
    if (typeEnd >= end || byte(typeEnd) != QUOTE || !samePrefix(typeStart, load<i32>(type + 8), typeEnd - typeStart)) type = 0;
  }
  if (type == 0) {
    typeEnd = typeStart;
    while (typeEnd < end && byte(typeEnd) != QUOTE) typeEnd++;
    if (typeEnd >= end) return -1;
    const typeLen = typeEnd - typeStart;
    if (typeLen > load<i32>(table)) return -1;
    const bucket = load<i32>(table + 4 + 4 * typeLen);
    if (bucket == 0) return -1;
    const count = load<i32>(bucket);
    for (let k = 0; k < count; k++) {
      const t = load<i32>(bucket + 4 + 4 * k);
      if (sameBytes(typeStart, load<i32>(t + 8), typeLen)) {
        type = t;
        break;
      }
    }
    if (type == 0) return -1;
    lastType = type;
  }
  if ((load<i32>(type + 32) & 2) != 0) return -1;
  const tpl = load<i32>(type + 36);
  if (tpl != 0 && tpl != tried && load<i32>(tpl) != 0 && maxNesting >= load<i32>(tpl + 16)) {
    const after = matchTemplate(tpl, objectStart, end);
    if (after >= 0) {
      typeOut = load<i32>(type);
      return after;
    }
  }
  slotCount = tpl != 0 ? 0 : -1;
  let seen: i32 = load<i32>(type + 20);
  let cross: i32 = 0;
  let seq: f64 = -1;
  // The word holding the hint for the next key: the type's, then each field's.
  let hintSlot = type + 12;
  i = typeEnd + 1;
  while (true) {
    let field = load<i32>(hintSlot);
    if (field != 0) {
      const patternLength = load<i32>(field + 40);
      if (i + patternLength <= end && samePrefix(i, load<i32>(field + 36), patternLength)) {
        i += patternLength;
      } else {
        field = 0;
      }
    }
    let c: u32;
    if (field == 0) {
      i = skipSpace(i, end);
      if (i >= end) return -1;
      c = byte(i);
      if (c == 0x7d) break;
      if (c != 0x2c) return -1;
      i = skipSpace(i + 1, end);
      if (i >= end || byte(i) != QUOTE) return -1;
      const keyEnd = lookUpKey(type, i + 1, end);
      if (keyEnd < 0) return -1;
      field = foundField;
      i = skipSpace(keyEnd + 1, end);
      if (i >= end || byte(i) != 0x3a) return -1;
      i++;
      if (field == 0) {
        // A name the type does not declare: an open (lenient) object takes any value under it
        // (§0.2), nested values spending the depth cap as a declared opaque value would.
        if ((load<i32>(type + 32) & 1) != 0) return -1;
        i = skipValue(skipSpace(i, end), end, maxNesting);
        if (i < 0) return -1;
        continue;
      }
      store<i32>(hintSlot, field);
    }
    i = skipSpace(i, end);
    if (i >= end) return -1;
    const bit = load<i32>(field + 16);
    // A repeated key: JSON.parse keeps the last value; the JavaScript scanner defers too.
    if ((seen & bit) != 0) return -1;
    seen |= bit;
    hintSlot = field + 32;
    const valueStart = i;
    i = scanFieldValue(field, i, end, maxNesting);
    if (i < 0) return -1;
    // Strings and integers are a template's variable values (a string's without its quotes);
    // every other value stays in the segments as it is.
    const kind = load<i32>(field + 8);
    if (kind == STRING) noteValue(field, valueStart + 1, i - 1);
    else if (kind == INTEGER) noteValue(field, valueStart, i);
    if (load<i32>(field + 20) != 0) seq = <f64>integerValue;
    cross += load<i32>(field + 24) * valueState;
  }
  const required = load<i32>(type + 16);
  if ((seen & required) != required) return -1;
  const allowed = load<i32>(type + 24);
  if (allowed != 0 && load<u8>(allowed + cross) != 1) return -1;
  typeOut = load<i32>(type);
  seqOut = seq;
  if (tpl != 0) learnTemplate(tpl, objectStart, i + 1, maxNesting);
  return i + 1;
}

@inline function setUtf8(utf8Known: i32): void {
  utf8Ok = utf8Known != 0;
  highMask = utf8Ok ? i8x16.splat(0) : i8x16.splat(-128);
}

/**
 * The type index of the event payload at [start, end), or -1 when the JavaScript scanner is to
 * judge it. Writes its `seq` at SEQ_ADDRESS. `table`: the table's address.
 */
export function check(table: i32, start: i32, end: i32, utf8Known: i32, maxNesting: i32): i32 {
  setUtf8(utf8Known);
  lineBreaksAreSpace = true;
  const after = scanObject(table, start, end, maxNesting);
  if (after < 0 || skipSpace(after, end) != end) return -1;
  store<f64>(SEQ_ADDRESS, seqOut);
  return typeOut;
}

/**
 * Judges consecutive SSE frames from `pos` (a frame boundary) to `end`: each `data:` (one optional
 * space) + an event payload this scanner accepts + LF LF — or, with `lines`, NDJSON lines: the
 * payload, starting with its `{`, then LF (CR LF tolerated) — at most `maxFrameBytes` long, at most
 * `maxEvents` of them. Returns where it stopped (the first frame it did not accept, or the end of
 * the last whole frame); writes how many it accepted at COUNT_ADDRESS and the last one's `seq` at
 * SEQ_ADDRESS. Anything else — a comment, another field, CRLF, a frame cut by the chunk's end — is
 * left to the JavaScript framer at the returned position.
 */
export function scanFrames(table: i32, pos: i32, end: i32, utf8Known: i32, maxNesting: i32, maxFrameBytes: i32, maxEvents: i32, lines: i32): i32 {
  setUtf8(utf8Known);
  lineBreaksAreSpace = false;
  let accepted = 0;
  let seq: f64 = -1;
  let declined = 0;
  while (accepted < maxEvents && pos + 2 <= end) {
    let payload: i32;
    if (lines != 0) {
      // NDJSON: a line that starts with the object.
      if (byte(pos) != 0x7b) break;
      payload = pos;
    } else {
      // SSE: "data:" (d a t a little-endian, then the colon) and one optional space.
      if (pos + 7 > end || load<u32>(pos) != 0x61746164 || byte(pos + 4) != 0x3a) break;
      payload = byte(pos + 5) == 0x20 ? pos + 6 : pos + 5;
    }
    const after = scanObject(table, payload, end, maxNesting);
    if (after < 0) {
      declined = payload;
      break;
    }
    let lf = skipSpace(after, end);
    let frameEnd: i32;
    if (lines != 0) {
      // The line's LF, a CR before it tolerated.
      if (lf < end && byte(lf) == 0x0d) lf++;
      if (lf >= end || byte(lf) != LF) break;
      frameEnd = lf + 1;
    } else {
      if (lf + 1 >= end || byte(lf) != LF || byte(lf + 1) != LF) break;
      frameEnd = lf + 2;
    }
    if (frameEnd - pos > maxFrameBytes) break;
    seq = seqOut;
    accepted++;
    pos = frameEnd;
  }
  store<i32>(COUNT_ADDRESS, accepted);
  store<i32>(DECLINED_ADDRESS, declined);
  store<f64>(SEQ_ADDRESS, seq);
  return pos;
}
