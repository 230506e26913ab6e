/**
 * Reads the records of a CLI input (DESIGN §6): a file or `-` (stdin) holding NDJSON, a JSON array
 * (or one JSON document), or SSE `data:` frames — detected from the first significant byte, or
 * forced with --format. SSE and NDJSON go through the gateway's framers, so `agjson validate` and
 * `agjson proxy` cut a stream the same way.
 */
import { readFile } from "node:fs/promises";
import { NdjsonFramer } from "../gateway/ndjson-framer.js";
import { SseFramer } from "../gateway/sse-framer.js";
import type { Frame } from "../gateway/frame.js";

export type InputFormat = "ndjson" | "json" | "sse";

/** One record: its text, or why it could not be cut out of the input. */
export type RawRecord = { index: number; text: string } | { index: number; error: string };

/** Largest single record a file may hold; a gateway applies its own, smaller caps. */
const MAX_RECORD_BYTES = 64 << 20;

export async function readInput(file: string | undefined): Promise<Uint8Array> {
  if (!file || file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }
  return readFile(file);
}

export function detectFormat(bytes: Uint8Array): InputFormat {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue;
    if (b === 0x5b) return "json";
    if (b === 0x7b) return "ndjson";
    return "sse";
  }
  return "ndjson";
}

const decoder = new TextDecoder("utf-8", { fatal: false });

export function splitRecords(bytes: Uint8Array, format: InputFormat | "auto"): RawRecord[] {
  const fmt = format === "auto" ? detectFormat(bytes) : format;
  if (fmt === "json") return splitJson(bytes);
  const out: RawRecord[] = [];
  const onFrame = (frame: Frame) => {
    if (frame.kind === "event") {
      const text = decoder.decode(frame.data).trim();
      if (text.length > 0 && text !== "[DONE]") out.push({ index: out.length, text });
    } else if (frame.kind === "oversized") {
      out.push({ index: out.length, error: `record exceeds ${MAX_RECORD_BYTES} bytes` });
    }
  };
  if (fmt === "ndjson" && format === "auto") {
    // One pretty-printed JSON document also starts with "{": take it whole when it parses.
    const whole = decoder.decode(bytes).trim();
    if (whole.includes("\n")) {
      try {
        JSON.parse(whole);
        return [{ index: 0, text: whole }];
      } catch {
        // not one document: NDJSON
      }
    }
  }
  const framer = fmt === "sse" ? new SseFramer({ maxFrameBytes: MAX_RECORD_BYTES }, onFrame) : new NdjsonFramer({ maxFrameBytes: MAX_RECORD_BYTES }, onFrame);
  framer.push(bytes);
  const dangling = framer.end();
  if (dangling > 0 && fmt === "sse") out.push({ index: out.length, error: `input ends inside an SSE frame (${dangling} bytes without the blank line that ends a frame)` });
  return out;
}

function splitJson(bytes: Uint8Array): RawRecord[] {
  const text = decoder.decode(bytes);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return [{ index: 0, error: `not valid JSON: ${(err as Error).message}` }];
  }
  const items = Array.isArray(doc) ? doc : [doc];
  return items.map((item, index) => ({ index, text: JSON.stringify(item) }));
}
