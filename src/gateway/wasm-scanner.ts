/**
 * The JavaScript side of the gateway's WebAssembly scanner (`wasm/fast-scanner.ts`, compiled by
 * `agjson gen` into `generated/fast-scanner.wasm.ts`): lays a compiled fast-path table out in the
 * module's memory, copies the bytes to judge in, and reads the answers back.
 *
 * Why WebAssembly: a JavaScript loop that does nothing but read each byte costs about as much as
 * the whole JavaScript scanner (~1 ns per byte on a small server), and that is most of what a
 * validating proxy adds per event. The module reads string contents sixteen bytes at a time and
 * judges a chunk's run of SSE frames or NDJSON lines in one call. It judges what the JavaScript
 * scanner judges (fields of every kind but `unchecked`, tagged unions included) and answers
 * "unsure" (-1) on anything it cannot be sure of, which the JavaScript scanner then judges. Where
 * WebAssembly or its SIMD instructions are unavailable (or compiling bytes at run time is not
 * allowed), the JavaScript scanner does everything.
 */
import { FAST_SCANNER_WASM } from "../../generated/fast-scanner.wasm.js";

/** What the layout reads of a compiled field (`fast-path.ts`'s `CompiledField`). */
export interface ScannerField {
  readonly name: Uint8Array;
  readonly kind: number;
  readonly values: readonly Uint8Array[];
  readonly minimum: number;
  readonly bit: number;
  readonly isSeq: boolean;
  readonly crossRadix: number;
  readonly union: ScannerUnion | null;
}

/** What the layout reads of a compiled object type: an event type or a union's variant (`CompiledType`). */
export interface ScannerType {
  readonly index: number;
  readonly typeBytes: Uint8Array;
  readonly required: number;
  readonly typeBit: number;
  readonly byLength: readonly (readonly ScannerField[] | undefined)[];
  readonly allowed: Uint8Array | null;
  readonly closed: boolean;
}

/** What the layout reads of a compiled tagged union (`CompiledUnion`). */
export interface ScannerUnion {
  readonly tag: Uint8Array;
  readonly open: boolean;
  readonly byLength: readonly (readonly { readonly bytes: Uint8Array; readonly variant: ScannerType | null }[] | undefined)[];
}

// Field kinds as `fast-path.ts` numbers them; the module judges all but UNCHECKED.
const UNCHECKED = 8;
const UNION_ARRAY = 9;
const UNION_OBJECT = 10;
/** A kind the module never judges. */
const DEFER = 99;
const SEQ_ADDRESS = 8;
const COUNT_ADDRESS = 16;
const DECLINED_ADDRESS = 20;
const TEMPLATE_HITS_ADDRESS = 24;
/** After the outputs [0, 64) and the module's template scratch [64, 320) (see wasm/fast-scanner.ts). */
const TABLE_ADDRESS = 320;
/** Bytes of an event type's template area, as the module reads it (its TEMPLATE_AREA). */
const TEMPLATE_AREA = 768;
/** Bytes kept free after the judged bytes, so no load of the module reads outside the memory. */
const PADDING = 64;
const PAGE = 65536;

interface ScannerExports {
  memory: WebAssembly.Memory;
  check(table: number, start: number, end: number, utf8Known: number, maxNesting: number): number;
  scanFrames(table: number, pos: number, end: number, utf8Known: number, maxNesting: number, maxFrameBytes: number, maxEvents: number, lines: number): number;
}

let compiled: WebAssembly.Module | null | undefined;

function scannerModule(): WebAssembly.Module | null {
  if (compiled !== undefined) return compiled;
  try {
    const binary = decodeBase64(FAST_SCANNER_WASM);
    compiled = typeof WebAssembly === "object" && WebAssembly.validate(binary) ? new WebAssembly.Module(binary) : null;
  } catch {
    // No WebAssembly, no SIMD, or no compiling at run time (some edge runtimes): JavaScript only.
    compiled = null;
  }
  return compiled;
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** A minimum the module holds as an i32 (-2^31 when there is none), or `undefined` when it cannot. */
function minimumOf(f: ScannerField): number | undefined {
  const minimum = f.minimum === -Infinity ? -0x80000000 : f.minimum;
  return Number.isInteger(minimum) && minimum >= -0x80000000 && minimum <= 0x7fffffff ? minimum : undefined;
}

/** The kind the module is told: the field's own, or DEFER for one it leaves to JavaScript. */
function judgedKind(f: ScannerField): number {
  if (f.kind === UNCHECKED || f.kind > UNION_OBJECT || minimumOf(f) === undefined) return DEFER;
  if ((f.kind === UNION_ARRAY || f.kind === UNION_OBJECT) && f.union === null) return DEFER;
  return f.kind;
}

/**
 * Lays the table out as `wasm/fast-scanner.ts` reads it (its comments give each record's words);
 * returns the records and the bytes after them. Unions and their variants are written once each,
 * however many fields name them (a union may hold itself: a tool result's content blocks).
 */
function layOut(types: readonly ScannerType[], base: number): { words: Int32Array; strings: [number, Uint8Array][]; end: number } {
  const words: number[] = [];
  const stringRefs: [number, Uint8Array][] = [];
  const alloc = (n: number) => {
    const at = words.length;
    for (let k = 0; k < n; k++) words.push(0);
    return at;
  };
  const address = (word: number) => base + 4 * word;
  const unions = new Map<ScannerUnion, number>();
  const variants = new Map<ScannerType, number>();

  const writeType = (t: ScannerType, eventType: boolean): number => {
    const longestName = Math.max(0, t.byLength.length - 1);
    const record = alloc(10 + longestName + 1);
    words[record] = t.index;
    words[record + 1] = t.typeBytes.length;
    stringRefs.push([record + 2, t.typeBytes]);
    // [3]: the hint slot, 0 until the scanner writes it.
    words[record + 4] = t.required;
    words[record + 5] = t.typeBit;
    if (t.allowed !== null) stringRefs.push([record + 6, t.allowed]);
    words[record + 7] = longestName;
    // Flags: 1 closed; 2 a required field the module does not judge (it never accepts the type).
    let neverJudged = false;
    for (const fields of t.byLength) for (const f of fields ?? []) if ((f.bit & t.required) !== 0 && judgedKind(f) === DEFER) neverJudged = true;
    words[record + 8] = (t.closed ? 1 : 0) | (neverJudged ? 2 : 0);
    // [9]: the template area, empty until the module keeps a payload there (event types only).
    if (eventType) words[record + 9] = address(alloc(TEMPLATE_AREA / 4));
    for (const [length, fields] of t.byLength.entries()) {
      if (fields === undefined || fields.length === 0) continue;
      const bucket = alloc(1 + fields.length);
      words[record + 10 + length] = address(bucket);
      words[bucket] = fields.length;
      for (const [j, f] of fields.entries()) {
        const field = alloc(12 + 2 * f.values.length);
        words[bucket + 1 + j] = address(field);
        words[field] = f.name.length;
        stringRefs.push([field + 1, f.name]);
        const kind = judgedKind(f);
        words[field + 2] = kind;
        words[field + 3] = minimumOf(f) ?? 0;
        words[field + 4] = f.bit;
        words[field + 5] = f.isSeq ? 1 : 0;
        words[field + 6] = f.crossRadix;
        words[field + 7] = f.values.length;
        // [8]: the hint slot. [9], [10]: the key pattern `,"name":`. [11]: the union record.
        stringRefs.push([field + 9, Uint8Array.from([0x2c, 0x22, ...f.name, 0x22, 0x3a])]);
        words[field + 10] = f.name.length + 4;
        if (kind !== DEFER && f.union !== null) words[field + 11] = address(writeUnion(f.union));
        for (const [v, value] of f.values.entries()) {
          words[field + 12 + 2 * v] = value.length;
          stringRefs.push([field + 13 + 2 * v, value]);
        }
      }
    }
    return record;
  };

  const writeUnion = (u: ScannerUnion): number => {
    const known = unions.get(u);
    if (known !== undefined) return known;
    const longestTag = Math.max(0, u.byLength.length - 1);
    const record = alloc(4 + longestTag + 1);
    unions.set(u, record);
    words[record] = u.tag.length;
    stringRefs.push([record + 1, u.tag]);
    words[record + 2] = u.open ? 1 : 0;
    words[record + 3] = longestTag;
    for (const [length, tags] of u.byLength.entries()) {
      if (tags === undefined || tags.length === 0) continue;
      const bucket = alloc(1 + 2 * tags.length);
      words[record + 4 + length] = address(bucket);
      words[bucket] = tags.length;
      for (const [k, tag] of tags.entries()) {
        stringRefs.push([bucket + 1 + 2 * k, tag.bytes]);
        if (tag.variant !== null) {
          let variant = variants.get(tag.variant);
          if (variant === undefined) {
            variant = writeType(tag.variant, false);
            variants.set(tag.variant, variant);
          }
          words[bucket + 2 + 2 * k] = address(variant);
        }
      }
    }
    return record;
  };

  const longestType = types.reduce((n, t) => Math.max(n, t.typeBytes.length), 0);
  const header = alloc(2 + longestType);
  words[header] = longestType;
  const byLength = new Map<number, ScannerType[]>();
  for (const t of types) byLength.set(t.typeBytes.length, [...(byLength.get(t.typeBytes.length) ?? []), t]);
  for (const [length, bucketTypes] of byLength) {
    const bucket = alloc(1 + bucketTypes.length);
    words[header + 1 + length] = address(bucket);
    words[bucket] = bucketTypes.length;
    for (const [k, t] of bucketTypes.entries()) words[bucket + 1 + k] = address(writeType(t, true));
  }

  let at = address(words.length);
  const strings: [number, Uint8Array][] = [];
  for (const [word, bytes] of stringRefs) {
    words[word] = at;
    strings.push([at, bytes]);
    at += bytes.length;
  }
  return { words: Int32Array.from(words), strings, end: at };
}

/**
 * One module instance per compiled table, shared by every stream that uses the table: the scanner
 * is synchronous, and each call brings its own bytes (a chunk loaded for one stream is reloaded
 * when another stream's call comes between).
 */
export class WasmScanner {
  readonly #exports: ScannerExports;
  readonly #dataStart: number;
  #memory: Uint8Array = new Uint8Array(0);
  #out: DataView = new DataView(new ArrayBuffer(0));
  /** The chunk whose bytes [#loadedFrom, #loadedTo) are in memory at #dataStart, if any. */
  #loaded: Uint8Array | null = null;
  #loadedFrom = 0;
  #loadedTo = 0;
  /** `seq` of the last payload accepted (by `check`, or the last frame of `scanFrames`). */
  seq = -1;
  /** Frames the last `scanFrames` accepted. */
  frames = 0;
  /**
   * The position in the chunk of the payload at which the last `scanFrames` stopped because it
   * could not judge it (not because of a frame's shape or a cap), else -1.
   */
  declinedAt = -1;

  private constructor(exports: ScannerExports, types: readonly ScannerType[]) {
    this.#exports = exports;
    const table = layOut(types, TABLE_ADDRESS);
    this.#dataStart = (table.end + 15) & ~15;
    this.#ensure(this.#dataStart + PAGE);
    new Int32Array(this.#memory.buffer, TABLE_ADDRESS, table.words.length).set(table.words);
    for (const [at, bytes] of table.strings) this.#memory.set(bytes, at);
  }

  /** The scanner for a table, or `null` where WebAssembly cannot run it. */
  static create(types: readonly ScannerType[]): WasmScanner | null {
    const module = scannerModule();
    if (module === null) return null;
    try {
      const instance = new WebAssembly.Instance(module, {});
      return new WasmScanner(instance.exports as unknown as ScannerExports, types);
    } catch {
      return null;
    }
  }

  #ensure(bytes: number): void {
    const memory = this.#exports.memory;
    if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
    if (this.#memory.buffer !== memory.buffer) {
      this.#memory = new Uint8Array(memory.buffer);
      this.#out = new DataView(memory.buffer);
    }
  }

  /**
   * Payloads accepted by a type's template so far, by every stream this instance serves (wraps at
   * 2^32): tests and measurements read it to see the templates at work.
   */
  get templateHits(): number {
    return this.#out.byteLength === 0 ? 0 : this.#out.getUint32(TEMPLATE_HITS_ADDRESS, true);
  }

  /** Drops what is remembered about the loaded chunk (its buffer may have been refilled). */
  forget(): void {
    this.#loaded = null;
  }

  /**
   * The address `bytes[0]` would have in the module's memory (`bytes[i]` is at that + i), with
   * `bytes[from, to)` there. A chunk `scanFrames` judges is copied to the data area once and reused
   * by later calls on it; any other bytes are copied after it, leaving it in place.
   */
  #load(bytes: Uint8Array, from: number, to: number, chunk: boolean): number {
    if (bytes === this.#loaded && from >= this.#loadedFrom && to <= this.#loadedTo) return this.#dataStart - this.#loadedFrom;
    if (chunk) {
      this.#ensure(this.#dataStart + (to - from) + PADDING);
      this.#memory.set(bytes.subarray(from, to), this.#dataStart);
      this.#loaded = bytes;
      this.#loadedFrom = from;
      this.#loadedTo = to;
      return this.#dataStart - from;
    }
    const scratch = (this.#dataStart + (this.#loaded === null ? 0 : this.#loadedTo - this.#loadedFrom) + PADDING + 15) & ~15;
    this.#ensure(scratch + (to - from) + PADDING);
    this.#memory.set(bytes.subarray(from, to), scratch);
    return scratch - from;
  }

  /** The type index of the payload `bytes[start, end)`, or -1 for the JavaScript scanner to judge it. */
  check(bytes: Uint8Array, start: number, end: number, utf8Known: boolean, maxNesting: number): number {
    const origin = this.#load(bytes, start, end, false);
    const index = this.#exports.check(TABLE_ADDRESS, origin + start, origin + end, utf8Known ? 1 : 0, maxNesting);
    if (index >= 0) this.seq = this.#out.getFloat64(SEQ_ADDRESS, true);
    return index;
  }

  /**
   * Judges the SSE frames (or, with `lines`, NDJSON lines) of `chunk` from `start`, a frame
   * boundary, on; returns where it stopped (see `scanFrames` in `wasm/fast-scanner.ts`) and sets
   * `frames`, `seq` and `declinedAt`.
   */
  scanFrames(chunk: Uint8Array, start: number, end: number, utf8Known: boolean, maxNesting: number, maxFrameBytes: number, maxEvents: number, lines: boolean): number {
    const origin = this.#load(chunk, start, end, true);
    const stop = this.#exports.scanFrames(
      TABLE_ADDRESS,
      origin + start,
      origin + end,
      utf8Known ? 1 : 0,
      maxNesting,
      Math.min(maxFrameBytes, 0x7fffffff),
      Math.min(maxEvents, 0x7fffffff),
      lines ? 1 : 0,
    );
    this.frames = this.#out.getInt32(COUNT_ADDRESS, true);
    const declined = this.#out.getInt32(DECLINED_ADDRESS, true);
    this.declinedAt = declined === 0 ? -1 : declined - origin;
    if (this.frames > 0) this.seq = this.#out.getFloat64(SEQ_ADDRESS, true);
    return stop - origin;
  }
}
