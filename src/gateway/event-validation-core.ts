/**
 * The push-based core of the validating gateway: frames an AgEvent byte stream (SSE or NDJSON),
 * validates every event and writes valid frames byte-for-byte (§13.2) to an `EventOutput`, replacing
 * what it refuses with well-formed AgEvents of its own. Consumer-lenient by default (§0.2, §12).
 *
 * It holds every framing, validation, cap and timer rule once; the drivers only move bytes. The Web
 * `EventValidationStream` wraps it in a `TransformStream`; the node:http handler drives it straight
 * from the upstream socket's chunks to `res.write`, because Node's Web streams cost promises, queues
 * and conversions per chunk that a proxy pays on every read.
 */

import { createFramer } from "../wire/auto-framer.js";
import { resolveCaps, type StreamCaps } from "./caps.js";
import { decodeUtf8, type Frame, type FrameSink, type Framer } from "../wire/frame.js";
import {
  boundIssues,
  buildGatewayEvent,
  encodeFrame,
  type GatewayEventDetails,
  type GatewayReason,
  type StreamFormat,
} from "./gateway-events.js";
import { FastPath, UNSURE } from "./fast-path.js";
import { DepthGuard } from "../wire/json-depth.js";
import { isDefaultEventValidator, type GatewayValidator, type Posture, type ValidationIssue } from "./validator.js";
import { SEMANTIC_EVENT_TYPES } from "../validate/semantic.js";
import { FOLD_TABLE, type FoldKind } from "../../generated/fold-scaffold.js";
import { isRecord } from "../json-guards.js";

/** What to do with an event that fails validation or a per-event cap. */
export const INVALID_POLICIES = ["drop", "terminate"] as const;
export type InvalidPolicy = (typeof INVALID_POLICIES)[number];

export interface EventValidationOptions {
  /** `lenient` (default): the consumer posture of §0.2; `strict`: producer conformance. */
  posture?: Posture;
  /** `drop` (default): drop the frame, write a non-terminal `error`; `terminate`: write `turn.error`, close. */
  onInvalid?: InvalidPolicy;
  /** Caps over the defaults of `DEFAULT_CAPS`. */
  caps?: Partial<StreamCaps>;
  /** Wire framing; `auto` (default) sniffs the first byte. */
  format?: StreamFormat | "auto";
  /** The event validator; defaults to `validateEvent` from `src/validate`. */
  validate?: GatewayValidator["validateEvent"];
  /** Turn named by a synthesized `turn.error` when the stream never opened one (e.g. the AgInput's). */
  turnId?: string;
  /** Bytes queued on the readable side before backpressure reaches the writer (default 64 KiB). */
  highWaterMark?: number;
  /** Called for every frame the gateway drops and for the reason a stream was ended early. */
  onReport?: (report: GatewayReport) => void;
  /** Called once when the stream closes (ended, cut short, or the client went away), with its counters. */
  onSummary?: (stats: EventValidationStats) => void;
}

/** One thing the gateway did to the stream, for logs and metrics. */
export interface GatewayReport {
  reason: GatewayReason;
  terminal: boolean;
  message: string;
  details: GatewayEventDetails;
}

/** Counters of one stream. */
export interface EventValidationStats {
  bytesIn: number;
  /** Chunks received from upstream. */
  chunksIn: number;
  bytesOut: number;
  /** Frames carrying an event payload. */
  events: number;
  /** Events forwarded unchanged (known and, under lenient, unknown types). */
  forwarded: number;
  /** Forwarded events of a type the validator does not know (lenient only). */
  unknown: number;
  /** Frames refused. */
  dropped: number;
  /**
   * Frames of a non-conformant upstream that carry no event — an empty `data:` payload, or SSE's
   * `[DONE]` sentinel: skipped as the CLI skips them, with no event written and no `seq` slot taken (D19).
   */
  skipped: number;
  /** Highest `bufferedBytes` observed after any step. */
  peakBufferedBytes: number;
  /** Set once the gateway ended the stream early (or upstream did, abnormally). */
  ended: { reason: GatewayReason; message: string } | null;
}

/**
 * Where the core's output goes. The core never queues output itself: every byte it lets through is
 * handed to `write` at once, so the driver's own queue (the readable side of a TransformStream, a
 * socket's write buffer) is the only one, and its backpressure is the driver's to apply upstream.
 */
export interface EventOutput {
  /**
   * Bytes for the client, in order. A view may alias the chunk being pushed (valid frames leave as
   * slices of it), so a driver that reuses its input buffers must copy.
   */
  write(bytes: Uint8Array): void;
  /**
   * The core ended the stream on its own (a cap, a timer, `terminate`) after writing its terminal
   * events: the driver stops reading upstream, hangs up on it and finishes the output. Not called
   * for `end()`/`fail()`, which the driver itself initiated.
   */
  close(): void;
  /** Output bytes accepted by `write` and not yet taken by the client. */
  queuedBytes(): number;
  /**
   * True while the client is not taking output (the driver has stopped reading upstream for it). The
   * idle timer counts such time as activity: a slow client is not a silent upstream.
   */
  blocked(): boolean;
}

/** Read-only view of a running stream, for metrics (`stats`, `bufferedBytes`, `format`). */
export interface EventValidationMonitor {
  readonly stats: Readonly<EventValidationStats>;
  readonly bufferedBytes: number;
  readonly format: StreamFormat;
}

const MAX_TRACKED_TURNS = 256;
function typesFolding(kind: FoldKind): ReadonlySet<string> {
  return new Set(Object.entries(FOLD_TABLE).flatMap(([type, fold]) => (fold === kind ? [type] : [])));
}
/** The event types whose §5 fold opens a turn (`x-agjson-fold: turn-open`), read from the generated fold table. */
export const TURN_OPENING_TYPES: ReadonlySet<string> = typesFolding("turn-open");
/** The event types whose §5 fold closes a turn (`x-agjson-fold: turn-close`, INV-TURN §5.0). */
export const TURN_CLOSING_TYPES: ReadonlySet<string> = typesFolding("turn-close");
/**
 * Events that open or close a turn. `track()` reads their `turnId` from the parsed event, so the
 * fast path leaves them to the validator; they are a handful per turn.
 */
const TURN_EVENT_TYPES: ReadonlySet<string> = new Set([...TURN_OPENING_TYPES, ...TURN_CLOSING_TYPES]);
/**
 * Types the fast path leaves to the validator: the turn events above, and every type with a rule of
 * the semantic layer (docs/validation.md), which only the validator runs.
 */
const FAST_PATH_SKIP: ReadonlySet<string> = new Set([...TURN_EVENT_TYPES, ...SEMANTIC_EVENT_TYPES]);

/** SSE's end-of-stream sentinel some upstreams send (`data: [DONE]`), as bytes. */
const DONE = new TextEncoder().encode("[DONE]");
const isJsonSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

function describe(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} B`;
}

/** An `error` event the gateway has yet to write: its reason, message and details. */
interface HeldError {
  reason: GatewayReason;
  message: string;
  details: GatewayEventDetails;
}

/**
 * Most `error` events held for refused frames whose `seq` could not be read (D31); past it,
 * the rest are summed up in one. `maxInvalidEvents` ends the stream long before on its default.
 */
const MAX_HELD_ERRORS = 1000;

/** A refused frame: why, and what could be read of it. */
interface Refusal {
  reason: GatewayReason;
  message: string;
  issues: ValidationIssue[];
  seq?: number;
  type?: string;
  bytes?: number;
  cap?: { name: string; limit: number };
}

/**
 * The framing, validation and forwarding loop shared by every driver. It is the framer's sink:
 * in-chunk events arrive as offsets and are judged in place; consecutive valid frames of one chunk
 * leave as one slice of it (`flushRun`), so a chunk of valid events costs one `write`, not one each.
 *
 * Lifecycle: `begin(validate)` once (starts the idle and wall timers), `push(chunk)` per upstream
 * chunk, then exactly one of `end()` (upstream finished), `fail(reason)` (upstream broke) or
 * `cancel()` (the client went away). `closed` is true once no more output will come.
 */
export class EventValidationCore implements FrameSink, EventValidationMonitor {
  readonly caps: StreamCaps;
  readonly posture: Posture;
  readonly onInvalid: InvalidPolicy;
  readonly opts: EventValidationOptions;
  readonly stats: EventValidationStats = {
    bytesIn: 0,
    chunksIn: 0,
    bytesOut: 0,
    events: 0,
    forwarded: 0,
    unknown: 0,
    dropped: 0,
    skipped: 0,
    peakBufferedBytes: 0,
    ended: null,
  };
  validate: GatewayValidator["validateEvent"] | undefined;
  /** Judges flat events on their bytes when the validator is the package's own (see `fast-path.ts`). */
  fastPath: FastPath | null = null;
  readonly output: EventOutput;
  readonly framer: Framer;
  format: StreamFormat = "sse";
  /** `seq` of the last event written (forwarded or synthesized); the next synthesized event uses +1. */
  lastSeq = -1;
  /**
   * `error` events for refused frames whose own `seq` could not be read, not yet written
   * (D31): the last `awaiting` of them wait for the upstream's next event to say whether
   * those frames took seq slots; the ones before wait for the stream's end.
   */
  held: HeldError[] = [];
  /** How many of `held`, at its end, wait for the upstream's next event. Zero on the common path. */
  awaiting = 0;
  /** Refused frames past `MAX_HELD_ERRORS` (their `error`s are summed up in one at the end), and the last. */
  heldOverflow = 0;
  lastOverflow: HeldError | undefined;
  readonly openTurns: string[] = [];
  sawTurn = false;
  closed = false;
  summarized = false;
  readonly depthGuard: DepthGuard;
  /**
   * The options object handed to the validator, allocated once per stream. `parsed`: the value is
   * fresh from JSON.parse of text the depth guard capped, so the object-graph walk is not needed.
   */
  readonly validateOptions: { posture: Posture; parsed: true };
  // Typed by the one method used: Node's own types (no DOM lib) declare TextDecoder as a value
  // only, so a declaration naming the class would not compile in a user's Node project.
  readonly strictDecoder: { decode(input: Uint8Array): string } = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  // Coalescing run: consecutive forwarded frames that are adjacent in memory go out as one chunk.
  runBytes: Uint8Array | null = null;
  runStart = 0;
  runEnd = 0;
  lastActivity = Date.now();
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  wallTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(opts: EventValidationOptions, output: EventOutput) {
    this.opts = opts;
    this.output = output;
    const caps = resolveCaps(opts.caps ?? {});
    this.caps = caps;
    this.posture = opts.posture ?? "lenient";
    this.onInvalid = opts.onInvalid ?? "drop";
    if (this.posture !== "strict" && this.posture !== "lenient") {
      throw new RangeError(`agjson gateway: posture must be "strict" or "lenient", got ${String(this.posture)}`);
    }
    if (this.onInvalid !== "drop" && this.onInvalid !== "terminate") {
      throw new RangeError(`agjson gateway: onInvalid must be "drop" or "terminate", got ${String(this.onInvalid)}`);
    }
    this.validate = opts.validate;
    this.validateOptions = { posture: this.posture, parsed: true };
    this.depthGuard = new DepthGuard(caps.maxDepth);
    this.framer = createFramer(opts.format ?? "auto", { maxFrameBytes: caps.maxEventBytes }, this, (format) => {
      this.format = format;
    });
  }

  /**
   * Bytes held for this stream right now: an incomplete frame plus output the client has not taken.
   * Bounded by `maxEventBytes` plus the driver's queue plus the output of one input chunk.
   */
  get bufferedBytes(): number {
    return this.framer.bufferedBytes + this.output.queuedBytes() + (this.runEnd - this.runStart);
  }

  /**
   * Starts the stream with its validator (`opts.validate` wins when given) and arms the idle and
   * wall timers. Called once, before the first `push`.
   */
  begin(validate: GatewayValidator["validateEvent"]): void {
    this.validate ??= validate;
    if (isDefaultEventValidator(this.validate))
      this.fastPath = new FastPath(this.posture, FAST_PATH_SKIP, { maxDepth: this.caps.maxDepth });
    this.lastActivity = Date.now();
    this.armIdle(this.caps.idleTimeoutMs);
    this.wallTimer = setTimeout(() => {
      this.endFromTimer("wall-timeout", `the stream exceeded its wall-time cap of ${this.caps.wallTimeoutMs} ms`, {
        name: "wallTimeoutMs",
        limit: this.caps.wallTimeoutMs,
      });
    }, this.caps.wallTimeoutMs);
    this.wallTimer.unref?.();
  }

  armIdle(delay: number): void {
    this.idleTimer = setTimeout(() => this.onIdleTimer(), delay);
    this.idleTimer.unref?.();
  }

  onIdleTimer(): void {
    if (this.closed) return;
    const quiet = Date.now() - this.lastActivity;
    // A slow client is not an idle upstream: while the client is not taking output, upstream is not
    // read, so time spent blocked counts as activity (the wall cap still bounds it).
    if (this.output.blocked()) {
      this.lastActivity = Date.now();
      this.armIdle(this.caps.idleTimeoutMs);
      return;
    }
    if (quiet < this.caps.idleTimeoutMs) {
      this.armIdle(this.caps.idleTimeoutMs - quiet);
      return;
    }
    this.endFromTimer("idle-timeout", `upstream sent nothing for ${this.caps.idleTimeoutMs} ms`, {
      name: "idleTimeoutMs",
      limit: this.caps.idleTimeoutMs,
    });
  }

  endFromTimer(reason: GatewayReason, message: string, cap: { name: string; limit: number }): void {
    if (this.closed) return;
    try {
      this.stop(reason, message, true, { reason, cap });
    } catch {
      // The output is already gone (client cancelled); nothing is left to tell.
    }
  }

  /** Ends the stream from inside (`finish`), then tells the driver to stop reading and close. */
  stop(reason: GatewayReason, message: string, retriable: boolean, details: GatewayEventDetails): void {
    this.finish(reason, message, retriable, details);
    this.output.close();
  }

  clearTimers(): void {
    clearTimeout(this.idleTimer);
    clearTimeout(this.wallTimer);
  }

  /** Consumes one upstream chunk; whatever it completes is written to the output before this returns. */
  push(chunk: Uint8Array): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    this.stats.bytesIn += chunk.length;
    this.stats.chunksIn++;
    if (this.stats.bytesIn > this.caps.maxStreamBytes) {
      this.stop("stream-too-large", `the stream exceeded its cap of ${describe(this.caps.maxStreamBytes)}`, false, {
        reason: "stream-too-large",
        cap: { name: "maxStreamBytes", limit: this.caps.maxStreamBytes },
      });
      return;
    }
    this.depthGuard.forget();
    this.fastPath?.forget();
    this.framer.push(chunk);
    this.flushRun();
    this.notePeak();
  }

  /**
   * Upstream finished. A frame cut short or a turn left open means it ended too early: the stream
   * then ends with a retriable terminal event (INV-TURN §5.0). The driver closes the output after.
   */
  end(): void {
    if (this.closed) return;
    const truncated = this.framer.end();
    this.flushRun();
    if (this.closed) return;
    if (truncated > 0) {
      this.finish("upstream-truncated", `upstream ended inside a frame (${truncated} bytes without a terminator)`, true, {
        reason: "upstream-truncated",
        droppedBytes: truncated,
      });
    } else if (this.openTurns.length > 0) {
      this.finish("upstream-truncated", `upstream ended with turn "${this.openTurns.at(-1)}" still open`, true, {
        reason: "upstream-truncated",
      });
    } else {
      this.releaseHeld();
      this.closed = true;
      this.clearTimers();
      this.summarize();
    }
  }

  /**
   * Upstream failed (socket reset, crash) before its end: what is complete of the input is written,
   * then a retriable terminal `turn.error` instead of an abrupt cut. The driver closes the output after.
   */
  fail(reason: unknown): void {
    if (this.closed) return;
    this.framer.end();
    this.flushRun();
    if (this.closed) return;
    const why = reason instanceof Error ? reason.message : String(reason ?? "upstream failed");
    this.finish("upstream-disconnected", `the upstream stream failed mid-way: ${why}`, true, { reason: "upstream-disconnected" });
  }

  /** The client went away: nothing more is written, the timers stop. */
  cancel(): void {
    this.closed = true;
    this.clearTimers();
    this.summarize();
  }

  /** Hands the stream's counters to `onSummary`, once, when it closes. */
  summarize(): void {
    if (this.summarized) return;
    this.summarized = true;
    this.opts.onSummary?.({ ...this.stats });
  }

  notePeak(): void {
    const buffered = this.bufferedBytes;
    if (buffered > this.stats.peakBufferedBytes) this.stats.peakBufferedBytes = buffered;
  }

  chunkEvent(chunk: Uint8Array, start: number, end: number, dataStart: number, dataEnd: number): void {
    if (this.closed) return;
    if (this.judge(chunk, dataStart, dataEnd, end - start)) this.forward(chunk, start, end);
  }

  /**
   * A run of SSE frames (or NDJSON lines) judged in one pass by the fast path: the frames it accepts
   * count and leave exactly as `chunkEvent` would count and forward them one by one.
   */
  chunkEvents(chunk: Uint8Array, start: number, end: number, maxFrameBytes: number, lines: boolean): number {
    const fast = this.fastPath;
    // While a refused frame's errors await the next event's seq, that event is judged on its own (settle).
    if (this.closed || fast === null || this.awaiting > 0) return start;
    // Never past the event cap: the frame that crosses it is judge()'s to refuse.
    const room = this.caps.maxEvents - this.stats.events;
    if (room <= 0) return start;
    const stop = fast.scanFrames(chunk, start, end, maxFrameBytes, room, lines);
    const frames = fast.frames;
    if (frames === 0) return start;
    this.stats.events += frames;
    this.stats.forwarded += frames;
    this.lastSeq = fast.seq;
    this.forward(chunk, start, stop);
    return stop;
  }

  frame(frame: Frame): void {
    if (this.closed) return;
    if (frame.kind === "passthrough") {
      this.forward(frame.raw, 0, frame.raw.length);
      return;
    }
    if (frame.kind === "oversized") {
      this.refuse({
        reason: "event-too-large",
        message: `an event of more than ${describe(this.caps.maxEventBytes)} was dropped (${describe(frame.byteLength)} read when the cap was crossed)`,
        issues: [{ path: "", keyword: "maxEventBytes", message: `must be at most ${this.caps.maxEventBytes} bytes` }],
        bytes: frame.byteLength,
        cap: { name: "maxEventBytes", limit: this.caps.maxEventBytes },
      });
      return;
    }
    if (this.judge(frame.data, 0, frame.data.length, frame.raw.length)) this.forward(frame.raw, 0, frame.raw.length);
  }

  /**
   * Checks one event whose payload is `bytes[dataStart, dataEnd)` (a frame of `rawLength` wire
   * bytes): the event-count and depth caps, UTF-8 JSON, the posture's schema. Returns true when the
   * frame is to be forwarded; otherwise the refusal has been written (or the stream ended).
   */
  judge(bytes: Uint8Array, dataStart: number, dataEnd: number, rawLength: number): boolean {
    if (this.carriesNoEvent(bytes, dataStart, dataEnd)) {
      this.stats.skipped++;
      return false;
    }
    if (++this.stats.events > this.caps.maxEvents) {
      this.stop("too-many-events", `the stream exceeded its cap of ${this.caps.maxEvents} events`, false, {
        reason: "too-many-events",
        cap: { name: "maxEvents", limit: this.caps.maxEvents },
      });
      return false;
    }
    // An event the fast path accepts is well-formed JSON within the depth cap that the validator
    // accepts as a known type; only its seq is needed for the stream's bookkeeping.
    const fast = this.fastPath;
    if (fast !== null && fast.check(bytes, dataStart, dataEnd) !== UNSURE) {
      if (this.awaiting > 0) this.settle(fast.seq);
      this.lastSeq = fast.seq;
      this.stats.forwarded++;
      return true;
    }
    if (this.depthGuard.exceeds(bytes, dataStart, dataEnd)) {
      this.refuse({
        reason: "event-too-deep",
        message: `an event nested deeper than ${this.caps.maxDepth} levels was dropped`,
        issues: [{ path: "", keyword: "maxDepth", message: `must nest at most ${this.caps.maxDepth} levels` }],
        bytes: rawLength,
        cap: { name: "maxDepth", limit: this.caps.maxDepth },
      });
      return false;
    }
    let value: unknown;
    try {
      value = JSON.parse(this.decode(bytes, dataStart, dataEnd));
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.refuse({
        reason: "invalid-json",
        message: `a frame that is not JSON text was dropped: ${why}`,
        issues: [{ path: "", keyword: "json", message: why }],
        bytes: rawLength,
      });
      return false;
    }
    let result: ReturnType<GatewayValidator["validateEvent"]>;
    try {
      result = this.validate!(value, this.validateOptions);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      result = { ok: false, errors: [{ path: "", keyword: "validator", message: `the validator threw: ${why}` }] };
    }
    const record = isRecord(value) ? value : undefined;
    if (!result.ok) {
      const type = typeof record?.type === "string" ? record.type : undefined;
      // Reported only when it is an exact ordinal: 1e400 parses to Infinity, which JSON writes as null.
      const rawSeq = record?.seq;
      const seq = typeof rawSeq === "number" && Number.isSafeInteger(rawSeq) ? rawSeq : undefined;
      const first = result.errors[0];
      const where = first ? ` at ${first.path || "/"}: ${first.message}` : "";
      this.refuse({
        reason: "invalid-event",
        message: `an invalid ${type === undefined ? "event" : `"${type}" event`}${seq === undefined ? "" : ` (seq ${seq})`} was dropped${where}`,
        issues: result.errors,
        bytes: rawLength,
        ...(seq === undefined ? {} : { seq }),
        ...(type === undefined ? {} : { type }),
      });
      return false;
    }
    if (!result.known) this.stats.unknown++;
    if (this.awaiting > 0) this.settle(record?.seq);
    if (record) this.track(record);
    this.stats.forwarded++;
    return true;
  }

  /**
   * A frame with no event in it: an empty (or whitespace-only) payload, or SSE's `[DONE]` sentinel.
   * A refusal would write an `error` in the next seq slot, which the upstream's next event then
   * repeats (a backward jump); the frame took no slot, so it is skipped and only counted (D19).
   */
  carriesNoEvent(bytes: Uint8Array, start: number, end: number): boolean {
    // Every event is an object: one comparison answers the common frame.
    if (bytes[start] === 0x7b) return false;
    let a = start;
    let b = end;
    while (a < b && isJsonSpace(bytes[a]!)) a++;
    while (b > a && isJsonSpace(bytes[b - 1]!)) b--;
    if (a === b) return true;
    if (this.format !== "sse" || b - a !== DONE.length) return false;
    for (let i = 0; i < DONE.length; i++) if (bytes[a + i] !== DONE[i]) return false;
    return true;
  }

  /**
   * UTF-8 decoding that refuses malformed bytes. The replacing decoder is several times faster than
   * the fatal one on long payloads; a U+FFFD in its output (malformed input, or a literal U+FFFD)
   * sends the frame through the fatal decoder, which throws on malformed bytes.
   */
  decode(bytes: Uint8Array, start: number, end: number): string {
    const text = decodeUtf8(bytes, start, end);
    if (text.includes("\uFFFD")) this.strictDecoder.decode(bytes.subarray(start, end));
    return text;
  }

  /** Follows `seq` and open turns of forwarded events, for the events the gateway may have to write. */
  track(event: Record<string, unknown>): void {
    const seq = event.seq;
    // Only a safe integer is an ordinal the gateway can continue (§5.0 INV-SEQ): the package's
    // validators refuse any other seq; an injected validator may not, and lastSeq + 1 must stay exact.
    if (typeof seq === "number" && Number.isSafeInteger(seq) && seq >= 0) this.lastSeq = seq;
    const type = event.type;
    if (typeof type !== "string") return;
    if (TURN_OPENING_TYPES.has(type)) {
      this.sawTurn = true;
      const turnId = event.turnId;
      if (typeof turnId === "string" && !this.openTurns.includes(turnId) && this.openTurns.length < MAX_TRACKED_TURNS) {
        this.openTurns.push(turnId);
      }
    } else if (TURN_CLOSING_TYPES.has(type)) {
      // A closing event without turnId closes the sole (innermost) open turn (§4 per-turn routing).
      const turnId = event.turnId;
      const at = typeof turnId === "string" ? this.openTurns.lastIndexOf(turnId) : this.openTurns.length - 1;
      if (at >= 0) this.openTurns.splice(at, 1);
    }
  }

  refuse(refusal: Refusal): void {
    this.stats.dropped++;
    const details: GatewayEventDetails = { reason: refusal.reason };
    if (refusal.issues.length > 0) {
      details.issues = boundIssues(refusal.issues);
      details.issueCount = refusal.issues.length;
    }
    if (refusal.seq !== undefined) details.droppedSeq = refusal.seq;
    if (refusal.type !== undefined) details.droppedType = refusal.type;
    if (refusal.bytes !== undefined) details.droppedBytes = refusal.bytes;
    if (refusal.cap !== undefined) details.cap = refusal.cap;
    if (this.onInvalid === "terminate") {
      this.stop(refusal.reason, `${refusal.message}; the gateway ended the stream (onInvalid: terminate)`, false, details);
      return;
    }
    if (this.stats.dropped > this.caps.maxInvalidEvents) {
      this.stop("too-many-invalid-events", `more than ${this.caps.maxInvalidEvents} invalid events; the last: ${refusal.message}`, false, {
        ...details,
        reason: "too-many-invalid-events",
        cap: { name: "maxInvalidEvents", limit: this.caps.maxInvalidEvents },
      });
      return;
    }
    const message = `${refusal.message}. Nothing of this frame was forwarded; a client that needs exact state should resync (messages.snapshot).`;
    this.opts.onReport?.({ reason: refusal.reason, terminal: false, message, details });
    if (refusal.seq === undefined) {
      this.hold({ reason: refusal.reason, message, details });
      return;
    }
    if (this.awaiting > 0) this.settle(refusal.seq);
    // D2: the refused frame's own slot.
    this.emit("error", refusal.reason, message, false, details, undefined);
  }

  /**
   * A refused frame whose `seq` could not be read (not JSON, too large, too deep, no ordinal): whether
   * it took a seq slot upstream is unknown, and an `error` written now at `lastSeq + 1` would repeat
   * the upstream's next seq if it took none (§5.0 INV-SEQ: ascending, gap-free). So its `error`
   * waits for the upstream's next event, whose seq tells (`settle`), or for the stream's end
   * (D31).
   */
  hold(error: HeldError): void {
    if (this.held.length >= MAX_HELD_ERRORS) {
      this.heldOverflow++;
      this.lastOverflow = error;
      return;
    }
    this.held.push(error);
    this.awaiting++;
  }

  /**
   * The upstream's next event (or a refused frame with a readable seq) has `nextSeq`: the slots
   * between the last seq written and it were taken by the frames refused meanwhile, so their
   * `error`s fill them, in order. Those that find no slot (a frame that was not an event, or a
   * backward jump: a new invoke) wait for the stream's end, where the gateway's own events follow the
   * upstream's last seq and so cannot collide with one. A forward gap wider than the refusals stays a
   * gap (the reducer resyncs, INV-SEQ).
   */
  settle(nextSeq: unknown): void {
    const from = this.held.length - this.awaiting;
    this.awaiting = 0;
    if (typeof nextSeq !== "number" || !Number.isSafeInteger(nextSeq)) return;
    const slots = Math.min(nextSeq - this.lastSeq - 1, this.held.length - from);
    if (slots <= 0) return;
    for (const error of this.held.splice(from, slots)) this.emit("error", error.reason, error.message, false, error.details, undefined);
  }

  /** Writes every held `error` (the stream is ending: no upstream event can take a later seq). */
  releaseHeld(): void {
    if (this.held.length === 0 && this.lastOverflow === undefined) return;
    this.awaiting = 0;
    const held = this.held;
    this.held = [];
    for (const error of held) this.emit("error", error.reason, error.message, false, error.details, undefined);
    const last = this.lastOverflow;
    if (last !== undefined) {
      const message = `${this.heldOverflow} more frames were refused whose seq could not be read; the last: ${last.message}`;
      this.emit("error", last.reason, message, false, last.details, undefined);
      this.lastOverflow = undefined;
      this.heldOverflow = 0;
    }
  }

  /**
   * Ends the stream with well-formed terminal events: a `turn.error` for every turn still open
   * (innermost first, INV-TURN §5.0); when none was ever opened, one `turn.error` naming `opts.turnId`;
   * when every turn had already closed, a non-terminal `error` (a second terminal event for a closed
   * turn would be malformed).
   */
  finish(reason: GatewayReason, message: string, retriable: boolean, details: GatewayEventDetails): void {
    if (this.closed) return;
    this.flushRun();
    this.releaseHeld();
    this.opts.onReport?.({ reason, terminal: true, message, details });
    this.stats.ended = { reason, message };
    if (this.openTurns.length > 0) {
      for (let k = this.openTurns.length - 1; k >= 0; k--) {
        this.emit("turn.error", reason, message, retriable, details, this.openTurns[k]);
      }
      this.openTurns.length = 0;
    } else if (!this.sawTurn) {
      this.emit("turn.error", reason, message, retriable, details, this.opts.turnId);
    } else {
      this.emit("error", reason, message, retriable, details, undefined);
    }
    this.closed = true;
    this.clearTimers();
    this.summarize();
  }

  emit(
    type: "error" | "turn.error",
    reason: GatewayReason,
    message: string,
    retriable: boolean,
    details: GatewayEventDetails,
    turnId: string | undefined,
  ): void {
    this.flushRun();
    // INV-SEQ (§5.0): the gateway's event takes the next ordinal after the last one written, so the
    // stream it produces stays ascending and gap-free.
    // At the safe-integer bound the ordinal cannot grow exactly; the event repeats it (a backward
    // step a reducer tolerates) rather than write a seq no validator accepts.
    if (this.lastSeq < Number.MAX_SAFE_INTEGER) this.lastSeq += 1;
    const event = buildGatewayEvent({
      type,
      seq: this.lastSeq,
      message,
      reason,
      retriable,
      details,
      ...(turnId === undefined ? {} : { turnId }),
    });
    const bytes = encodeFrame(this.format, event);
    this.stats.bytesOut += bytes.length;
    this.output.write(bytes);
  }

  /**
   * Queues `bytes[start, end)` for output, extending the current run when it continues it: in the same
   * chunk (the fast path) or in the same memory (a general-path frame viewing that chunk).
   */
  forward(bytes: Uint8Array, start: number, end: number): void {
    if (end <= start) return;
    const run = this.runBytes;
    if (run !== null) {
      if (bytes === run && start === this.runEnd) {
        this.runEnd = end;
        return;
      }
      const at = bytes.byteOffset + start - run.byteOffset;
      if (bytes.buffer === run.buffer && at === this.runEnd && at + (end - start) <= run.length) {
        this.runEnd = at + (end - start);
        return;
      }
      this.flushRun();
    }
    this.runBytes = bytes;
    this.runStart = start;
    this.runEnd = end;
  }

  flushRun(): void {
    const run = this.runBytes;
    if (run === null) return;
    const out = run.subarray(this.runStart, this.runEnd);
    this.runBytes = null;
    this.runStart = this.runEnd = 0;
    this.stats.bytesOut += out.length;
    this.output.write(out);
  }
}
