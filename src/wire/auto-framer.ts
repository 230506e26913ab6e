import { ByteAccumulator, type FrameCallback, type FrameSink, type Framer, type FramerOptions } from "./frame.js";
import { NdjsonFramer } from "./ndjson-framer.js";
import { SseFramer } from "./sse-framer.js";
/** The two streamed framings (§13): Server-Sent Events and NDJSON. */
export type StreamFormat = "sse" | "ndjson";

/**
 * Picks SSE or NDJSON from the first significant byte (after a BOM and whitespace): `{` means NDJSON,
 * anything else SSE (`data:`, `:`, `id:`, `event:`, `retry:`). Bytes seen before the decision are
 * held, bounded by `maxFrameBytes`; past that the stream is treated as SSE.
 */
export class AutoFramer implements Framer {
  readonly #opts: FramerOptions;
  readonly #output: FrameCallback | FrameSink;
  readonly #onDetect: (format: StreamFormat) => void;
  readonly #held = new ByteAccumulator();
  #inner: Framer | null = null;

  constructor(opts: FramerOptions, output: FrameCallback | FrameSink, onDetect: (format: StreamFormat) => void) {
    this.#opts = opts;
    this.#output = output;
    this.#onDetect = onDetect;
  }

  get bufferedBytes(): number {
    return this.#inner ? this.#inner.bufferedBytes : this.#held.length;
  }

  push(chunk: Uint8Array): void {
    if (this.#inner) return this.#inner.push(chunk);
    let format: StreamFormat | null = null;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue;
      format = b === 0x7b ? "ndjson" : "sse";
      break;
    }
    if (format === null && this.#held.length + chunk.length <= this.#opts.maxFrameBytes) {
      this.#held.append(chunk);
      return;
    }
    this.#start(format ?? "sse");
    this.#inner!.push(chunk);
  }

  end(): number {
    if (!this.#inner) this.#start("sse");
    return this.#inner!.end();
  }

  #start(format: StreamFormat): void {
    this.#onDetect(format);
    this.#inner = format === "ndjson" ? new NdjsonFramer(this.#opts, this.#output) : new SseFramer(this.#opts, this.#output);
    if (this.#held.length > 0) this.#inner.push(this.#held.take());
  }
}

/** Creates the framer for a format (`auto` sniffs). */
export function createFramer(
  format: StreamFormat | "auto",
  opts: FramerOptions,
  output: FrameCallback | FrameSink,
  onDetect: (format: StreamFormat) => void,
): Framer {
  if (format === "auto") return new AutoFramer(opts, output, onDetect);
  onDetect(format);
  return format === "ndjson" ? new NdjsonFramer(opts, output) : new SseFramer(opts, output);
}
