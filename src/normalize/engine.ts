/**
 * The Normalizer engine (spec §8.0): the stateful half every facet shares.
 *
 * A facet translates one native chunk into calls on this engine; the engine owns everything the
 * §5.0 invariants demand of a producer: `seq` stamping (INV-SEQ), owner backfill (INV-OWNER),
 * synthetic `turn.start` (INV-TURN), message partitioning and sealing (INV-MSG), collision-free
 * derived ids (INV-BLOCK), de-cumulation of cumulative content (INV-DELTA) and the exact
 * end-of-stream closes (INV-FLUSH). It is also the output guard: every event leaves strict-valid
 * (§0.2 producer-strict); a provider value outside AgJSON (a negative token count, a fractional
 * index, a tool name that is not a string) degrades to `error` + `ext.<vendor>.unparsed` carrying
 * it (§8.0 graceful degradation), and the turn still closes.
 */
import { IdFingerprints } from "./id-fingerprints.js";
import type {
  AgBlock,
  AgCitation,
  AgEvent,
  AgFinishReason,
  AgOpaqueKind,
  AgOutcome,
  AgMeta,
  AgRole,
  AgSafety,
  AgSourcePayload,
  AgToolOutcome,
  AgUsage,
} from "../../generated/types.js";
import { validateEvent } from "../validate/strict.js";
import { DEFAULT_PARSE_CAPS, jsonDepth } from "../validate/caps.js";
import { parseKeepingExact } from "../wire/exact-numbers.js";
import { inspectGraph, isJsonTree } from "../validate/graph.js";
import type * as Lenient from "../../generated/lenient-types.js";
import type { AgValidationIssue } from "../validate/issues.js";
import { providerMeta } from "./util.js";
import { BLOCK_EVENT_TYPES, EVENT_ENVELOPE_FIELDS, EVENT_TYPES_BY_FOLD } from "../../generated/schema-facts.js";

/**
 * An event before the engine stamps its `seq` (facets never mint `seq`, §8.0). Typed consumer-lenient
 * (a schema-typed event is one too): a facet may pass on what it read leniently — a fold's messages,
 * a carried message — because the engine's output guard checks every event producer-strict and
 * hands out only what passed (§0.2), so the narrowing happens there, at run time.
 */
export type AgEventDraft = Lenient.AgKnownEvent | Lenient.AgExtEvent extends infer E ? (E extends unknown ? Omit<E, "seq"> : never) : never;

/** Options shared by every facet's normalizer. */
export interface NormalizerOptions {
  /** Root id stamped on `turn.start` / `message.start` (§1.2). Default `"thread"`. */
  threadId?: string;
  /** Own id of the turn this invoke opens. Default: derived from the first provider response id. */
  turnId?: string;
  /**
   * Every chunk pushed is fresh from `JSON.parse` (or `readNativeChunks` / `createChunkReader`) of
   * text: its values are the JSON values the text holds, so `1e400` or a 30-digit number in an
   * opaque slot is no refusal (§13.2), and no per-chunk look-up asks where a chunk came from.
   * The §13 depth cap is still held on every event. Never set it for objects built by hand: a
   * BigInt, NaN, class instance or getter in them would then reach the events unjudged. Default:
   * a chunk counts as parsed only when the project's own readers made it, and one that is not
   * makes the output guard walk every later event as a hand-made object (§13).
   */
  parsed?: boolean;
}

/** How a provider-signalled end of response closes the turn (held until the invoke ends). */
export interface TurnClose {
  finishReason: AgFinishReason;
  outcome?: AgOutcome;
  usage?: AgUsage;
  safety?: AgSafety[];
}

/** The two-operation contract of §8.0. */
export interface Normalizer {
  /** Ingest one native chunk; never throws (graceful degradation, §8.0). */
  push(native: unknown): AgEvent[];
  /** End of stream: the INV-FLUSH closes (§5.0). Call exactly once. */
  flush(): AgEvent[];
}

type BlockKind = "text" | "reasoning" | "tool";

// What the engine has put on the wire and not yet closed (named apart from src/reduce's fold
// state, which holds what a consumer has folded).

/** A turn the engine opened. */
interface EmittedTurn {
  turnId: string;
  /** A provider terminal already seen; released as `turn.done` when the invoke ends (§8 item 14). */
  pendingClose?: TurnClose;
}

/** A message the engine opened. */
interface EmittedMessage {
  id: string;
  turnId: string;
  candidateIndex: number;
}

/** A streaming block (text, reasoning, tool call) the engine opened. */
interface EmittedBlock {
  id: string;
  /** A tool call whose name is not a string: never started on the wire, its parts ride `unparsed` (§8.0). */
  refused?: boolean;
  kind: BlockKind;
  turnId: string;
  messageId: string;
  /** Content emitted so far: the prior string that de-cumulation slices (INV-DELTA). */
  emitted: string;
  providerExecuted: boolean;
}

/** Events whose base `messageId` is the message they attach to (message partitioning, §5). */
const MESSAGE_SCOPED: ReadonlySet<string> = new Set(BLOCK_EVENT_TYPES);

/** Reads `id` / `toolCallId` of a block event so the engine can find its owning message. */
function blockKeyOf(ev: AgEventDraft): string | undefined {
  if ("toolCallId" in ev && typeof ev.toolCallId === "string") return ev.toolCallId;
  if ("id" in ev && typeof ev.id === "string") return ev.id;
  return undefined;
}

/**
 * Per-invoke normalization state. One instance per invoke (§8.0 Lifetime); facets hold one and
 * call its primitives, then `drain()` the events of the chunk.
 */
export class NormalizerEngine {
  /** Vendor segment of `ext.<vendor>.*` events; a segment this SDK owns (§12). */
  readonly vendor: string;
  private readonly threadId: string;
  private readonly preferredTurnId: string | undefined;
  private seq = 0;
  private out: AgEvent[] = [];
  private turns: EmittedTurn[] = [];
  private closedTurns = 0;
  private messages: EmittedMessage[] = [];
  private blocks = new Map<string, EmittedBlock>();
  /** Every id this invoke handed out (INV-BLOCK), as fingerprints: the one part of the state that grows with the input. */
  private usedIds = new IdFingerprints();
  private ordinals = new Map<string, number>();
  private refusedCalls = new Set<string>();
  /** Vendor fields a frame stated about a call before its assembly (noteToolCallMeta), by toolCallId. */
  private callMeta = new Map<string, AgMeta>();
  private flushed = false;
  /** Set while the guard emits its own degradation events (they are never degraded again). */
  private degrading = false;
  /**
   * Whether the guard walks each event as a hand-made object: until a chunk arrives through
   * {@link guardedPush} (an engine driven directly is never trusted), and for good once a chunk is
   * not one the project parsed from text ({@link markParsedChunk}); never under the `parsed` option.
   */
  private handMade = true;
  private chunksNoted = false;
  /** `parsed` given: every chunk is taken as parsed from text, none is looked up. */
  private readonly chunksParsed: boolean;
  /**
   * The `tool.args.assembled` draft (then event) being emitted whose `input` the engine parsed from
   * the argument text itself; one slot, since emit runs synchronously (no per-event set look-up).
   */
  private parsedInput: object | undefined;

  constructor(vendor: string, opts: NormalizerOptions = {}) {
    this.vendor = vendor;
    this.threadId = opts.threadId ?? "thread";
    this.preferredTurnId = opts.turnId;
    this.chunksParsed = opts.parsed === true;
    if (this.chunksParsed) this.handMade = false;
  }

  // ── stamping ────────────────────────────────────────────────────────────────────────────

  /**
   * The generic emit path: stamps `seq` and applies the same owner backfill as the sugar
   * primitives (INV-OWNER: explicit `turnId` → owning message → last-opened turn).
   */
  emit(draft: AgEventDraft): void {
    const ev: Record<string, unknown> = { ...draft };
    if (draft === this.parsedInput) this.parsedInput = ev;
    const type = String(draft.type);
    const key = blockKeyOf(draft);
    const block = key !== undefined && MESSAGE_SCOPED.has(type) ? this.blocks.get(key) : undefined;
    if (ev.turnId === undefined) {
      const owner = block?.turnId ?? this.currentTurn()?.turnId;
      if (owner !== undefined) ev.turnId = owner;
    }
    if (MESSAGE_SCOPED.has(type) && ev.messageId === undefined) {
      const msg = block?.messageId ?? this.openMessageOf(this.currentTurn()?.turnId)?.id;
      if (msg !== undefined) ev.messageId = msg;
    }
    this.stamp(ev);
  }

  /**
   * The output guard: stamps `seq` (INV-SEQ, contiguous over the events that leave) on an event
   * that validates strictly; any other is degraded (§8.0).
   */
  private stamp(ev: Record<string, unknown>): void {
    ev.seq = this.seq;
    const verdict = this.guard(ev);
    if (verdict.ok) {
      this.seq++;
      // The guard's verdict is the typed event: strict validation is the narrowing (§0.2 producer-strict).
      this.out.push(verdict.event);
    } else if (this.degrading) {
      // A carried value that is not JSON (a cycle, nesting past the §13 cap) rides as its text.
      if ("raw" in ev && typeof ev.raw !== "string") {
        ev.raw = textOf(ev.raw);
        this.stamp(ev);
      }
    } else this.degrade(ev, verdict.errors);
  }

  /**
   * §8.0 graceful degradation of an event the strict schema refuses: the top-level fields at fault
   * are taken off and carried in `ext.<vendor>.unparsed` after a non-terminal `error`, and the
   * event leaves without them. When a required field is at fault the event cannot leave: a turn
   * terminal becomes `turn.error` (the turn still closes, INV-TURN); any other event is carried
   * whole in `unparsed`.
   */
  private degrade(ev: Record<string, unknown>, issues: AgValidationIssue[]): void {
    const type = typeof ev.type === "string" ? ev.type : "event";
    const removed: Record<string, unknown> = {};
    let repaired: Record<string, unknown> | undefined = { ...ev };
    let remaining = issues;
    for (let round = 0; ; round++) {
      let progress = false;
      for (const issue of remaining) {
        const field = topField(issue.path);
        if (field === undefined || field === "type" || field === "seq" || !Object.hasOwn(repaired, field)) continue;
        removed[field] = repaired[field];
        delete repaired[field];
        progress = true;
      }
      const verdict = progress && round < 16 ? this.guard(repaired) : undefined;
      if (verdict?.ok === true) break;
      if (verdict === undefined) {
        repaired = undefined;
        break;
      }
      remaining = verdict.errors;
    }
    const problems = issues
      .slice(0, 3)
      .map((i) => `${i.path || "/"} ${i.message}`)
      .join("; ");
    this.degrading = true;
    try {
      if (repaired !== undefined) {
        this.warn(
          "invalid_provider_value",
          `${type} carried provider values AgJSON cannot hold (${problems}); it was emitted without them and they ride ext.${this.vendor}.unparsed (§8.0).`,
        );
        this.unparsed({ event: type, fields: removed }, "provider values outside AgJSON");
      } else {
        this.warn(
          "invalid_provider_value",
          `${type} could not be expressed in AgJSON (${problems}); it rides ext.${this.vendor}.unparsed instead (§8.0).`,
        );
        this.unparsed({ event: ev }, "provider event outside AgJSON");
      }
    } finally {
      this.degrading = false;
    }
    if (repaired !== undefined) {
      this.stamp(repaired);
    } else if (TURN_TERMINALS.has(type) && typeof ev.turnId === "string") {
      // INV-TURN: the turn still closes.
      this.stamp({
        type: "turn.error",
        turnId: ev.turnId,
        code: "invalid_provider_value",
        message: `the provider's ${type} could not be expressed in AgJSON; see ext.${this.vendor}.unparsed (§8.0).`,
      });
    }
  }

  /**
   * The strict check of an outgoing event. A value the project parsed from text is a JSON value,
   * never judged as a hand-made object (§13.2: `1e400` in tool arguments or `providerMetadata` is
   * valid JSON, the Infinity `JSON.parse` makes of it no hand-made non-number): while every chunk
   * came from {@link markParsedChunk}'s readers, or the caller said so (`parsed`), the events hold
   * nothing else (the facets build them of chunk values, strings and the engine's own parse of
   * argument text), and the schema still checks every typed field. Otherwise the object walk runs (§13: BigInt, NaN, cycles, class
   * instances), except on an `input` the engine parsed itself.
   */
  private guard(ev: Record<string, unknown>): ReturnType<typeof validateEvent> {
    const check = guardCheck(ev);
    if (check === SCALAR_CHECK) return validateEvent(ev, SCALAR_CHECK);
    const parsedInput = ev === this.parsedInput && "input" in ev;
    if (this.handMade && !parsedInput) return validateEvent(ev, FULL_CHECK);
    if (this.handMade) {
      const rest = validateEvent({ ...ev, input: null }, FULL_CHECK);
      if (!rest.ok) return rest;
    }
    // Parsed values still nest: the §13 cap (and, for safety, cycles) is checked, no value judged.
    const over = isJsonTree(ev, GUARD_DEPTH) ? undefined : inspectGraph(ev, GUARD_DEPTH, false);
    return over === undefined ? validateEvent(ev, SCALAR_CHECK) : { ok: false, errors: [{ ...over, spec: "§13" }] };
  }

  /**
   * Notes where a pushed chunk came from: one not parsed from text by the project makes the guard
   * walk from then on. Nothing is looked up under the `parsed` option, nor once a chunk was hand-made.
   */
  noteChunk(native: unknown): void {
    if (this.chunksParsed || (this.chunksNoted && this.handMade)) return;
    this.handMade = !isParsedChunk(native);
    this.chunksNoted = true;
  }

  /** Returns the events produced since the last drain. */
  drain(): AgEvent[] {
    const events = this.out;
    this.out = [];
    return events;
  }

  /** True once `flush()` ran: the invoke is over. */
  get isFlushed(): boolean {
    return this.flushed;
  }

  // ── ids ─────────────────────────────────────────────────────────────────────────────────

  /** A derived id `${turnId}:${kind}:${ordinal}` never used before in this invoke (INV-BLOCK). */
  mintId(kind: string, scope?: string): string {
    const base = scope ?? this.currentTurn()?.turnId ?? this.preferredTurnId ?? "turn";
    const counterKey = `${base}\u0000${kind}`;
    let n = this.ordinals.get(counterKey) ?? 0;
    let id = `${base}:${kind}:${n}`;
    while (this.usedIds.has(id)) id = `${base}:${kind}:${++n}`;
    this.ordinals.set(counterKey, n + 1);
    this.usedIds.add(id);
    return id;
  }

  /** Reserves a provider id, or a suffixed variant when the invoke already used it (INV-BLOCK). */
  claimId(id: string): string {
    // A provider "id" that is not a non-empty string cannot name anything on the wire (§0.5).
    if (typeof id !== "string" || id === "") return this.mintId("id");
    if (!this.usedIds.has(id)) {
      this.usedIds.add(id);
      return id;
    }
    let n = 1;
    while (this.usedIds.has(`${id}:${n}`)) n++;
    const fresh = `${id}:${n}`;
    this.usedIds.add(fresh);
    return fresh;
  }

  // ── turns ───────────────────────────────────────────────────────────────────────────────

  /** The innermost open turn, if any. */
  currentTurn(): EmittedTurn | undefined {
    return this.turns[this.turns.length - 1];
  }

  /** Opens a turn when none is open (INV-TURN) and returns the owning turn id. */
  ensureTurn(hint?: string): string {
    const open = this.currentTurn();
    if (open) return open.turnId;
    if (typeof hint !== "string" || hint === "") hint = undefined;
    const wanted = this.closedTurns === 0 ? (this.preferredTurnId ?? hint) : undefined;
    const turnId = wanted !== undefined ? this.claimId(wanted) : this.mintId("turn", hint ?? this.preferredTurnId ?? "turn");
    this.turns.push({ turnId });
    this.emit({ type: "turn.start", threadId: this.threadId, turnId });
    return turnId;
  }

  /**
   * Opens a nested turn with `subagent.start` (§4: the sole nested-turn opener) and makes it the
   * current turn. `parentTurnId` may be a cross-ref label of no opened turn (§8 item 16).
   */
  openSubagent(opts: { turnId: string; parentTurnId: string; agentId?: string; agentName?: string }): string {
    const turnId = this.claimId(opts.turnId);
    this.turns.push({ turnId });
    const ev: AgEventDraft = { type: "subagent.start", turnId, parentTurnId: opts.parentTurnId };
    if (opts.agentId !== undefined) ev.agentId = opts.agentId;
    if (opts.agentName !== undefined) ev.agentName = opts.agentName;
    this.emit(ev);
    return turnId;
  }

  /**
   * Makes an open turn the current one, so content without an explicit owner lands in it: the
   * per-turn routing of an interleaved subagent + parent stream (§4 Per-turn routing, §10 item 12).
   */
  focusTurn(turnId: string): boolean {
    const i = this.turns.findIndex((t) => t.turnId === turnId);
    if (i < 0) return false;
    const [turn] = this.turns.splice(i, 1);
    this.turns.push(turn!);
    return true;
  }

  /** True while the turn is open in this invoke. */
  isTurnOpen(turnId: string): boolean {
    return this.turns.some((t) => t.turnId === turnId);
  }

  /**
   * Records the provider's end of one response. The turn stays open so a following response of
   * the same invoke (a tool loop) becomes its next message; the close is released by `flush()`.
   */
  endResponse(close: TurnClose): void {
    const turn = this.currentTurn();
    if (turn) turn.pendingClose = close;
  }

  /** Closes the current turn now with a terminal `turn.error` (INV-TURN). */
  failTurn(err: { message: string; code?: string; retriable?: boolean; usage?: AgUsage }): void {
    const turnId = this.ensureTurn();
    this.closeMessagesOf(turnId);
    this.emit({ type: "turn.error", turnId, ...err });
    this.popTurn(turnId);
  }

  /**
   * Closes the current turn now with `turn.abort`: the provider itself reported the run
   * interrupted (e.g. cancelled), which is never a success (§8 item 17, INV-TURN).
   */
  abortTurn(reason: string): void {
    const turn = this.currentTurn();
    if (!turn) return;
    this.closeMessagesOf(turn.turnId);
    this.emit({ type: "turn.abort", turnId: turn.turnId, reason });
    this.popTurn(turn.turnId);
  }

  /** Closes the current turn now with a success or other `turn.done` (INV-TURN). */
  finishTurn(close: TurnClose): void {
    const turn = this.currentTurn();
    if (!turn) return;
    this.closeMessagesOf(turn.turnId);
    this.emitTurnDone(turn.turnId, close);
    this.popTurn(turn.turnId);
  }

  private emitTurnDone(turnId: string, close: TurnClose): void {
    const ev: AgEventDraft = {
      type: "turn.done",
      turnId,
      outcome: close.outcome ?? { type: "success" },
      finishReason: close.finishReason,
    };
    if (close.usage) ev.usage = close.usage;
    if (close.safety && close.safety.length > 0) ev.safety = close.safety;
    this.emit(ev);
  }

  private popTurn(turnId: string): void {
    this.turns = this.turns.filter((t) => t.turnId !== turnId);
    this.closedTurns++;
  }

  // ── messages ────────────────────────────────────────────────────────────────────────────

  private openMessageOf(turnId: string | undefined, candidateIndex = 0): EmittedMessage | undefined {
    if (turnId === undefined) return undefined;
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.turnId === turnId && m.candidateIndex === candidateIndex) return m;
    }
    return undefined;
  }

  /** Opens an assistant (or other role) message; a response after a recorded end continues the turn. */
  openMessage(opts: { id?: string; role?: AgRole; model?: string; candidateIndex?: number; turnHint?: string } = {}): string {
    const turnId = this.ensureTurn(opts.turnHint);
    const turn = this.currentTurn();
    if (turn) delete turn.pendingClose;
    const candidateIndex = opts.candidateIndex ?? 0;
    const prior = this.openMessageOf(turnId, candidateIndex);
    if (prior) this.closeMessage(prior.id);
    const id = typeof opts.id === "string" && opts.id !== "" ? this.claimId(opts.id) : this.mintId("message", turnId);
    this.messages.push({ id, turnId, candidateIndex });
    const ev: AgEventDraft = {
      type: "message.start",
      id,
      role: opts.role ?? "assistant",
      turnId,
      threadId: this.threadId,
    };
    if (candidateIndex !== 0) ev.candidateIndex = candidateIndex;
    if (opts.model !== undefined && opts.model !== "") ev.model = opts.model;
    this.emit(ev);
    return id;
  }

  /** The open message content attaches to, opening one when the provider sent no message start. */
  ensureMessage(candidateIndex = 0): string {
    const turnId = this.ensureTurn();
    return this.openMessageOf(turnId, candidateIndex)?.id ?? this.openMessage({ candidateIndex });
  }

  /** True when a message is open for the candidate in the current turn. */
  hasOpenMessage(candidateIndex = 0): boolean {
    return this.openMessageOf(this.currentTurn()?.turnId, candidateIndex) !== undefined;
  }

  /** Seals a message (INV-MSG); its still-open blocks are ended first so nothing dangles. */
  closeMessage(id?: string, usage?: AgUsage): void {
    const msg = id !== undefined ? this.messages.find((m) => m.id === id) : this.openMessageOf(this.currentTurn()?.turnId);
    if (!msg) return;
    for (const block of [...this.blocks.values()]) {
      if (block.messageId !== msg.id) continue;
      if (block.kind === "text") this.textEnd(block.id);
      else if (block.kind === "reasoning") this.reasoningEnd(block.id);
      else this.toolAssemble(block.id);
    }
    this.messages = this.messages.filter((m) => m !== msg);
    const ev: AgEventDraft = { type: "message.end", id: msg.id, turnId: msg.turnId };
    if (usage) ev.usage = usage;
    this.emit(ev);
  }

  private closeMessagesOf(turnId: string): void {
    for (const m of this.messages.filter((x) => x.turnId === turnId)) this.closeMessage(m.id);
  }

  /** Merges message-level provider data the AgJSON vocabulary has no field for (§5 `message.metadata`). */
  messageMetadata(metadata: Record<string, unknown>, candidateIndex = 0): void {
    const messageId = this.ensureMessage(candidateIndex);
    this.emit({ type: "message.metadata", messageId, metadata });
  }

  // ── blocks ──────────────────────────────────────────────────────────────────────────────

  private openBlock(kind: BlockKind, wantedId: string | undefined, candidateIndex: number, mintKind: string): EmittedBlock {
    const messageId = this.ensureMessage(candidateIndex);
    const turnId = this.currentTurn()!.turnId;
    const id = typeof wantedId === "string" && wantedId !== "" ? this.claimId(wantedId) : this.mintId(mintKind, turnId);
    const state: EmittedBlock = { id, kind, turnId, messageId, emitted: "", providerExecuted: false };
    this.blocks.set(id, state);
    return state;
  }

  /** True while the block (text, reasoning or tool call) is open. */
  isOpen(id: string): boolean {
    return this.blocks.has(id);
  }

  /** Opens a text block; returns its id (derived when the provider gives none). */
  textStart(opts: { id?: string; candidateIndex?: number; providerMetadata?: AgMeta; _meta?: AgMeta } = {}): string {
    const ci = opts.candidateIndex ?? 0;
    const b = this.openBlock("text", opts.id, ci, "text");
    const ev: AgEventDraft = { type: "text.start", id: b.id };
    if (ci !== 0) ev.candidateIndex = ci;
    if (opts.providerMetadata) ev.providerMetadata = providerMeta(opts.providerMetadata);
    // §5 text.start: the envelope's `_meta` lands on the block.
    if (opts._meta) ev._meta = opts._meta;
    this.emit(ev);
    return b.id;
  }

  /** Appends a true delta to an open text block (empty deltas are dropped). */
  textDelta(id: string, delta: string): void {
    const b = this.blocks.get(id);
    if (!b || delta === "") return;
    b.emitted += delta;
    // emit()'s owner backfill, written out: the block owns the delta (INV-OWNER); same fields, same order.
    this.stamp({ type: "text.delta", id, delta, turnId: b.turnId, messageId: b.messageId });
  }

  /** De-cumulates a cumulative text snapshot into a true delta (INV-DELTA). */
  textSnapshot(id: string, full: string): void {
    const b = this.blocks.get(id);
    if (!b) return;
    if (full.startsWith(b.emitted)) this.textDelta(id, full.slice(b.emitted.length));
    else this.nonPrefixSnapshot(id, full);
  }

  /** Seals a text block, attaching streamed citations (§5 `text.end`). */
  textEnd(id: string, opts: { citations?: AgCitation[]; providerMetadata?: AgMeta } = {}): void {
    if (!this.blocks.has(id)) return;
    const ev: AgEventDraft = { type: "text.end", id };
    if (opts.citations && opts.citations.length > 0) ev.citations = opts.citations;
    if (opts.providerMetadata) ev.providerMetadata = providerMeta(opts.providerMetadata);
    this.emit(ev);
    this.blocks.delete(id);
  }

  /** Opens a reasoning block. */
  reasoningStart(
    opts: {
      id?: string;
      itemId?: string;
      partIndex?: number;
      mode?: "summarized" | "full";
      candidateIndex?: number;
      providerMetadata?: AgMeta;
    } = {},
  ): string {
    const ci = opts.candidateIndex ?? 0;
    const b = this.openBlock("reasoning", opts.id, ci, "reasoning");
    const ev: AgEventDraft = { type: "reasoning.start", id: b.id };
    if (opts.mode) ev.mode = opts.mode;
    if (opts.partIndex !== undefined) ev.partIndex = opts.partIndex;
    if (opts.itemId !== undefined) ev.itemId = opts.itemId;
    if (ci !== 0) ev.candidateIndex = ci;
    if (opts.providerMetadata) ev.providerMetadata = providerMeta(opts.providerMetadata);
    this.emit(ev);
    return b.id;
  }

  /** Appends a reasoning delta (to summary part `partIndex` when given). */
  reasoningDelta(id: string, delta: string, partIndex?: number): void {
    const b = this.blocks.get(id);
    if (!b || delta === "") return;
    b.emitted += delta;
    // emit()'s owner backfill, written out (INV-OWNER): same fields, same order.
    this.stamp(
      partIndex === undefined
        ? { type: "reasoning.delta", id, delta, turnId: b.turnId, messageId: b.messageId }
        : { type: "reasoning.delta", id, delta, partIndex, turnId: b.turnId, messageId: b.messageId },
    );
  }

  /** Sets the reasoning block's opaque replay blob, byte-identical (§5 `reasoning.opaque`). */
  reasoningOpaque(id: string, kind: AgOpaqueKind, value: string, itemId?: string): void {
    const ev: AgEventDraft = { type: "reasoning.opaque", id, kind, value, provider: this.vendor };
    if (itemId !== undefined) ev.itemId = itemId;
    this.emit(ev);
  }

  /** Seals a reasoning block; `provider` defaults to the facet's vendor segment. */
  reasoningEnd(id: string, providerMetadata?: AgMeta, provider: string = this.vendor): void {
    if (!this.blocks.has(id)) return;
    const ev: AgEventDraft = { type: "reasoning.end", id, provider };
    if (providerMetadata) ev.providerMetadata = providerMeta(providerMetadata);
    this.emit(ev);
    this.blocks.delete(id);
  }

  /** Opens a tool call; a call the provider gave no id gets a derived one (§8 item 2). */
  toolStart(opts: {
    toolCallId?: string;
    /** The provider's value: one that is not a string refuses the call (§8.0). */
    name: unknown;
    providerExecuted?: boolean;
    serverName?: string;
    itemId?: string;
    candidateIndex?: number;
    providerMetadata?: AgMeta;
    /** Vercel's static-vs-dynamic tool distinction, `false` included (§4 tool.start). */
    dynamic?: boolean;
    title?: string;
    toolMetadata?: AgMeta;
  }): string {
    const ci = opts.candidateIndex ?? 0;
    const b = this.openBlock("tool", opts.toolCallId, ci, "tool-call");
    b.providerExecuted = opts.providerExecuted === true;
    if (typeof opts.name !== "string") {
      // §8.0: a call with no name cannot start; it, its arguments and its result ride `unparsed`.
      b.refused = true;
      this.refusedCalls.add(b.id);
      this.warn(
        "invalid_provider_value",
        `tool call '${b.id}' has a name that is not a string; it rides ext.${this.vendor}.unparsed (§8.0).`,
      );
      this.unparsed({ toolCall: { ...opts, toolCallId: b.id } }, "tool call name is not a string");
      return b.id;
    }
    const ev: AgEventDraft = { type: "tool.start", toolCallId: b.id, name: opts.name as string };
    if (opts.providerExecuted) ev.providerExecuted = true;
    if (opts.serverName !== undefined) ev.serverName = opts.serverName;
    if (opts.itemId !== undefined) ev.itemId = opts.itemId;
    if (ci !== 0) ev.candidateIndex = ci;
    if (opts.dynamic !== undefined) ev.dynamic = opts.dynamic;
    if (opts.title !== undefined) ev.title = opts.title;
    if (opts.toolMetadata) ev.toolMetadata = opts.toolMetadata;
    if (opts.providerMetadata) ev.providerMetadata = providerMeta(opts.providerMetadata);
    this.emit(ev);
    return b.id;
  }

  /** Appends a raw partial-JSON fragment (§8 item 1). */
  toolArgsDelta(toolCallId: string, delta: string): void {
    const b = this.blocks.get(toolCallId);
    if (!b || delta === "") return;
    b.emitted += delta;
    if (b.refused) return;
    // emit()'s owner backfill, written out (INV-OWNER): same fields, same order.
    this.stamp({ type: "tool.args.delta", toolCallId, delta, turnId: b.turnId, messageId: b.messageId });
  }

  /** De-cumulates a cumulative argument string (INV-DELTA). */
  toolArgsSnapshot(toolCallId: string, full: string): void {
    const b = this.blocks.get(toolCallId);
    if (!b) return;
    if (full.startsWith(b.emitted)) this.toolArgsDelta(toolCallId, full.slice(b.emitted.length));
    else this.nonPrefixSnapshot(toolCallId, full);
  }

  /**
   * Vendor fields a frame states about an open call beside its content (§0.2: nothing a source sends
   * is dropped): merged into the call's `providerMetadata[vendor]` when it is assembled. False when
   * the call is not open (already assembled, or never started), so the facet can carry them itself.
   */
  noteToolCallMeta(toolCallId: string, vendor: string, fields: AgMeta): boolean {
    // Open, or not started yet (a frame stating the call before its content is replayed).
    if (!this.blocks.has(toolCallId) && this.usedIds.has(toolCallId)) return false;
    const bag = this.callMeta.get(toolCallId) ?? {};
    const prior = bag[vendor];
    bag[vendor] = { ...(typeof prior === "object" && prior !== null ? prior : {}), ...fields };
    this.callMeta.set(toolCallId, bag);
    return true;
  }

  /** The raw argument text accumulated for an open call. */
  toolArgsText(toolCallId: string): string | undefined {
    return this.blocks.get(toolCallId)?.emitted;
  }

  /**
   * Emits the authoritative `tool.args.assembled` (§4: mandatory). Without an explicit `input`
   * the accumulated fragments are parsed; an empty buffer is a no-argument call (`{}`); text that
   * is not JSON is kept as the raw string and reported by a non-terminal `error`.
   */
  toolAssemble(
    toolCallId: string,
    opts: { input?: unknown; signature?: string; title?: string; toolMetadata?: AgMeta; providerMetadata?: AgMeta } = {},
  ): void {
    const b = this.blocks.get(toolCallId);
    if (!b) return;
    if (b.refused) {
      this.unparsed({ toolCallId, arguments: "input" in opts ? opts.input : b.emitted }, "arguments of a tool call that could not start");
      this.blocks.delete(toolCallId);
      return;
    }
    let input: unknown = opts.input;
    const parsedHere = !("input" in opts);
    if (parsedHere) {
      const raw = b.emitted;
      if (raw.trim() === "") input = {};
      else {
        try {
          // Depth-capped text keeps the text of a number a double cannot write back (§13.2).
          input = jsonDepth(raw, GUARD_DEPTH) <= GUARD_DEPTH ? parseKeepingExact(raw) : JSON.parse(raw);
        } catch {
          input = raw;
          this.emit({
            type: "error",
            code: "malformed_tool_args",
            message: `Tool call '${toolCallId}' arguments are not valid JSON; its input carries the raw text.`,
          });
        }
      }
    }
    const ev: AgEventDraft = { type: "tool.args.assembled", toolCallId, input };
    if (opts.signature !== undefined) ev.signature = opts.signature;
    if (opts.title !== undefined) ev.title = opts.title;
    if (opts.toolMetadata) ev.toolMetadata = opts.toolMetadata;
    const noted = this.callMeta.get(toolCallId);
    this.callMeta.delete(toolCallId);
    const meta = noted === undefined ? opts.providerMetadata : { ...opts.providerMetadata, ...noted };
    if (meta) ev.providerMetadata = providerMeta(meta);
    if (parsedHere) this.parsedInput = ev;
    try {
      this.emit(ev);
    } finally {
      this.parsedInput = undefined;
    }
    this.blocks.delete(toolCallId);
  }

  /** Lands a tool result (server-executed tools resolve inside the same message, §2). */
  toolDone(opts: {
    toolCallId: string;
    content: AgBlock[];
    outcome?: AgToolOutcome;
    isError?: boolean;
    errorText?: string;
    errorCode?: string;
    structuredContent?: unknown;
    providerMetadata?: AgMeta;
    toolMetadata?: AgMeta;
    dynamic?: boolean;
    candidateIndex?: number;
    more?: boolean;
    preliminary?: boolean;
  }): void {
    if (this.refusedCalls.has(opts.toolCallId)) {
      this.unparsed({ toolDone: opts }, "result of a tool call that could not start");
      return;
    }
    this.ensureMessage(opts.candidateIndex ?? 0);
    const { candidateIndex, providerMetadata, ...rest } = opts;
    const ev: AgEventDraft = { type: "tool.done", ...rest };
    if (providerMetadata) ev.providerMetadata = providerMeta(providerMetadata);
    if (candidateIndex !== undefined && candidateIndex !== 0) ev.candidateIndex = candidateIndex;
    this.emit(ev);
  }

  /** Delivers one whole block (§4 `content.block`); `id` names it for later reconcile. */
  contentBlock(block: AgBlock, opts: { id?: string; candidateIndex?: number } = {}): string {
    const ci = opts.candidateIndex ?? 0;
    const messageId = this.ensureMessage(ci);
    const id =
      typeof opts.id === "string"
        ? this.claimId(opts.id)
        : this.mintId(typeof block.type === "string" ? block.type : "block", this.currentTurn()!.turnId);
    const ev: AgEventDraft = { type: "content.block", id, block, messageId };
    if (ci !== 0) ev.candidateIndex = ci;
    this.emit(ev);
    return id;
  }

  /** Emits a grounding source for the current turn (§4 `source`). */
  source(opts: { sourceId?: string; source: AgSourcePayload; chunkIndex?: number; providerMetadata?: AgMeta }): string {
    const turnId = this.ensureTurn();
    const sourceId = typeof opts.sourceId === "string" ? this.claimId(opts.sourceId) : this.mintId("source", turnId);
    const ev: AgEventDraft = { type: "source", sourceId, source: opts.source };
    if (opts.chunkIndex !== undefined) ev.chunkIndex = opts.chunkIndex;
    if (opts.providerMetadata) ev.providerMetadata = providerMeta(opts.providerMetadata);
    this.emit(ev);
    return sourceId;
  }

  // ── degradation ─────────────────────────────────────────────────────────────────────────

  /** A vendor extension event; the payload is spread per §12 payload embedding. */
  ext(key: string, payload: Record<string, unknown>): void {
    const reserved: ReadonlySet<string> = new Set(EVENT_ENVELOPE_FIELDS);
    const body: Record<string, unknown> = {};
    const shadowed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(payload)) {
      if (reserved.has(k) || k === "shadowed") shadowed[k] = v;
      else body[k] = v;
    }
    if (Object.keys(shadowed).length > 0) body.shadowed = shadowed;
    const ev: AgEventDraft = { type: `ext.${this.vendor}.${key}`, ...body };
    this.emit(ev);
  }

  /** Carries a native chunk (or part of one) the facet cannot map, so degradation is visible (§8.0). */
  unparsed(raw: unknown, reason: string): void {
    this.ext("unparsed", { reason, raw });
  }

  /** Reports a non-terminal problem on the wire (§4 `error`). */
  warn(code: string, message: string): void {
    this.emit({ type: "error", code, message });
  }

  /**
   * A provider value outside its documented range (§8.0): a non-terminal `error` naming it and
   * the chunk carried in `ext.<vendor>.unparsed`; the facet maps the rest of the chunk as best it can.
   */
  badValue(raw: unknown, field: string, value: unknown): void {
    this.warn(
      "invalid_provider_value",
      `${field} ${textOf(value).slice(0, 80)} is outside the range AgJSON maps; the chunk rides ext.${this.vendor}.unparsed (§8.0).`,
    );
    this.unparsed(raw, `${field} out of range`);
  }

  /**
   * A provider index (`x[key]`): a non-negative safe integer, else `undefined` — when present but
   * out of range (negative, fractional, not a number) it is reported with {@link badValue}.
   */
  providerIndex(x: unknown, key: string, raw: unknown, field = key): number | undefined {
    if (typeof x !== "object" || x === null) return undefined;
    const v = (x as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    if (Number.isSafeInteger(v) && (v as number) >= 0) return v as number;
    this.badValue(raw, field, v);
    return undefined;
  }

  private nonPrefixSnapshot(id: string, full: string): void {
    this.warn(
      "non_prefix_snapshot",
      `Cumulative content for '${id}' does not extend what was already emitted; the new snapshot is carried unparsed.`,
    );
    this.unparsed({ id, snapshot: full }, "non-prefix cumulative snapshot");
  }

  // ── end of stream ───────────────────────────────────────────────────────────────────────

  /**
   * INV-FLUSH: synthetic `message.end` for each open message in insertion order, then each open
   * turn closed innermost first — `turn.done` only where the provider itself signalled the end of
   * the response (the held close of `endResponse`), otherwise `turn.abort` `stream-truncated`.
   * No block closes: dangling per-block scratch is dropped.
   */
  flush(): AgEvent[] {
    if (this.flushed) return [];
    this.flushed = true;
    // Vendor fields noted for a call that never assembled are not dropped silently (§0.2).
    for (const [toolCallId, providerMetadata] of this.callMeta)
      this.unparsed({ toolCallId, providerMetadata }, "vendor fields of a tool call that was never assembled");
    this.callMeta.clear();
    for (const m of [...this.messages]) {
      this.emit({ type: "message.end", id: m.id, turnId: m.turnId });
    }
    this.messages = [];
    this.blocks.clear();
    for (const turn of [...this.turns].reverse()) {
      if (turn.pendingClose) this.emitTurnDone(turn.turnId, turn.pendingClose);
      else this.emit({ type: "turn.abort", turnId: turn.turnId, reason: "stream-truncated" });
    }
    this.turns = [];
    return this.drain();
  }
}

/**
 * The streaming deltas (§5 block-append and scratch-append folds): by far the most frequent events,
 * and scalars only once `_meta` and `providerMetadata` are absent.
 */
const DELTA_TYPES: ReadonlySet<string> = new Set([...EVENT_TYPES_BY_FOLD["block-append"], ...EVENT_TYPES_BY_FOLD["scratch-append"]]);
const SCALAR_CHECK = { parsed: true } as const;

/**
 * Native chunks the project parsed from depth-capped text itself (`nativeChunksOf`,
 * `readNativeChunks`, `createChunkReader`, and the `{ unparsedLine }` they make of what is not JSON).
 */
const PARSED_CHUNKS = new WeakSet<object>();

/** Records `chunk` as parsed from text by the project: a normalizer judges it as the JSON value it is (§13.2). */
export function markParsedChunk<T>(chunk: T): T {
  if (typeof chunk === "object" && chunk !== null) PARSED_CHUNKS.add(chunk);
  return chunk;
}

/** Whether a pushed chunk came from the project's readers ({@link markParsedChunk}); a string is text, never a hand-made object. */
export function isParsedChunk(chunk: unknown): boolean {
  return typeof chunk === "string" || (typeof chunk === "object" && chunk !== null && PARSED_CHUNKS.has(chunk));
}

/**
 * The producer-strict check of an event a facet built outside the engine (the `ag-ui` facet emits
 * on its own): `handMade` false while every chunk came from the project's readers, so the event
 * holds JSON values only and is judged as one (§13.2: `1e400` is valid JSON); the §13 depth cap is
 * still held. `handMade` true walks the event as any object handed in (§13).
 */
export function validateOutgoingEvent(ev: Record<string, unknown>, handMade: boolean): ReturnType<typeof validateEvent> {
  if (handMade) return validateEvent(ev, FULL_CHECK);
  const over = isJsonTree(ev, GUARD_DEPTH) ? undefined : inspectGraph(ev, GUARD_DEPTH, false);
  return over === undefined ? validateEvent(ev, SCALAR_CHECK) : { ok: false, errors: [{ ...over, spec: "§13" }] };
}
const FULL_CHECK = {} as const;
/** The depth cap the guard holds every event to (§13), the text cap `validateEvent` defaults to. */
const GUARD_DEPTH = DEFAULT_PARSE_CAPS.maxDepth;

/**
 * How the guard validates an event: a delta with no opaque bag holds only strings, so the graph
 * walk (cycles, getters, the §13 depth cap) has nothing to find and is skipped; every other event
 * — any of which may carry a provider value — is walked.
 */
function guardCheck(ev: Record<string, unknown>): { parsed?: boolean } {
  return DELTA_TYPES.has(ev.type as string) && ev._meta === undefined && ev.providerMetadata === undefined ? SCALAR_CHECK : FULL_CHECK;
}

/**
 * Turn terminals (the §5 turn-close fold, less `subagent.done`, which is a notice, not the nested
 * turn's close — D10): one that cannot leave as it is becomes `turn.error`, so the turn still closes.
 */
const TURN_TERMINALS: ReadonlySet<string> = new Set(EVENT_TYPES_BY_FOLD["turn-close"].filter((t) => t !== "subagent.done"));

/** The top-level field a JSON Pointer issue path names (undefined for the event itself). */
function topField(path: string): string | undefined {
  if (!path.startsWith("/")) return undefined;
  const end = path.indexOf("/", 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A carried value as text, when it is no JSON value the schema takes (a cycle, nesting past §13). */
function textOf(raw: unknown): string {
  try {
    return JSON.stringify(raw) ?? String(raw);
  } catch {
    try {
      return String(raw);
    } catch {
      return "(unreadable value)";
    }
  }
}

/**
 * Why a text chunk is carried unparsed: a facet maps native chunks as parsed JSON values, and a
 * caller that pushes the raw lines of a capture gets no turn at all — so the reason says what came
 * and what to pass instead (§8.0: degradation is visible and says why).
 */
export function textChunkReason(text: string): string {
  const shown = text.length > 40 ? `${JSON.stringify(text.slice(0, 40))}…` : JSON.stringify(text);
  return `got a string (${shown}): push parsed JSON chunks — readNativeChunks(text) or createChunkReader() reads a capture (NDJSON or SSE) into them, or JSON.parse each line`;
}

/** Runs a facet's chunk handler under the §8.0 never-throw rule. */
export function guardedPush(engine: NormalizerEngine, native: unknown, handle: (chunk: unknown) => void): AgEvent[] {
  if (engine.isFlushed) return [];
  engine.noteChunk(native);
  if (typeof native === "string") {
    engine.unparsed(native, textChunkReason(native));
    return engine.drain();
  }
  try {
    handle(native);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    engine.unparsed(native, `facet error: ${reason}`);
  }
  return engine.drain();
}
