/**
 * The CLI's standard output: lines leave as they are produced (flushed after every input chunk, so
 * a long run shows its results as it goes and a later failure never costs the earlier ones), with
 * the pipe's backpressure honoured, so memory stays bounded however much is printed. A reader that
 * goes away (`agjson validate big.ndjson | head`) ends the run quietly with status 0: EPIPE means
 * nobody wants the rest, not that anything failed.
 */
import type { Writable } from "node:stream";

const FLUSH_AT = 64 * 1024;

export class LineOutput {
  readonly #stream: Writable;
  #pending: string[] = [];
  #pendingChars = 0;
  #closed = false;

  constructor(stream: Writable = process.stdout) {
    this.#stream = stream;
    // EPIPE (the reader went away) is the expected error; any write error ends the output alike,
    // and none is worth a stack trace.
    stream.on("error", () => {
      this.#closed = true;
    });
  }

  /** True once the reader has gone away: the command stops reading input and exits 0. */
  get closed(): boolean {
    return this.#closed || this.#stream.destroyed;
  }

  /** Queues one line (no newline); written at the next `flush` or once enough is queued. */
  async line(text: string): Promise<void> {
    if (this.closed) return;
    this.#pending.push(text);
    this.#pendingChars += text.length + 1;
    if (this.#pendingChars >= FLUSH_AT) await this.flush();
  }

  /** Writes what is queued, and waits while the pipe is full. */
  async flush(): Promise<void> {
    if (this.#pending.length === 0 || this.closed) {
      this.#pending = [];
      this.#pendingChars = 0;
      return;
    }
    const text = this.#pending.join("\n") + "\n";
    this.#pending = [];
    this.#pendingChars = 0;
    if (this.#stream.write(text)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.#stream.off("drain", done);
        this.#stream.off("close", done);
        this.#stream.off("error", done);
        resolve();
      };
      this.#stream.once("drain", done);
      this.#stream.once("close", done);
      this.#stream.once("error", done);
    });
  }
}
