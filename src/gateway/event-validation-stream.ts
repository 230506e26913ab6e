/**
 * The validating transform for Web runtimes: `EventValidationCore` behind a `TransformStream`, so a
 * fetch-style handler can `pipeThrough` it. Valid frames leave byte-for-byte (§13.2); what the gateway
 * refuses is replaced by well-formed AgEvents of its own. Consumer-lenient by default (§0.2, §12).
 */

import {
  EventValidationCore,
  type EventOutput,
  type EventValidationMonitor,
  type EventValidationOptions,
  type EventValidationStats,
} from "./event-validation-core.js";
import type { StreamFormat } from "./gateway-events.js";
import { loadDefaultValidator } from "./validator.js";

export type { EventValidationOptions, EventValidationStats, GatewayReport, InvalidPolicy } from "./event-validation-core.js";
export { INVALID_POLICIES } from "./event-validation-core.js";

const DEFAULT_HIGH_WATER_MARK = 64 * 1024;

/** The core's output as the transform's readable side: its queue is the stream's only buffer. */
class ControllerOutput implements EventOutput {
  controller: TransformStreamDefaultController<Uint8Array> | null = null;
  constructor(private readonly highWaterMark: number) {}

  write(bytes: Uint8Array): void {
    this.controller!.enqueue(bytes);
  }

  close(): void {
    this.controller!.terminate();
  }

  queuedBytes(): number {
    const desired = this.controller?.desiredSize;
    return desired == null ? 0 : Math.max(0, this.highWaterMark - desired);
  }

  blocked(): boolean {
    return (this.controller?.desiredSize ?? 1) <= 0;
  }
}

/**
 * A `TransformStream<Uint8Array, Uint8Array>` that validates an AgEvent stream. Valid frames leave
 * byte-identical and in order; refused frames are replaced by gateway events (see `onInvalid`).
 */
export class EventValidationStream extends TransformStream<Uint8Array, Uint8Array> implements EventValidationMonitor {
  readonly #core: EventValidationCore;
  readonly #failure: { reason?: unknown };

  constructor(opts: EventValidationOptions = {}) {
    const hwm = opts.highWaterMark ?? DEFAULT_HIGH_WATER_MARK;
    const output = new ControllerOutput(hwm);
    const core = new EventValidationCore(opts, output);
    // A box rather than a field: the transformer is built before `this` exists.
    const failure: { reason?: unknown } = {};
    super(
      {
        start: async (controller) => {
          output.controller = controller;
          core.begin(opts.validate ?? (await loadDefaultValidator()).validateEvent);
        },
        transform: (chunk) => core.push(chunk),
        flush: () => {
          if ("reason" in failure) core.fail(failure.reason);
          else core.end();
        },
        cancel: () => core.cancel(),
      } as Transformer<Uint8Array, Uint8Array>,
      { highWaterMark: 1 },
      { highWaterMark: hwm, size: (chunk: Uint8Array) => chunk.byteLength },
    );
    this.#core = core;
    this.#failure = failure;
  }

  /** Counters so far. */
  get stats(): Readonly<EventValidationStats> {
    return this.#core.stats;
  }

  /** The framing in use (resolved once sniffed when `format: "auto"`). */
  get format(): StreamFormat {
    return this.#core.format;
  }

  /**
   * Bytes this stream holds right now: an incomplete frame plus output queued for a reader that has
   * not taken it. Bounded by `maxEventBytes + highWaterMark + one input chunk`, whatever the input.
   */
  get bufferedBytes(): number {
    return this.#core.bufferedBytes;
  }

  /**
   * Records that the source failed (socket reset, upstream crash) before its end was reached. Call it
   * before closing the writable side; the stream then ends with a retriable terminal `turn.error`
   * instead of an abrupt cut. `pipeUpstream()` does this for you.
   */
  noteUpstreamFailure(reason: unknown): void {
    this.#failure.reason = reason ?? new Error("upstream failed");
  }
}

/** Creates the validating transform (see `EventValidationOptions`). */
export function createEventValidationStream(opts: EventValidationOptions = {}): EventValidationStream {
  return new EventValidationStream(opts);
}

/**
 * Pipes `source` through `stream` so that a source failure becomes a well-formed terminal event
 * rather than an errored response: read errors are caught, reported with `noteUpstreamFailure`, and
 * the writable side is closed normally. Returns the validated readable side.
 */
export function pipeUpstream(source: ReadableStream<Uint8Array>, stream: EventValidationStream): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const writer = stream.writable.getWriter();
  void (async () => {
    try {
      for (;;) {
        await writer.ready;
        let step: ReadableStreamReadResult<Uint8Array>;
        try {
          step = await reader.read();
        } catch (error) {
          stream.noteUpstreamFailure(error);
          await writer.close();
          return;
        }
        if (step.done) {
          await writer.close();
          return;
        }
        // Not awaited: `writer.ready` above is the backpressure signal, and it rejects once the
        // stream is ended, which stops this loop.
        writer.write(step.value).catch(() => {});
      }
    } catch (error) {
      // The writable side failed: the gateway ended the stream (cap, terminate) or the reader went away.
      reader.cancel(error).catch(() => {});
    }
  })();
  return stream.readable;
}
