import { ByteFramer, CR, LF, type Frame } from "./frame.js";

const COLON = 0x3a;
const SPACE = 0x20;
const D = 0x64;
const A = 0x61;
const T = 0x74;

/**
 * Finds line terminators (CR, LF or CRLF, WHATWG SSE §9.2.5) in one buffer. The next CR and next LF
 * positions are cached so a buffer with many lines and no CR is scanned once, not once per line.
 */
class EolScanner {
  #nextLf = -2;
  #nextCr = -2;
  constructor(private readonly buf: Uint8Array) {}

  /** Position of the first LF at or after `from`, or -1. */
  lf(from: number): number {
    if (this.#nextLf !== -1 && this.#nextLf < from) this.#nextLf = this.buf.indexOf(LF, from);
    return this.#nextLf;
  }

  /** Position of the first CR at or after `from`, or -1. */
  cr(from: number): number {
    if (this.#nextCr !== -1 && this.#nextCr < from) this.#nextCr = this.buf.indexOf(CR, from);
    return this.#nextCr;
  }

  /** Position of the first CR or LF at or after `from`, or -1. */
  next(from: number): number {
    const lf = this.lf(from);
    const cr = this.cr(from);
    if (lf === -1) return cr;
    if (cr === -1) return lf;
    return lf < cr ? lf : cr;
  }
}

const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

function isField(buf: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let k = 0; k < name.length; k++) if (buf[start + k] !== name.charCodeAt(k)) return false;
  return true;
}

/**
 * Splits one complete SSE frame into its fields. `data` values are joined by LF as the SSE
 * dispatch algorithm does; a frame with a single data line (the common case) yields a zero-copy view.
 */
export function parseSseFrame(raw: Uint8Array): Frame {
  const scan = new EolScanner(raw);
  const n = raw.length;
  let first: Uint8Array | null = null;
  let more: Uint8Array[] | null = null;
  let eventName: string | undefined;
  let lastEventId: string | undefined;
  let pos = 0;
  while (pos < n) {
    let eol = scan.next(pos);
    if (eol === -1) eol = n;
    if (eol === pos) break;
    if (raw[pos] !== COLON) {
      let colon = pos;
      while (colon < eol && raw[colon] !== COLON) colon++;
      let valueStart = colon < eol ? colon + 1 : eol;
      if (valueStart < eol && raw[valueStart] === SPACE) valueStart++;
      const value = raw.subarray(valueStart, eol);
      if (isField(raw, pos, colon, "data")) {
        if (first === null) first = value;
        else (more ??= []).push(value);
      } else if (isField(raw, pos, colon, "event")) {
        eventName = utf8.decode(value);
      } else if (isField(raw, pos, colon, "id")) {
        if (!value.includes(0)) lastEventId = utf8.decode(value);
      }
    }
    pos = eol + (raw[eol] === CR && raw[eol + 1] === LF ? 2 : 1);
  }
  if (first === null) return { kind: "passthrough", raw };
  let data = first;
  if (more !== null) {
    let len = first.length;
    for (const part of more) len += 1 + part.length;
    data = new Uint8Array(len);
    data.set(first);
    let at = first.length;
    for (const part of more) {
      data[at++] = LF;
      data.set(part, at);
      at += part.length;
    }
  }
  const frame: Frame = { kind: "event", raw, data };
  if (eventName !== undefined) frame.eventName = eventName;
  if (lastEventId !== undefined) frame.lastEventId = lastEventId;
  return frame;
}

/**
 * Incremental Server-Sent Events framer over bytes. A frame is everything up to and including the
 * blank line that dispatches it; chunk boundaries may fall anywhere (inside a CRLF, inside a UTF-8
 * sequence, inside the BOM). Frames that fit in one chunk are handed out as zero-copy views of it.
 */
export class SseFramer extends ByteFramer {
  #atLineStart = true;
  /** The previous chunk ended with a CR: an LF starting the next chunk belongs to that terminator. */
  #pendingCR = false;
  /** That pending CR was the blank line ending a frame; the frame is emitted once we know about LF. */
  #frameEndsAtCR = false;
  /** Non-blank lines of the current frame so far, and where its first line lies in the current chunk. */
  #lines = 0;
  #firstLineStart = -1;
  #firstLineEnd = -1;

  end(): number {
    const held = this.flushBom();
    if (held.length > 0) this.scan(held);
    if (this.#frameEndsAtCR) {
      this.#pendingCR = false;
      this.#frameEndsAtCR = false;
      this.#complete(new Uint8Array(0), 0, 0);
    }
    const truncated = this.held.drop();
    this.#atLineStart = true;
    this.#pendingCR = false;
    return truncated;
  }

  protected scan(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    let frameStart = 0;
    if (this.#pendingCR) {
      this.#pendingCR = false;
      if (chunk[0] === LF) i = 1;
      if (this.#frameEndsAtCR) {
        this.#frameEndsAtCR = false;
        this.#complete(chunk, 0, i);
        frameStart = i;
      }
    }
    const scan = new EolScanner(chunk);
    while (i < n) {
      if (i === frameStart && this.#lines === 0 && this.#atLineStart && this.held.idle) {
        i = frameStart = this.#simpleFrames(chunk, scan, i);
        if (i >= n) break;
      }
      const eol = scan.next(i);
      if (eol === -1) {
        this.#atLineStart = false;
        break;
      }
      const blank = this.#atLineStart && eol === i;
      let termEnd: number;
      if (chunk[eol] === CR) {
        if (eol + 1 < n) {
          termEnd = chunk[eol + 1] === LF ? eol + 2 : eol + 1;
        } else {
          this.#pendingCR = true;
          termEnd = n;
        }
      } else {
        termEnd = eol + 1;
      }
      if (blank) {
        if (this.#pendingCR) {
          this.#frameEndsAtCR = true;
          break;
        }
        this.#complete(chunk, frameStart, termEnd);
        frameStart = termEnd;
      } else {
        // Remember the first line when it starts in this chunk: a one-line `data:` frame (the
        // common shape) then needs no second pass.
        if (this.#lines++ === 0 && this.#atLineStart) {
          this.#firstLineStart = i;
          this.#firstLineEnd = eol;
        }
        this.#atLineStart = true;
      }
      i = termEnd;
    }
    if (frameStart < n) this.held.hold(chunk.subarray(frameStart));
  }

  /**
   * The fast path, at a frame boundary with nothing held: consumes the frames starting at `i` that are
   * one `data:` line ending in a blank line (`data: …\n\n` or `data: …\r\n\r\n`, the shape every
   * producer writes), lying whole in this chunk and within the cap, and reports them as offsets.
   * Returns where it stopped; anything else there (comments, fields, multi-line data, a frame cut by
   * the chunk end, a lone CR) is left to the general line loop, which gives the same frames.
   */
  #simpleFrames(chunk: Uint8Array, scan: EolScanner, i: number): number {
    const n = chunk.length;
    const max = this.max;
    const sink = this.sink;
    // The sink may take a run of frames at once (the gateway's fast path, `FastPath.scanFrames`); a frame it
    // leaves is framed here, one at a time, and the next boundary is offered to it again.
    const bulk = sink.chunkEvents !== undefined;
    let declinedAt = -1;
    while (i + 7 <= n && chunk[i] === D && chunk[i + 1] === A && chunk[i + 2] === T && chunk[i + 3] === A && chunk[i + 4] === COLON) {
      const lf = scan.lf(i + 5);
      if (lf === -1 || lf + 1 >= n) break;
      // Offered only when a whole line is here: a chunk that merely ends a frame and begins the
      // next (a stream cut into small pieces) costs the sink nothing.
      if (bulk && i !== declinedAt) {
        const stop = sink.chunkEvents!(chunk, i, n, max, false);
        if (stop !== i) {
          i = stop;
          continue;
        }
        declinedAt = i;
      }
      const cr = scan.cr(i);
      let dataEnd: number;
      let end: number;
      if (cr === -1 || cr > lf + 1) {
        if (chunk[lf + 1] !== LF) break;
        dataEnd = lf;
        end = lf + 2;
      } else if (cr === lf - 1 && lf + 2 < n && chunk[lf + 1] === CR && chunk[lf + 2] === LF) {
        dataEnd = cr;
        end = lf + 3;
      } else {
        break;
      }
      if (end - i > max) break;
      sink.chunkEvent(chunk, i, end, chunk[i + 5] === SPACE ? i + 6 : i + 5, dataEnd);
      i = end;
    }
    return i;
  }

  /** The frame ending at `chunk[end]` is complete: its earlier bytes are held, the rest is in `chunk`. */
  #complete(chunk: Uint8Array, start: number, end: number): void {
    const oneLine = this.#lines === 1 && this.#firstLineStart === start;
    const lineEnd = this.#firstLineEnd;
    this.#lines = 0;
    this.#firstLineStart = -1;
    const wasHeld = this.held.length > 0;
    const raw = this.held.finish(chunk, start, end);
    if (raw === null) return;
    if (!wasHeld && oneLine && lineEnd - start >= 5 && isField(chunk, start, start + 5, "data:")) {
      const valueStart = chunk[start + 5] === SPACE ? start + 6 : start + 5;
      this.sink.frame({ kind: "event", raw, data: chunk.subarray(Math.min(valueStart, lineEnd), lineEnd) });
      return;
    }
    this.sink.frame(parseSseFrame(raw));
  }
}
