import {
  BomSniffer,
  ByteAccumulator,
  CR,
  LF,
  fastBytes,
  toFrameSink,
  type Frame,
  type FrameCallback,
  type FrameSink,
  type Framer,
  type FramerOptions,
} from "./frame.js";

const OPEN_OBJECT = 0x7b;

function isBlank(bytes: Uint8Array): boolean {
  for (let k = 0; k < bytes.length; k++) {
    const b = bytes[k];
    if (b !== 0x20 && b !== 0x09 && b !== CR && b !== LF) return false;
  }
  return true;
}

/** Turns one complete NDJSON line (terminator included, if any) into a frame. */
export function parseNdjsonLine(raw: Uint8Array): Frame {
  let end = raw.length;
  if (end > 0 && raw[end - 1] === LF) end--;
  if (end > 0 && raw[end - 1] === CR) end--;
  const data = raw.subarray(0, end);
  if (isBlank(data)) return { kind: "passthrough", raw };
  return { kind: "event", raw, data };
}

/**
 * Incremental NDJSON (JSON Lines) framer over bytes: one frame per LF-terminated line, a CR before
 * the LF tolerated, blank lines passed through, a final unterminated line accepted at end of input.
 */
export class NdjsonFramer implements Framer {
  readonly #sink: FrameSink;
  readonly #max: number;
  readonly #bom = new BomSniffer();
  readonly #acc = new ByteAccumulator();
  #discarding = false;
  #discardedBytes = 0;

  constructor(opts: FramerOptions, output: FrameCallback | FrameSink) {
    this.#max = opts.maxFrameBytes;
    this.#sink = toFrameSink(output);
  }

  get bufferedBytes(): number {
    return this.#acc.length;
  }

  push(input: Uint8Array): void {
    const chunk = this.#bom.feed(input, this.#sink);
    if (chunk.length > 0) this.#scan(fastBytes(chunk));
  }

  end(): number {
    const held = this.#bom.flush();
    if (held.length > 0) this.#scan(held);
    if (this.#discarding) {
      const truncated = this.#discardedBytes;
      this.#discarding = false;
      this.#discardedBytes = 0;
      return truncated;
    }
    // JSON Lines allows the last line to lack its terminator: a complete value there is a frame.
    if (this.#acc.length > 0) this.#sink.frame(parseNdjsonLine(this.#acc.take()));
    return 0;
  }

  #scan(chunk: Uint8Array): void {
    const n = chunk.length;
    const sink = this.#sink;
    let start = 0;
    let lf = chunk.indexOf(LF);
    // The sink may take a run of lines at once (the gateway's fast path, `FastPath.scanFrames`); a line it
    // leaves is framed here, and the next line is offered to it again.
    const bulk = sink.chunkEvents !== undefined;
    let declinedAt = -1;
    while (lf !== -1) {
      // The fast path: a line that starts with `{` (so is not blank) and lies whole in this chunk is
      // reported as offsets; the general path would give the same frame as views.
      if (chunk[start] === OPEN_OBJECT && this.#acc.length === 0 && !this.#discarding && lf + 1 - start <= this.#max) {
        if (bulk && start !== declinedAt) {
          const stop = sink.chunkEvents!(chunk, start, n, this.#max, true);
          if (stop !== start) {
            start = stop;
            lf = chunk.indexOf(LF, start);
            continue;
          }
          declinedAt = start;
        }
        sink.chunkEvent(chunk, start, lf + 1, start, lf > start && chunk[lf - 1] === CR ? lf - 1 : lf);
      } else {
        this.#complete(chunk, start, lf + 1);
      }
      start = lf + 1;
      lf = chunk.indexOf(LF, start);
    }
    if (start < n) this.#hold(chunk.subarray(start));
  }

  #hold(bytes: Uint8Array): void {
    if (this.#discarding) {
      this.#discardedBytes += bytes.length;
      return;
    }
    const total = this.#acc.length + bytes.length;
    if (total > this.#max) {
      this.#acc.clear();
      this.#discarding = true;
      this.#discardedBytes = total;
      this.#sink.frame({ kind: "oversized", byteLength: total });
      return;
    }
    this.#acc.append(bytes);
  }

  #complete(chunk: Uint8Array, start: number, end: number): void {
    if (this.#discarding) {
      this.#discarding = false;
      this.#discardedBytes = 0;
      return;
    }
    let raw: Uint8Array;
    if (this.#acc.length === 0) {
      raw = chunk.subarray(start, end);
    } else {
      const total = this.#acc.length + (end - start);
      if (total > this.#max) {
        this.#acc.clear();
        this.#sink.frame({ kind: "oversized", byteLength: total });
        return;
      }
      this.#acc.append(chunk.subarray(start, end));
      raw = this.#acc.take();
    }
    if (raw.length > this.#max) {
      this.#sink.frame({ kind: "oversized", byteLength: raw.length });
      return;
    }
    this.#sink.frame(parseNdjsonLine(raw));
  }
}
