/**
 * LangGraph facet (`@langchain/langgraph` 1.x `graph.stream(input, { streamMode: [...], subgraphs })`).
 * A native chunk is `[namespace[], mode, payload]` (with `subgraphs: true`) or `[mode, payload]`;
 * values are JSON-serialized (LangChain messages in their `{lc, type, id, kwargs}` form). The
 * seven modes map per §12: `values` → `state.snapshot`, `updates` → `state.delta` (node-keyed),
 * `messages` → text / tool deltas with index-keyed `tool_call_chunks` re-keyed to ids (§8 item 5,
 * §10 item 10), `custom` → `ext.langgraph.custom`, `checkpoints` / `tasks` / `debug` →
 * `ext.langgraph.checkpoint` / `task` / `debug` (a task error also as the non-terminal `error`).
 * `interrupt()`s become `hitl.ask`s folded into a paused close (§7 Resume binding, §8 item 6,
 * §10 item 11). A subgraph's namespace runs as a nested turn (`subagent.start`).
 */
import type { AgPausedAsk, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { interruptOrdinal } from "./langgraph-interrupt-id.js";
import { LANGGRAPH_INTERRUPT_ID_KEY, langGraphAskId } from "./langgraph-resume.js";
import { arr, isObject, num, obj, str, type JsonObject } from "../util.js";

const EXT_KEYS: Readonly<Record<string, string>> = { checkpoints: "checkpoint", tasks: "task", debug: "debug", custom: "custom" };

/** A LangChain message as streamed: its class name and fields (`kwargs` of the `lc` form). */
interface LcMessage {
  kind: string;
  fields: JsonObject;
}

/** Reads a serialized LangChain message (`{lc, type:"constructor", id:[…, Class], kwargs}`) or a plain one. */
export function readLcMessage(x: unknown): LcMessage | undefined {
  if (!isObject(x)) return undefined;
  const ids = arr(x, "id");
  const kwargs = obj(x, "kwargs");
  if (x.lc !== undefined && kwargs && ids) return { kind: String(ids[ids.length - 1] ?? ""), fields: kwargs };
  const type = str(x, "type") ?? str(x, "role");
  if (type === undefined) return undefined;
  const kind =
    type === "ai" || type === "assistant"
      ? "AIMessage"
      : type === "tool"
        ? "ToolMessage"
        : type === "human" || type === "user"
          ? "HumanMessage"
          : type;
  return { kind, fields: x };
}

/** LangChain `usage_metadata` (additive per chunk, as LangChain's own concat sums it) → AgUsage. */
function addUsage(into: AgUsage, u: JsonObject): void {
  const add = (
    k: "inputTokens" | "outputTokens" | "totalTokens" | "cacheReadTokens" | "cacheWriteTokens" | "reasoningTokens",
    v: number | undefined,
  ) => {
    if (v !== undefined) into[k] = (into[k] ?? 0) + v;
  };
  add("inputTokens", num(u, "input_tokens"));
  add("outputTokens", num(u, "output_tokens"));
  add("totalTokens", num(u, "total_tokens"));
  add("cacheReadTokens", num(obj(u, "input_token_details"), "cache_read"));
  add("cacheWriteTokens", num(obj(u, "input_token_details"), "cache_creation"));
  add("reasoningTokens", num(obj(u, "output_token_details"), "reasoning"));
}

interface StreamedMessage {
  key: string;
  messageId: string;
  turnId: string;
  texts: Map<string, string>;
  reasoning: Map<string, string>;
  /** tool_call_chunks index → the call's id once known (§8 item 5). */
  tools: Map<string, string>;
  /** Fragments of a call whose id has not arrived yet, keyed by index. */
  waiting: Map<string, { name?: string; args: string }>;
  usage?: AgUsage;
  stopReason?: string;
}

interface PendingInterrupt {
  id: string;
  value: unknown;
  taskId?: string;
  responseSchema?: unknown;
}

/** Normalizer for LangGraph's multi-mode `stream()` chunks. */
export class LangGraphFacet extends ProviderFacet {
  private rootTurn: string | undefined;
  /** Subgraph namespace (joined) → its nested turn. */
  private subTurns = new Map<string, string>();
  private current: StreamedMessage | undefined;
  /** Interrupts raised in this invoke, by interrupt id, in encounter order. */
  private interrupts = new Map<string, PendingInterrupt>();
  /** Interrupt id → task id, from `tasks` / `checkpoints` frames. */
  private interruptTask = new Map<string, string>();
  /** Task id → interrupts a resumed checkpoint shows it already raised (answered by this resume). */
  private answered = new Map<string, string[]>();
  /** Task id → its checkpoint namespace (`<parent ns>|<name>:<id>`), which LangGraph derives interrupt ids from. */
  private taskNamespace = new Map<string, string>();
  private sawContent = false;
  /** The root graph reported nothing left to run (a checkpoint with an empty `next`). */
  private ended = false;
  /** The stream carries `checkpoints` / `debug` frames, so the run's end would show as a root checkpoint. */
  private endIsSignalled = false;
  /** Tasks whose start a `tasks` frame announced and whose result has not come. */
  private runningTasks = new Set<string>();
  private failed = false;
  /** The first task the graph reported failed (`tasks` / `debug` task_result with `error`): how the run ended, if nothing else says so. */
  private taskFailure: { name?: string; message: string } | undefined;
  /** Tasks whose failure was already reported as an `error` (a `tasks` and a `debug` frame report the same one). */
  private failedTasks = new Set<string>();

  constructor(opts: NormalizerOptions = {}) {
    super("langgraph", opts);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (isObject(chunk) && str(chunk, "type") === "__host_error__") return this.onHostError(chunk);
    if (!Array.isArray(chunk) || chunk.length < 2) {
      e.unparsed(chunk, "not a LangGraph stream chunk ([namespace, mode, payload] or [mode, payload])");
      return;
    }
    const [nsRaw, mode, payload] = chunk.length >= 3 ? chunk : [[], chunk[0], chunk[1]];
    const namespace = Array.isArray(nsRaw) ? nsRaw.filter((x): x is string => typeof x === "string") : [];
    if (typeof mode !== "string") {
      e.unparsed(chunk, "stream mode is not a string");
      return;
    }
    switch (mode) {
      case "messages":
        return this.onMessages(namespace, payload);
      case "values":
        return this.onState(namespace, mode, payload);
      case "updates":
        return this.onState(namespace, mode, payload);
      case "checkpoints":
      case "tasks":
      case "debug":
      case "custom":
        return this.onLive(namespace, mode, payload);
      default:
        e.unparsed(chunk, `unknown stream mode '${mode}'`);
    }
  }

  /** The turn a namespace's events land in: the root turn, or a subgraph's nested turn. */
  private enter(namespace: string[]): string {
    const e = this.engine;
    this.rootTurn ??= e.ensureTurn("turn_langgraph");
    let parent = this.rootTurn;
    for (let depth = 1; depth <= namespace.length; depth++) {
      const key = namespace.slice(0, depth).join("|");
      let turnId = this.subTurns.get(key);
      if (turnId === undefined || !e.isTurnOpen(turnId)) {
        e.focusTurn(parent);
        const node = namespace[depth - 1]!.split(":")[0]!;
        turnId = e.openSubagent({ turnId: `${parent}:${namespace[depth - 1]}`, parentTurnId: parent, agentName: node });
        this.subTurns.set(key, turnId);
      }
      parent = turnId;
    }
    // Content of a shallower namespace means every deeper subgraph run has returned.
    const prefix = namespace.join("|");
    for (const [key, turnId] of [...this.subTurns].reverse()) {
      if (key.length > prefix.length && key.startsWith(prefix) && e.isTurnOpen(turnId)) this.closeSubgraph(key, turnId);
    }
    e.focusTurn(parent);
    return parent;
  }

  /** A subgraph that returned: its one terminal, then `subagent.done`, the return notice (D10). */
  private closeSubgraph(key: string, turnId: string): void {
    const e = this.engine;
    if (this.current?.turnId === turnId) this.closeMessage();
    e.focusTurn(turnId);
    e.finishTurn({ finishReason: "stop" });
    const parentKey = key.split("|").slice(0, -1).join("|");
    const parent = parentKey === "" ? this.rootTurn! : (this.subTurns.get(parentKey) ?? this.rootTurn!);
    e.emit({ type: "subagent.done", turnId, parentTurnId: parent });
  }

  // ── messages ──────────────────────────────────────────────────────────────────────────

  private onMessages(namespace: string[], payload: unknown): void {
    const e = this.engine;
    const pair = Array.isArray(payload) ? payload : [payload];
    const message = readLcMessage(pair[0]);
    const metadata = isObject(pair[1]) ? pair[1] : undefined;
    if (!message) {
      e.unparsed(payload, "messages-mode payload without a LangChain message");
      return;
    }
    const turnId = this.enter(namespace);
    this.sawContent = true;
    const f = message.fields;
    if (message.kind.startsWith("ToolMessage")) {
      this.closeMessage();
      return this.onToolMessage(f);
    }
    if (!message.kind.startsWith("AIMessage")) {
      e.ext("message", { namespace, message: pair[0] ?? null });
      return;
    }
    const key = `${namespace.join("|")}\u0000${str(f, "id") ?? ""}`;
    let m = this.current;
    if (!m || m.key !== key || str(f, "id") === undefined) {
      this.closeMessage();
      const id = str(f, "id");
      const model = str(obj(f, "additional_kwargs"), "model") ?? str(obj(f, "response_metadata"), "model_name");
      const messageId = e.openMessage({
        ...(id !== undefined ? { id } : {}),
        role: "assistant",
        ...(model !== undefined ? { model } : {}),
      });
      m = { key, messageId, turnId, texts: new Map(), reasoning: new Map(), tools: new Map(), waiting: new Map() };
      this.current = m;
      const meta = metadata ? pickLangGraphMeta(metadata) : undefined;
      if (meta) e.messageMetadata({ langgraph: meta });
    }
    this.onAiChunk(m, f);
    if (message.kind === "AIMessage") this.closeMessage();
  }

  private onAiChunk(m: StreamedMessage, f: JsonObject): void {
    const e = this.engine;
    const content = f.content;
    if (typeof content === "string") this.text(m, "s", content);
    for (const part of Array.isArray(content) ? content : []) {
      if (typeof part === "string") {
        this.text(m, "s", part);
        continue;
      }
      const index = String(num(part, "index") ?? "s");
      const type = str(part, "type");
      if (type === "text" || type === "text_delta") this.text(m, index, str(part, "text") ?? "");
      else if (type === "thinking" || type === "reasoning") {
        const id = m.reasoning.get(index) ?? e.reasoningStart();
        m.reasoning.set(index, id);
        e.reasoningDelta(id, str(part, "thinking") ?? str(part, "reasoning") ?? "");
        const signature = str(part, "signature");
        if (signature !== undefined && signature !== "") e.reasoningOpaque(id, "signature", signature);
      }
      // tool_use / input_json_delta parts repeat tool_call_chunks, the provider-neutral carrier.
      else if (type !== "tool_use" && type !== "input_json_delta" && type !== "tool_call_chunk" && type !== "server_tool_use") {
        e.unparsed(part, `content part '${type ?? "?"}' with no AgJSON mapping`);
      }
    }
    for (const tc of arr(f, "tool_call_chunks") ?? []) this.toolChunk(m, tc);
    const usage = obj(f, "usage_metadata");
    if (usage) addUsage((m.usage ??= {}), usage);
    const stop =
      str(obj(f, "additional_kwargs"), "stop_reason") ??
      str(obj(f, "response_metadata"), "stop_reason") ??
      str(obj(f, "response_metadata"), "finish_reason");
    if (stop !== undefined) m.stopReason = stop;
  }

  private text(m: StreamedMessage, index: string, delta: string): void {
    const e = this.engine;
    let id = m.texts.get(index);
    if (id === undefined) {
      if (delta === "") return;
      id = e.textStart();
      m.texts.set(index, id);
    }
    e.textDelta(id, delta);
  }

  /**
   * One index-keyed `tool_call_chunk`: the first chunk of a call names its id; later ones carry
   * only `index`. Fragments that arrive before the id wait, so `tool.start` fires once with the
   * stable id and every `tool.args.delta` is keyed by it (§8 item 5, §10 item 10).
   */
  private toolChunk(m: StreamedMessage, tc: unknown): void {
    const e = this.engine;
    if (!isObject(tc)) return;
    const index = String(num(tc, "index") ?? m.tools.size + m.waiting.size);
    const id = str(tc, "id");
    const name = str(tc, "name");
    const args = str(tc, "args") ?? "";
    const known = m.tools.get(index);
    if (known !== undefined) {
      e.toolArgsDelta(known, args);
      return;
    }
    const waiting = m.waiting.get(index) ?? { args: "" };
    if (name !== undefined) waiting.name = name;
    waiting.args += args;
    if (id === undefined || id === "") {
      m.waiting.set(index, waiting);
      return;
    }
    m.waiting.delete(index);
    this.startTool(m, index, id, waiting);
  }

  private startTool(m: StreamedMessage, index: string, id: string | undefined, w: { name?: string; args: string }): void {
    const e = this.engine;
    const toolCallId = e.toolStart({ ...(id !== undefined ? { toolCallId: id } : {}), name: w.name ?? "" });
    m.tools.set(index, toolCallId);
    e.toolArgsDelta(toolCallId, w.args);
  }

  /** Seals the streamed message; a call whose id never came gets a derived one (§8 item 2). */
  private closeMessage(): void {
    const m = this.current;
    if (!m) return;
    this.current = undefined;
    const e = this.engine;
    e.focusTurn(m.turnId);
    for (const [index, w] of m.waiting) this.startTool(m, index, undefined, w);
    if (m.stopReason !== undefined) e.messageMetadata({ langgraph: { stop_reason: m.stopReason } });
    e.closeMessage(m.messageId, m.usage);
  }

  private onToolMessage(f: JsonObject): void {
    const e = this.engine;
    const toolCallId = str(f, "tool_call_id");
    if (toolCallId === undefined) {
      e.unparsed(f, "ToolMessage without tool_call_id");
      return;
    }
    const id = str(f, "id");
    const messageId = e.openMessage({ ...(id !== undefined ? { id } : {}), role: "tool" });
    const raw = f.content;
    const content =
      typeof raw === "string"
        ? [{ type: "text" as const, text: raw }]
        : (Array.isArray(raw) ? raw : []).map((p) =>
            isObject(p) && str(p, "type") === "text"
              ? { type: "text" as const, text: str(p, "text") ?? "" }
              : { type: "data" as const, name: str(p, "type") ?? "part", data: p ?? null },
          );
    const artifact = f.artifact;
    const extra = artifact !== undefined && artifact !== null ? { sideData: artifact } : {};
    if (str(f, "status") === "error") {
      const text = content.map((b) => (b.type === "text" ? b.text : "")).join("");
      e.toolDone({ toolCallId, content, outcome: "error", isError: true, errorText: text || "tool error", ...extra });
    } else e.toolDone({ toolCallId, content, outcome: "ok", ...extra });
    e.closeMessage(messageId);
  }

  // ── state and live modes ─────────────────────────────────────────────────────────────────

  private onState(namespace: string[], mode: "values" | "updates", payload: unknown): void {
    const e = this.engine;
    if (isObject(payload) && Array.isArray(payload.__interrupt__)) {
      this.enter(namespace);
      for (const it of payload.__interrupt__) this.noteInterrupt(it);
      const rest = Object.fromEntries(Object.entries(payload).filter(([k]) => k !== "__interrupt__"));
      if (Object.keys(rest).length === 0) return;
      payload = rest;
    }
    // A node's update ends the message it streamed; the next node's messages are new.
    if (mode === "updates" && this.current?.turnId === this.enterTurnOf(namespace)) this.closeMessage();
    this.enter(namespace);
    if (namespace.length > 0) {
      // A subgraph's state is its own; folding it into the thread's one shared state (§5 state
      // rows) would clobber the parent's, so it rides live beside its nested turn.
      e.ext("subgraph", { namespace, mode, payload: payload ?? null });
      return;
    }
    if (mode === "values") e.emit({ type: "state.snapshot", snapshot: payload ?? null });
    else e.emit({ type: "state.delta", patch: payload ?? null });
  }

  private enterTurnOf(namespace: string[]): string | undefined {
    return namespace.length === 0 ? this.rootTurn : this.subTurns.get(namespace.join("|"));
  }

  private onLive(namespace: string[], mode: string, payload: unknown): void {
    const e = this.engine;
    const body: JsonObject = isObject(payload) ? { ...payload } : { value: payload ?? null };
    if (namespace.length > 0) body.namespace = namespace;
    if (mode === "checkpoints" || mode === "debug") this.endIsSignalled = true;
    if (mode === "tasks" && isObject(payload)) this.onTask(payload, namespace);
    if (mode === "checkpoints" && isObject(payload)) this.onCheckpoint(payload, namespace);
    if (mode === "debug" && str(payload, "type") === "checkpoint" && isObject(obj(payload, "payload")))
      this.onCheckpoint(obj(payload, "payload")!, namespace);
    e.ext(EXT_KEYS[mode]!, body);
    const result =
      mode === "tasks" ? payload : mode === "debug" && str(payload, "type") === "task_result" ? obj(payload, "payload") : undefined;
    if (isObject(result) && result.error !== undefined && result.error !== null) this.onTaskError(result);
  }

  /**
   * A task the graph reports failed: the non-terminal `error` now, once per task; and the run's
   * outcome if the stream then ends with no other word (no thrown terminal fed by the host, no
   * root checkpoint with nothing left to run): the graph said why it stopped, so the turn ends
   * `turn.error` with the task's error, not as a cut stream (§4 turn.error, INV-TURN, INV-FLUSH).
   */
  private onTaskError(task: JsonObject): void {
    const err = task.error;
    // An Error serialized by a JSON pipeline is `{name, message}` (native-json adds `$error`); Python's is a string.
    const name = isObject(err) ? (str(err, "name") ?? str(err, "$error")) : undefined;
    const message = isObject(err) ? (str(err, "message") ?? JSON.stringify(err)) : String(err);
    this.taskFailure ??= { ...(name !== undefined ? { name } : {}), message };
    const taskId = str(task, "id");
    if (taskId !== undefined) {
      this.runningTasks.delete(taskId);
      if (this.failedTasks.has(taskId)) return;
      this.failedTasks.add(taskId);
    }
    this.engine.warn("task_error", `Task '${str(task, "name") ?? "?"}' failed: ${message}`);
  }

  private noteTaskNamespace(task: unknown, namespace: string[]): void {
    const taskId = str(task, "id");
    const name = str(task, "name");
    if (taskId !== undefined && name !== undefined) this.taskNamespace.set(taskId, [...namespace, `${name}:${taskId}`].join("|"));
  }

  private onTask(task: JsonObject, namespace: string[]): void {
    this.noteTaskNamespace(task, namespace);
    const taskId = str(task, "id");
    if (taskId !== undefined) {
      // A start frame carries `input`; a result frame `result` / `error`.
      if ("result" in task || "error" in task) this.runningTasks.delete(taskId);
      else this.runningTasks.add(taskId);
    }
    for (const it of arr(task, "interrupts") ?? []) {
      const id = str(it, "id");
      if (id !== undefined && taskId !== undefined) this.interruptTask.set(id, taskId);
      this.noteInterrupt(it);
    }
  }

  /**
   * The checkpoint a resumed run starts from lists the interrupts each task raised before the
   * pause; the resume answers them, so a task's next interrupt continues its positional count.
   */
  private onCheckpoint(cp: JsonObject, namespace: string[]): void {
    // The root graph's checkpoint with nothing left to run is its own end-of-run signal.
    if (namespace.length === 0 && Array.isArray(cp.next)) this.ended = cp.next.length === 0;
    for (const task of arr(cp, "tasks") ?? []) this.noteTaskNamespace(task, namespace);
    if (this.sawContent) return;
    for (const task of arr(cp, "tasks") ?? []) {
      const taskId = str(task, "id");
      const ids = (arr(task, "interrupts") ?? []).map((it) => str(it, "id")).filter((x): x is string => x !== undefined);
      if (taskId !== undefined && ids.length > 0 && !this.interrupts.size) this.answered.set(taskId, ids);
    }
  }

  private noteInterrupt(it: unknown): void {
    const id = str(it, "id");
    if (id === undefined || !isObject(it)) return;
    const known = this.interrupts.get(id);
    const taskId = this.interruptTask.get(id) ?? known?.taskId;
    if (known) {
      if (taskId !== undefined) known.taskId = taskId;
      return;
    }
    this.interrupts.set(id, {
      id,
      value: it.value ?? null,
      ...(taskId !== undefined ? { taskId } : {}),
      ...(it.response_schema !== undefined ? { responseSchema: it.response_schema } : {}),
    });
  }

  /**
   * The asks of the pause (§7): one pending interrupt resumes with a scalar, bound by position
   * (`ordinal` = its encounter index within its task); several pending at once resume with an
   * id-keyed map (`resumeBinding: "id"`). A resumed run's stream lists only the interrupt the resume
   * answers, not the ones before it, so the index is read off the id where LangGraph derived it
   * from the count of resume values the task consumed (langgraph-interrupt-id.ts); where repeats
   * share one id (LangGraph releases deriving it from the namespace alone), the answered interrupts
   * the resumed checkpoint lists are counted instead (§8 item 6, §10 item 11).
   */
  private asks(): AgPausedAsk[] {
    const pending = [...this.interrupts.values()];
    const binding = pending.length > 1 ? "id" : "positional";
    const perTask = new Map<string, number>();
    return pending.map((p) => {
      const task = p.taskId ?? "";
      const answered = p.taskId !== undefined ? (this.answered.get(p.taskId) ?? []) : [];
      const shared = answered.includes(p.id);
      const counted = answered.length + (perTask.get(task) ?? 0);
      perTask.set(task, (perTask.get(task) ?? 0) + 1);
      const ns = p.taskId !== undefined ? this.taskNamespace.get(p.taskId) : undefined;
      const ordinal = binding === "positional" && !shared && ns !== undefined ? (interruptOrdinal(ns, p.id) ?? counted) : counted;
      // D14: a positional ask's askId is made of the interrupt id and its ordinal, so repeats sharing
      // one id stay distinct and the same pair always names the same ask; an id-bound ask keeps the
      // id, its map key (§7). The LangGraph id rides the ask's metadata either way.
      const ask: AgPausedAsk = {
        askId: binding === "positional" ? langGraphAskId(p.id, ordinal) : p.id,
        kind: "text",
        resumeBinding: binding,
      };
      if (binding === "positional") ask.ordinal = ordinal;
      const v = p.value;
      const metadata: Record<string, unknown> = {};
      if (typeof v === "string") {
        ask.message = v;
        ask.reason = v;
      } else if (isObject(v)) {
        const question = str(v, "question") ?? str(v, "message");
        if (question !== undefined) ask.message = question;
        // A dict holding the id's own key rides whole under `value`, so neither is lost (§0.2).
        if (Object.hasOwn(v, LANGGRAPH_INTERRUPT_ID_KEY)) metadata.value = v;
        else Object.assign(metadata, v);
      } else if (v !== null) metadata.value = v;
      metadata[LANGGRAPH_INTERRUPT_ID_KEY] = p.id;
      ask.metadata = metadata;
      if (p.responseSchema !== undefined) {
        ask.kind = "form";
        ask.schema = p.responseSchema;
      }
      return ask;
    });
  }

  private onHostError(chunk: JsonObject): void {
    const name = str(chunk, "name");
    this.fail(name, str(chunk, "message") ?? name ?? "graph error");
  }

  /** Ends the run failed: `turn.error` with the error's name as its code (recursion limit: `recursion_limit`). */
  private fail(name: string | undefined, message: string): void {
    this.closeMessage();
    // A subgraph still running when the graph failed never returned: turn.abort, innermost first,
    // and no subagent.done (D10).
    for (const turnId of [...this.subTurns.values()].reverse()) {
      if (!this.engine.isTurnOpen(turnId)) continue;
      this.engine.focusTurn(turnId);
      this.engine.abortTurn("parent-ended");
    }
    if (this.rootTurn !== undefined) this.engine.focusTurn(this.rootTurn);
    const isRecursion = name === "GraphRecursionError";
    this.engine.failTurn({ message, code: isRecursion ? "recursion_limit" : (name ?? "error") });
    this.failed = true;
  }

  /**
   * LangGraph's end-of-run signals: interrupts (the run parks: a pause carrying every ask), or a
   * root checkpoint with nothing left to run (`checkpoints` / `debug` modes: success). A thrown run
   * is fed as `__host_error__` (§8.0 host obligation 1). A stream carrying `checkpoints` / `debug`
   * that ends without that checkpoint was cut, and is left to INV-FLUSH (`turn.abort`). A stream
   * without those modes has no end frame to wait for: its end, after a host that feeds every thrown
   * terminal (§8.0 host obligations 1 and 3), is the run's end — unless it visibly stops mid-run (a
   * message streaming with no stop reason yet, or a task started with no result), which INV-FLUSH
   * closes as a cut (docs/spec-decisions.md D9). A stream whose graph reported a failed task and
   * then ended without finishing ends `turn.error` with that task's error: the graph said why it
   * stopped, so it is not a cut (INV-TURN: a flush closes with `turn.error` carrying the cause).
   */
  protected override settleBeforeFlush(): void {
    const e = this.engine;
    if (this.failed || this.rootTurn === undefined || !e.isTurnOpen(this.rootTurn)) return;
    if (this.taskFailure !== undefined && !this.ended) return this.fail(this.taskFailure.name, this.taskFailure.message);
    const cutMidRun = (this.current !== undefined && this.current.stopReason === undefined) || this.runningTasks.size > 0;
    this.closeMessage();
    const asks = this.asks();
    const completed = this.ended || (!this.endIsSignalled && !cutMidRun);
    if (asks.length === 0 && !completed) return;
    for (const [key, turnId] of [...this.subTurns].reverse()) if (e.isTurnOpen(turnId)) this.closeSubgraph(key, turnId);
    e.focusTurn(this.rootTurn);
    for (const ask of asks) e.emit({ type: "hitl.ask", ...ask, continuation: "resume" });
    if (asks.length > 0) e.finishTurn({ finishReason: "paused", outcome: { type: "paused", asks } });
    else e.finishTurn({ finishReason: "stop" });
  }
}

/** The LangGraph routing fields of a messages-mode metadata bag (node, step, namespace). */
function pickLangGraphMeta(m: JsonObject): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(m)) if (k.startsWith("langgraph_") || k === "ls_model_name" || k === "ls_provider") out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}
