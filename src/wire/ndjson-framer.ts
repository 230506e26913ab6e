import { ByteFramer, CR, LF, type Frame } from "./frame.js";

const OPEN_OBJECT = 0x7b;
const chunkEnd = new Uint8Array(0);

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
export class NdjsonFramer extends ByteFramer {
  end(): number {
    const held = this.flushBom();
    if (held.length > 0) this.scan(held);
    if (this.held.discarding) return this.held.drop();
    // JSON Lines allows the last line to lack its terminator: a complete value there is a frame.
    if (this.held.length > 0) {
      const raw = this.held.finish(chunkEnd, 0, 0);
      if (raw !== null) this.sink.frame(parseNdjsonLine(raw));
    }
    return 0;
  }

  protected scan(chunk: Uint8Array): void {
    const n = chunk.length;
    const sink = this.sink;
    let start = 0;
    let lf = chunk.indexOf(LF);
    // The sink may take a run of lines at once (the gateway's fast path, `FastPath.scanFrames`); a line it
    // leaves is framed here, and the next line is offered to it again.
    const bulk = sink.chunkEvents !== undefined;
    let declinedAt = -1;
    while (lf !== -1) {
      // The fast path: a line that starts with `{` (so is not blank) and lies whole in this chunk is
      // reported as offsets; the general path would give the same frame as views.
      if (chunk[start] === OPEN_OBJECT && this.held.idle && lf + 1 - start <= this.max) {
        if (bulk && start !== declinedAt) {
          const stop = sink.chunkEvents!(chunk, start, n, this.max, true);
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
    if (start < n) this.held.hold(chunk.subarray(start));
  }

  #complete(chunk: Uint8Array, start: number, end: number): void {
    const raw = this.held.finish(chunk, start, end);
    if (raw !== null) this.sink.frame(parseNdjsonLine(raw));
  }
}
