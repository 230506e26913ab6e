import { ByteAccumulator, type FrameCallback, type FrameSink, type Framer, type FramerOptions } from "./frame.js";
import { JsonDocumentFramer } from "./json-framer.js";
import { NdjsonFramer } from "./ndjson-framer.js";
import { SseFramer } from "./sse-framer.js";

/** The framings a file or pipe of records may use: NDJSON, a JSON document (array or value), SSE. */
export const INPUT_FORMATS = ["ndjson", "json", "sse"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** What the sniffer decided; `unrecognized` when the input starts like none of the three. */
export type DetectedFormat = InputFormat | "unrecognized";

/** The accepted framings, as a sentence for messages. */
export const INPUT_FORMATS_TEXT = "NDJSON (one JSON object per line), a JSON document or array, or Server-Sent Events (`data:` lines)";

const SSE_FIELDS = ["data", "event", "id", "retry"];

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

// biome-ignore lint/suspicious/noConstEnum: tsc inlines the phases into the framer's byte loop; this package is never compiled per file
const enum SniffPhase {
  /** Skipping whitespace and BOM bytes before the first significant byte. */
  Lead,
  /** Inside the first value (`{` or `[`), matching brackets outside strings. */
  Value,
  /** After the first value closed, on its line: a newline or any non-space byte ends the line's judgement. */
  Tail,
  /** A whole `[` value on the first line: is there a non-space byte after the first newline? */
  More,
}

/**
 * The format sniff (`sniffInputFormat`), resumable: fed the growing held input (each call's bytes
 * begin with the previous call's), it carries on from where it stopped, so an input still undecided
 * after many chunks (a long first line cut into small reads) is scanned once, not once per chunk.
 *
 * Decides from the first significant bytes (after a BOM and whitespace): `[` NDJSON when the first
 * line is a whole value followed by more values (records that are arrays, such as LangGraph's
 * `[mode, chunk]` lines), else a JSON document; `{` NDJSON when the first line is a whole value,
 * else one (pretty-printed) JSON document; `data`/`event`/`id`/`retry` or `:` SSE. The whole-value
 * test looks at brackets and strings only.
 */
export class InputFormatSniffer {
  #phase = SniffPhase.Lead;
  #pos = 0;
  #start = 0;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** Where the first newline at or after the first value's start lies, once seen (-1 before). */
  #firstLf = -1;

  /** The format, or `undefined` while more bytes are needed (never `undefined` when `ended`). */
  sniff(bytes: Uint8Array, ended: boolean): DetectedFormat | undefined {
    const n = bytes.length;
    let i = this.#pos;
    if (this.#phase === SniffPhase.Lead) {
      while (i < n && (isSpace(bytes[i]!) || bytes[i] === 0xef || bytes[i] === 0xbb || bytes[i] === 0xbf)) i++;
      this.#pos = i;
      if (i >= n) return ended ? "ndjson" : undefined;
      const b = bytes[i]!;
      if (b === 0x3a) return "sse";
      if (b !== 0x5b && b !== 0x7b) return sseFieldName(bytes, i, ended);
      this.#start = i;
      this.#phase = SniffPhase.Value;
    }
    const array = bytes[this.#start] === 0x5b;
    if (this.#phase === SniffPhase.Value) {
      let depth = this.#depth;
      let inString = this.#inString;
      let escaped = this.#escaped;
      let closed = false;
      for (; i < n; i++) {
        const b = bytes[i]!;
        if (escaped) escaped = false;
        else if (inString) {
          if (b === 0x5c) escaped = true;
          else if (b === 0x22) inString = false;
          else if (b === 0x0a && this.#firstLf < 0) this.#firstLf = i;
        } else if (b === 0x0a)
          return "json"; // the first line ends inside the value: a pretty-printed document
        else if (b === 0x22) inString = true;
        else if (b === 0x7b || b === 0x5b) depth++;
        else if ((b === 0x7d || b === 0x5d) && --depth === 0) {
          closed = true;
          i++;
          break;
        }
      }
      this.#depth = depth;
      this.#inString = inString;
      this.#escaped = escaped;
      this.#pos = i;
      if (!closed) return ended ? "json" : undefined;
      this.#phase = SniffPhase.Tail;
    }
    if (this.#phase === SniffPhase.Tail) {
      while (i < n && bytes[i] !== 0x0a && isSpace(bytes[i]!)) i++;
      this.#pos = i;
      if (i >= n && !ended) return undefined;
      // A newline, another byte or the end: the first line holds one whole value.
      if (!array) return "ndjson";
      this.#phase = SniffPhase.More;
    }
    if (this.#firstLf < 0) {
      while (i < n && bytes[i] !== 0x0a) i++;
      if (i < n) this.#firstLf = i;
    }
    if (this.#firstLf >= 0) {
      if (i < this.#firstLf) i = this.#firstLf;
      for (; i < n; i++) if (!isSpace(bytes[i]!)) return "ndjson";
    }
    this.#pos = i;
    return ended ? "json" : undefined;
  }
}

/** An input that starts with a name: SSE when it is one of SSE's fields (read at most six bytes). */
function sseFieldName(bytes: Uint8Array, i: number, ended: boolean): DetectedFormat | undefined {
  let j = i;
  while (j < bytes.length && j - i <= 5 && bytes[j] !== 0x3a && bytes[j] !== 0x0a && bytes[j] !== 0x0d) j++;
  if (j >= bytes.length && !ended && j - i <= 5) return undefined;
  const name = String.fromCharCode(...bytes.subarray(i, j));
  return SSE_FIELDS.includes(name) ? "sse" : "unrecognized";
}

/** The format of a whole input, or of its start (`undefined`: more bytes are needed); see `InputFormatSniffer`. */
export function sniffInputFormat(bytes: Uint8Array, ended: boolean): DetectedFormat | undefined {
  return new InputFormatSniffer().sniff(bytes, ended);
}

/**
 * The framing of an input still undecided past one frame's cap: a first line that long cannot be
 * one NDJSON record, so a leading `[` is a JSON array document (framed element by element); else NDJSON.
 */
function undecidedPastCap(bytes: Uint8Array): InputFormat {
  let i = 0;
  while (i < bytes.length && (isSpace(bytes[i]!) || bytes[i] === 0xef || bytes[i] === 0xbb || bytes[i] === 0xbf)) i++;
  return bytes[i] === 0x5b ? "json" : "ndjson";
}

/**
 * The framer of a CLI input (`agjson validate`, `reduce`, `normalize`): the given framing, or with
 * `auto` the one `sniffInputFormat` picks. Bytes seen before the decision are held, at most
 * `maxFrameBytes` (past that a leading `[` is taken as a JSON array document, anything else as NDJSON,
 * whose framer then reports the oversized line). An `unrecognized` input is counted, not framed: the caller names the accepted formats.
 */
export class InputFramer implements Framer {
  readonly #opts: FramerOptions;
  readonly #output: FrameCallback | FrameSink;
  readonly #onDetect: (format: DetectedFormat) => void;
  readonly #held = new ByteAccumulator();
  readonly #sniffer = new InputFormatSniffer();
  #inner: Framer | null = null;
  #unrecognized = false;
  #format: DetectedFormat | undefined;

  /**
   * `unrecognizedAs`: the framing to use for an input that starts like none of the three (a reader
   * that degrades every line visibly, such as the normalizers' chunk reader, takes `ndjson`).
   */
  constructor(
    format: InputFormat | "auto",
    opts: FramerOptions,
    output: FrameCallback | FrameSink,
    onDetect: (format: DetectedFormat) => void = () => {},
    private readonly unrecognizedAs?: InputFormat,
  ) {
    this.#opts = opts;
    this.#output = output;
    this.#onDetect = onDetect;
    if (format !== "auto") this.#start(format);
  }

  /** The framing in use, once decided. */
  get format(): DetectedFormat | undefined {
    return this.#format;
  }

  get bufferedBytes(): number {
    return this.#inner ? this.#inner.bufferedBytes : this.#held.length;
  }

  /** The inner framer, once the format is decided (`JsonDocumentFramer.inArray` is read from it). */
  get inner(): Framer | null {
    return this.#inner;
  }

  /**
   * The bytes most recently handed to the inner framer, and how many of them came from earlier
   * chunks (held while sniffing): frames that are views of it lie at a known place in the stream.
   */
  lastInput: Uint8Array = new Uint8Array(0);
  lastInputHeld = 0;

  push(chunk: Uint8Array): void {
    if (this.#inner) return this.#forward(chunk, 0);
    if (this.#unrecognized) return;
    const held = this.#held.length;
    // The sniffer resumes where it stopped, over the held bytes grown by this chunk: each byte is
    // scanned and copied once while the format is undecided, however small the reads.
    let seen = chunk;
    if (held > 0) {
      this.#held.append(chunk);
      seen = this.#held.view();
    }
    const format = this.#sniffer.sniff(seen, false) ?? (seen.length > this.#opts.maxFrameBytes ? undecidedPastCap(seen) : undefined);
    if (format === undefined) {
      if (held === 0) this.#held.append(chunk);
      return;
    }
    if (held > 0) seen = this.#held.take();
    if (this.#start(format) !== null) this.#forward(seen, held);
  }

  end(): number {
    this.settle();
    return this.#inner ? this.#inner.end() : 0;
  }

  /**
   * Decides the format of an input that ended still undecided (one `[` line without its newline)
   * and frames what was held, without ending the inner framer, so a caller can still ask it where
   * the input stopped (e.g. inside an array) before `end()`.
   */
  settle(): void {
    if (!this.#inner && !this.#unrecognized) {
      const held = this.#held.length;
      const seen = this.#held.take();
      if (this.#start(this.#sniffer.sniff(seen, true) ?? "ndjson") !== null) this.#forward(seen, held);
    }
  }

  #forward(bytes: Uint8Array, held: number): void {
    this.lastInput = bytes;
    this.lastInputHeld = held;
    this.#inner!.push(bytes);
  }

  #start(detected: DetectedFormat): Framer | null {
    const format = detected === "unrecognized" ? (this.unrecognizedAs ?? detected) : detected;
    this.#format = format;
    this.#onDetect(format);
    if (format === "unrecognized") {
      this.#unrecognized = true;
      return null;
    }
    this.#inner =
      format === "ndjson"
        ? new NdjsonFramer(this.#opts, this.#output)
        : format === "json"
          ? new JsonDocumentFramer(this.#opts, this.#output)
          : new SseFramer(this.#opts, this.#output);
    return this.#inner;
  }
}
