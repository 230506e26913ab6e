/**
 * One stream as the inspector holds it (docs/inspect.md): every record validated in both postures
 * (§0.2 strict producer, lenient consumer), folded with `reduce()` (§5: fold issues and resync
 * points per event), and on demand the fold at any event, the bridges' view (AG-UI, AI SDK UI
 * message stream, ACP) and the next provider request (§10 round trips, `reinput`). The page renders
 * what these functions return; nothing here trusts the stream.
 */
import { createReducer, type AgReducer, type AgReduceIssue } from "../reduce/index.js";
import { DEFAULT_PARSE_CAPS, isKnownEvent, parseCapped, validateEvent, validateMessage, type Lenient } from "../validate/index.js";
export type { DocMeta, InspectRecord, LoadedSource } from "./protocol.js";
import type { AgUiEvent } from "../bridges/ag-ui/index.js";
import { conversationOf } from "./conversation.js";
import { cut, jsonLines, prettyJson, shortJson } from "./json-view.js";
import type {
  DocMeta,
  InspectRecord,
  LoadedSource,
  DocSummary,
  EventAnswer,
  EventIssue,
  FoldAnswer,
  JsonLine,
  NextAnswer,
  NextRequestView,
  Problem,
  ProblemsAnswer,
  ProtocolView,
  ProtocolsAnswer,
  RowsAnswer,
  TimelineRow,
} from "./protocol.js";
import { isRecord } from "../json-guards.js";

/** The doc of a loaded source. */
export function docOf(id: string, source: LoadedSource): InspectDoc {
  const doc = new InspectDoc(id, source.meta);
  if (source.natives) doc.natives.push(...source.natives);
  if (source.records) doc.append(source.records);
  if (source.result) doc.setResult(source.result.value, source.result.issues);
  return doc;
}

/** Problems listed per stream; past it they are counted. */
const PROBLEMS_LISTED = 5000;
/** Items of each converted protocol sent to the page. */
const PROTOCOL_ITEMS = 500;
/** Fold cursors kept (each a reducer at some event); the oldest is dropped past it. */
const CURSORS = 4;
/**
 * Checkpoints: reducers parked at every `stride` events, so a fold at any event folds at most
 * `stride` events past one. A fold only goes forward, so a checkpoint used for a fold becomes a
 * cursor and is built again in the background, a slice of events at a time (the server stays
 * responsive). Streams shorter than `CHECKPOINT_FROM` re-fold from the start in a few ms instead.
 */
const CHECKPOINT_FROM = 20_000;
const CHECKPOINTS = 24;
/** Events a background slice folds before yielding to requests. */
const SLICE = 4000;

interface Entry {
  value: unknown;
  /** Lower-cased record text, for the free-text filter. */
  search: string;
  row: TimelineRow;
  family: string;
  /** The lenient-valid event the fold receives; undefined for a rejected one (§10 item 20: its seq slot counts). */
  folded: Lenient.AgEvent | undefined;
  issues?: EventIssue[];
  natives?: number[];
}

function idOf(x: unknown): string | undefined {
  return typeof x === "string" ? cut(x, 200) : undefined;
}

/** The row's ids: which turn, message, block and tool call the event names (§1.2). */
function idsOf(e: Record<string, unknown>, type: string): Pick<TimelineRow, "turn" | "message" | "block" | "tool"> {
  const family = type.split(".")[0];
  const message = family === "message" ? idOf(e.id) : idOf(e.messageId);
  const block = family === "text" || family === "reasoning" || family === "block" || family === "code" ? idOf(e.id) : idOf(e.blockId);
  const out: Pick<TimelineRow, "turn" | "message" | "block" | "tool"> = {};
  const turn = idOf(e.turnId);
  const tool = idOf(e.toolCallId);
  if (turn !== undefined) out.turn = turn;
  if (message !== undefined) out.message = message;
  if (block !== undefined) out.block = block;
  if (tool !== undefined) out.tool = tool;
  return out;
}

function foldIssue(i: AgReduceIssue): EventIssue {
  const spec = i.invariant.startsWith("INV-") ? "§5.0" : i.invariant === "CAP" ? "§13" : "§5";
  return { source: "fold", path: "", message: `${i.message} (recovery: ${i.recovery})`, rule: i.invariant, spec };
}

/** The line an issue at `path` sits under: the deepest value shown on the way to it. */
function lineOf(lines: readonly JsonLine[], path: string): number {
  let best = 0;
  let bestLength = -1;
  lines.forEach((l, i) => {
    if (l.pointer.length > bestLength && (path === l.pointer || path.startsWith(`${l.pointer}/`))) {
      best = i;
      bestLength = l.pointer.length;
    }
  });
  return best;
}

/** A stream, its checks and its fold. Records are appended (a file at once, a live stream as it flows). */
export class InspectDoc {
  readonly entries: Entry[] = [];
  /** The native chunks of a normalized source, by index. */
  readonly natives: unknown[] = [];
  readonly #main: AgReducer = createReducer({ maxErrors: Number.POSITIVE_INFINITY });
  #cursors: { reducer: AgReducer; at: number }[] = [];
  /** Parked reducers by position (k · stride − 1), and the one being built in the background. */
  #checkpoints = new Map<number, AgReducer>();
  #building: { reducer: AgReducer; at: number; target: number } | undefined;
  #timer: ReturnType<typeof setImmediate> | undefined;
  /** The last event folded at on request: the checkpoints below it are built first. */
  #lastTarget = -1;
  #filters = new Map<string, number[]>();
  #protocols: Promise<ProtocolsAnswer> | undefined;
  #next: Promise<NextAnswer> | undefined;
  /** A reduce result read whole (no events): the Conversation and Next request come from it. */
  #result: Lenient.AgReduceResult | undefined;
  #resultIssues: EventIssue[] = [];
  version = 0;

  constructor(
    readonly id: string,
    readonly meta: DocMeta,
  ) {}

  summary(): DocSummary {
    return {
      id: this.id,
      name: this.meta.name,
      source: this.meta.source,
      count: this.entries.length,
      live: this.meta.live === true,
      ...(this.meta.note !== undefined ? { note: this.meta.note } : {}),
    };
  }

  /** Shows a reduce result read whole (an AgReduceResult file, or `agjson reduce` output). */
  setResult(result: Lenient.AgReduceResult, issues: EventIssue[]): void {
    this.#result = result;
    this.#resultIssues = issues;
    this.#changed();
  }

  /** Appends records; each is validated in both postures and folded (or noted rejected, §10 item 20). */
  append(records: Iterable<InspectRecord>): void {
    for (const rec of records) this.#appendOne(rec);
    this.#changed();
    // A long stream gets its checkpoints while the page loads, so the first fold there is quick too.
    this.#scheduleCheckpoints();
  }

  #changed(): void {
    this.version++;
    this.#filters.clear();
    this.#protocols = undefined;
    this.#next = undefined;
  }

  #appendOne(rec: InspectRecord): void {
    const index = this.entries.length;
    const issues: EventIssue[] = [];
    let value: unknown;
    let folded: Lenient.AgEvent | undefined;
    if ("error" in rec) {
      issues.push({ source: "record", path: "", message: rec.error, rule: "record", spec: "§4" });
      value = rec.text;
    } else {
      value = rec.value;
      const strict = validateEvent(value, { posture: "strict" });
      const lenient = validateEvent(value, { posture: "lenient" });
      if (!strict.ok)
        for (const e of strict.errors) issues.push({ source: "strict", path: e.path, message: e.message, rule: e.keyword, spec: e.spec });
      if (!lenient.ok)
        for (const e of lenient.errors) issues.push({ source: "lenient", path: e.path, message: e.message, rule: e.keyword, spec: e.spec });
      if (lenient.ok) folded = lenient.event;
    }
    const record = isRecord(value) ? value : {};
    const type = typeof record.type === "string" ? cut(record.type, 200) : "error" in rec ? "(unreadable record)" : "(no type)";
    const row: TimelineRow = {
      index,
      seq: typeof record.seq === "number" ? record.seq : null,
      type,
      ...idsOf(record, type),
      strict: 0,
      lenient: 0,
      fold: 0,
    };
    // The fold of the whole stream, for its issues and resync points (§5.0 INV-SEQ, §10 item 20).
    const before = this.#main.errors.length;
    const resyncBefore = this.#main.needsResync;
    if (folded !== undefined) this.#main.push(folded);
    else this.#main.noteRejected();
    for (const i of this.#main.errors.slice(before)) issues.push(foldIssue(i));
    if (!resyncBefore && this.#main.needsResync) row.resync = "needs";
    else if (resyncBefore && !this.#main.needsResync) row.resync = "done";
    for (const i of issues) {
      if (i.source === "strict") row.strict++;
      else if (i.source === "lenient" || i.source === "record") row.lenient++;
      else row.fold++;
    }
    const text = "text" in rec && rec.text !== undefined ? rec.text : shortJson(value, 1 << 20);
    const natives = "natives" in rec ? rec.natives : undefined;
    this.entries.push({
      value,
      search: text.toLowerCase(),
      row,
      family: type.startsWith("ext.") ? "ext" : (type.split(".")[0] ?? type),
      folded,
      ...(issues.length > 0 ? { issues } : {}),
      ...(natives !== undefined ? { natives } : {}),
    });
  }

  /** Indices of the events a filter keeps (cached per filter until the stream changes). */
  #matching(filter: RowFilter): number[] | undefined {
    const key = JSON.stringify(filter);
    if (key === "{}") return undefined;
    const hit = this.#filters.get(key);
    if (hit) return hit;
    const q = filter.q?.toLowerCase();
    const out: number[] = [];
    this.entries.forEach((e, i) => {
      if (filter.family !== undefined && e.family !== filter.family) return;
      if (filter.turn !== undefined && e.row.turn !== filter.turn) return;
      if (filter.message !== undefined && e.row.message !== filter.message) return;
      if (filter.tool !== undefined && e.row.tool !== filter.tool) return;
      if (filter.problems === true && e.issues === undefined) return;
      if (q !== undefined && !e.search.includes(q)) return;
      out.push(i);
    });
    if (this.#filters.size > 16) this.#filters.clear();
    this.#filters.set(key, out);
    return out;
  }

  /** Type families present, for the Timeline's filter. */
  families(): string[] {
    return [...new Set(this.entries.map((e) => e.family))].sort();
  }

  rows(offset: number, limit: number, filter: RowFilter = {}): RowsAnswer {
    const matching = this.#matching(filter);
    const total = matching ? matching.length : this.entries.length;
    const start = Math.max(0, Math.min(offset, total));
    const end = Math.min(total, start + Math.max(0, limit));
    const rows: TimelineRow[] = [];
    for (let i = start; i < end; i++) rows.push(this.entries[matching ? matching[i]! : i]!.row);
    return { total, offset: start, rows };
  }

  /** Position in the filtered list of event `index` (to keep the selection in view). */
  positionOf(index: number, filter: RowFilter = {}): number {
    const matching = this.#matching(filter);
    return matching ? matching.indexOf(index) : index;
  }

  event(index: number): EventAnswer | undefined {
    const e = this.entries[index];
    if (e === undefined) return undefined;
    const lines = jsonLines(e.value);
    const issues = (e.issues ?? []).map((i) => ({ ...i, line: lineOf(lines, i.path) }));
    const answer: EventAnswer = { index, seq: e.row.seq, type: e.row.type, lines, issues };
    if (e.natives !== undefined) answer.natives = e.natives.slice(0, 20).map((n) => ({ index: n, lines: jsonLines(this.natives[n], 400) }));
    return answer;
  }

  /** The fold after event `at` (-1: nothing folded), from the nearest reducer at or before it. */
  foldAt(at: number): { result: Lenient.AgReduceResult; needsResync: boolean; errors: number } {
    if (this.#result !== undefined) return { result: this.#result, needsResync: false, errors: 0 };
    const last = this.entries.length - 1;
    const target = Math.max(-1, Math.min(at, last));
    if (target === last) return { result: this.#main.result, needsResync: this.#main.needsResync, errors: this.#main.errors.length };
    let cursor = this.#cursors.filter((c) => c.at <= target).sort((a, b) => b.at - a.at)[0];
    const parked = this.#nearestCheckpoint(target, cursor?.at ?? -1);
    if (parked !== undefined) {
      // A checkpoint nearer than every cursor: it becomes a cursor, and is built again behind.
      this.#checkpoints.delete(parked.at);
      cursor = parked;
      this.#cursors.push(cursor);
      if (this.#cursors.length > CURSORS) this.#cursors.shift();
    } else if (cursor === undefined) {
      cursor = { reducer: createReducer({ maxErrors: Number.POSITIVE_INFINITY }), at: -1 };
      this.#cursors.push(cursor);
      if (this.#cursors.length > CURSORS) this.#cursors.shift();
    } else {
      // Most recently used last: the one dropped past CURSORS is the least recently used.
      this.#cursors = [...this.#cursors.filter((c) => c !== cursor), cursor];
    }
    for (let i = cursor.at + 1; i <= target; i++) {
      const e = this.entries[i]!;
      if (e.folded !== undefined) cursor.reducer.push(e.folded);
      else cursor.reducer.noteRejected();
    }
    cursor.at = target;
    this.#lastTarget = target;
    this.#scheduleCheckpoints();
    return { result: cursor.reducer.result, needsResync: cursor.reducer.needsResync, errors: cursor.reducer.errors.length };
  }

  get #stride(): number {
    return Math.ceil(this.entries.length / CHECKPOINTS);
  }

  #nearestCheckpoint(target: number, above: number): { reducer: AgReducer; at: number } | undefined {
    let best: { reducer: AgReducer; at: number } | undefined;
    for (const [at, reducer] of this.#checkpoints)
      if (at <= target && at > above && (best === undefined || at > best.at)) best = { reducer, at };
    return best;
  }

  /** Builds the missing checkpoints in the background, one slice of events per turn of the event loop. */
  #scheduleCheckpoints(): void {
    if (this.#timer !== undefined || this.entries.length < CHECKPOINT_FROM || this.#result !== undefined) return;
    const step = (): void => {
      this.#timer = undefined;
      if (this.#building === undefined) {
        const stride = this.#stride;
        // A live stream grew: checkpoints off the new grid go.
        for (const at of this.#checkpoints.keys()) if ((at + 1) % stride !== 0) this.#checkpoints.delete(at);
        let below: number | undefined;
        let any: number | undefined;
        for (let at = stride - 1; at < this.entries.length - 1; at += stride) {
          if (this.#checkpoints.has(at)) continue;
          any = at;
          if (at <= this.#lastTarget) below = at;
        }
        const target = below ?? any;
        if (target === undefined) return;
        this.#building = { reducer: createReducer({ maxErrors: Number.POSITIVE_INFINITY }), at: -1, target };
      }
      const b = this.#building;
      const end = Math.min(b.target, b.at + SLICE);
      for (let i = b.at + 1; i <= end; i++) {
        const e = this.entries[i]!;
        if (e.folded !== undefined) b.reducer.push(e.folded);
        else b.reducer.noteRejected();
      }
      b.at = end;
      if (b.at === b.target) {
        this.#checkpoints.set(b.at, b.reducer);
        this.#building = undefined;
      }
      this.#timer = setImmediate(step);
    };
    this.#timer = setImmediate(step);
  }

  /** Checkpoints parked now (for tests and `make bench`). */
  get parkedCheckpoints(): number {
    return this.#checkpoints.size;
  }

  /** Stops the background work (the server is closing). */
  dispose(): void {
    if (this.#timer !== undefined) clearImmediate(this.#timer);
    this.#timer = undefined;
    this.#checkpoints.clear();
    this.#building = undefined;
  }

  fold(at: number): FoldAnswer {
    const { result, needsResync, errors } = this.foldAt(at);
    return conversationOf(
      result,
      this.#result !== undefined ? -1 : Math.max(-1, Math.min(at, this.entries.length - 1)),
      needsResync,
      errors,
    );
  }

  problems(): ProblemsAnswer {
    const counts = { strict: 0, lenient: 0, fold: 0, record: 0 };
    const items: Problem[] = [];
    let total = 0;
    const add = (index: number, seq: number | null, type: string, issue: EventIssue) => {
      counts[issue.source]++;
      total++;
      if (items.length < PROBLEMS_LISTED) items.push({ index, seq, type, issue });
    };
    for (const i of this.#resultIssues) add(-1, null, "AgReduceResult", i);
    this.entries.forEach((e, index) => {
      for (const issue of e.issues ?? []) add(index, e.row.seq, e.row.type, issue);
    });
    return { counts, total, items };
  }

  /** Known, lenient-valid events: what a bridge receives (§0.2: unknown types are ignored). */
  #known(): (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] {
    const out: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] = [];
    for (const e of this.entries) {
      if (e.folded !== undefined && isKnownEvent(e.folded)) out.push(e.folded);
    }
    return out;
  }

  protocols(): Promise<ProtocolsAnswer> {
    this.#protocols ??= protocolsOf(this.#known()).then((protocols) => ({ protocols }));
    return this.#protocols;
  }

  next(): Promise<NextAnswer> {
    this.#next ??= nextRequests(this.foldAt(this.entries.length - 1).result).then((targets) => ({
      at: this.#result !== undefined ? -1 : this.entries.length - 1,
      targets,
    }));
    return this.#next;
  }
}

/** A Timeline filter: type family, turn, message, tool call, free text, events with problems. */
export interface RowFilter {
  family?: string;
  turn?: string;
  message?: string;
  tool?: string;
  q?: string;
  problems?: boolean;
}

function view(name: string, items: unknown[], verdict?: { ok: boolean; text: string }): ProtocolView {
  return {
    name,
    count: items.length,
    ...(verdict ? { verdict } : {}),
    items: items.slice(0, PROTOCOL_ITEMS).map((i) => shortJson(i, 4000)),
  };
}

function unavailable(name: string, why: string): ProtocolView {
  return { name, count: 0, verdict: { ok: false, text: why }, items: [] };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The stream through each bridge: AG-UI (and `verifyEvents`' verdict), AI SDK UI chunks, ACP session updates. */
async function protocolsOf(events: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[]): Promise<ProtocolView[]> {
  const out: ProtocolView[] = [];
  try {
    const { createAgUiEncoder } = await import("../bridges/ag-ui/index.js");
    const encoder = createAgUiEncoder();
    const agui: AgUiEvent[] = [];
    for (const e of events) agui.push(...encoder.push(e));
    agui.push(...encoder.flush());
    out.push(view("AG-UI events", agui, await verifyAgUi(agui)));
  } catch (err) {
    out.push(
      unavailable(
        "AG-UI events",
        `the AG-UI bridge needs the optional peers @ag-ui/core and zod (npm install @ag-ui/core zod): ${messageOf(err)}`,
      ),
    );
  }
  try {
    const { createUIMessageStreamTransform } = await import("../bridges/ui-message-stream/index.js");
    const t = createUIMessageStreamTransform();
    const chunks: unknown[] = [];
    for (const e of events) chunks.push(...t.push(e));
    chunks.push(...t.end());
    out.push(view("AI SDK UI message chunks", chunks));
  } catch (err) {
    out.push(unavailable("AI SDK UI message chunks", messageOf(err)));
  }
  try {
    const { createAcpUpdateMapper } = await import("../bridges/acp/index.js");
    const mapper = createAcpUpdateMapper();
    const updates: unknown[] = [];
    for (const e of events)
      for (const o of mapper.push(e))
        updates.push(
          o.kind === "update"
            ? { sessionUpdate: o.update }
            : o.kind === "ask"
              ? { permissionRequest: o.ask }
              : { extNotification: o.event },
        );
    out.push(view("ACP session updates", updates));
  } catch (err) {
    out.push(unavailable("ACP session updates", `the ACP bridge needs the optional peer @agentclientprotocol/sdk: ${messageOf(err)}`));
  }
  return out;
}

/** `@ag-ui/client`'s `verifyEvents` over the AG-UI stream: its verdict, or why it could not run. */
async function verifyAgUi(events: AgUiEvent[]): Promise<{ ok: boolean; text: string }> {
  let client: typeof import("@ag-ui/client");
  let rxjs: typeof import("rxjs");
  try {
    // Optional: neither is a dependency of agjson; the page says how to get the verdict.
    client = await import("@ag-ui/client");
    rxjs = await import("rxjs");
  } catch {
    return { ok: false, text: "verifyEvents not run: install @ag-ui/client (and rxjs) beside agjson to check the stream with it" };
  }
  try {
    await rxjs.lastValueFrom(rxjs.from(events).pipe(client.verifyEvents(false), rxjs.toArray()), { defaultValue: [] });
    return { ok: true, text: `@ag-ui/client verifyEvents accepts all ${events.length} events` };
  } catch (err) {
    return { ok: false, text: `@ag-ui/client verifyEvents refuses the stream: ${cut(messageOf(err), 2000)}` };
  }
}

const TARGETS = ["anthropic", "openai-responses", "openai-chat", "gemini"] as const;

/** The fold's messages as each provider's next request, with what re-input dropped or changed (§10). */
async function nextRequests(result: Lenient.AgReduceResult): Promise<NextRequestView[]> {
  const reinput = await import("../reinput/index.js");
  const messages: Lenient.AgMessage[] = [];
  const invalid: NextRequestView["report"] = [];
  result.messages.forEach((m, i) => {
    const v = validateMessage(m, { posture: "lenient" });
    if (v.ok) messages.push(v.message);
    else
      invalid.push({
        action: "dropped",
        reason: "invalid-message",
        where: `message #${i}`,
        detail: v.errors.map((e) => `${e.path || "/"}: ${e.message}`).join("; "),
      });
  });
  return TARGETS.map((target) => {
    try {
      const opts = { onInvalid: "repair" } as const;
      const r =
        target === "anthropic"
          ? reinput.toAnthropic(messages, opts)
          : target === "openai-responses"
            ? reinput.toOpenAIResponses(messages, opts)
            : target === "openai-chat"
              ? reinput.toOpenAIChat(messages, opts)
              : reinput.toGemini(messages, opts);
      const report = r.report.map((e) => ({
        action: e.action,
        reason: e.reason,
        where: `message "${cut(e.messageId, 200)}" (#${e.messageIndex})${e.blockIndex !== undefined ? ` block ${e.blockIndex}${e.blockType ? ` (${e.blockType})` : ""}` : ""}${e.field ? ` ${e.field}` : ""}`,
        detail: cut(e.detail, 2000),
      }));
      return { target, request: prettyJson(r.request), report: [...invalid, ...report] };
    } catch (err) {
      return { target, error: cut(messageOf(err), 2000), report: invalid };
    }
  });
}

/** Records of parsed JSON text, each checked against the parse caps (§13) as the CLI checks it. */
export function recordOfText(text: string): InspectRecord {
  const parsed = parseCapped(text, { maxBytes: DEFAULT_PARSE_CAPS.maxBytes, maxDepth: DEFAULT_PARSE_CAPS.maxDepth });
  if (!parsed.ok) return { error: parsed.errors.map((e) => e.message).join("; "), text: cut(text, 100_000) };
  return { value: parsed.value, text };
}
