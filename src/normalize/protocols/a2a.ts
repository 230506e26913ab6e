/**
 * A2A facet (`@a2a-js/sdk` 1.3, A2A protocol 1.0): the events of a `message/stream` response — Task,
 * Message, TaskStatusUpdateEvent, TaskArtifactUpdateEvent. Two input shapes, both accepted:
 * - the protocol JSON as it travels (`{"jsonrpc","id","result":{"task"|"message"|"statusUpdate"|
 *   "artifactUpdate":{…}}}`, or the bare `result`): enums as strings, parts as `{text}` / `{data}` / `{url}`;
 * - the SDK client's objects JSON-serialized (`{"payload":{"$case","value"}}`): enums as numbers,
 *   parts as `{content:{$case,value}}`.
 * One stream is one turn. The first Task's history is a `messages.snapshot` and its artifacts are
 * seeded once (§8 item 11); artifact updates stream into the fold's artifacts, `append:false`
 * replacing the same `artifactId` (§10 item 16) through a `messages.snapshot` that carries the
 * artifacts container (§5: the one fold primitive that replaces an artifact; spec-decisions D13);
 * task states close the turn.
 */
import type { AgBlock, AgEvent, AgMessage, AgPausedAsk } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import { createReducer, type AgReducer } from "../../reduce/index.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, json, obj, str, type JsonObject } from "../util.js";

/** Protocol enum numbers (SDK objects) → the protocol's JSON names. */
const STATES = [
  "TASK_STATE_UNSPECIFIED",
  "TASK_STATE_SUBMITTED",
  "TASK_STATE_WORKING",
  "TASK_STATE_COMPLETED",
  "TASK_STATE_FAILED",
  "TASK_STATE_CANCELED",
  "TASK_STATE_INPUT_REQUIRED",
  "TASK_STATE_REJECTED",
  "TASK_STATE_AUTH_REQUIRED",
];
const ROLES = ["ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"];

type Kind = "task" | "message" | "statusUpdate" | "artifactUpdate";
const KINDS = new Set<string>(["task", "message", "statusUpdate", "artifactUpdate"]);

function isKind(k: string | undefined): k is Kind {
  return k !== undefined && KINDS.has(k);
}

/** The one event of a chunk in either shape, or undefined. */
function unwrap(chunk: JsonObject): { kind: Kind; value: JsonObject } | undefined {
  const payload = obj(chunk, "payload");
  const $case = str(payload, "$case");
  if (isKind($case)) return { kind: $case, value: obj(payload, "value") ?? {} };
  const body = obj(chunk, "result") ?? chunk;
  for (const k of Object.keys(body)) if (isKind(k) && isObject(body[k])) return { kind: k, value: obj(body, k)! };
  return undefined;
}

function stateName(x: unknown): string {
  if (typeof x === "number") return STATES[x] ?? `TASK_STATE_${x}`;
  return typeof x === "string"
    ? x.startsWith("TASK_STATE_")
      ? x
      : `TASK_STATE_${x.toUpperCase().replace(/-/g, "_")}`
    : "TASK_STATE_UNSPECIFIED";
}

function roleOf(x: unknown): "user" | "assistant" {
  const name = typeof x === "number" ? ROLES[x] : String(x ?? "");
  return name === "ROLE_USER" || name === "user" ? "user" : "assistant";
}

/** An A2A Part (either shape) → an AgBlock. */
function partBlock(p: unknown): AgBlock {
  const content = obj(p, "content");
  const $case = str(content, "$case");
  const text = $case === "text" ? str(content, "value") : str(p, "text");
  if (text !== undefined) return { type: "text", text };
  const data = $case === "data" ? content?.value : isObject(p) ? p.data : undefined;
  if (data !== undefined) return { type: "data", name: "data", data: json(data) };
  const url = $case === "url" ? str(content, "value") : str(p, "url");
  const mediaType = str(p, "mediaType");
  const filename = str(p, "filename");
  if (url !== undefined)
    return { type: "file", source: { type: "url", url, ...(mediaType ? { mediaType } : {}) }, ...(filename ? { filename } : {}) };
  const raw = $case === "raw" ? str(content, "value") : str(p, "raw");
  if (raw !== undefined)
    return {
      type: "file",
      source: { type: "base64", mediaType: mediaType || "application/octet-stream", data: raw },
      ...(filename ? { filename } : {}),
    };
  return { type: "data", name: "part", data: json(p) };
}

/** Normalizer for A2A streaming responses. */
export class A2aFacet extends ProviderFacet {
  private readonly threadId: string;
  private seededTask = false;
  private readonly artifacts = new Set<string>();
  private readonly openArtifacts = new Set<string>();
  private readonly seenMessages = new Set<string>();
  /**
   * What this facet emitted, so a replacing artifact update can re-state the working set it does
   * not change (D13): kept as events until the first replace, folded from then on (a stream that
   * never replaces an artifact never pays for a fold).
   */
  private emitted: AgEvent[] | undefined = [];
  private fold: AgReducer | undefined;
  /** Events of the chunk in hand drained early (before a snapshot), returned ahead of the rest. */
  private early: AgEvent[] = [];

  constructor(opts: NormalizerOptions = {}) {
    super("a2a", opts);
    this.threadId = opts.threadId ?? "thread";
  }

  override push(native: unknown): AgEvent[] {
    this.early = [];
    const rest = super.push(native);
    this.remember(rest);
    const out = this.early.length > 0 ? [...this.early, ...rest] : rest;
    this.early = [];
    return out;
  }

  private remember(events: AgEvent[]): void {
    if (this.fold !== undefined) for (const ev of events) this.fold.push(ev);
    else for (const ev of events) this.emitted!.push(ev);
  }

  /** The fold of everything emitted so far, the engine's pending events included (kept for this chunk's output). */
  private currentFold(): AgReducer {
    const pending = this.engine.drain();
    this.remember(pending);
    this.early.push(...pending);
    if (this.fold === undefined) {
      this.fold = createReducer();
      for (const ev of this.emitted!) this.fold.push(ev);
      this.emitted = undefined;
    }
    return this.fold;
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) return e.unparsed(chunk, "not an A2A stream event");
    const rpcError = obj(chunk, "error");
    if (rpcError && chunk.jsonrpc !== undefined) {
      e.failTurn({ message: str(rpcError, "message") ?? "JSON-RPC error", code: `jsonrpc_${String(rpcError.code ?? "error")}` });
      return;
    }
    const ev = unwrap(chunk);
    if (!ev) return e.unparsed(chunk, "no task, message, statusUpdate or artifactUpdate in this A2A event");
    switch (ev.kind) {
      case "task":
        return this.onTask(ev.value);
      case "message":
        this.turn(str(ev.value, "taskId") || str(ev.value, "contextId"));
        this.agentMessage(ev.value);
        e.endResponse({ finishReason: "stop" });
        return;
      case "statusUpdate":
        this.turn(str(ev.value, "taskId"));
        return this.onStatus(obj(ev.value, "status"), ev.value);
      case "artifactUpdate":
        this.turn(str(ev.value, "taskId"));
        return this.onArtifact(obj(ev.value, "artifact") ?? {}, ev.value.append === true, ev.value.lastChunk === true);
    }
  }

  private turn(taskId: string | undefined): string {
    return this.engine.ensureTurn(taskId ? `task_${taskId}` : undefined);
  }

  private onTask(task: JsonObject): void {
    const e = this.engine;
    const turnId = this.turn(str(task, "id"));
    if (!this.seededTask) {
      // §8 item 11: the first Task's history is a snapshot and its artifacts are seeded once.
      this.seededTask = true;
      const messages: AgMessage[] = (arr(task, "history") ?? []).filter(isObject).map((m, i) => this.toAgMessage(m, turnId, i));
      e.emit({ type: "messages.snapshot", messages, turnId });
      for (const m of messages) this.seenMessages.add(m.id);
      for (const a of arr(task, "artifacts") ?? []) if (isObject(a)) this.onArtifact(a, false, false);
    }
    const meta = obj(task, "metadata");
    if (meta) e.ext("task-metadata", { taskId: str(task, "id") ?? null, metadata: meta });
    this.onStatus(obj(task, "status"), task);
  }

  private toAgMessage(m: JsonObject, turnId: string, i: number): AgMessage {
    const msg: AgMessage = {
      id: str(m, "messageId") || `${turnId}:history:${i}`,
      role: roleOf(m.role),
      content: (arr(m, "parts") ?? []).map(partBlock),
      turnId,
      threadId: this.threadId,
    };
    const metadata = obj(m, "metadata");
    if (metadata) msg.metadata = metadata;
    const ext = arr(m, "extensions");
    if (ext && ext.length > 0) msg.extensions = ext.filter((x): x is string => typeof x === "string");
    return msg;
  }

  /** An agent message (a status message or a direct answer) as one whole message. */
  private agentMessage(m: JsonObject): string | undefined {
    const e = this.engine;
    const id = str(m, "messageId");
    if (id !== undefined && this.seenMessages.has(id)) return undefined;
    if (id !== undefined) this.seenMessages.add(id);
    const messageId = e.openMessage({ ...(id ? { id } : {}), role: roleOf(m.role) });
    const metadata = obj(m, "metadata");
    const ext = arr(m, "extensions");
    // §10 item 13: A2A metadata rides the message verbatim under its flat key.
    if (metadata || (ext && ext.length > 0))
      e.messageMetadata({ ...(metadata ? { metadata } : {}), ...(ext && ext.length > 0 ? { extensions: ext } : {}) });
    for (const p of arr(m, "parts") ?? []) {
      const block = partBlock(p);
      if (block.type === "text") {
        const t = e.textStart({});
        e.textDelta(t, block.text);
        e.textEnd(t);
      } else e.contentBlock(block);
    }
    e.closeMessage(messageId);
    return messageId;
  }

  private onStatus(status: JsonObject | undefined, holder: JsonObject): void {
    const e = this.engine;
    if (!status) return;
    const message = obj(status, "message");
    const text = (arr(message, "parts") ?? [])
      .map(partBlock)
      .map((b) => (b.type === "text" ? b.text : ""))
      .join("");
    const state = stateName(status.state);
    const meta = obj(holder, "metadata");
    if (meta && holder.taskId !== undefined) e.ext("status-metadata", { taskId: str(holder, "taskId") ?? null, metadata: meta });
    switch (state) {
      case "TASK_STATE_FAILED":
        if (message) this.agentMessage(message);
        this.closeArtifacts();
        e.failTurn({ message: text || "task failed", code: "task_failed" });
        return;
      case "TASK_STATE_CANCELED":
      case "TASK_STATE_REJECTED":
        if (message) this.agentMessage(message);
        this.closeArtifacts();
        e.abortTurn(state === "TASK_STATE_CANCELED" ? "canceled" : "rejected");
        return;
      case "TASK_STATE_INPUT_REQUIRED":
      case "TASK_STATE_AUTH_REQUIRED": {
        if (message) this.agentMessage(message);
        const ask: AgPausedAsk = {
          askId: `${str(holder, "taskId") ?? str(holder, "id") ?? "task"}:${state === "TASK_STATE_AUTH_REQUIRED" ? "auth" : "input"}`,
          kind: state === "TASK_STATE_AUTH_REQUIRED" ? "auth" : "text",
          ...(text ? { message: text } : {}),
        };
        e.emit({ type: "hitl.ask", ...ask, turnId: e.ensureTurn() });
        e.endResponse({ finishReason: "paused", outcome: { type: "paused", asks: [ask] } });
        return;
      }
      case "TASK_STATE_COMPLETED":
        if (message) this.agentMessage(message);
        this.closeArtifacts();
        e.endResponse({ finishReason: "stop" });
        return;
      default:
        // submitted / working: progress; a status message is still content.
        if (message) this.agentMessage(message);
    }
  }

  private onArtifact(a: JsonObject, append: boolean, lastChunk: boolean): void {
    const e = this.engine;
    const turnId = e.ensureTurn();
    const artifactId = str(a, "artifactId") ?? e.mintId("artifact");
    if (this.artifacts.has(artifactId) && !append) {
      // §8 item 11: append:false REPLACES the artifact. Its parts are emptied by a snapshot that
      // re-states the working messages and artifacts as they are (turns and memory untouched),
      // then this chunk's parts stream in as on a fresh artifact (D13).
      this.replaceArtifact(artifactId, turnId);
      this.openArtifacts.add(artifactId);
    } else if (!this.artifacts.has(artifactId)) {
      this.artifacts.add(artifactId);
      this.openArtifacts.add(artifactId);
      const ext = (arr(a, "extensions") ?? []).filter((x): x is string => typeof x === "string");
      e.emit({
        type: "artifact.start",
        artifactId,
        turnId,
        threadId: this.threadId,
        ...(str(a, "name") ? { name: str(a, "name")! } : {}),
        ...(str(a, "description") ? { description: str(a, "description")! } : {}),
        ...(ext.length > 0 ? { extensions: ext } : {}),
        ...(obj(a, "metadata") ? { _meta: obj(a, "metadata")! } : {}),
      });
    } else if (!this.openArtifacts.has(artifactId)) {
      // An append:true chunk for an artifact a lastChunk sealed re-opens it (§5 artifact.start).
      this.openArtifacts.add(artifactId);
      e.emit({ type: "artifact.start", artifactId, turnId, threadId: this.threadId });
    }
    (arr(a, "parts") ?? []).forEach((p, i) => {
      // append:false replaces the artifact's parts with this chunk's (§10 item 16): only its first part replaces.
      e.emit({ type: "artifact.delta", artifactId, part: partBlock(p), append: append || i > 0, turnId });
    });
    if (lastChunk) {
      e.emit({ type: "artifact.end", artifactId, lastChunk: true, turnId });
      this.openArtifacts.delete(artifactId);
    }
  }

  /** `messages.snapshot` with the fold's messages and artifacts, the named artifact's parts emptied (D13). */
  private replaceArtifact(artifactId: string, turnId: string): void {
    const result = this.currentFold().result;
    // The fold's result is typed consumer-lenient; engine.emit checks the snapshot producer-strict.
    const artifacts: L.AgArtifact[] = result.artifacts.map((art) => (art.artifactId === artifactId ? { ...art, parts: [] } : art));
    const messages: L.AgMessage[] = result.messages;
    this.engine.emit({ type: "messages.snapshot", messages, artifacts, turnId });
  }

  /** The task ended: an artifact never marked `lastChunk` stays as delivered (no end is invented). */
  private closeArtifacts(): void {
    this.openArtifacts.clear();
  }
}
