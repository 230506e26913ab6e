import { ByteAccumulator, type FrameCallback, type FrameSink, type Framer, type FramerOptions } from "./frame.js";
import { JsonDocumentFramer } from "./json-framer.js";
import { NdjsonFramer } from "./ndjson-framer.js";
import { SseFramer } from "./sse-framer.js";

/** The framings a file or pipe of records may use: NDJSON, a JSON document (array or value), SSE. */
export type InputFormat = "ndjson" | "json" | "sse";

/** What the sniffer decided; `unrecognized` when the input starts like none of the three. */
export type DetectedFormat = InputFormat | "unrecognized";

/** The accepted framings, as a sentence for messages. */
export const INPUT_FORMATS_TEXT = "NDJSON (one JSON object per line), a JSON document or array, or Server-Sent Events (`data:` lines)";

const SSE_FIELDS = ["data", "event", "id", "retry"];

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

/**
 * Whether the line starting at `bytes[from]` (a `{` or `[`) holds one whole JSON value, judged by brackets
 * and strings only: `undefined` while the line is not complete yet.
 */
function firstLineIsWholeValue(bytes: Uint8Array, from: number, ended: boolean): boolean | undefined {
  let depth = 0;
  let inString = false;
  let i = from;
  for (; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x0a) {
      return false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) depth++;
    else if (b === 0x7d || b === 0x5d) {
      if (--depth === 0) break;
    }
  }
  if (i >= bytes.length) return ended ? false : undefined;
  for (i++; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) return true;
    if (!isSpace(bytes[i]!)) return true;
  }
  return ended ? true : undefined;
}

/**
 * Whether a non-space byte follows the first newline after `bytes[from]`: `undefined` while the
 * input may still bring one.
 */
function moreAfterFirstLine(bytes: Uint8Array, from: number, ended: boolean): boolean | undefined {
  let i = from;
  while (i < bytes.length && bytes[i] !== 0x0a) i++;
  for (; i < bytes.length; i++) if (!isSpace(bytes[i]!)) return true;
  return ended ? false : undefined;
}

/**
 * Decides the framing of a CLI input from its first significant bytes (after a BOM and whitespace):
 * `[` NDJSON when the first line is a whole value followed by more values (records that are arrays,
 * such as LangGraph's `[mode, chunk]` lines), else a JSON document; `{` NDJSON when the first line is a whole value, else one (pretty-printed)
 * JSON document; `data`/`event`/`id`/`retry` or `:` SSE. `undefined`: more bytes are needed.
 */
export function sniffInputFormat(bytes: Uint8Array, ended: boolean): DetectedFormat | undefined {
  let i = 0;
  while (i < bytes.length && (isSpace(bytes[i]!) || bytes[i] === 0xef || bytes[i] === 0xbb || bytes[i] === 0xbf)) i++;
  if (i >= bytes.length) return ended ? "ndjson" : undefined;
  const b = bytes[i]!;
  if (b === 0x5b) {
    const whole = firstLineIsWholeValue(bytes, i, ended);
    if (whole === undefined) return undefined;
    if (!whole) return "json";
    const more = moreAfterFirstLine(bytes, i, ended);
    return more === undefined ? undefined : more ? "ndjson" : "json";
  }
  if (b === 0x7b) {
    const whole = firstLineIsWholeValue(bytes, i, ended);
    return whole === undefined ? undefined : whole ? "ndjson" : "json";
  }
  if (b === 0x3a) return "sse";
  let j = i;
  while (j < bytes.length && j - i <= 5 && bytes[j] !== 0x3a && bytes[j] !== 0x0a && bytes[j] !== 0x0d) j++;
  if (j >= bytes.length && !ended && j - i <= 5) return undefined;
  const name = String.fromCharCode(...bytes.subarray(i, j));
  return SSE_FIELDS.includes(name) ? "sse" : "unrecognized";
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
    let seen = chunk;
    if (held > 0) {
      this.#held.append(chunk);
      seen = this.#held.take();
    }
    const format = sniffInputFormat(seen, false) ?? (seen.length > this.#opts.maxFrameBytes ? undecidedPastCap(seen) : undefined);
    if (format === undefined) {
      this.#held.append(seen);
      return;
    }
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
      if (this.#start(sniffInputFormat(seen, true) ?? "ndjson") !== null) this.#forward(seen, held);
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
