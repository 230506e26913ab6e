/**
 * The `ag-ui` facet (`fromAgUi`, spec §8.0): AG-UI 1.0 events (a JSON array, NDJSON or SSE, read by
 * `readNativeChunks`) → AgEvents. An AG-UI run is a top-level turn (§1.1), a subagent a nested turn;
 * text, tool and reasoning triples become §4 blocks in the message they name; a RUN_FINISHED
 * interrupt outcome becomes `hitl.ask` events and a paused `turn.done` (§7); state, activities and
 * CUSTOM events take their §4 homes. What `toAgUi` carried under `metadata.agjson` is restored, so
 * AgJSON → AG-UI → AgJSON keeps what docs/bridges/ag-ui.md says it keeps.
 *
 * This module reads AG-UI structurally and imports `@ag-ui/core` for types only, so
 * `agjson/normalize` (and the main entry) never load it. The handler table is keyed by the installed
 * vocabulary's `EventType` values: a protocol release that adds an event fails to compile here, and
 * an event type this table does not know fails loud on the wire (§8.0: `error` + `ext.ag-ui.unparsed`).
 */
import type { EventType } from "@ag-ui/core";
import type { AgBlock, AgEvent } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import { fromAgUiContent } from "../../bridges/ag-ui/content.js";
import { fromAgUiMessages } from "../../bridges/ag-ui/messages.js";
import { AG_UI_OWN, INTERRUPT_ASK_KEY, INTERRUPT_ECHOED, INTERRUPT_OWN } from "../../bridges/ag-ui/carry.js";
import { EXT_EVENT_TYPE } from "../../../generated/fold-scaffold.js";
import {
  DEF_FIELDS,
  EVENT_ENVELOPE_FIELDS,
  EVENT_FIELDS,
  fieldsOtherThan,
  isEnumValue,
  isKnownEventType,
} from "../../../generated/schema-facts.js";
import { validateEvent } from "../../validate/index.js";
import { isParsedChunk, textChunkReason, validateOutgoingEvent, type Normalizer, type NormalizerOptions } from "../engine.js";
import { isRecord } from "../../json-guards.js";

type Json = Record<string, unknown>;

/** The §12 vendor segment of this facet's `ext.*` events. */
const VENDOR = "ag-ui";
const CARRY_KEY = "agjson";
const AG_UI_MAJOR = 1;

/** A required string field, or a throw naming it (the throw degrades the chunk, §8.0). */
function str(ev: Json, key: string): string {
  const v = ev[key];
  if (typeof v !== "string") throw new Error(`${String(ev.type)}: field "${key}" must be a string`);
  return v;
}

function optStr(ev: Json, key: string): string | undefined {
  const v = ev[key];
  return typeof v === "string" ? v : undefined;
}

/** What `toAgUi` carried for this event (`metadata.agjson`), or an empty bag. */
function carriedOf(ev: Json): Json {
  const meta = ev.metadata;
  if (!isRecord(meta)) return {};
  const c = meta[CARRY_KEY];
  return isRecord(c) ? c : {};
}

/**
 * What `toAgUi` carried for an interrupt's ask: the ask's own fields under `metadata.agjson.ask` and
 * the continuation handles an answer echoes (token, requestState, ordinal) beside them (D15). A
 * carry without the `ask` key (an encoder before D15) is read flat.
 */
function interruptCarryOf(i: Json): Json {
  const c = carriedOf(i);
  const ask = c[INTERRUPT_ASK_KEY];
  if (!isRecord(ask)) return c;
  const out: Json = { ...ask };
  for (const k of INTERRUPT_ECHOED) if (c[k] !== undefined) out[k] = c[k];
  return out;
}

/** AG-UI fields §4 has no home for but a consumer may want: foreign metadata rides `_meta`. */
function foreignMeta(ev: Json): Json | undefined {
  const meta = ev.metadata;
  if (!isRecord(meta)) return undefined;
  const foreign: Json = {};
  for (const [k, v] of Object.entries(meta)) if (k !== CARRY_KEY) foreign[k] = v;
  return Object.keys(foreign).length > 0 ? { "ag-ui/metadata": foreign } : undefined;
}

/**
 * What each AgJSON event takes back from `metadata.agjson` (what toAgUi carried for it): every field
 * of the event other than the ones the AG-UI event states itself and this facet sets (those
 * `except` lists are AG-UI's vocabulary, checked against the generated fields). Read from the
 * generated field table, so a field the schema adds comes back too (§4, docs/bridges/ag-ui.md).
 */
const CARRIED = {
  turnDone: fieldsOtherThan(EVENT_FIELDS["turn.done"], ["type", "seq", "turnId", "outcome", "finishReason", "usage"]),
  subagentDone: fieldsOtherThan(EVENT_FIELDS["turn.done"], ["type", "seq", "turnId", "outcome", "finishReason"]),
  pausedAsk: fieldsOtherThan(DEF_FIELDS.AgPausedAsk, INTERRUPT_OWN),
  // A live hitl.ask's own fields beyond its AgPausedAsk (§7): the envelope and `continuation`.
  liveAsk: fieldsOtherThan(EVENT_FIELDS["hitl.ask"], ["type", "seq", ...DEF_FIELDS.AgPausedAsk]),
  turnStart: fieldsOtherThan(EVENT_FIELDS["turn.start"], AG_UI_OWN["turn.start"]),
  // A message.end toAgUi carried as CUSTOM: all but the ids the facet keeps itself.
  messageEnd: fieldsOtherThan(EVENT_FIELDS["message.end"], AG_UI_OWN["message.end"]),
  // A message.start toAgUi carried (the first event showing the message, or CUSTOM): all but the ids
  // and thread the facet sets itself. Only these come back — a field unknown to the schema stays
  // behind (a producer emits none, §0.2) without costing the others, _meta included (§12).
  messageStart: fieldsOtherThan(EVENT_FIELDS["message.start"], ["type", "seq", "id", "turnId", "threadId"]),
  textStart: fieldsOtherThan(EVENT_FIELDS["text.start"], AG_UI_OWN["text.start"]),
  textDelta: fieldsOtherThan(EVENT_FIELDS["text.delta"], AG_UI_OWN["text.delta"]),
  textEnd: fieldsOtherThan(EVENT_FIELDS["text.end"], AG_UI_OWN["text.end"]),
  toolStart: fieldsOtherThan(EVENT_FIELDS["tool.start"], AG_UI_OWN["tool.start"]),
  toolArgsDelta: fieldsOtherThan(EVENT_FIELDS["tool.args.delta"], AG_UI_OWN["tool.args.delta"]),
  toolArgsAssembled: fieldsOtherThan(EVENT_FIELDS["tool.args.assembled"], AG_UI_OWN["tool.args.assembled"]),
  toolDone: fieldsOtherThan(EVENT_FIELDS["tool.done"], AG_UI_OWN["tool.done"]),
  reasoningStart: fieldsOtherThan(EVENT_FIELDS["reasoning.start"], AG_UI_OWN["reasoning.start"]),
  reasoningDelta: fieldsOtherThan(EVENT_FIELDS["reasoning.delta"], AG_UI_OWN["reasoning.delta"]),
  reasoningEnd: fieldsOtherThan(EVENT_FIELDS["reasoning.end"], AG_UI_OWN["reasoning.end"]),
  // The facet reads the blob's kind from the carry itself; the message id a carry names wins over the open reasoning's.
  reasoningOpaque: fieldsOtherThan(EVENT_FIELDS["reasoning.opaque"], [...AG_UI_OWN["reasoning.opaque"], "kind"]),
  // A subagent.done's own fields; its parent turn is the one the facet opened the subagent under.
  subagentDoneEvent: fieldsOtherThan(EVENT_FIELDS["subagent.done"], [...AG_UI_OWN["subagent.done"], "parentTurnId"]),
  // The step's id and name the facet reads first (a claimed id, the AG-UI name when none was carried).
  stepStart: fieldsOtherThan(EVENT_FIELDS["step.start"], [...AG_UI_OWN["step.start"], "id", "stepName"]),
  // A step.done's carried fields (usage, the envelope's parentId / _meta — §12): all but what the facet sets.
  stepDone: fieldsOtherThan(EVENT_FIELDS["step.done"], ["type", "seq", "id", "stepName", "turnId"]),
  // A turn.error's / turn.abort's carried fields (retriable, usage, reason, the envelope's id /
  // parentId / _meta — §12): all but what RUN_ERROR / SUBAGENT_ERROR state and the facet sets.
  turnError: fieldsOtherThan(EVENT_FIELDS["turn.error"], AG_UI_OWN["turn.error"]),
  turnAbort: fieldsOtherThan(EVENT_FIELDS["turn.abort"], AG_UI_OWN["turn.abort"]),
  // The parent turn comes from the AG-UI subagent's parent.
  subagentStart: fieldsOtherThan(EVENT_FIELDS["subagent.start"], [...AG_UI_OWN["subagent.start"], "parentTurnId"]),
  messagesSnapshot: fieldsOtherThan(EVENT_FIELDS["messages.snapshot"], AG_UI_OWN["messages.snapshot"]),
  stateSnapshot: fieldsOtherThan(EVENT_FIELDS["state.snapshot"], AG_UI_OWN["state.snapshot"]),
  stateDelta: fieldsOtherThan(EVENT_FIELDS["state.delta"], AG_UI_OWN["state.delta"]),
  // An activity's content holds the surface's own fields; its envelope rides the carry.
  surfaceEnvelope: fieldsOtherThan(EVENT_ENVELOPE_FIELDS, ["type", "seq", "turnId"]),
  displayRequired: fieldsOtherThan(EVENT_FIELDS["display.required"], AG_UI_OWN["display.required"]),
};

function pick(c: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const k of keys) if (c[k] !== undefined) out[k] = c[k];
  return out;
}

function parseArgs(text: string): { input: unknown; ok: boolean } {
  if (text.trim() === "") return { input: {}, ok: true };
  try {
    return { input: JSON.parse(text), ok: true };
  } catch {
    return { input: text, ok: false };
  }
}

/** AgUsage of AG-UI TokenUsage[]: one entry maps field by field, several sum with a `byModel` split. */
function usageOf(raw: unknown): Json | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const one = (u: Json): Json => {
    const out: Json = {};
    const map: [string, string][] = [
      ["inputTokens", "inputTokens"],
      ["outputTokens", "outputTokens"],
      ["totalTokens", "totalTokens"],
      ["reasoningTokens", "reasoningTokens"],
      ["cachedInputTokens", "cacheReadTokens"],
      ["cacheWriteInputTokens", "cacheWriteTokens"],
    ];
    for (const [from, to] of map) if (typeof u[from] === "number") out[to] = u[from];
    return out;
  };
  const entries = raw.filter(isRecord);
  if (entries.length === 1 && entries[0] !== undefined) return one(entries[0]);
  const total: Record<string, number> = {};
  const byModel: Json = {};
  entries.forEach((u, i) => {
    const part = one(u);
    for (const [k, v] of Object.entries(part)) if (typeof v === "number") total[k] = (total[k] ?? 0) + v;
    byModel[optStr(u, "model") ?? optStr(u, "provider") ?? `#${i}`] = part;
  });
  return { ...total, byModel };
}

interface TurnState {
  turnId: string;
  parentTurnId: string | undefined;
}

interface OpenMessage {
  id: string;
  turnId: string;
}

type Handler = (f: AgUiFacet, ev: Json, c: Json) => void;

/** Handlers by AG-UI event type: exactly the installed vocabulary's EventType values (see header). */
const HANDLERS: { [K in `${EventType}`]: Handler } = {
  RUN_STARTED: (f, ev, c) => f.runStarted(ev, c),
  RUN_FINISHED: (f, ev, c) => f.runFinished(ev, c),
  RUN_ERROR: (f, ev, c) => f.runError(ev, c),
  STEP_STARTED: (f, ev, c) => f.stepStarted(ev, c),
  STEP_FINISHED: (f, ev, c) => f.stepFinished(ev, c),
  TEXT_MESSAGE_START: (f, ev, c) => f.textStart(ev, c),
  TEXT_MESSAGE_CONTENT: (f, ev, c) => f.textContent(ev, c),
  TEXT_MESSAGE_END: (f, ev, c) => f.textEnd(ev, c),
  TEXT_MESSAGE_CHUNK: (f, ev, c) => f.textChunk(ev, c),
  TOOL_CALL_START: (f, ev, c) => f.toolStart(ev, c),
  TOOL_CALL_ARGS: (f, ev, c) => f.toolArgs(ev, c),
  TOOL_CALL_END: (f, ev, c) => f.toolEnd(ev, c),
  TOOL_CALL_CHUNK: (f, ev, c) => f.toolChunk(ev, c),
  TOOL_CALL_RESULT: (f, ev, c) => f.toolResult(ev, c),
  STATE_SNAPSHOT: (f, ev, c) => f.stateSnapshot(ev, c),
  STATE_DELTA: (f, ev, c) => f.stateDelta(ev, c),
  MESSAGES_SNAPSHOT: (f, ev, c) => f.messagesSnapshot(ev, c),
  ACTIVITY_SNAPSHOT: (f, ev, c) => f.activitySnapshot(ev, c),
  ACTIVITY_DELTA: (f, ev, c) => f.activityDelta(ev, c),
  RAW: (f, ev) => f.ext("raw", { event: ev.event, ...(ev.source !== undefined ? { source: ev.source } : {}) }, ev),
  CUSTOM: (f, ev) => f.custom(ev),
  REASONING_START: (f, ev, c) => f.reasoningStart(ev, c),
  REASONING_MESSAGE_START: (f, ev, c) => f.reasoningMessageStart(ev, c),
  REASONING_MESSAGE_CONTENT: (f, ev, c) => f.reasoningContent(ev, c),
  REASONING_MESSAGE_END: () => {},
  REASONING_MESSAGE_CHUNK: (f, ev, c) => f.reasoningChunk(ev, c),
  REASONING_END: (f, ev, c) => f.reasoningEnd(ev, c),
  REASONING_ENCRYPTED_VALUE: (f, ev, c) => f.encryptedValue(ev, c),
  SUBAGENT_STARTED: (f, ev, c) => f.subagentStarted(ev, c),
  SUBAGENT_FINISHED: (f, ev, c) => f.subagentFinished(ev, c),
  SUBAGENT_ERROR: (f, ev, c) => f.subagentError(ev, c),
};

function isHandledType(type: string): type is keyof typeof HANDLERS {
  return Object.hasOwn(HANDLERS, type);
}

/** The `ag-ui` facet: one instance per AG-UI stream (§8.0 Lifetime). */
export class AgUiFacet implements Normalizer {
  private readonly threadIdDefault: string;
  private readonly turnIdDefault: string | undefined;
  private seq = 0;
  private out: AgEvent[] = [];
  private flushed = false;
  private threadId: string;
  /** Open turns, outermost first (the run's turn, then nested subagent turns). */
  private turns: TurnState[] = [];
  private usedIds = new Set<string>();
  private ordinal = 0;
  private openMessages: OpenMessage[] = [];
  private sealed = new Set<string>();
  /** Open text blocks by the AG-UI message id that streams them. */
  private texts = new Map<string, { blockId: string; messageId: string; turnId: string }>();
  private reasonings = new Map<string, { messageId: string; turnId: string }>();
  private tools = new Map<string, { args: string; turnId: string; name: string; messageId: string; signature?: string }>();
  private steps = new Map<string, string>();
  /** The open run was opened by toAgUi only to hold turn-less events: it stands for no turn. */
  private synthesizedRun = false;

  /** A pushed chunk did not come from the project's readers: events are walked from then on. */
  private handMade = false;
  /** The `parsed` option: every chunk is taken as parsed from text, none is looked up. */
  private readonly chunksParsed: boolean;

  constructor(opts: NormalizerOptions = {}) {
    this.threadIdDefault = opts.threadId ?? "thread";
    this.threadId = this.threadIdDefault;
    this.turnIdDefault = opts.turnId;
    this.chunksParsed = opts.parsed === true;
  }

  push(native: unknown): AgEvent[] {
    if (this.flushed) return [];
    // One chunk not parsed from text by the project's readers, and every later event is walked as a
    // hand-made object (§13); until then the events hold JSON values only (§13.2).
    if (!this.handMade && !this.chunksParsed && !isParsedChunk(native)) this.handMade = true;
    if (typeof native === "string") {
      this.unparsed(native, textChunkReason(native));
      return this.drain();
    }
    try {
      this.handle(native);
    } catch (error) {
      this.unparsed(native, `facet error: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.drain();
  }

  flush(): AgEvent[] {
    if (this.flushed) return [];
    this.flushed = true;
    // INV-FLUSH: open messages end in insertion order, open turns abort innermost first.
    for (const m of [...this.openMessages]) this.endMessage(m.id);
    for (const t of [...this.turns].reverse()) this.emit({ type: "turn.abort", turnId: t.turnId, reason: "stream-truncated" });
    this.turns = [];
    return this.drain();
  }

  private drain(): AgEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }

  private handle(native: unknown): void {
    if (!isRecord(native) || typeof native.type !== "string") {
      this.unparsed(native, "not an AG-UI event (no string `type`)");
      return;
    }
    const type = native.type;
    if (!isHandledType(type)) {
      // Version skew or a foreign event: loud, never a silent skip (§8.0).
      this.warn(
        "ag-ui-unknown-event",
        `AG-UI event type "${type}" is not in AG-UI ${AG_UI_MAJOR}.x, which this facet reads; it is carried as ext.${VENDOR}.unparsed.`,
      );
      this.unparsed(native, `unknown AG-UI event type "${type}"`);
      return;
    }
    HANDLERS[type](this, native, carriedOf(native));
  }

  // ── emission ──────────────────────────────────────────────────────────────────────────────

  /**
   * Stamps `seq` (§8.0: the facet, as engine, owns it) and checks the event producer-strict; an event
   * whose carried fields do not fit §4 is re-emitted with only the fields this facet derived itself,
   * with a non-terminal `error` saying so (nothing is guessed, nothing is lost silently).
   */
  emit(draft: Json, bare?: Json): void {
    const clean: Json = {};
    for (const [k, v] of Object.entries(draft)) if (v !== undefined) clean[k] = v;
    const checked = validateOutgoingEvent({ ...clean, seq: this.seq }, this.handMade);
    if (checked.ok) {
      this.seq++;
      this.out.push(checked.event);
      return;
    }
    const first = checked.errors[0];
    if (bare !== undefined) {
      this.warn(
        "ag-ui-carry-invalid",
        `the metadata.agjson carried on a ${String(draft.type)} does not fit §4 (${first?.path ?? ""} ${first?.message ?? ""}); the event is rebuilt from its AG-UI fields alone.`,
      );
      this.emit(bare);
      return;
    }
    this.unparsed(draft, `could not be expressed as a valid ${String(draft.type)}: ${first?.path ?? ""} ${first?.message ?? ""}`);
  }

  warn(code: string, message: string): void {
    const checked = validateEvent({ type: "error", seq: this.seq, code, message }, { posture: "strict" });
    if (checked.ok) {
      this.seq++;
      this.out.push(checked.event);
    }
  }

  ext(key: string, payload: Json, source?: Json): void {
    const body: Json = { type: `ext.${VENDOR}.${key}`, ...payload };
    const owner = source ? this.ownerOf(source) : this.currentTurn()?.turnId;
    if (owner !== undefined && body.turnId === undefined) body.turnId = owner;
    this.emit(body);
  }

  private unparsed(raw: unknown, reason: string): void {
    // Producer-strict like every event this facet emits (§0.2); an ext payload is open in both postures.
    const checked = validateOutgoingEvent({ type: `ext.${VENDOR}.unparsed`, seq: this.seq, reason, raw }, this.handMade);
    if (checked.ok && checked.known) {
      this.seq++;
      this.out.push(checked.event);
    }
  }

  // ── ids, turns, messages ──────────────────────────────────────────────────────────────────

  private claim(id: string): string {
    let fresh = id;
    let n = 1;
    while (this.usedIds.has(fresh)) fresh = `${id}:${n++}`;
    this.usedIds.add(fresh);
    return fresh;
  }

  private mint(kind: string): string {
    return this.claim(`${this.currentTurn()?.turnId ?? "turn"}:${kind}:${this.ordinal++}`);
  }

  private currentTurn(): TurnState | undefined {
    return this.turns[this.turns.length - 1];
  }

  /** The turn an AG-UI event belongs to: its open subagent, else the run's turn (opened if none). */
  private ownerOf(ev: Json): string {
    const sub = optStr(ev, "subagentRunId");
    if (sub !== undefined && this.turns.some((t) => t.turnId === sub)) return sub;
    return (this.turns[0] ?? this.openTurn(undefined, {})).turnId;
  }

  private openTurn(runId: string | undefined, extra: Json, bare?: Json): TurnState {
    // A run's id is its turn's id; a turn reopened by a later run keeps it (§5 turn-open idempotency).
    const turnId = runId ?? this.claim(this.turnIdDefault ?? "ag-ui-run");
    const turn: TurnState = { turnId, parentTurnId: undefined };
    this.turns.push(turn);
    // A carry that does not fit §4 rebuilds the turn.start from the AG-UI fields; the turn still opens.
    const own: Json = { type: "turn.start", threadId: this.threadId, turnId: turn.turnId };
    this.emit({ ...own, ...extra }, bare !== undefined ? { ...own, ...bare } : undefined);
    return turn;
  }

  private openMessageOf(turnId: string): OpenMessage | undefined {
    for (let i = this.openMessages.length - 1; i >= 0; i--) if (this.openMessages[i]!.turnId === turnId) return this.openMessages[i];
    return undefined;
  }

  /**
   * The message a block attaches to: the named AG-UI message when it is the turn's open one, else a
   * new message under that id (a sealed id is never re-opened, INV-MSG: it gets a suffixed id).
   */
  private messageFor(turnId: string, wantedId: string | undefined, role: string, carriedStart: Json | undefined): string {
    const open = this.openMessageOf(turnId);
    if (open && (wantedId === undefined || wantedId === "" || open.id === wantedId)) return open.id;
    if (
      open &&
      wantedId !== undefined &&
      this.usedIds.has(wantedId) &&
      !this.sealed.has(wantedId) &&
      this.openMessages.some((m) => m.id === wantedId)
    )
      return wantedId;
    if (open) this.endMessage(open.id);
    const id = wantedId !== undefined && wantedId !== "" ? this.claim(wantedId) : this.mint("message");
    this.openMessages.push({ id, turnId });
    const start: Json = {
      ...pick(carriedStart ?? {}, CARRIED.messageStart),
      type: "message.start",
      id,
      role: carriedStart?.role ?? role,
      turnId,
      threadId: this.threadId,
    };
    this.emit(start, { type: "message.start", id, role, turnId, threadId: this.threadId });
    return id;
  }

  private endMessage(id: string, carried: Json = {}): void {
    const m = this.openMessages.find((x) => x.id === id);
    if (!m) return;
    for (const [agUiId, t] of [...this.texts]) if (t.messageId === id) this.textEnd({ type: "TEXT_MESSAGE_END", messageId: agUiId }, {});
    for (const [rid, r] of [...this.reasonings]) if (r.messageId === id) this.reasoningEnd({ type: "REASONING_END", messageId: rid }, {});
    this.openMessages = this.openMessages.filter((x) => x !== m);
    this.sealed.add(id);
    this.emit({ type: "message.end", id, turnId: m.turnId, ...carried }, { type: "message.end", id, turnId: m.turnId });
  }

  private closeTurnContent(turnId: string): void {
    for (const [callId, t] of [...this.tools]) if (t.turnId === turnId) this.toolEnd({ type: "TOOL_CALL_END", toolCallId: callId }, {});
    for (const m of this.openMessages.filter((x) => x.turnId === turnId)) this.endMessage(m.id);
  }

  private popTurn(turnId: string): void {
    this.turns = this.turns.filter((t) => t.turnId !== turnId);
  }

  // ── runs ──────────────────────────────────────────────────────────────────────────────────

  runStarted(ev: Json, c: Json): void {
    const version = optStr(ev, "protocolVersion") ?? (isRecord(ev.input) ? optStr(ev.input, "protocolVersion") : undefined);
    if (version !== undefined && Number(version.split(".")[0]) !== AG_UI_MAJOR) {
      this.warn(
        "ag-ui-version-skew",
        `the run declares AG-UI protocol "${version}"; this facet reads AG-UI ${AG_UI_MAJOR}.x, so fields of another major may be misread.`,
      );
    }
    const run = this.turns[0];
    if (run) {
      this.closeTurnContent(run.turnId);
      for (const t of [...this.turns].reverse())
        this.emit({ type: "turn.abort", turnId: t.turnId, reason: "superseded by a new RUN_STARTED" });
      this.turns = [];
    }
    this.threadId = optStr(ev, "threadId") ?? this.threadIdDefault;
    const runId = str(ev, "runId");
    this.synthesizedRun = c.synthesized === true;
    if (this.synthesizedRun) return;
    const meta: Json = { ...(foreignMeta(ev) ?? {}) };
    if (typeof ev.parentRunId === "string") meta["ag-ui/parentRunId"] = ev.parentRunId;
    const bare: Json = Object.keys(meta).length > 0 ? { _meta: meta } : {};
    // The turn.start's own fields toAgUi carried (trigger, the envelope's id / parentId / _meta):
    // its _meta round-trips (§12), AG-UI's foreign metadata joined to it.
    const extra: Json = pick(c, CARRIED.turnStart);
    if (bare._meta !== undefined) extra._meta = { ...(isRecord(extra._meta) ? extra._meta : {}), ...meta };
    this.openTurn(typeof c.turnId === "string" ? c.turnId : runId, extra, bare);
  }

  private turnOf(_ev: Json): TurnState {
    return this.turns[0] ?? this.openTurn(undefined, {});
  }

  /** The owning turn when one is open; events §4 lets go without one (state, snapshots) stay turn-less. */
  private optionalOwner(ev: Json): string | undefined {
    return this.turns.length > 0 ? this.ownerOf(ev) : undefined;
  }

  /** The end of a run toAgUi opened for turn-less events: it closes a turn only if one was named. */
  private synthesizedEnd(c: Json): boolean {
    if (!this.synthesizedRun) return false;
    this.synthesizedRun = false;
    if (this.turns.length > 0 || typeof c.turnId === "string") return false;
    return true;
  }

  runFinished(ev: Json, c: Json): void {
    if (this.synthesizedEnd(c)) return;
    const turn: TurnState =
      typeof c.turnId === "string" && this.turns.length === 0 ? { turnId: c.turnId, parentTurnId: undefined } : this.turnOf(ev);
    this.closeTurnContent(turn.turnId);
    for (const t of [...this.turns].reverse())
      if (t !== turn) this.emit({ type: "turn.abort", turnId: t.turnId, reason: "its run finished first" });
    const outcome = isRecord(ev.outcome) ? ev.outcome : { type: "success" };
    const usage = isRecord(c.usage) ? c.usage : usageOf(ev.usage);
    const close = pick(c, CARRIED.turnDone);
    if (usage !== undefined) close.usage = usage;
    if (outcome.type === "interrupt" && Array.isArray(outcome.interrupts)) {
      const asks = outcome.interrupts.filter(isRecord).map((i) => this.askOf(i));
      for (const ask of asks)
        this.emit(
          { type: "hitl.ask", turnId: turn.turnId, ...ask.live, ...ask.paused },
          { type: "hitl.ask", turnId: turn.turnId, ...ask.bare },
        );
      const paused: Json = { type: "paused", asks: asks.map((a) => a.paused) };
      if (c.result !== undefined) paused.result = c.result;
      this.emit(
        { type: "turn.done", turnId: turn.turnId, outcome: paused, finishReason: c.finishReason ?? "paused", ...close },
        { type: "turn.done", turnId: turn.turnId, outcome: { type: "paused", asks: asks.map((a) => a.bare) }, finishReason: "paused" },
      );
    } else if (outcome.type === "cancelled") {
      if (typeof c.finishReason === "string")
        this.emit({
          type: "turn.done",
          turnId: turn.turnId,
          outcome: { type: "aborted", ...pick(c, ["reason"]) },
          finishReason: c.finishReason,
          ...close,
        });
      else
        this.emit({ type: "turn.abort", turnId: turn.turnId, ...pick(c, CARRIED.turnAbort) }, { type: "turn.abort", turnId: turn.turnId });
    } else {
      const pending = Array.isArray(outcome.pendingToolCallIds) && outcome.pendingToolCallIds.length > 0;
      const success: Json = { type: "success" };
      if (ev.result !== undefined) success.result = ev.result;
      this.emit(
        {
          type: "turn.done",
          turnId: turn.turnId,
          outcome: success,
          finishReason: c.finishReason ?? (pending ? "tool_call" : "stop"),
          ...close,
        },
        { type: "turn.done", turnId: turn.turnId, outcome: success, finishReason: pending ? "tool_call" : "stop" },
      );
    }
    this.turns = [];
  }

  /** A §7 ask of an AG-UI interrupt: the carried AgPausedAsk fields win, the AG-UI fields fill the rest. */
  private askOf(i: Json): { paused: Json; live: Json; bare: Json } {
    const c = interruptCarryOf(i);
    const askId = str(i, "id");
    const toolCallId = optStr(i, "toolCallId");
    const kind = typeof c.kind === "string" ? c.kind : toolCallId !== undefined ? "approval" : isRecord(i.responseSchema) ? "form" : "text";
    const bare: Json = { askId, kind };
    if (typeof i.message === "string") bare.message = i.message;
    if (toolCallId !== undefined) bare.toolCallId = toolCallId;
    if (i.responseSchema !== undefined) bare.schema = i.responseSchema;
    if (typeof i.expiresAt === "string") bare.expiresAt = i.expiresAt;
    const hasCarry = Object.keys(c).length > 0;
    if (!hasCarry) {
      bare.reason = str(i, "reason");
      if (isRecord(i.metadata)) bare.metadata = i.metadata;
      return { paused: bare, live: {}, bare };
    }
    const paused = { ...bare, ...pick(c, CARRIED.pausedAsk) };
    const live = pick(c, CARRIED.liveAsk);
    return { paused, live, bare: { ...bare, reason: str(i, "reason") } };
  }

  runError(ev: Json, c: Json): void {
    if (this.synthesizedEnd(c)) return;
    const turn: TurnState =
      typeof c.turnId === "string" && this.turns.length === 0 ? { turnId: c.turnId, parentTurnId: undefined } : this.turnOf(ev);
    if (c.truncated === true) {
      // toAgUi's end of a stream whose turn never closed: the INV-FLUSH close, as a normalizer makes it.
      this.closeTurnContent(turn.turnId);
      for (const t of [...this.turns].reverse()) this.emit({ type: "turn.abort", turnId: t.turnId, reason: "stream-truncated" });
      this.turns = [];
      return;
    }
    this.closeTurnContent(turn.turnId);
    for (const t of [...this.turns].reverse())
      if (t !== turn) this.emit({ type: "turn.abort", turnId: t.turnId, reason: "its run errored" });
    const usage = isRecord(c.usage) ? c.usage : usageOf(ev.usage);
    const message = str(ev, "message");
    const code = optStr(ev, "code");
    if (isRecord(c.outcome) && typeof c.finishReason === "string") {
      this.emit(
        {
          type: "turn.done",
          turnId: turn.turnId,
          outcome: c.outcome,
          finishReason: c.finishReason,
          ...pick(c, CARRIED.turnDone),
          ...(usage ? { usage } : {}),
        },
        { type: "turn.error", turnId: turn.turnId, message, ...(code ? { code } : {}) },
      );
    } else {
      this.emit(
        {
          type: "turn.error",
          turnId: turn.turnId,
          message,
          ...(code !== undefined ? { code } : {}),
          ...pick(c, CARRIED.turnError),
          ...(usage ? { usage } : {}),
        },
        { type: "turn.error", turnId: turn.turnId, message, ...(code ? { code } : {}) },
      );
    }
    this.turns = [];
  }

  // ── steps ─────────────────────────────────────────────────────────────────────────────────

  stepStarted(ev: Json, c: Json): void {
    const turnId = this.ownerOf(ev);
    const stepName = str(ev, "stepName");
    const id = typeof c.id === "string" ? this.claim(c.id) : this.mint("step");
    this.steps.set(stepName, id);
    const named = typeof c.id === "string" ? pick(c, ["stepName"]) : { stepName };
    // The step's envelope toAgUi carried (parentId, _meta — §12 — and messageId) comes back with it.
    const bare: Json = { type: "step.start", id, turnId, ...named };
    this.emit({ ...bare, ...pick(c, CARRIED.stepStart) }, bare);
  }

  stepFinished(ev: Json, c: Json): void {
    const stepName = str(ev, "stepName");
    const id = this.steps.get(stepName) ?? (typeof c.id === "string" ? c.id : this.mint("step"));
    this.steps.delete(stepName);
    const named = typeof c.id === "string" ? pick(c, ["stepName"]) : { stepName };
    this.emit(
      { type: "step.done", id, turnId: this.ownerOf(ev), ...named, ...pick(c, CARRIED.stepDone) },
      { type: "step.done", id, stepName },
    );
  }

  // ── text ──────────────────────────────────────────────────────────────────────────────────

  private carriedStart(c: Json): Json | undefined {
    return isRecord(c.message) ? c.message : undefined;
  }

  textStart(ev: Json, c: Json): void {
    const agUiId = str(ev, "messageId");
    const turnId = this.ownerOf(ev);
    if (this.texts.has(agUiId)) this.textEnd({ type: "TEXT_MESSAGE_END", messageId: agUiId }, {});
    const role = ev.role === "user" || ev.role === "system" ? ev.role : ev.role === "developer" ? "system" : "assistant";
    const start = this.carriedStart(c);
    const named = typeof ev.name === "string" ? { agentName: ev.name } : {};
    // A text block whose AG-UI id is its own block id (two texts open in one message) names its message.
    const messageWanted = typeof c.messageId === "string" ? c.messageId : agUiId;
    const messageId = this.messageFor(
      turnId,
      messageWanted,
      role,
      start ?? (Object.keys(named).length > 0 ? { role, ...named } : undefined),
    );
    const blockId = typeof c.block === "string" ? this.claim(c.block) : this.mint("text");
    this.texts.set(agUiId, { blockId, messageId, turnId });
    if (isRecord(c.contentBlock)) {
      // A whole text block (§4 content.block) travelled as a start/content/end triple: rebuild it at END.
      this.contentBlocks.set(blockId, c.contentBlock);
      return;
    }
    const fields = pick(c, CARRIED.textStart);
    this.emit({ type: "text.start", id: blockId, turnId, messageId, ...fields }, { type: "text.start", id: blockId, turnId, messageId });
  }

  private contentBlockText = new Map<string, string>();

  textContent(ev: Json, c: Json): void {
    const agUiId = str(ev, "messageId");
    const delta = str(ev, "delta");
    if (!this.texts.has(agUiId))
      this.textStart(
        { type: "TEXT_MESSAGE_START", messageId: agUiId, ...(ev.subagentRunId !== undefined ? { subagentRunId: ev.subagentRunId } : {}) },
        {},
      );
    const t = this.texts.get(agUiId)!;
    if (this.contentBlockText.has(t.blockId) || this.isContentBlock(t.blockId)) {
      this.contentBlockText.set(t.blockId, (this.contentBlockText.get(t.blockId) ?? "") + delta);
      return;
    }
    if (delta === "") return;
    this.emit(
      { type: "text.delta", id: t.blockId, delta, turnId: t.turnId, messageId: t.messageId, ...pick(c, CARRIED.textDelta) },
      { type: "text.delta", id: t.blockId, delta, turnId: t.turnId, messageId: t.messageId },
    );
  }

  private contentBlocks = new Map<string, Json>();

  private isContentBlock(blockId: string): boolean {
    return this.contentBlocks.has(blockId);
  }

  textEnd(ev: Json, c: Json): void {
    const agUiId = str(ev, "messageId");
    const t = this.texts.get(agUiId);
    if (!t) {
      this.warn("ag-ui-orphan-end", `TEXT_MESSAGE_END for "${agUiId}", which no TEXT_MESSAGE_START opened; nothing to close.`);
      return;
    }
    this.texts.delete(agUiId);
    const envelope = this.contentBlocks.get(t.blockId);
    if (envelope !== undefined) {
      this.contentBlocks.delete(t.blockId);
      const text = this.contentBlockText.get(t.blockId) ?? "";
      this.contentBlockText.delete(t.blockId);
      const block = { ...(isRecord(envelope.block) ? envelope.block : {}), type: "text", text };
      this.emit(
        { ...envelope, type: "content.block", id: t.blockId, turnId: t.turnId, messageId: t.messageId, block },
        { type: "content.block", id: t.blockId, turnId: t.turnId, messageId: t.messageId, block: { type: "text", text } },
      );
      return;
    }
    this.emit(
      { type: "text.end", id: t.blockId, turnId: t.turnId, messageId: t.messageId, ...pick(c, CARRIED.textEnd) },
      { type: "text.end", id: t.blockId, turnId: t.turnId, messageId: t.messageId },
    );
  }

  textChunk(ev: Json, c: Json): void {
    const agUiId = optStr(ev, "messageId") ?? [...this.texts.keys()].pop();
    if (agUiId === undefined) throw new Error(`TEXT_MESSAGE_CHUNK: the first chunk of a message must carry "messageId"`);
    if (!this.texts.has(agUiId)) this.textStart({ ...ev, type: "TEXT_MESSAGE_START", messageId: agUiId }, c);
    if (typeof ev.delta === "string") this.textContent({ ...ev, type: "TEXT_MESSAGE_CONTENT", messageId: agUiId, delta: ev.delta }, c);
  }

  // ── tools ─────────────────────────────────────────────────────────────────────────────────

  toolStart(ev: Json, c: Json): void {
    const toolCallId = str(ev, "toolCallId");
    const name = str(ev, "toolCallName");
    const turnId = this.ownerOf(ev);
    const messageId = this.messageFor(turnId, optStr(ev, "parentMessageId"), "assistant", this.carriedStart(c));
    this.tools.set(toolCallId, { args: "", turnId, name, messageId });
    if (isRecord(c.contentBlock)) {
      this.contentBlocks.set(toolCallId, c.contentBlock);
      return;
    }
    const fields = pick(c, CARRIED.toolStart);
    this.emit(
      { type: "tool.start", toolCallId: this.claim(toolCallId), name, turnId, messageId, ...fields },
      { type: "tool.start", toolCallId, name, turnId, messageId },
    );
  }

  toolArgs(ev: Json, c: Json): void {
    const toolCallId = str(ev, "toolCallId");
    const delta = str(ev, "delta");
    const t = this.tools.get(toolCallId);
    if (!t) {
      this.ext("orphan-tool-args", { toolCallId, delta }, ev);
      return;
    }
    t.args += delta;
    if (delta === "" || this.contentBlocks.has(toolCallId)) return;
    // The delta's own fields toAgUi carried (the envelope's id / parentId / _meta, §12) come back.
    const bare: Json = { type: "tool.args.delta", toolCallId, delta, turnId: t.turnId, messageId: t.messageId };
    this.emit({ ...bare, ...pick(c, CARRIED.toolArgsDelta) }, bare);
  }

  toolEnd(ev: Json, c: Json): void {
    const toolCallId = str(ev, "toolCallId");
    const t = this.tools.get(toolCallId);
    if (!t) {
      this.warn("ag-ui-orphan-end", `TOOL_CALL_END for "${toolCallId}", which no TOOL_CALL_START opened; nothing to close.`);
      return;
    }
    this.tools.delete(toolCallId);
    const parsed = parseArgs(t.args);
    const input = "input" in c ? c.input : parsed.input;
    const signature = t.signature ?? (typeof c.signature === "string" ? c.signature : undefined);
    const envelope = this.contentBlocks.get(toolCallId);
    if (envelope !== undefined) {
      // A whole tool-call block (§4 content.block) travelled as a start/args/end triple: rebuild it.
      this.contentBlocks.delete(toolCallId);
      const block: Json = {
        ...(isRecord(envelope.block) ? envelope.block : {}),
        type: "tool-call",
        toolCallId,
        name: t.name,
        input,
        ...(signature !== undefined ? { signature } : {}),
      };
      const bareBlock = { type: "tool-call", toolCallId, name: t.name, input: parsed.input };
      this.emit(
        { ...envelope, type: "content.block", turnId: t.turnId, messageId: t.messageId, block },
        { type: "content.block", turnId: t.turnId, messageId: t.messageId, block: bareBlock },
      );
      return;
    }
    if (c.unassembled === true) return;
    if (!parsed.ok && !("input" in c)) {
      this.warn("malformed_tool_args", `Tool call '${toolCallId}' arguments are not valid JSON; its input carries the raw text.`);
    }
    const fields = pick(c, CARRIED.toolArgsAssembled);
    this.emit(
      {
        type: "tool.args.assembled",
        toolCallId,
        input,
        turnId: t.turnId,
        messageId: t.messageId,
        ...fields,
        ...(signature !== undefined ? { signature } : {}),
      },
      { type: "tool.args.assembled", toolCallId, input: parsed.input, turnId: t.turnId, messageId: t.messageId },
    );
  }

  toolChunk(ev: Json, c: Json): void {
    const toolCallId = optStr(ev, "toolCallId") ?? [...this.tools.keys()].pop();
    if (toolCallId === undefined) throw new Error(`TOOL_CALL_CHUNK: the first chunk of a call must carry "toolCallId"`);
    // A chunk that opened the call spent its carry on the tool.start.
    const opened = !this.tools.has(toolCallId);
    if (opened) this.toolStart({ ...ev, type: "TOOL_CALL_START", toolCallId }, c);
    if (typeof ev.delta === "string") this.toolArgs({ ...ev, type: "TOOL_CALL_ARGS", toolCallId, delta: ev.delta }, opened ? {} : c);
  }

  toolResult(ev: Json, c: Json): void {
    const toolCallId = str(ev, "toolCallId");
    const messageId = str(ev, "messageId");
    if (this.tools.has(toolCallId)) this.toolEnd({ type: "TOOL_CALL_END", toolCallId }, {});
    const inMessage = c.inMessage === true || typeof c.inMessage === "string";
    const turnId = inMessage && typeof c.turnId === "string" ? c.turnId : this.ownerOf(ev);
    const raw = ev.content;
    const bareContent: AgBlock[] = fromAgUiContent(typeof raw === "string" ? raw : Array.isArray(raw) ? raw : JSON.stringify(raw ?? ""));
    const content: unknown = Array.isArray(c.content) ? c.content : bareContent;
    if (typeof c.inMessage === "string" && this.turns.some((t) => t.turnId === turnId))
      this.messageFor(turnId, c.inMessage, "assistant", this.carriedStart(c));
    else if (inMessage && this.openMessageOf(turnId) === undefined && this.turns.some((t) => t.turnId === turnId))
      this.messageFor(turnId, undefined, "assistant", undefined);
    const fields = pick(c, CARRIED.toolDone);
    this.emit(
      { type: "tool.done", toolCallId, turnId, ...(inMessage ? {} : { messageId }), content, ...fields },
      { type: "tool.done", toolCallId, turnId, messageId, content: bareContent },
    );
  }

  // ── reasoning ─────────────────────────────────────────────────────────────────────────────

  reasoningStart(ev: Json, c: Json): void {
    const id = str(ev, "messageId");
    if (this.reasonings.has(id)) return;
    const turnId = this.ownerOf(ev);
    const wanted = typeof c.messageId === "string" ? c.messageId : undefined;
    const messageId = this.messageFor(turnId, wanted, "assistant", this.carriedStart(c));
    this.reasonings.set(id, { messageId, turnId });
    const fields = pick(c, CARRIED.reasoningStart);
    this.emit(
      { type: "reasoning.start", id: this.claim(id), turnId, messageId, ...fields },
      { type: "reasoning.start", id, turnId, messageId },
    );
  }

  reasoningMessageStart(ev: Json, c: Json): void {
    const id = str(ev, "messageId");
    if (!this.reasonings.has(id)) this.reasoningStart(ev, c);
  }

  reasoningContent(ev: Json, c: Json): void {
    const id = str(ev, "messageId");
    const delta = str(ev, "delta");
    if (!this.reasonings.has(id)) this.reasoningStart(ev, {});
    const r = this.reasonings.get(id)!;
    if (delta === "") return;
    this.emit(
      { type: "reasoning.delta", id, delta, turnId: r.turnId, messageId: r.messageId, ...pick(c, CARRIED.reasoningDelta) },
      { type: "reasoning.delta", id, delta, turnId: r.turnId, messageId: r.messageId },
    );
  }

  reasoningChunk(ev: Json, c: Json): void {
    const id = optStr(ev, "messageId") ?? [...this.reasonings.keys()].pop();
    if (id === undefined) throw new Error(`REASONING_MESSAGE_CHUNK: the first chunk must carry "messageId"`);
    if (typeof ev.delta === "string") this.reasoningContent({ ...ev, messageId: id, delta: ev.delta }, c);
    else if (!this.reasonings.has(id)) this.reasoningStart({ ...ev, messageId: id }, c);
  }

  reasoningEnd(ev: Json, c: Json): void {
    const id = str(ev, "messageId");
    const r = this.reasonings.get(id);
    if (!r) return;
    this.reasonings.delete(id);
    this.emit(
      { type: "reasoning.end", id, turnId: r.turnId, messageId: r.messageId, ...pick(c, CARRIED.reasoningEnd) },
      { type: "reasoning.end", id, turnId: r.turnId, messageId: r.messageId },
    );
  }

  encryptedValue(ev: Json, c: Json): void {
    const entityId = str(ev, "entityId");
    const value = str(ev, "encryptedValue");
    if (ev.subtype === "tool-call") {
      const t = this.tools.get(entityId);
      if (t) t.signature = value;
      else this.ext("tool-call-encrypted-value", { toolCallId: entityId, encryptedValue: value }, ev);
      return;
    }
    // §13.2: AG-UI's encrypted reasoning value is the reasoning block's opaque blob, byte-identical.
    const kind = isEnumValue("AgOpaqueKind", c.kind) ? c.kind : "encrypted";
    const r = this.reasonings.get(entityId);
    const owner = r?.turnId ?? this.ownerOf(ev);
    this.emit(
      {
        type: "reasoning.opaque",
        id: entityId,
        kind,
        value,
        turnId: owner,
        ...(r ? { messageId: r.messageId } : {}),
        ...pick(c, CARRIED.reasoningOpaque),
      },
      { type: "reasoning.opaque", id: entityId, kind: "encrypted", value, turnId: owner },
    );
  }

  // ── subagents ─────────────────────────────────────────────────────────────────────────────

  subagentStarted(ev: Json, c: Json): void {
    const sub = str(ev, "subagentRunId");
    const parent =
      optStr(ev, "parentSubagentRunId") ?? (typeof c.parentTurnId === "string" ? c.parentTurnId : undefined) ?? this.turnOf(ev).turnId;
    const turnId = this.claim(sub);
    this.turns.push({ turnId, parentTurnId: parent });
    const agentName = typeof ev.name === "string" ? ev.name : undefined;
    const carried = pick(c, CARRIED.subagentStart);
    const bare: Json = { type: "subagent.start", turnId, parentTurnId: parent, ...(agentName !== undefined ? { agentName } : {}) };
    this.emit(Object.keys(c).length > 0 ? { type: "subagent.start", turnId, parentTurnId: parent, ...carried } : bare, bare);
  }

  private closeSubagent(sub: string): TurnState | undefined {
    const t = this.turns.find((x) => x.turnId === sub);
    if (!t) return undefined;
    this.closeTurnContent(sub);
    this.popTurn(sub);
    return t;
  }

  subagentFinished(ev: Json, c: Json): void {
    const sub = str(ev, "subagentRunId");
    const t = this.closeSubagent(sub);
    if (!t) {
      this.ext("orphan-subagent-finished", { subagentRunId: sub }, ev);
      return;
    }
    const outcome = isRecord(ev.outcome) ? ev.outcome : { type: "success" };
    if (typeof c.finishReason === "string") {
      const done: Json = isRecord(c.outcome) ? c.outcome : { type: "success", ...(ev.result !== undefined ? { result: ev.result } : {}) };
      this.emit(
        { type: "turn.done", turnId: sub, outcome: done, finishReason: c.finishReason, ...pick(c, CARRIED.subagentDone) },
        { type: "subagent.done", turnId: sub, parentTurnId: t.parentTurnId ?? sub },
      );
      return;
    }
    if (outcome.type === "suspended")
      this.warn(
        "ag-ui-subagent-suspended",
        `subagent "${sub}" finished suspended on its interrupts; its asks arrive with the run's interrupt outcome.`,
      );
    // The envelope's id / parentId / _meta toAgUi carried come back (§12); a field unknown to the schema stays behind (§0.2).
    const bare: Json = { type: "subagent.done", turnId: sub, parentTurnId: t.parentTurnId ?? sub };
    this.emit({ ...bare, ...pick(c, CARRIED.subagentDoneEvent) }, bare);
  }

  subagentError(ev: Json, c: Json): void {
    const sub = str(ev, "subagentRunId");
    const t = this.closeSubagent(sub);
    if (!t) {
      this.ext("orphan-subagent-error", { subagentRunId: sub, message: ev.message }, ev);
      return;
    }
    if (c.aborted === true) {
      this.emit({ type: "turn.abort", turnId: sub, ...pick(c, CARRIED.turnAbort) });
      return;
    }
    if (isRecord(c.outcome) && typeof c.finishReason === "string") {
      this.emit(
        { type: "turn.done", turnId: sub, outcome: c.outcome, finishReason: c.finishReason, ...pick(c, CARRIED.subagentDone) },
        { type: "turn.error", turnId: sub, message: str(ev, "message") },
      );
      return;
    }
    const code = optStr(ev, "code");
    this.emit(
      {
        type: "turn.error",
        turnId: sub,
        message: str(ev, "message"),
        ...(code !== undefined ? { code } : {}),
        ...pick(c, CARRIED.turnError),
      },
      { type: "turn.error", turnId: sub, message: str(ev, "message") },
    );
  }

  // ── state, snapshots, activities ──────────────────────────────────────────────────────────

  stateSnapshot(ev: Json, c: Json): void {
    const turnId = this.optionalOwner(ev);
    // A node-keyed update that seeded the state travelled as a snapshot (docs/bridges/ag-ui.md).
    if (isRecord(c.patch))
      this.emit(
        { type: "state.delta", patch: c.patch, turnId, ...pick(c, CARRIED.stateDelta) },
        { type: "state.snapshot", snapshot: ev.snapshot ?? null, turnId },
      );
    else
      this.emit(
        { type: "state.snapshot", snapshot: ev.snapshot ?? null, turnId, ...pick(c, CARRIED.stateSnapshot) },
        { type: "state.snapshot", snapshot: ev.snapshot ?? null, turnId },
      );
  }

  stateDelta(ev: Json, c: Json): void {
    const turnId = this.optionalOwner(ev);
    const patch = c.patch !== undefined ? c.patch : ev.delta;
    this.emit({ type: "state.delta", patch, turnId, ...pick(c, CARRIED.stateDelta) }, { type: "state.delta", patch: ev.delta, turnId });
  }

  messagesSnapshot(ev: Json, c: Json): void {
    // Carried messages are read consumer-lenient; emit() checks the snapshot producer-strict.
    const messages: L.AgMessage[] = fromAgUiMessages(Array.isArray(ev.messages) ? ev.messages : []);
    this.emit({ type: "messages.snapshot", messages, ...pick(c, CARRIED.messagesSnapshot) }, { type: "messages.snapshot", messages });
  }

  activitySnapshot(ev: Json, c: Json): void {
    const messageId = str(ev, "messageId");
    const activityType = str(ev, "activityType");
    const content = isRecord(ev.content) ? ev.content : {};
    const turnId = this.ownerOf(ev);
    const envelope = isRecord(c.contentBlock) ? c.contentBlock : undefined;
    const blockExtra = envelope && isRecord(envelope.block) ? envelope.block : {};
    const envelopeFields = envelope ? Object.fromEntries(Object.entries(envelope).filter(([k]) => k !== "block")) : {};
    if (activityType === "a2ui-surface" && typeof content.catalogId === "string") {
      this.emit(
        { type: "ui.surface.start", surfaceId: messageId, ...content, turnId, ...pick(c, CARRIED.surfaceEnvelope) },
        { type: "ui.surface.start", surfaceId: messageId, catalogId: content.catalogId, turnId },
      );
      return;
    }
    const wantedMessage = envelope && typeof envelope.messageId === "string" ? envelope.messageId : undefined;
    if (activityType === "mcp-app" && isRecord(content.resource)) {
      const msg = this.messageFor(turnId, wantedMessage, "assistant", this.carriedStart(c));
      this.emit({
        ...envelopeFields,
        type: "content.block",
        id: this.claim(messageId),
        turnId,
        messageId: msg,
        block: { ...blockExtra, type: "resource", resource: content.resource },
      });
      return;
    }
    if (activityType.startsWith("data-") && "data" in content) {
      const msg = this.messageFor(turnId, wantedMessage, "assistant", this.carriedStart(c));
      const block: Json = { ...blockExtra, type: "data", name: activityType.slice(5), data: content.data };
      if (block.id === undefined && envelope === undefined) block.id = messageId;
      this.emit({ ...envelopeFields, type: "content.block", turnId, messageId: msg, block });
      return;
    }
    if (activityType === "display-required" && typeof content.provider === "string" && typeof content.html === "string") {
      this.emit({ type: "display.required", provider: content.provider, html: content.html, turnId, ...pick(c, CARRIED.displayRequired) });
      return;
    }
    this.ext("activity", { messageId, activityType, content, ...(typeof ev.replace === "boolean" ? { replace: ev.replace } : {}) }, ev);
  }

  activityDelta(ev: Json, c: Json): void {
    const messageId = str(ev, "messageId");
    const activityType = str(ev, "activityType");
    const turnId = this.ownerOf(ev);
    const patch = Array.isArray(ev.patch) ? ev.patch.filter(isRecord) : [];
    if (activityType === "a2ui-surface") {
      if (isRecord(c.dataModel)) {
        this.emit({ ...c.dataModel, type: "ui.data-model", surfaceId: messageId, turnId });
        return;
      }
      const components = patch.find((op) => op.path === "/components" && op.op !== "remove");
      if (components) {
        this.emit({
          type: "ui.surface.update",
          surfaceId: messageId,
          components: components.value,
          turnId,
          ...pick(c, CARRIED.surfaceEnvelope),
        });
        return;
      }
      const last = patch[patch.length - 1];
      if (last && typeof last.path === "string" && last.path.startsWith("/dataModel")) {
        const path = last.path.slice("/dataModel".length) || "/";
        this.emit({ type: "ui.data-model", surfaceId: messageId, path, ...(last.op !== "remove" ? { value: last.value } : {}), turnId });
        return;
      }
    }
    this.ext("activity-delta", { messageId, activityType, patch: ev.patch }, ev);
  }

  // ── CUSTOM ────────────────────────────────────────────────────────────────────────────────

  custom(ev: Json): void {
    const name = str(ev, "name");
    const value = ev.value;
    // An `ext.<vendor>.<key>` event toAgUi carried as CUSTOM: the AgExtEvent schema's own pattern (§12).
    if (EXT_EVENT_TYPE.test(name)) {
      this.emit({ ...(isRecord(value) ? value : { value }), type: name });
      return;
    }
    if (name.startsWith("agjson.") && isRecord(value) && name !== "agjson.unmapped") {
      const type = name.slice("agjson.".length);
      // A §4 event keeps the fields the schema defines for it: one it does not (a producer emits
      // none, §0.2) stays behind without turning the whole event into ext.ag-ui.unparsed (§12: _meta stays).
      const draft: Json = { ...(isKnownEventType(type) ? pick(value, EVENT_FIELDS[type]) : value), type };
      // Narrowed to the §4 event types, so the compiler holds each case to the schema.
      switch (isKnownEventType(type) ? type : undefined) {
        case "message.start": {
          const turnId = typeof value.turnId === "string" ? value.turnId : this.ownerOf(ev);
          const open = this.openMessageOf(turnId);
          if (open) this.endMessage(open.id);
          const id = this.claim(str(value, "id"));
          this.openMessages.push({ id, turnId });
          const threadId = optStr(value, "threadId") ?? this.threadId;
          const role = optStr(value, "role") ?? "assistant";
          this.emit({ ...pick(value, CARRIED.messageStart), type, id, turnId, threadId }, { type, id, turnId, threadId, role });
          return;
        }
        case "message.end": {
          const id = str(value, "id");
          // The end's own fields (usage, the envelope's _meta — §12 — and parentId) seal the message.
          if (this.openMessages.some((m) => m.id === id)) this.endMessage(id, pick(value, CARRIED.messageEnd));
          else this.emit(draft);
          return;
        }
        case "message.remove": {
          // A removed message's id may be opened again (§5 message.remove).
          const id = str(value, "id");
          const gone = id === "*" ? this.openMessages.filter((m) => m.turnId === value.turnId).map((m) => m.id) : [id];
          for (const g of gone) {
            this.usedIds.delete(g);
            this.sealed.delete(g);
          }
          this.openMessages = this.openMessages.filter((m) => !gone.includes(m.id));
          this.emit(draft);
          return;
        }
        default:
          if (draft.turnId === undefined && type !== "error" && !type.startsWith("ext.")) {
            const owner = this.turns.length > 0 ? this.ownerOf(ev) : undefined;
            if (owner !== undefined) draft.turnId = owner;
          }
          this.emit(draft);
          return;
      }
    }
    this.ext("custom", { name, value: value ?? null }, ev);
  }
}
