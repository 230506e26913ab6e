/**
 * Reads the records of a CLI input (docs/cli.md) as a stream: a file or `-` (stdin) holding NDJSON, a
 * JSON document or array, or SSE `data:` frames — sniffed from the first significant bytes, or
 * forced with --format — cut by the wire module's framers (the gateway's, so `agjson validate` and
 * `agjson proxy` cut a stream the same way). Memory is one input chunk plus the largest record,
 * whatever the input's size; every record is checked to be UTF-8 (§4) and carries the byte offset
 * where it starts, so an error can say where to look.
 */
import { createReadStream } from "node:fs";
import {
  INPUT_FORMATS,
  INPUT_FORMATS_TEXT,
  InputFramer,
  JsonDocumentFramer,
  decodeUtf8Strict,
  firstInvalidUtf8,
  type DetectedFormat,
  type Frame,
  type FrameSink,
  type InputFormat,
} from "../wire/index.js";

export type { InputFormat } from "../wire/index.js";

/** What `--format` takes: a framing (`INPUT_FORMATS`), or `auto` to detect it from the first bytes. */
export const FORMAT_CHOICES = [...INPUT_FORMATS, "auto"] as const;

/** Why a record could not be read: a malformed cut, a cap, bytes that are not UTF-8. */
export type RecordErrorKind = "framing" | "cap" | "utf8";

/** One record: its text, or why it could not be cut out of the input. `offset`: its first byte. */
export type RawRecord =
  | { index: number; offset: number | undefined; text: string }
  | { index: number; offset: number | undefined; error: string; keyword: RecordErrorKind };

/** The input is none of the framings the CLI reads: the message names the accepted ones. */
export class InputFormatError extends Error {}

export interface RecordReadOptions {
  format: InputFormat | "auto";
  /** Largest record, bytes: the framer holds at most this much (plus its framing) of one record. */
  maxRecordBytes: number;
  /** Input chunk size (tests use small ones to exercise records split across chunks). */
  chunkBytes?: number;
  /**
   * An SSE input's last frame that lacks its closing blank line: reported as a framing error
   * (default: the AgJSON wire's frames are whole, §4), or dispatched (`agjson normalize`: a provider
   * capture often ends at the last `data:` line, and the library's `createChunkReader` reads it too).
   */
  unterminatedSseFrame?: "error" | "dispatch";
}

/** Bytes of framing a record may carry beyond its payload (`data: `, CRLF, blank line). */
const FRAMING_SLACK = 64;

/** The input's bytes: a file, or stdin for `-` / no file. */
export function openInput(file: string | undefined, chunkBytes = 1 << 20): AsyncIterable<Uint8Array> {
  if (!file || file === "-") return process.stdin;
  return createReadStream(file, { highWaterMark: chunkBytes });
}

/**
 * The whole input as bytes, for a command whose input is one JSON document (`agjson reinput`):
 * such a document has to be held whole anyway to be parsed.
 */
export async function readInputBytes(file: string | undefined): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of openInput(file)) parts.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(parts);
}

/**
 * The records of `input`, one batch per input chunk (so a caller can flush its output between
 * batches). Throws `InputFormatError` when the input is none of the accepted framings; an I/O error
 * of the input is thrown as it is.
 */
export async function* readRecords(input: AsyncIterable<Uint8Array>, opts: RecordReadOptions): AsyncGenerator<RawRecord[]> {
  let index = 0;
  let base = 0;
  let heldBefore = 0;
  let batch: RawRecord[] = [];
  let sse = false;
  const max = opts.maxRecordBytes + FRAMING_SLACK;

  /**
   * The stream offset of a frame: a view of the bytes just handed to the framer lies at a known
   * place; a frame copied together from several chunks began `heldBefore` bytes back.
   */
  const offsetOf = (view: Uint8Array): number => {
    const last = framer.lastInput;
    if (view.buffer === last.buffer && view.byteOffset >= last.byteOffset && view.byteOffset <= last.byteOffset + last.byteLength) {
      return base - framer.lastInputHeld + view.byteOffset - last.byteOffset;
    }
    return base - heldBefore;
  };

  const onFrame = (raw: Uint8Array, data: Uint8Array | null): void => {
    const offset = offsetOf(raw);
    const decoded = decodeUtf8Strict(data ?? raw);
    if (!decoded.ok) {
      const at = firstInvalidUtf8(raw);
      batch.push({
        index: index++,
        offset,
        keyword: "utf8",
        error: `invalid UTF-8 at byte ${offset + (at === -1 ? 0 : at)}: AgJSON is UTF-8 JSON (§4)`,
      });
      return;
    }
    if (data === null) return;
    if (data.length === 0 && detected === "json") {
      batch.push({ index: index++, offset, keyword: "framing", error: "an element of the JSON array is missing (a stray comma)" });
      return;
    }
    const text = decoded.text.trim();
    if (text.length === 0 || (sse && text === "[DONE]")) return;
    batch.push({ index: index++, offset, text });
  };

  const sink: FrameSink = {
    chunkEvent: (chunk, start, end, dataStart, dataEnd) => onFrame(chunk.subarray(start, end), chunk.subarray(dataStart, dataEnd)),
    frame: (frame: Frame) => {
      if (frame.kind === "event") onFrame(frame.raw, frame.data);
      else if (frame.kind === "passthrough") {
        // Comments and blank lines carry no record, but bytes that are not UTF-8 are still refused.
        if (firstInvalidUtf8(frame.raw) !== -1) onFrame(frame.raw, null);
      } else {
        batch.push({
          index: index++,
          offset: undefined,
          keyword: "cap",
          error: `record exceeds the ${opts.maxRecordBytes}-byte cap (--max-record-bytes)`,
        });
      }
    },
  };

  let detected: DetectedFormat | undefined;
  const framer = new InputFramer(opts.format, { maxFrameBytes: max }, sink, (f) => {
    detected = f;
    sse = f === "sse";
  });
  let head = new Uint8Array(0);
  const unrecognized = () => {
    const text = new TextDecoder().decode(head);
    // eslint-disable-next-line no-control-regex
    const shown = /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)
      ? `bytes ${[...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(" ")}`
      : JSON.stringify(text);
    return new InputFormatError(`the input is not ${INPUT_FORMATS_TEXT}; it starts with ${shown}`);
  };

  for await (const chunk of input) {
    heldBefore = framer.bufferedBytes;
    if (head.length < 24) head = Uint8Array.from([...head, ...chunk.subarray(0, 24 - head.length)]);
    framer.push(chunk);
    if (detected === "unrecognized") throw unrecognized();
    base += chunk.byteLength;
    if (batch.length > 0) {
      yield batch;
      batch = [];
    }
  }
  heldBefore = framer.bufferedBytes;
  if (sse && opts.unterminatedSseFrame === "dispatch" && framer.bufferedBytes > 0) framer.push(new TextEncoder().encode("\n\n"));
  // An input still undecided at its end (one `[` line, no newline) is framed only now.
  framer.settle();
  const inner = framer.inner;
  const openArray = inner instanceof JsonDocumentFramer && inner.inArray;
  const dangling = framer.end();
  if (detected === "unrecognized") throw unrecognized();
  // An NDJSON framer reports dangling bytes only for an oversized last line, already reported.
  if (dangling > 0 && detected !== "ndjson") {
    const what =
      detected === "sse"
        ? `the input ends inside an SSE frame (${dangling} bytes without the blank line that ends a frame)`
        : openArray
          ? "the input ends inside a JSON array (no closing `]`)"
          : `the input ends inside a JSON value (${dangling} bytes without its closing bracket)`;
    batch.push({ index: index++, offset: base - heldBefore, keyword: "framing", error: what });
  }
  if (batch.length > 0) yield batch;
}
