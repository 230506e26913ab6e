/**
 * `toAgUi`: a stateful transform of one AgEvent stream (§4) into AG-UI 1.0 events. A top-level turn
 * is an AG-UI run, a nested turn (§1.1 subagent) an AG-UI subagent whose events carry its
 * `subagentRunId`; blocks become the AG-UI start/content/end triples, state and surfaces their AG-UI
 * homes, a HITL pause (§7) the run's interrupt outcome. Nothing is dropped: a field AG-UI has no slot
 * for rides `metadata.agjson` on the event that carries the rest, an event with no AG-UI home becomes
 * a CUSTOM event named `agjson.<type>` (an `ext.*` event keeps its own name). The output always
 * satisfies `@ag-ui/client`'s `verifyEvents`: the transform opens a run before the first event that
 * needs one and closes what is still open before a run ends. docs/bridges/ag-ui.md has the table.
 */
import type {
  AgHitlAskEvent,
  AgMessageStartEvent,
  AgPausedAsk,
  AgToolCallBlock,
  AgTurnDoneEvent,
  AgUsage,
  AgKnownEvent,
  AgExtEvent,
} from "../../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import {
  EVENT_ENVELOPE_FIELDS,
  EVENT_FIELDS,
  fieldsOtherThan,
  isKnownBlock,
  isKnownEvent,
  isKnownOutcome,
  type FieldOf,
} from "../../../generated/schema-facts.js";
import { applyJsonPatch } from "../../reduce/json-patch.js";
import { AG_UI_OWN, INTERRUPT_ASK_KEY, INTERRUPT_ECHOED, INTERRUPT_OWN } from "./carry.js";
import { toAgUiContent } from "./content.js";
import { toAgUiMessages } from "./messages.js";
import { AgUiOwnership, type AgUiEntity } from "./ownership.js";
import {
  AGJSON_METADATA_KEY,
  EventType,
  type AgUiEvent,
  type Interrupt,
  type JsonPatchOperation,
  type RunFinishedOutcome,
  type TokenUsage,
} from "./vocabulary.js";
import { isRecord } from "../../json-guards.js";

/** Options of one transform. */
export interface AgUiEncoderOptions {
  /** The AG-UI `threadId` of every run (default: each `turn.start`'s own `threadId`). */
  threadId?: string;
  /** The AG-UI `runId` of the first run (default: its `turnId`), e.g. the client's `RunAgentInput.runId`. */
  runId?: string;
  /** Carry AgJSON-only fields under `metadata.agjson` (default true; off gives the bare AG-UI view). */
  carry?: boolean;
}

/** A stateful AgEvent → AG-UI transform for one stream. */
export interface AgUiEncoder {
  /**
   * Translates one event — what `reduce()` takes, so a stream of any type this version does not
   * know passes too: that one rides as CUSTOM `agjson.<type>` like every event with no AG-UI home.
   * Returns the AG-UI events it completes (possibly none). Never throws.
   */
  push(event: AgLenientEvent): AgUiEvent[];
  /** End of stream: closes what is still open (a run left open ends in RUN_ERROR `stream-truncated`). */
  flush(): AgUiEvent[];
}

type Json = Record<string, unknown>;

interface RunState {
  threadId: string;
  runId: string;
  /** The top-level turn it stands for; undefined for a run opened only to hold turn-less events. */
  turnId: string | undefined;
  asks: Map<string, AgHitlAskEvent>;
  /** Tool calls started in the run with no result yet: the success outcome's `pendingToolCallIds`. */
  pendingCalls: Set<string>;
}

interface MessageInfo {
  start: AgMessageStartEvent;
  materialized: boolean;
  /** Opening order, so messages materialize in the order §5 partitions them. */
  order: number;
}

interface TextState {
  agUiId: string;
  sub: string | undefined;
}

interface ToolState {
  name: string;
  args: string;
  sub: string | undefined;
  messageId: string | undefined;
}

interface StepState {
  name: string;
  sub: string | undefined;
}

/**
 * Fields of `ev` other than `omit`, undefined values left out: what a carry or CUSTOM value holds.
 * `omit` names the fields the AG-UI event states in its own slots — AG-UI's vocabulary, not a
 * schema fact — typed against the generated type of `ev`, so the compiler refuses a name the schema
 * does not have; every field it does not name is carried, so a field the schema adds is never lost
 * (which is why it is not derived from the schema: a derived list would swallow a new field).
 */
function rest<E extends object>(ev: E, omit: readonly FieldOf<E>[]): Json {
  return restOrNone(ev, omit) ?? {};
}

/**
 * {@link rest}, or undefined when nothing is left — the common case on the per-delta path, where
 * building (and then discarding) an empty object per event is most of the transform's cost.
 */
function restOrNone<E extends object>(ev: E, omit: readonly FieldOf<E>[]): Json | undefined {
  const mapped: readonly string[] = omit;
  let out: Json | undefined;
  for (const k in ev) {
    if (mapped.includes(k)) continue;
    const v: unknown = Reflect.get(ev, k);
    if (v === undefined) continue;
    (out ??= {})[k] = v;
  }
  return out;
}

/** True when `x` has an own enumerable key (without allocating the key list). */
function hasKeys(x: object): boolean {
  for (const _ in x) return true;
  return false;
}

/** A ui.surface.start's own fields (all but the envelope): the activity's content, so not carried again. */
const SURFACE_START_OWN = fieldsOtherThan(EVENT_FIELDS["ui.surface.start"], EVENT_ENVELOPE_FIELDS);

/** The empty spread: shared, never mutated (frozen), so spreading "nothing" allocates nothing. */
const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});

/** AG-UI token usage of AgUsage: one entry, or one per model of `byModel` (§4 AgUsage). */
export function toTokenUsage(usage: AgUsage): TokenUsage[] {
  const one = (u: AgUsage, model?: string): TokenUsage => {
    const t: TokenUsage = {};
    if (model !== undefined) t.model = model;
    if (u.inputTokens !== undefined) t.inputTokens = u.inputTokens;
    if (u.outputTokens !== undefined) t.outputTokens = u.outputTokens;
    if (u.totalTokens !== undefined) t.totalTokens = u.totalTokens;
    if (u.reasoningTokens !== undefined) t.reasoningTokens = u.reasoningTokens;
    if (u.cacheReadTokens !== undefined) t.cachedInputTokens = u.cacheReadTokens;
    if (u.cacheWriteTokens !== undefined) t.cacheWriteInputTokens = u.cacheWriteTokens;
    return t;
  };
  if (usage.byModel !== undefined && Object.keys(usage.byModel).length > 0) {
    return Object.entries(usage.byModel).map(([model, u]) => one(u, model));
  }
  return [one(usage)];
}

/** True when every member of `patch` is an RFC 6902 operation AG-UI's JsonPatch accepts. */
function isJsonPatch(patch: unknown): patch is JsonPatchOperation[] {
  if (!Array.isArray(patch)) return false;
  return patch.every((op: unknown) => {
    if (typeof op !== "object" || op === null || !("op" in op) || !("path" in op) || typeof op.path !== "string") return false;
    switch (op.op) {
      case "add":
      case "replace":
      case "test":
        return "value" in op;
      case "remove":
        return true;
      case "move":
      case "copy":
        return "from" in op && typeof op.from === "string";
      default:
        return false;
    }
  });
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

class Encoder implements AgUiEncoder {
  private readonly opts: AgUiEncoderOptions;
  private readonly carryOn: boolean;
  private out: AgUiEvent[] = [];
  private run: RunState | undefined;
  private runCount = 0;
  private lastThreadId = "thread";
  /** Open nested turns: turnId → parent turnId. */
  private subagents = new Map<string, string>();
  private finishedSubagents = new Set<string>();
  private messages = new Map<string, MessageInfo>();
  private messageOrder = 0;
  private openMessageOfTurn = new Map<string, string>();
  private texts = new Map<string, TextState>();
  /** AG-UI message ids with a text message in progress. */
  private textInProgress = new Set<string>();
  private reasonings = new Map<string, string | undefined>();
  private tools = new Map<string, ToolState>();
  /** Every toolCallId a TOOL_CALL_START went out for: one identity per call in a fold (§5.0 INV-BLOCK). */
  private shownCalls = new Set<string>();
  private steps = new Map<string, StepState>();
  private activeStepNames = new Set<string>();
  private surfaces = new Map<string, { hasDataModel: boolean }>();
  private state: unknown = undefined;
  /** Who opened each AG-UI message, call, reasoning and activity of the run (verifyEvents' view). */
  private readonly owners = new AgUiOwnership();
  private readonly ownedState = new WeakSet<object>();
  private flushed = false;

  constructor(opts: AgUiEncoderOptions) {
    this.opts = opts;
    this.carryOn = opts.carry !== false;
  }

  push(event: AgLenientEvent): AgUiEvent[] {
    if (this.flushed) return [];
    try {
      // A type this version does not know (§0.2) has no AG-UI home: carried whole, like an ext.* one.
      if (isKnownEvent(event)) this.translate(event);
      else this.carryWhole(event);
    } catch (error) {
      // An event that is not a well-formed AgEvent (callers are asked to validate first) is carried
      // whole rather than lost or thrown (§8.0 graceful degradation, mirrored on the way out).
      this.custom("agjson.unmapped", { reason: error instanceof Error ? error.message : String(error), event }, undefined);
    }
    return this.drain();
  }

  flush(): AgUiEvent[] {
    if (this.flushed) return [];
    this.flushed = true;
    if (this.run) {
      this.closeOpen(undefined);
      for (const sub of [...this.subagents.keys()].reverse()) this.closeSubagentTruncated(sub);
      if (this.run.turnId === undefined) this.finishRun({ type: "success" }, { synthesized: true });
      else {
        this.emit({
          type: EventType.RUN_ERROR,
          message: `the stream ended before turn '${this.run.turnId}' closed`,
          code: "stream-truncated",
          ...this.carry({ truncated: true }),
        });
        this.run = undefined;
      }
    }
    return this.drain();
  }

  private drain(): AgUiEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private emit(ev: AgUiEvent): void {
    this.owners.record(ev);
    this.out.push(ev);
  }

  /** The agent an event about entity `id` is attributed to: `sub`, unless another opened it (then its opener). */
  private attributed(entity: AgUiEntity, id: string, sub: string | undefined): string | undefined {
    return this.owners.conflicts(entity, id, sub) ? this.owners.owner(entity, id).sub : sub;
  }

  // ── carriage ──────────────────────────────────────────────────────────────────────────────

  /** `{ metadata: { agjson } }` for the fields AG-UI has no slot for, or nothing. */
  private carry(fields: Json | undefined): { metadata?: Json } {
    if (!this.carryOn || fields === undefined || !hasKeys(fields)) return NO_FIELDS;
    return { metadata: { [AGJSON_METADATA_KEY]: fields } };
  }

  /**
   * Emits `out` with its `subagentRunId` and, with the carry on, the fields of `src` other than
   * `omit` under `metadata.agjson`: the per-delta path, which assigns instead of spreading.
   */
  private emitWith<T extends AgUiEvent & { subagentRunId?: string; metadata?: Json }>(
    out: T,
    sub: string | undefined,
    src: AgKnownEvent | AgExtEvent | undefined,
    omit: readonly FieldOf<AgKnownEvent | AgExtEvent>[],
  ): void {
    if (sub !== undefined) out.subagentRunId = sub;
    if (this.carryOn && src !== undefined) {
      const fields = restOrNone(src, omit);
      if (fields !== undefined) out.metadata = { [AGJSON_METADATA_KEY]: fields };
    }
    this.owners.record(out);
    this.out.push(out);
  }

  private custom(name: string, value: unknown, sub: string | undefined): void {
    this.ensureRun();
    this.emit({ type: EventType.CUSTOM, name, value, ...(sub !== undefined ? { subagentRunId: sub } : {}) });
  }

  /** An event with no AG-UI home: CUSTOM `agjson.<type>` (an `ext.*` event keeps its name), value = its fields. */
  private carryWhole(ev: AgLenientEvent): void {
    if (ev.type === "content.block" || ev.type === "message.metadata" || ev.type === "tool.done" || ev.type === "reasoning.opaque.delta")
      this.materializeByCustom(this.messageOf(ev));
    const name = ev.type.startsWith("ext.") ? ev.type : `agjson.${ev.type}`;
    this.custom(name, rest(ev, ["type", "seq"]), this.subOf(ev));
  }

  // ── ownership ─────────────────────────────────────────────────────────────────────────────

  /** The AG-UI subagent an event belongs to: its owning turn, when that turn is nested (§1.1). */
  private subOf(ev: AgLenientEvent): string | undefined {
    const turnId = "turnId" in ev && typeof ev.turnId === "string" ? ev.turnId : undefined;
    if (turnId !== undefined) return this.subagents.has(turnId) ? turnId : undefined;
    const messageId = "messageId" in ev && typeof ev.messageId === "string" ? ev.messageId : undefined;
    const owner = messageId !== undefined ? this.messages.get(messageId)?.start.turnId : undefined;
    return owner !== undefined && this.subagents.has(owner) ? owner : undefined;
  }

  private sub(sub: string | undefined): { subagentRunId?: string } {
    return sub !== undefined ? { subagentRunId: sub } : NO_FIELDS;
  }

  /** The AG-UI message a block of `ev` attaches to: its `messageId`, else its turn's open message. */
  private messageOf(ev: AgLenientEvent): string | undefined {
    if ("messageId" in ev && typeof ev.messageId === "string") return ev.messageId;
    const turnId = "turnId" in ev && typeof ev.turnId === "string" ? ev.turnId : this.run?.turnId;
    return turnId !== undefined ? this.openMessageOfTurn.get(turnId) : undefined;
  }

  /** message.start fields AG-UI has no slot for, once, on the first event that shows the message. */
  private messageCarry(messageId: string | undefined): Json | undefined {
    if (messageId === undefined) return undefined;
    const info = this.messages.get(messageId);
    if (!info || info.materialized) return undefined;
    this.materializeEarlier(info);
    info.materialized = true;
    const extra = rest(info.start, ["type", "seq", "id"]);
    return { message: extra };
  }

  /**
   * Messages opened before `info` and not yet shown keep their place (§5: messages land in
   * message.start order) by being shown now, as CUSTOM `agjson.message.start`.
   */
  private materializeEarlier(info: MessageInfo): void {
    for (const other of this.messages.values()) {
      if (other.materialized || other.order >= info.order) continue;
      other.materialized = true;
      this.custom("agjson.message.start", rest(other.start, ["type", "seq"]), this.subOf(other.start));
    }
  }

  /** Shows a message through CUSTOM when the first event naming it has no AG-UI home of its own. */
  private materializeByCustom(messageId: string | undefined): void {
    const info = messageId !== undefined ? this.messages.get(messageId) : undefined;
    if (!info || info.materialized) return;
    this.materializeEarlier(info);
    info.materialized = true;
    this.custom("agjson.message.start", rest(info.start, ["type", "seq"]), this.subOf(info.start));
  }

  private roleOf(messageId: string | undefined): "assistant" | "user" | "system" {
    const role = messageId !== undefined ? this.messages.get(messageId)?.start.role : undefined;
    return role === "user" || role === "system" ? role : "assistant";
  }

  // ── runs ──────────────────────────────────────────────────────────────────────────────────

  private ensureRun(): RunState {
    if (this.run) return this.run;
    return this.startRun(undefined, this.opts.threadId ?? this.lastThreadId, { synthesized: true });
  }

  private startRun(turnId: string | undefined, threadId: string, extra: Json): RunState {
    const first = this.runCount === 0;
    this.runCount++;
    const runId = first && this.opts.runId !== undefined ? this.opts.runId : (turnId ?? `run-${this.runCount}`);
    const run: RunState = { threadId, runId, turnId, asks: new Map(), pendingCalls: new Set() };
    this.run = run;
    const carried = { ...extra, ...(turnId !== undefined && turnId !== runId ? { turnId } : {}) };
    this.emit({ type: EventType.RUN_STARTED, threadId, runId, ...this.carry(carried) });
    return run;
  }

  /** Ends what is open in the run (or, given `sub`, in that subagent) so the close verifies. */
  private closeOpen(sub: string | undefined): void {
    const all = sub === undefined;
    for (const [id, t] of [...this.texts]) if (all || t.sub === sub) this.endText(id);
    for (const [id, s] of [...this.reasonings]) if (all || s === sub) this.endReasoning(id);
    for (const [id, t] of [...this.tools]) if (all || t.sub === sub) this.endTool(id, undefined);
    for (const [id, s] of [...this.steps]) if (all || s.sub === sub) this.endStep(id, undefined);
  }

  private closeSubagentTruncated(sub: string): void {
    this.closeOpen(sub);
    this.emit({
      type: EventType.SUBAGENT_ERROR,
      subagentRunId: sub,
      message: `subagent turn '${sub}' was still open when its run ended`,
      code: "stream-truncated",
    });
    this.subagents.delete(sub);
    this.finishedSubagents.add(sub);
  }

  private finishRun(outcome: RunFinishedOutcome, carried: Json, extra: { usage?: AgUsage; result?: unknown } = {}): void {
    const run = this.ensureRun();
    this.closeOpen(undefined);
    for (const sub of [...this.subagents.keys()].reverse()) this.closeSubagentTruncated(sub);
    const ev: AgUiEvent = { type: EventType.RUN_FINISHED, threadId: run.threadId, runId: run.runId, outcome, ...this.carry(carried) };
    if (extra.usage !== undefined) ev.usage = toTokenUsage(extra.usage);
    if (extra.result !== undefined) ev.result = extra.result;
    this.carryLeftoverAsks(run, outcome);
    this.emit(ev);
    this.run = undefined;
  }

  /** hitl.ask events of the run that did not end in its interrupt outcome travel as CUSTOM (nothing lost). */
  private carryLeftoverAsks(run: RunState, outcome: RunFinishedOutcome): void {
    const inOutcome = new Set(outcome.type === "interrupt" ? outcome.interrupts.map((i) => i.id) : []);
    for (const ask of run.asks.values())
      if (!inOutcome.has(ask.askId)) this.custom("agjson.hitl.ask", rest(ask, ["type", "seq"]), this.subOf(ask));
    run.asks.clear();
  }

  private interruptOf(ask: AgPausedAsk, live: AgHitlAskEvent | undefined, sub: string | undefined): Interrupt {
    const i: Interrupt = { id: ask.askId, reason: ask.reason ?? ask.kind };
    if (ask.message !== undefined) i.message = ask.message;
    if (ask.toolCallId !== undefined) i.toolCallId = ask.toolCallId;
    if (isRecord(ask.schema)) i.responseSchema = ask.schema;
    if (ask.expiresAt !== undefined) i.expiresAt = ask.expiresAt;
    if (sub !== undefined) i.subagentRunId = sub;
    // The ask's own fields AG-UI has no slot for (kind, reason, choices, …) plus the live hitl.ask's
    // advisory ones (continuation) ride the interrupt's metadata under their own key; the handles an
    // answer echoes (token, MRTR requestState, ordinal — §7, §3.1) sit beside it, where a resume entry's
    // answer fields are read, so a client copying the carry back cannot hand the ask's reason in as
    // the human's (D15).
    const askSide = rest(ask, [...INTERRUPT_OWN, ...INTERRUPT_ECHOED]);
    if (ask.schema !== undefined && !isRecord(ask.schema)) askSide.schema = ask.schema;
    else delete askSide.schema;
    if (live !== undefined) {
      for (const [k, v] of Object.entries(rest(live, ["type", "seq", "schema", ...INTERRUPT_OWN, ...INTERRUPT_ECHOED])))
        if (!Object.hasOwn(askSide, k)) askSide[k] = v;
    }
    const extra: Json = {};
    for (const k of INTERRUPT_ECHOED) {
      const v = ask[k] ?? live?.[k];
      if (v !== undefined) extra[k] = v;
    }
    if (hasKeys(askSide)) extra[INTERRUPT_ASK_KEY] = askSide;
    Object.assign(i, this.carry(extra));
    return i;
  }

  private turnDone(ev: AgTurnDoneEvent): void {
    if (this.subagents.has(ev.turnId)) {
      const sub = ev.turnId;
      this.closeOpen(sub);
      const carried = rest(ev, ["type", "seq", "turnId", "outcome"]);
      const outcome = ev.outcome;
      if (!isKnownOutcome(outcome)) {
        // An outcome type a later minor added (§0.2, §12; A2A adds task states): the subagent
        // ended, so it finishes, and its outcome rides in the carry for an AgJSON-aware client.
        this.emit({
          type: EventType.SUBAGENT_FINISHED,
          subagentRunId: sub,
          outcome: { type: "success" },
          ...this.carry({ ...carried, outcome }),
        });
      } else if (outcome.type === "error" || outcome.type === "rejected") {
        carried.outcome = outcome;
        this.emit({
          type: EventType.SUBAGENT_ERROR,
          subagentRunId: sub,
          message: outcome.type === "error" ? outcome.message : (outcome.reason ?? "rejected"),
          code: outcome.type === "error" ? (outcome.code ?? "error") : "rejected",
          ...this.carry(carried),
        });
      } else if (outcome.type === "paused") {
        this.emit({
          type: EventType.SUBAGENT_FINISHED,
          subagentRunId: sub,
          outcome: { type: "suspended", interruptIds: outcome.asks.map((a) => a.askId) },
          ...(outcome.result !== undefined ? { result: outcome.result } : {}),
          ...this.carry({ ...carried, outcome }),
        });
      } else {
        if (outcome.type === "aborted") carried.outcome = outcome;
        this.emit({
          type: EventType.SUBAGENT_FINISHED,
          subagentRunId: sub,
          outcome: { type: "success" },
          ...(outcome.type === "success" && outcome.result !== undefined ? { result: outcome.result } : {}),
          ...this.carry(carried),
        });
      }
      this.subagents.delete(sub);
      this.finishedSubagents.add(sub);
      return;
    }
    const run = this.ensureRun();
    const carried = rest(ev, ["type", "seq", "turnId", "outcome", "usage"]);
    if (ev.usage !== undefined) carried.usage = ev.usage;
    if (run.turnId !== ev.turnId) carried.turnId = ev.turnId;
    const outcome = ev.outcome;
    if (!isKnownOutcome(outcome)) {
      // An outcome type a later minor added (§0.2, §12): the run ended all the same, so it
      // finishes (AG-UI has no other ending for it), and the AgJSON outcome rides in the carry.
      carried.outcome = outcome;
      this.finishRun({ type: "success" }, carried, ev.usage ? { usage: ev.usage } : {});
      return;
    }
    switch (outcome.type) {
      case "success": {
        const pending = [...run.pendingCalls];
        this.finishRun(pending.length > 0 ? { type: "success", pendingToolCallIds: pending } : { type: "success" }, carried, {
          ...(ev.usage ? { usage: ev.usage } : {}),
          result: outcome.result,
        });
        return;
      }
      case "paused": {
        const interrupts = outcome.asks.map((a) => this.interruptOf(a, run.asks.get(a.askId), undefined));
        if (outcome.result !== undefined) carried.result = outcome.result;
        this.finishRun({ type: "interrupt", interrupts }, carried, ev.usage ? { usage: ev.usage } : {});
        return;
      }
      case "aborted":
        if (outcome.reason !== undefined) carried.reason = outcome.reason;
        this.finishRun({ type: "cancelled" }, carried, ev.usage ? { usage: ev.usage } : {});
        return;
      case "error":
      case "rejected":
        // AG-UI ends a failed run with RUN_ERROR; the AgJSON outcome and finishReason ride along.
        carried.outcome = outcome;
        this.runError(
          outcome.type === "error" ? outcome.message : (outcome.reason ?? "the agent rejected the task"),
          outcome.type === "error" ? outcome.code : "rejected",
          ev.usage,
          carried,
        );
        return;
    }
  }

  private runError(message: string, code: string | undefined, usage: AgUsage | undefined, carried: Json): void {
    const run = this.ensureRun();
    this.closeOpen(undefined);
    for (const sub of [...this.subagents.keys()].reverse()) this.closeSubagentTruncated(sub);
    this.carryLeftoverAsks(run, { type: "success" });
    const ev: AgUiEvent = { type: EventType.RUN_ERROR, message, ...this.carry(carried) };
    if (code !== undefined) ev.code = code;
    if (usage !== undefined) ev.usage = toTokenUsage(usage);
    this.emit(ev);
    this.run = undefined;
  }

  // ── blocks ────────────────────────────────────────────────────────────────────────────────

  private startText(id: string, messageId: string | undefined, sub: string | undefined, carried: Json): void {
    this.ensureRun();
    // Text blocks of one AgMessage share its id, so an AG-UI client grows one message; a second text
    // block open at the same time in that message takes its own id (AG-UI allows one in progress).
    let agUiId = messageId !== undefined && !this.textInProgress.has(messageId) ? messageId : id;
    // A fresh id also when another agent opened this one in the run (§1.1 nested turns may reuse ids).
    for (let n = 2; this.textInProgress.has(agUiId) || this.owners.conflicts("message", agUiId, sub); n++) agUiId = `${id}#${n}`;
    this.textInProgress.add(agUiId);
    this.texts.set(id, { agUiId, sub });
    const messageCarry = this.messageCarry(messageId);
    const fields = {
      ...carried,
      block: id,
      ...(agUiId !== messageId && messageId !== undefined ? { messageId } : {}),
      ...(messageCarry ?? {}),
    };
    this.emit({
      type: EventType.TEXT_MESSAGE_START,
      messageId: agUiId,
      role: this.roleOf(messageId),
      ...this.sub(sub),
      ...this.carry(fields),
    });
  }

  /** Closes a text block; `src` (its text.end) carries its fields beyond the AG-UI ones. */
  private endText(id: string, src?: AgKnownEvent | AgExtEvent): void {
    const t = this.texts.get(id);
    if (!t) return;
    this.texts.delete(id);
    this.textInProgress.delete(t.agUiId);
    this.emitWith({ type: EventType.TEXT_MESSAGE_END, messageId: t.agUiId }, t.sub, src, AG_UI_OWN["text.end"]);
  }

  /** Opens a reasoning block; false (nothing emitted) when another agent opened its id in this run. */
  private startReasoning(id: string, messageId: string | undefined, sub: string | undefined, carried: Json): boolean {
    this.ensureRun();
    if (this.owners.conflicts("reasoning", id, sub)) return false;
    this.reasonings.set(id, sub);
    const fields = { ...carried, ...(messageId !== undefined ? { messageId } : {}), ...(this.messageCarry(messageId) ?? {}) };
    this.emit({ type: EventType.REASONING_START, messageId: id, ...this.sub(sub), ...this.carry(fields) });
    this.emitWith({ type: EventType.REASONING_MESSAGE_START, messageId: id, role: "reasoning" }, sub, undefined, []);
    return true;
  }

  /** Closes a reasoning block; `src` (its reasoning.end) carries its fields beyond the AG-UI ones. */
  private endReasoning(id: string, src?: AgKnownEvent | AgExtEvent): void {
    if (!this.reasonings.has(id)) return;
    const sub = this.reasonings.get(id);
    this.reasonings.delete(id);
    this.emitWith({ type: EventType.REASONING_MESSAGE_END, messageId: id }, sub, undefined, []);
    this.emitWith({ type: EventType.REASONING_END, messageId: id }, sub, src, AG_UI_OWN["reasoning.end"]);
  }

  /**
   * Opens a tool call; false (nothing emitted) when another agent opened that call id in this run.
   * A parent message another agent opened is not named as `parentMessageId` (AG-UI: a call belongs
   * to the message that carries it); the AgMessage id rides the carry instead.
   */
  private startTool(toolCallId: string, name: string, messageId: string | undefined, sub: string | undefined, carried: Json): boolean {
    const run = this.ensureRun();
    if (this.owners.ownedElsewhere("toolCall", toolCallId, sub)) return false;
    run.pendingCalls.add(toolCallId);
    this.shownCalls.add(toolCallId);
    this.tools.set(toolCallId, { name, args: "", sub, messageId });
    const parented = messageId !== undefined && !this.owners.ownedElsewhere("message", messageId, sub);
    const fields = { ...carried, ...(messageId !== undefined && !parented ? { messageId } : {}), ...(this.messageCarry(messageId) ?? {}) };
    this.emit({
      type: EventType.TOOL_CALL_START,
      toolCallId,
      toolCallName: name,
      ...(parented ? { parentMessageId: messageId } : {}),
      ...this.sub(sub),
      ...this.carry(fields),
    });
    return true;
  }

  /** Streams argument text; `src` is the tool.args.delta it shows (none for the args sent from an assembled input). */
  private toolArgs(toolCallId: string, delta: string, src?: AgKnownEvent | AgExtEvent): void {
    const t = this.tools.get(toolCallId);
    if (!t) return;
    t.args += delta;
    // Every field of the delta TOOL_CALL_ARGS has no slot for rides its carry (§12, §0.2).
    this.emitWith({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }, t.sub, src, AG_UI_OWN["tool.args.delta"]);
  }

  /** Closes a call; with the authoritative input (§4 tool.args.assembled) it first sends args a client can parse. */
  private endTool(toolCallId: string, assembled: { input: unknown; carried: Json; signature?: string } | undefined): void {
    const t = this.tools.get(toolCallId);
    if (!t) return;
    const carried: Json = { ...(assembled?.carried ?? {}) };
    if (assembled !== undefined) {
      const text = typeof assembled.input === "string" ? assembled.input : JSON.stringify(assembled.input ?? {});
      if (t.args === "") this.toolArgs(toolCallId, text);
      else if (t.args !== text) {
        let same = false;
        try {
          same = JSON.stringify(JSON.parse(t.args)) === JSON.stringify(assembled.input);
        } catch {
          same = false;
        }
        // The streamed argument text is not the authoritative input: the input rides the END.
        if (!same) carried.input = assembled.input;
      }
      if (typeof assembled.input === "string") carried.input = assembled.input;
      if (assembled.signature !== undefined) {
        // A tool call's thought signature is AG-UI's per-call encrypted value (§2 tool-call.signature),
        // sent before the END so a reader attaches it to the call it closes.
        this.emit({
          type: EventType.REASONING_ENCRYPTED_VALUE,
          subtype: "tool-call",
          entityId: toolCallId,
          encryptedValue: assembled.signature,
          ...this.sub(this.attributed("toolCall", toolCallId, t.sub)),
        });
      }
    } else carried.unassembled = true;
    this.tools.delete(toolCallId);
    this.emit({ type: EventType.TOOL_CALL_END, toolCallId, ...this.sub(t.sub), ...this.carry(carried) });
  }

  private toolResult(ev: Extract<AgKnownEvent, { type: "tool.done" }>, carried: Json, sub: string | undefined): void {
    const run = this.ensureRun();
    if (this.tools.has(ev.toolCallId)) this.endTool(ev.toolCallId, undefined);
    run.pendingCalls.delete(ev.toolCallId);
    const converted = toAgUiContent(ev.content);
    const fields: Json = { ...carried };
    if (!converted.exact) fields.content = ev.content;
    // A result with no messageId lands in its turn's open message (§5 tool.done): AG-UI needs an id.
    if (ev.messageId === undefined) {
      // The result lands in its turn's open message (§5 tool.done), which it may be the first to show.
      const inMessage = this.messageOf(ev);
      fields.inMessage = inMessage ?? true;
      Object.assign(fields, this.messageCarry(inMessage) ?? {});
      if ("turnId" in ev && typeof ev.turnId === "string") fields.turnId = ev.turnId;
    }
    const messageId = ev.messageId ?? `${ev.toolCallId}:result`;
    // A result adopted into an AG-UI message already shown belongs to that message's agent (§8 item
    // 15: the owner of a tool.done is the turn of the message it names); AG-UI attributes the message
    // to the last agent that wrote into it, so another attribution would take the message from its
    // opener mid-stream (verifyEvents then refuses the opener's next event for it).
    const opened = this.owners.owner("message", messageId);
    this.emit({
      type: EventType.TOOL_CALL_RESULT,
      messageId,
      toolCallId: ev.toolCallId,
      content: converted.content,
      role: "tool",
      ...this.sub(opened.known ? opened.sub : sub),
      ...this.carry(fields),
    });
  }

  private endStep(id: string, carried: Json | undefined): void {
    const s = this.steps.get(id);
    if (!s) return;
    this.steps.delete(id);
    this.activeStepNames.delete(s.name);
    this.emit({ type: EventType.STEP_FINISHED, stepName: s.name, ...this.sub(s.sub), ...this.carry(carried) });
  }

  /** A whole block (§4 content.block): text, reasoning, tool call and result take their AG-UI forms. */
  private contentBlock(ev: Extract<AgKnownEvent, { type: "content.block" }>): void {
    const sub = this.subOf(ev);
    const messageId = this.messageOf(ev);
    const block = ev.block;
    const id = ev.id ?? `${messageId ?? "block"}:${block.type}`;
    const envelope = rest(ev, ["type", "seq", "block", "turnId"]);
    // A transient block, or one of a type a later minor added (§0.2, §12), rides whole in the carry.
    if (ev.transient === true || !isKnownBlock(block)) {
      this.carryWhole(ev);
      return;
    }
    switch (block.type) {
      case "text": {
        // A whole text block is a block of its own even when its id names a text block still
        // streaming (§5 appends it); that one stays open around it, under its own AG-UI id.
        const streaming = this.texts.get(id);
        if (streaming) this.texts.delete(id);
        this.startText(id, messageId, sub, { contentBlock: { ...envelope, block: rest(block, ["text"]) } });
        const t = this.texts.get(id);
        if (t && block.text !== "")
          this.emit({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: t.agUiId, delta: block.text, ...this.sub(sub) });
        this.endText(id);
        if (streaming) this.texts.set(id, streaming);
        return;
      }
      case "tool-call": {
        const signature = block.signature !== undefined ? { signature: block.signature } : {};
        if (this.shownCalls.has(block.toolCallId)) {
          this.reconcileToolCall(ev, block, signature);
          return;
        }
        if (
          !this.startTool(block.toolCallId, block.name, messageId, sub, {
            contentBlock: { ...envelope, block: rest(block, ["input", "toolCallId", "name", "signature"]) },
          })
        ) {
          this.carryWhole(ev);
          return;
        }
        this.endTool(block.toolCallId, { input: block.input, carried: {}, ...signature });
        return;
      }
      case "data":
        this.ensureRun();
        this.emit({
          type: EventType.ACTIVITY_SNAPSHOT,
          messageId: block.id ?? id,
          activityType: `data-${block.name}`,
          content: { data: block.data },
          replace: true,
          ...this.sub(sub),
          ...this.carry({ contentBlock: { ...envelope, block: rest(block, ["data"]) }, ...(this.messageCarry(messageId) ?? {}) }),
        });
        return;
      case "resource":
        if (block.resource.uri.startsWith("ui://")) {
          // An MCP Apps surface (§6 Pattern 1a) is a UI surface: an AG-UI activity the client renders.
          this.ensureRun();
          this.emit({
            type: EventType.ACTIVITY_SNAPSHOT,
            messageId: id,
            activityType: "mcp-app",
            content: { resource: block.resource },
            replace: true,
            ...this.sub(sub),
            ...this.carry({ contentBlock: { ...envelope, block: rest(block, ["resource"]) }, ...(this.messageCarry(messageId) ?? {}) }),
          });
          return;
        }
        this.carryWhole(ev);
        return;
      default:
        this.carryWhole(ev);
    }
  }

  /**
   * A tool-call block for a call already shown REPLACEs it in place (§5.0 INV-BLOCK, §1.3; docs/spec-decisions.md
   * D1): AG-UI has one START per call, so a second one is never sent. A call still streaming is closed
   * with the block's input as its authoritative arguments; what the START/ARGS/END triple cannot say (a
   * renamed call, block fields beyond the input, an ended call re-stated) rides a CUSTOM
   * `agjson.content.block` carrying the whole event, which the way back folds as the same REPLACE.
   */
  private reconcileToolCall(
    ev: Extract<AgKnownEvent, { type: "content.block" }>,
    block: AgToolCallBlock,
    signature: { signature?: string },
  ): void {
    const open = this.tools.get(block.toolCallId);
    if (open === undefined) {
      this.carryWhole(ev);
      return;
    }
    const said =
      open.name === block.name &&
      Object.keys(rest(block, ["type", "toolCallId", "name", "input", "signature"])).length === 0 &&
      Object.keys(rest(ev, ["type", "seq", "block", "turnId", "messageId"])).length === 0;
    this.endTool(block.toolCallId, { input: block.input, carried: {}, ...signature });
    if (!said) this.carryWhole(ev);
  }

  // ── surfaces (§6 Pattern 1b → AG-UI activities) ─────────────────────────────────────────

  private surfaceDelta(surfaceId: string, patch: JsonPatchOperation[], sub: string | undefined, carried: Json): void {
    this.ensureRun();
    this.emit({
      type: EventType.ACTIVITY_DELTA,
      messageId: surfaceId,
      activityType: "a2ui-surface",
      patch,
      ...this.sub(this.attributed("activity", surfaceId, sub)),
      ...this.carry(carried),
    });
  }

  // ── state (§5 state rows → STATE_SNAPSHOT / STATE_DELTA) ────────────────────────────────

  private stateDelta(ev: Extract<AgKnownEvent, { type: "state.delta" }>): void {
    const sub = this.subOf(ev);
    this.ensureRun();
    const patch = ev.patch;
    if (isJsonPatch(patch)) {
      if (this.state !== undefined) {
        const applied = applyJsonPatch(this.state, patch, { owned: this.ownedState });
        if (applied.ok) this.state = applied.doc;
      }
      this.emit({ type: EventType.STATE_DELTA, delta: patch, ...this.sub(sub), ...this.carry(rest(ev, AG_UI_OWN["state.delta"])) });
      return;
    }
    if (isRecord(patch) && (this.state === undefined || isRecord(this.state))) {
      // A LangGraph `updates` payload (§5: node-keyed last-writer-wins merge) as the JSON Patch it
      // amounts to; the node-keyed original rides along so the way back restores it exactly.
      const ops: JsonPatchOperation[] = [];
      const seeded = this.state !== undefined;
      const next: Json = isRecord(this.state) ? { ...this.state } : {};
      for (const update of Object.values(patch)) {
        if (!isRecord(update)) continue;
        for (const [key, value] of Object.entries(update)) {
          next[key] = value;
          ops.push({ op: "add", path: `/${escapePointer(key)}`, value });
        }
      }
      this.state = next;
      const carried = { ...rest(ev, ["type", "seq", "turnId"]) };
      if (!seeded) this.emit({ type: EventType.STATE_SNAPSHOT, snapshot: next, ...this.sub(sub), ...this.carry(carried) });
      else this.emit({ type: EventType.STATE_DELTA, delta: ops, ...this.sub(sub), ...this.carry(carried) });
      return;
    }
    this.carryWhole(ev);
  }

  // ── the table ─────────────────────────────────────────────────────────────────────────────

  private translate(ev: AgKnownEvent | AgExtEvent): void {
    switch (ev.type) {
      case "turn.start": {
        this.lastThreadId = ev.threadId;
        if (this.run?.turnId === ev.turnId) {
          this.carryWhole(ev);
          return;
        }
        if (this.run && this.run.turnId === undefined) this.finishRun({ type: "success" }, { synthesized: true });
        if (this.run) {
          this.carryWhole(ev);
          return;
        }
        // Every field RUN_STARTED has no slot for is carried, not only trigger: the envelope's _meta
        // round-trips unchanged (§12) and a field a later minor adds passes through (§0.2).
        this.startRun(ev.turnId, this.opts.threadId ?? ev.threadId, rest(ev, AG_UI_OWN["turn.start"]));
        return;
      }
      case "turn.done":
        this.turnDone(ev);
        return;
      case "turn.error": {
        const carried = rest(ev, AG_UI_OWN["turn.error"]);
        if (ev.turnId !== undefined && this.subagents.has(ev.turnId)) {
          const sub = ev.turnId;
          this.closeOpen(sub);
          this.emit({
            type: EventType.SUBAGENT_ERROR,
            subagentRunId: sub,
            message: ev.message,
            ...(ev.code !== undefined ? { code: ev.code } : {}),
            ...this.carry(carried),
          });
          this.subagents.delete(sub);
          this.finishedSubagents.add(sub);
          return;
        }
        if (ev.turnId !== undefined && this.run?.turnId !== ev.turnId) carried.turnId = ev.turnId;
        this.runError(ev.message, ev.code, ev.usage, carried);
        return;
      }
      case "turn.abort": {
        const carried = rest(ev, AG_UI_OWN["turn.abort"]);
        if (ev.turnId !== undefined && this.subagents.has(ev.turnId)) {
          const sub = ev.turnId;
          this.closeOpen(sub);
          this.emit({
            type: EventType.SUBAGENT_ERROR,
            subagentRunId: sub,
            message: ev.reason ?? "aborted",
            code: "aborted",
            ...this.carry({ ...carried, aborted: true }),
          });
          this.subagents.delete(sub);
          this.finishedSubagents.add(sub);
          return;
        }
        if (ev.turnId !== undefined && this.run?.turnId !== ev.turnId) carried.turnId = ev.turnId;
        this.finishRun({ type: "cancelled" }, carried);
        return;
      }
      case "subagent.start": {
        if (this.subagents.has(ev.turnId) || this.finishedSubagents.has(ev.turnId)) {
          this.carryWhole(ev);
          return;
        }
        this.ensureRun();
        this.subagents.set(ev.turnId, ev.parentTurnId);
        this.emit({
          type: EventType.SUBAGENT_STARTED,
          subagentRunId: ev.turnId,
          name: ev.agentName ?? ev.agentId ?? ev.turnId,
          ...(this.subagents.has(ev.parentTurnId) ? { parentSubagentRunId: ev.parentTurnId } : {}),
          ...this.carry(rest(ev, AG_UI_OWN["subagent.start"])),
        });
        return;
      }
      case "subagent.done": {
        if (!this.subagents.has(ev.turnId)) {
          this.carryWhole(ev);
          return;
        }
        this.closeOpen(ev.turnId);
        this.emit({
          type: EventType.SUBAGENT_FINISHED,
          subagentRunId: ev.turnId,
          outcome: { type: "success" },
          ...this.carry(rest(ev, AG_UI_OWN["subagent.done"])),
        });
        this.subagents.delete(ev.turnId);
        this.finishedSubagents.add(ev.turnId);
        return;
      }
      case "message.start": {
        this.messages.set(ev.id, { start: ev, materialized: false, order: this.messageOrder++ });
        this.openMessageOfTurn.set(ev.turnId, ev.id);
        return;
      }
      case "message.end": {
        const info = this.messages.get(ev.id);
        if (info) {
          if (this.openMessageOfTurn.get(info.start.turnId) === ev.id) this.openMessageOfTurn.delete(info.start.turnId);
          // A message no AG-UI event showed, or one whose end carries more than its ids (usage, the
          // envelope's _meta — §12: it round-trips — or a field a later minor adds, §0.2), keeps its
          // boundary as CUSTOM: AG-UI has no message-end event to carry them on.
          const shown = info.materialized;
          if (!shown) this.materializeByCustom(ev.id);
          if (!shown || restOrNone(ev, AG_UI_OWN["message.end"]) !== undefined) this.carryWhole(ev);
          this.messages.delete(ev.id);
          return;
        }
        this.carryWhole(ev);
        return;
      }
      case "step.start": {
        if (this.steps.has(ev.id)) {
          // A step already open under this id: AG-UI would see it started twice (§5.0 INV-BLOCK).
          this.carryWhole(ev);
          return;
        }
        this.ensureRun();
        const sub = this.subOf(ev);
        let name = ev.stepName ?? ev.id;
        if (this.activeStepNames.has(name)) name = `${name}#${ev.id}`;
        this.steps.set(ev.id, { name, sub });
        this.activeStepNames.add(name);
        this.emit({ type: EventType.STEP_STARTED, stepName: name, ...this.sub(sub), ...this.carry(rest(ev, AG_UI_OWN["step.start"])) });
        return;
      }
      case "step.done":
        if (!this.steps.has(ev.id)) {
          this.carryWhole(ev);
          return;
        }
        this.endStep(ev.id, rest(ev, ["type", "seq"]));
        return;
      case "text.start":
        if (this.texts.has(ev.id)) {
          this.carryWhole(ev);
          return;
        }
        this.startText(ev.id, this.messageOf(ev), this.subOf(ev), rest(ev, AG_UI_OWN["text.start"]));
        return;
      case "text.delta": {
        if (!this.texts.has(ev.id)) this.startText(ev.id, this.messageOf(ev), this.subOf(ev), { opened: "delta" });
        const t = this.texts.get(ev.id);
        if (!t) return;
        this.emitWith({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: t.agUiId, delta: ev.delta }, t.sub, ev, AG_UI_OWN["text.delta"]);
        return;
      }
      case "text.end":
        if (!this.texts.has(ev.id)) {
          this.carryWhole(ev);
          return;
        }
        this.endText(ev.id, ev);
        return;
      case "reasoning.start":
        if (this.reasonings.has(ev.id)) {
          this.carryWhole(ev);
          return;
        }
        if (!this.startReasoning(ev.id, this.messageOf(ev), this.subOf(ev), rest(ev, AG_UI_OWN["reasoning.start"]))) this.carryWhole(ev);
        return;
      case "reasoning.delta": {
        if (!this.reasonings.has(ev.id) && !this.startReasoning(ev.id, this.messageOf(ev), this.subOf(ev), { opened: "delta" })) {
          this.carryWhole(ev);
          return;
        }
        this.emitWith(
          { type: EventType.REASONING_MESSAGE_CONTENT, messageId: ev.id, delta: ev.delta },
          this.reasonings.get(ev.id),
          ev,
          AG_UI_OWN["reasoning.delta"],
        );
        return;
      }
      case "reasoning.end":
        if (!this.reasonings.has(ev.id)) {
          this.carryWhole(ev);
          return;
        }
        this.endReasoning(ev.id, ev);
        return;
      case "reasoning.opaque": {
        // §13.2: the provider-bound blob is AG-UI's encrypted reasoning value, byte-identical.
        this.ensureRun();
        const sub = this.reasonings.get(ev.id) ?? this.subOf(ev);
        const entity: AgUiEntity = this.owners.owner("message", ev.id).known ? "message" : "reasoning";
        this.emit({
          type: EventType.REASONING_ENCRYPTED_VALUE,
          subtype: "message",
          entityId: ev.id,
          encryptedValue: ev.value,
          ...this.sub(this.attributed(entity, ev.id, sub)),
          ...this.carry(rest(ev, AG_UI_OWN["reasoning.opaque"])),
        });
        return;
      }
      case "tool.start":
        if (this.tools.has(ev.toolCallId)) {
          this.carryWhole(ev);
          return;
        }
        if (!this.startTool(ev.toolCallId, ev.name, this.messageOf(ev), this.subOf(ev), rest(ev, AG_UI_OWN["tool.start"])))
          this.carryWhole(ev);
        return;
      case "tool.args.delta":
        if (!this.tools.has(ev.toolCallId)) {
          this.carryWhole(ev);
          return;
        }
        this.toolArgs(ev.toolCallId, ev.delta, ev);
        return;
      case "tool.args.assembled": {
        if (!this.tools.has(ev.toolCallId)) {
          this.carryWhole(ev);
          return;
        }
        const carried = rest(ev, AG_UI_OWN["tool.args.assembled"]);
        this.endTool(ev.toolCallId, { input: ev.input, carried, ...(ev.signature !== undefined ? { signature: ev.signature } : {}) });
        return;
      }
      case "tool.done": {
        if (ev.more === true) {
          // A preliminary result (§2.2) is replaced by the final one; AG-UI mints a message per result.
          this.carryWhole(ev);
          return;
        }
        this.toolResult(ev, rest(ev, AG_UI_OWN["tool.done"]), this.subOf(ev));
        return;
      }
      case "content.block":
        this.contentBlock(ev);
        return;
      case "hitl.ask": {
        // §7: the pause is the turn outcome; the ask becomes the interrupt when the run ends paused.
        const run = this.ensureRun();
        run.asks.set(ev.askId, ev);
        return;
      }
      case "state.snapshot":
        this.ensureRun();
        this.state = ev.snapshot;
        this.emit({
          type: EventType.STATE_SNAPSHOT,
          snapshot: ev.snapshot,
          ...this.sub(this.subOf(ev)),
          ...this.carry(rest(ev, AG_UI_OWN["state.snapshot"])),
        });
        return;
      case "state.delta":
        this.stateDelta(ev);
        return;
      case "messages.snapshot": {
        this.ensureRun();
        const carried = rest(ev, AG_UI_OWN["messages.snapshot"]);
        this.emit({ type: EventType.MESSAGES_SNAPSHOT, messages: toAgUiMessages(ev.messages, this.carryOn), ...this.carry(carried) });
        return;
      }
      case "ui.surface.start": {
        this.ensureRun();
        // The activity's content is the surface's own fields (all but the envelope); the envelope rides the carry.
        const content: Json = rest(ev, [...EVENT_ENVELOPE_FIELDS, "surfaceId"]);
        this.surfaces.set(ev.surfaceId, { hasDataModel: ev.dataModel !== undefined });
        this.emit({
          type: EventType.ACTIVITY_SNAPSHOT,
          messageId: ev.surfaceId,
          activityType: "a2ui-surface",
          content,
          replace: true,
          ...this.sub(this.subOf(ev)),
          ...this.carry(rest(ev, ["type", "seq", ...SURFACE_START_OWN])),
        });
        return;
      }
      case "ui.surface.update":
        if (!this.surfaces.has(ev.surfaceId)) {
          this.carryWhole(ev);
          return;
        }
        this.surfaceDelta(
          ev.surfaceId,
          [{ op: "add", path: "/components", value: ev.components }],
          this.subOf(ev),
          rest(ev, ["type", "seq", "surfaceId", "components"]),
        );
        return;
      case "ui.data-model": {
        const surface = this.surfaces.get(ev.surfaceId);
        if (!surface) {
          this.carryWhole(ev);
          return;
        }
        // §4 ui.data-model: path defaults to "/"; an absent value deletes at the path.
        const path = ev.path === undefined || ev.path === "/" || ev.path === "" ? "/dataModel" : `/dataModel${ev.path}`;
        const ops: JsonPatchOperation[] = [];
        if (path !== "/dataModel" && !surface.hasDataModel) ops.push({ op: "add", path: "/dataModel", value: {} });
        ops.push(ev.value === undefined ? { op: "remove", path } : { op: "add", path, value: ev.value });
        surface.hasDataModel = ev.value !== undefined || path !== "/dataModel";
        this.surfaceDelta(ev.surfaceId, ops, this.subOf(ev), { dataModel: rest(ev, ["type", "seq", "surfaceId"]) });
        return;
      }
      case "display.required":
        // §13.3: ToS-must-render HTML; an activity is what an AG-UI client renders in the transcript.
        this.ensureRun();
        this.emit({
          type: EventType.ACTIVITY_SNAPSHOT,
          messageId: ev.id ?? `display-required:${this.out.length}:${this.runCount}`,
          activityType: "display-required",
          content: { provider: ev.provider, html: ev.html },
          replace: true,
          ...this.sub(this.subOf(ev)),
          ...this.carry(rest(ev, AG_UI_OWN["display.required"])),
        });
        return;
      case "error":
      case "message.remove":
      case "message.metadata":
      case "prompt.blocked":
      case "agent.capabilities":
      case "host.context":
      case "reasoning.opaque.delta":
      case "source":
      case "artifact.start":
      case "artifact.delta":
      case "artifact.end":
      case "handoff":
      case "ui.call":
      case "ui.result":
      case "ui.action-result":
      case "ui.widget.result":
      case "ui.display-mode":
      case "ui.surface.end":
      case "memory.write":
      case "guardrail.result":
        this.carryWhole(ev);
        return;
      default: {
        // Only ext.<vendor>.<key> (§12) is left; its own name is the CUSTOM name.
        const ext: `ext.${string}.${string}` = ev.type;
        void ext;
        this.carryWhole(ev);
      }
    }
  }
}

/** A fresh AgEvent → AG-UI transform for one stream. */
export function createAgUiEncoder(opts: AgUiEncoderOptions = {}): AgUiEncoder {
  return new Encoder(opts);
}

/** Translates a whole AgEvent stream: every event pushed, then flush. */
export function toAgUi(events: Iterable<AgLenientEvent>, opts: AgUiEncoderOptions = {}): AgUiEvent[] {
  const encoder = createAgUiEncoder(opts);
  const out: AgUiEvent[] = [];
  for (const ev of events) out.push(...encoder.push(ev));
  out.push(...encoder.flush());
  return out;
}
