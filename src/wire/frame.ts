/**
 * What a framer hands to its consumer. Framers are pure byte machines: they never decode JSON, they
 * only cut the stream into frames and keep each frame's exact wire bytes so a valid frame can be
 * forwarded byte-for-byte (§13.2: replay blobs must stay byte-identical).
 */

/** A complete frame that carries an event payload (SSE `data:` lines, or one NDJSON line). */
export interface EventFrame {
  kind: "event";
  /** The frame's exact wire bytes, terminator(s) included. */
  raw: Uint8Array;
  /** The payload bytes: SSE data values joined by LF, or the NDJSON line without its terminator. */
  data: Uint8Array;
  /** SSE `event:` field, when present. */
  eventName?: string;
  /** SSE `id:` field, when present. */
  lastEventId?: string;
}

/** Bytes that carry no event (SSE comments, id-only frames, blank lines, a leading BOM): forwarded as-is. */
export interface PassthroughFrame {
  kind: "passthrough";
  raw: Uint8Array;
}

/**
 * A frame that grew past `maxFrameBytes`. Reported as soon as the cap is crossed (not when the frame
 * ends, which may be never); the framer then discards the rest of that frame without buffering it.
 */
export interface OversizedFrame {
  kind: "oversized";
  /** Bytes of the frame seen when the cap was crossed (at least `maxFrameBytes + 1`). */
  byteLength: number;
}

export type Frame = EventFrame | PassthroughFrame | OversizedFrame;

/** An incremental framer: feed chunks, receive frames through the callback given at construction. */
export interface Framer {
  /** Consumes one chunk; calls the frame callback for every frame the chunk completes. */
  push(chunk: Uint8Array): void;
  /**
   * Ends the input. Returns the byte count of an incomplete trailing frame (0 when the input ended on
   * a frame boundary); the incomplete bytes are discarded, never forwarded.
   */
  end(): number;
  /** Bytes held for an incomplete frame right now (bounded by `maxFrameBytes`). */
  readonly bufferedBytes: number;
}

export type FrameCallback = (frame: Frame) => void;

/**
 * The allocation-free side of a framer's output. Most frames of a real stream (a single `data:` line,
 * one NDJSON object line) lie whole inside one input chunk; those are reported as offsets into that
 * chunk, with no frame object and no views, so a consumer can validate the payload in place and
 * forward runs of valid frames as one slice of the chunk. Everything else goes through `frame`.
 */
export interface FrameSink {
  /**
   * An event frame with exactly one payload and no `event:`/`id:` fields, lying whole in `chunk`:
   * wire bytes `chunk[start, end)` (terminators included), payload `chunk[dataStart, dataEnd)`.
   */
  chunkEvent(chunk: Uint8Array, start: number, end: number, dataStart: number, dataEnd: number): void;
  /**
   * Optional: a run of frames from `start`, a frame boundary of `chunk`, handled in one call. The
   * sink takes the whole frames it can judge in bulk (each a `data:` line and a blank line, or with
   * `lines` an NDJSON line starting with `{`; at most `maxFrameBytes`), exactly as `chunkEvent`
   * would have, and returns where it stopped; the framer goes on from there (`start` when it took
   * none).
   */
  chunkEvents?(chunk: Uint8Array, start: number, end: number, maxFrameBytes: number, lines: boolean): number;
  /** Any other frame. */
  frame(frame: Frame): void;
}

/** Adapts a per-frame callback to a sink: in-chunk events become `EventFrame`s viewing the chunk. */
export function toFrameSink(output: FrameCallback | FrameSink): FrameSink {
  if (typeof output !== "function") return output;
  return {
    chunkEvent: (chunk, start, end, dataStart, dataEnd) =>
      output({ kind: "event", raw: chunk.subarray(start, end), data: chunk.subarray(dataStart, dataEnd) }),
    frame: output,
  };
}

/**
 * Node's `Buffer`, where the runtime has one. Its native `indexOf` (memchr) is 3-4x faster than
 * `Uint8Array.prototype.indexOf` on V8, and its UTF-8 slicing needs no intermediate view; Web runtimes
 * without it take the standard `Uint8Array`/`TextDecoder` path with the same results.
 */
const NodeBuffer: typeof Buffer | undefined = typeof Buffer === "function" ? Buffer : undefined;
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** A view of `bytes` with the fastest byte search the runtime offers (a Buffer on Node; no copy). */
export function fastBytes(bytes: Uint8Array): Uint8Array {
  if (NodeBuffer === undefined || bytes instanceof NodeBuffer) return bytes;
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** `bytes[start, end)` decoded as UTF-8, malformed sequences replaced by U+FFFD (as `TextDecoder`). */
export function decodeUtf8(bytes: Uint8Array, start: number, end: number): string {
  if (NodeBuffer !== undefined && bytes instanceof NodeBuffer) return bytes.toString("utf8", start, end);
  return utf8Decoder.decode(bytes.subarray(start, end));
}

export interface FramerOptions {
  /** Largest frame, wire bytes; a longer frame is reported `oversized` and discarded. */
  maxFrameBytes: number;
}

export const LF = 0x0a;
export const CR = 0x0d;
const BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Growable byte buffer for a frame that spans chunks. Capacity never exceeds `limit` plus one chunk
 * slice, because callers stop appending once a frame crosses the cap.
 */
export class ByteAccumulator {
  #buf: Uint8Array = new Uint8Array(0);
  #len = 0;

  get length(): number {
    return this.#len;
  }

  append(bytes: Uint8Array): void {
    const need = this.#len + bytes.length;
    if (need > this.#buf.length) {
      const next = new Uint8Array(Math.max(need, Math.min(this.#buf.length * 2 || 256, need * 2)));
      next.set(this.#buf.subarray(0, this.#len));
      this.#buf = next;
    }
    this.#buf.set(bytes, this.#len);
    this.#len = need;
  }

  /** The held bytes, not copied: valid until the next `append`, `take` or `clear`. */
  view(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }

  /** Returns a copy of the held bytes and empties the buffer (releasing large capacity). */
  take(): Uint8Array {
    const out = this.#buf.slice(0, this.#len);
    this.clear();
    return out;
  }

  clear(): void {
    this.#len = 0;
    if (this.#buf.length > 64 * 1024) this.#buf = new Uint8Array(0);
  }
}

/**
 * The bytes of a frame that spans chunks, capped at `max` (§13: memory bounded by the largest record).
 * Past the cap the frame is reported `oversized` once, and its remaining bytes are counted, not kept,
 * until it ends. Shared by the SSE, NDJSON and JSON-document framers, whose frames differ only in
 * where they end.
 */
export class CappedFrameBytes {
  readonly #acc = new ByteAccumulator();
  readonly #max: number;
  readonly #sink: FrameSink;
  #discarding = false;
  #discardedBytes = 0;

  constructor(max: number, sink: FrameSink) {
    this.#max = max;
    this.#sink = sink;
  }

  /** Bytes held of the unfinished frame. */
  get length(): number {
    return this.#acc.length;
  }

  /** The unfinished frame went past the cap: its bytes are being skipped. */
  get discarding(): boolean {
    return this.#discarding;
  }

  /** Nothing held and nothing being skipped: a frame starting now may be handed out as a view. */
  get idle(): boolean {
    return this.#acc.length === 0 && !this.#discarding;
  }

  /** Keeps bytes of a frame that continues in a later chunk, up to the cap. */
  hold(bytes: Uint8Array): void {
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

  /**
   * The frame whose last bytes are `chunk[start, end)` is complete: its whole bytes (a view of
   * `chunk` when nothing was held), or `null` when it was being skipped (its `oversized` report went
   * out when it crossed the cap) or is over the cap (reported now).
   */
  finish(chunk: Uint8Array, start: number, end: number): Uint8Array | null {
    if (this.#discarding) {
      this.#discarding = false;
      this.#discardedBytes = 0;
      return null;
    }
    let raw: Uint8Array;
    if (this.#acc.length === 0) {
      raw = chunk.subarray(start, end);
    } else {
      const total = this.#acc.length + (end - start);
      if (total > this.#max) {
        this.#acc.clear();
        this.#sink.frame({ kind: "oversized", byteLength: total });
        return null;
      }
      this.#acc.append(chunk.subarray(start, end));
      raw = this.#acc.take();
    }
    if (raw.length > this.#max) {
      this.#sink.frame({ kind: "oversized", byteLength: raw.length });
      return null;
    }
    return raw;
  }

  /** Forgets the unfinished frame (end of input): the bytes it had, held or skipped. */
  drop(): number {
    const bytes = this.#discarding ? this.#discardedBytes : this.#acc.length;
    this.#acc.clear();
    this.#discarding = false;
    this.#discardedBytes = 0;
    return bytes;
  }
}

/**
 * What the byte framers share: a leading BOM stripped (`BomSniffer`), the bytes of a frame that
 * spans chunks held up to the cap (`CappedFrameBytes`), and the sink frames go to. A subclass says
 * only where its frames end (`scan`).
 */
export abstract class ByteFramer implements Framer {
  protected readonly sink: FrameSink;
  protected readonly max: number;
  protected readonly held: CappedFrameBytes;
  readonly #bom = new BomSniffer();

  constructor(opts: FramerOptions, output: FrameCallback | FrameSink) {
    this.max = opts.maxFrameBytes;
    this.sink = toFrameSink(output);
    this.held = new CappedFrameBytes(this.max, this.sink);
  }

  get bufferedBytes(): number {
    return this.held.length;
  }

  push(input: Uint8Array): void {
    const chunk = this.#bom.feed(input, this.sink);
    if (chunk.length > 0) this.scan(fastBytes(chunk));
  }

  abstract end(): number;

  /** Frames what a chunk completes and holds the rest. */
  protected abstract scan(chunk: Uint8Array): void;

  /** At end of input, the bytes the BOM sniffer still held (an input shorter than a BOM). */
  protected flushBom(): Uint8Array {
    return this.#bom.flush();
  }
}

/**
 * Strips a leading UTF-8 BOM, even when its three bytes arrive in separate chunks. The BOM is
 * reported as a passthrough frame so that a fully valid stream is forwarded byte-identical.
 */
export class BomSniffer {
  #done = false;
  #held: number[] = [];

  /** Returns the bytes to frame (possibly empty while the first bytes are still ambiguous). */
  feed(chunk: Uint8Array, sink: FrameSink): Uint8Array {
    if (this.#done) return chunk;
    let i = 0;
    while (i < chunk.length && this.#held.length < 3) {
      const b = chunk[i]!;
      if (b !== BOM[this.#held.length]) return this.#release(chunk, i);
      this.#held.push(b);
      i++;
    }
    if (this.#held.length === 3) {
      this.#done = true;
      this.#held = [];
      sink.frame({ kind: "passthrough", raw: Uint8Array.from(BOM) });
      return chunk.subarray(i);
    }
    return chunk.subarray(chunk.length);
  }

  /** At end of input: returns any held bytes that turned out not to be a BOM. */
  flush(): Uint8Array {
    if (this.#done) return new Uint8Array(0);
    this.#done = true;
    const out = Uint8Array.from(this.#held);
    this.#held = [];
    return out;
  }

  #release(chunk: Uint8Array, consumed: number): Uint8Array {
    this.#done = true;
    if (this.#held.length === 0) return chunk;
    const out = new Uint8Array(this.#held.length + chunk.length - consumed);
    out.set(this.#held);
    out.set(chunk.subarray(consumed), this.#held.length);
    this.#held = [];
    return out;
  }
}
