/**
 * Claude Agent SDK facet (`@anthropic-ai/claude-agent-sdk` 0.3.x `query()` messages, with or
 * without `includePartialMessages`). The wrapped Anthropic stream (`stream_event` partials, or the
 * complete `assistant` frames when partials are off) goes through the anthropic facet's mapping on
 * this facet's engine; this module adds what the SDK layers on top: tool results adopted after the
 * assistant message is sealed (§8 item 15), permission denials on a carrier message, subagent
 * routing by `parent_tool_use_id` (§8 item 16), refusal-fallback retraction (§8 item 19), the
 * `result` terminal (success, or every error subtype → `turn.error` with its code), cumulative
 * usage verbatim (§8 item 4), informational notices (§8 item 21) and every residual frame kind as
 * `ext.anthropic.frame` (§8 item 22).
 */
import { providerMeta, type AgBlock, type AgFinishReason, type AgSource, type AgUsage } from "../../../generated/types.js";
import { AnthropicFacet, mapAnthropicStopReason, mapAnthropicUsage } from "../providers/anthropic.js";
import type { AgEventDraft, NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, own, str, type JsonObject } from "../util.js";

/** The providerMetadata key of what the Agent SDK states beside the provider's content (§0.2, D16). */
const VENDOR = "claude-agent-sdk";

/** `result` error subtypes → the `turn.error.code` they close the turn with. */
const RESULT_ERROR_CODES: Readonly<Record<string, string>> = {
  error_max_turns: "max_turns",
  error_during_execution: "execution_error",
  error_max_budget_usd: "max_budget_usd",
  error_max_structured_output_retries: "max_structured_output_retries",
};

/** Tool names whose call spawns a subagent (the SDK's Task tool, renamed Agent in later builds). */

/** One agent scope of the stream: the root agent, or a subagent keyed by its spawning tool call. */
interface Scope {
  /** The anthropic facet mapping this scope's provider stream, on the shared engine. */
  inner: AnthropicFacet;
  /** The turn this scope's content lands in, once opened. */
  turnId?: string;
  /** A subagent scope's `subagent.start.parentTurnId` (an opened turn or the spawning call's label). */
  parentTurnId?: string;
  /** Provider message ids delivered as partials: their `assistant` frames repeat content. */
  streamed: Set<string>;
  /**
   * A response rebuilt from complete `assistant` frames, still open: partials off, or a streamed
   * response the SDK abandoned from block `resumeFrom` on and delivers whole after its fallback.
   */
  synthetic?: { apiId: string; nextIndex: number; stopReason?: string; resumeFrom?: number };
}

interface PendingResult {
  toolCallId: string;
  /** The scope the result belongs to; its turn is resolved when the result lands. */
  key: string;
  block: JsonObject;
  toolUseResult: unknown;
}

/** Maps one `tool_result.content` item (text, image, …) to an AgBlock. */
function mapResultContent(item: unknown): AgBlock {
  if (isObject(item)) {
    const type = str(item, "type");
    if (type === "text" && typeof item.text === "string") return { type: "text", text: item.text };
    const source = mapAnthropicSource(obj(item, "source"));
    if (type === "image" && source !== undefined) return { type: "image", source };
    if (type === "document" && source !== undefined) {
      const title = str(item, "title");
      return { type: "document", source, ...(title !== undefined ? { title } : {}) };
    }
  }
  return { type: "data", name: str(item, "type") ?? "item", data: isObject(item) || Array.isArray(item) ? item : { value: item ?? null } };
}

/**
 * An Anthropic media source → AgSource. All three kinds are kept: a url or file source that fell
 * through to a `data` block would reach the model as JSON text, not media (§2 AgSource, §10 item 5).
 */
function mapAnthropicSource(source: JsonObject | undefined): AgSource | undefined {
  switch (str(source, "type")) {
    case "base64":
      return { type: "base64", mediaType: str(source, "media_type") ?? "application/octet-stream", data: str(source, "data") ?? "" };
    case "url": {
      const url = str(source, "url");
      return url === undefined ? undefined : { type: "url", url };
    }
    case "file": {
      const fileId = str(source, "file_id");
      return fileId === undefined ? undefined : { type: "file", fileId };
    }
    default:
      // A source with no AgSource form (a text or content document) stays whole in a data block.
      return undefined;
  }
}

/** The text of a result's content, for `errorText`. */
function contentText(blocks: AgBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** `result.usage` (the query's running totals) + cost + per-model breakdown → AgUsage, verbatim. */
export function mapClaudeResultUsage(result: JsonObject): AgUsage | undefined {
  const u = obj(result, "usage");
  if (!u) return undefined;
  const usage = mapAnthropicUsage(u);
  const cost = num(result, "total_cost_usd");
  if (cost !== undefined) usage.costUsd = cost;
  const byModel: Record<string, AgUsage> = {};
  for (const [model, mu] of Object.entries(obj(result, "modelUsage") ?? {})) {
    if (!isObject(mu)) continue;
    const m: AgUsage = { cumulative: true };
    const set = (k: "inputTokens" | "outputTokens" | "cacheReadTokens" | "cacheWriteTokens" | "costUsd", v: number | undefined) => {
      if (v !== undefined) m[k] = v;
    };
    set("inputTokens", num(mu, "inputTokens"));
    set("outputTokens", num(mu, "outputTokens"));
    set("cacheReadTokens", num(mu, "cacheReadInputTokens"));
    set("cacheWriteTokens", num(mu, "cacheCreationInputTokens"));
    set("costUsd", num(mu, "costUSD"));
    byModel[model] = m;
  }
  if (Object.keys(byModel).length > 0) usage.byModel = byModel;
  return usage;
}

/** Normalizer for the Claude Agent SDK's `query()` message stream. */
export class ClaudeAgentSdkFacet extends ProviderFacet {
  private readonly opts: NormalizerOptions;
  private scopes = new Map<string, Scope>();
  /** Provider message id → the messageId the engine opened for it (per scope key). */
  private apiMessages = new Map<string, string>();
  /** Wire-frame uuid → the messageIds this facet produced for it (§8 item 19). */
  private uuidMessages = new Map<string, string[]>();
  private removed = new Set<string>();
  /** Tool calls seen in `assistant` frames: name + input, for subagent names and denials. */
  private toolCalls = new Map<string, { name: string; input: unknown }>();
  private landed = new Set<string>();
  private pending: PendingResult[] = [];
  private deniedReasons = new Map<string, string>();
  /** Each call's `tool_result_meta` entry (its id aside), until its result lands. */
  private resultMeta = new Map<string, JsonObject>();

  constructor(opts: NormalizerOptions = {}) {
    super("anthropic", opts);
    this.opts = opts;
  }

  private scope(key: string): Scope {
    let s = this.scopes.get(key);
    if (!s) {
      s = { inner: new AnthropicFacet(this.opts, this.engine), streamed: new Set() };
      this.scopes.set(key, s);
    }
    return s;
  }

  /**
   * Makes the scope's turn current before its content is mapped: the root scope's top-level turn,
   * or the subagent turn opened for the spawning tool call (§8 item 16).
   */
  private enter(key: string): Scope {
    const e = this.engine;
    const s = this.scope(key);
    if (s.turnId !== undefined && e.focusTurn(s.turnId)) return s;
    if (key === "") {
      s.turnId = undefined;
      return s;
    }
    const root = this.scopes.get("")?.turnId;
    const parentOpen = root !== undefined && e.isTurnOpen(root);
    if (parentOpen) e.focusTurn(root);
    const call = this.toolCalls.get(key);
    const input = call?.input;
    const agentName = isObject(input) ? (str(input, "subagent_type") ?? str(input, "description")) : undefined;
    // An unopened parent is named by the spawning call's cross-ref label (§8 item 16).
    s.parentTurnId = parentOpen ? root : `turn_${key}`;
    s.turnId = e.openSubagent({
      turnId: `${key}:subagent`,
      parentTurnId: s.parentTurnId,
      ...(agentName !== undefined ? { agentName } : {}),
    });
    return s;
  }

  /** The root scope's turn, opened on first content (INV-TURN). */
  private rootTurn(): string {
    const s = this.enter("");
    s.turnId ??= this.engine.ensureTurn();
    return s.turnId;
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    const type = str(chunk, "type");
    if (!isObject(chunk) || type === undefined) {
      e.unparsed(chunk, "not a Claude Agent SDK message");
      return;
    }
    switch (type) {
      case "stream_event":
        return this.onStreamEvent(chunk);
      case "assistant":
        return this.onAssistant(chunk);
      case "user":
        return this.onUser(chunk);
      case "result":
        return this.onResult(chunk);
      case "system":
        return this.onSystem(chunk);
      case "__host_error__":
        return this.onHostError(chunk);
      default:
        this.carry(chunk);
    }
  }

  /** §8 item 22: a frame kind with no AgJSON home rides verbatim under one uniform key. */
  private carry(chunk: JsonObject): void {
    this.engine.ext("frame", { kind: str(chunk, "subtype") ?? str(chunk, "type") ?? "unknown", frame: chunk });
  }

  private scopeKey(chunk: JsonObject): string {
    return str(chunk, "parent_tool_use_id") ?? "";
  }

  private onStreamEvent(chunk: JsonObject): void {
    const e = this.engine;
    const event = obj(chunk, "event");
    if (!event) {
      e.unparsed(chunk, "stream_event without an event");
      return;
    }
    const key = this.scopeKey(chunk);
    const s = this.enter(key);
    if (str(event, "type") === "message_start") this.closeSynthetic(s);
    if (str(event, "type") === "message_stop" && this.abandon(s, chunk)) return this.releaseResults();
    s.inner.feed(event);
    if (key === "" && s.turnId === undefined) s.turnId = e.currentTurn()?.turnId;
    if (str(event, "type") === "message_start") {
      const apiId = str(obj(event, "message"), "id");
      if (apiId !== undefined) {
        s.streamed.add(apiId);
        if (e.hasOpenMessage()) this.apiMessages.set(`${key}\u0000${apiId}`, e.ensureMessage());
      }
    }
    this.releaseResults();
  }

  /**
   * The SDK ends a stream that stopped early with a `message_stop` naming the blocks it abandoned
   * (`abandoned_blocks: {api_message_id, from_block_index}`), then falls back to a non-streaming
   * call and delivers the response as whole `assistant` frames, one per block. The streamed message
   * stays open: the frames of blocks below `from_block_index` repeat what streamed and are skipped;
   * each later one lands in order with its ids (completing a block that was cut mid-way), so the
   * answer is whole and nothing lands twice (§8.0: nothing the source sends is dropped).
   */
  private abandon(s: Scope, chunk: JsonObject): boolean {
    const abandoned = obj(chunk, "abandoned_blocks") ?? obj(chunk, "abandonedBlocks");
    const apiId = str(abandoned, "api_message_id") ?? str(abandoned, "apiMessageId") ?? str(chunk, "api_message_id");
    const from = num(abandoned, "from_block_index") ?? num(abandoned, "fromBlockIndex");
    if (apiId === undefined || from === undefined || !s.streamed.has(apiId)) return false;
    s.streamed.delete(apiId);
    s.synthetic = { apiId, nextIndex: 0, resumeFrom: from };
    return true;
  }

  /**
   * A complete assistant frame. With partials on, its content already streamed: only its uuid is
   * mapped (§8 item 19). With partials off, its blocks are replayed through the anthropic mapping
   * as one response (the SDK sends one frame per content block of the same provider message); so
   * are the blocks of a streamed response the SDK abandoned (`abandon`) that did not stream whole.
   */
  private onAssistant(chunk: JsonObject): void {
    const e = this.engine;
    const key = this.scopeKey(chunk);
    const message = obj(chunk, "message") ?? {};
    const apiId = str(message, "id") ?? str(chunk, "uuid") ?? "";
    for (const block of arr(message, "content") ?? []) {
      const id = str(block, "id");
      if (id !== undefined && str(block, "type")?.endsWith("tool_use"))
        this.toolCalls.set(id, { name: str(block, "name") ?? "", input: isObject(block) ? (block.input ?? {}) : {} });
    }
    for (const uuid of arr(chunk, "supersedes") ?? []) if (typeof uuid === "string") this.retract(uuid);
    const s = this.enter(key);
    // The SDK's display names for a call (display_name, server_display_name, …) have no §2 field:
    // they ride the call's providerMetadata["claude-agent-sdk"].toolUseMeta (D16, §0.2).
    for (const meta of arr(chunk, "tool_use_meta") ?? []) {
      const id = str(meta, "id");
      if (id === undefined || !isObject(meta)) {
        e.unparsed(meta, "tool_use_meta entry without an id");
        continue;
      }
      const { id: _id, ...fields } = meta;
      if (!e.noteToolCallMeta(id, VENDOR, { toolUseMeta: fields })) e.ext("tool-use-meta", { toolCallId: id, toolUseMeta: fields });
    }
    if (!s.streamed.has(apiId)) {
      if (s.synthetic?.apiId !== apiId) {
        this.closeSynthetic(s);
        s.inner.feed({ type: "message_start", message: { ...message, id: apiId, content: [] } });
        if (key === "" && s.turnId === undefined) s.turnId = e.currentTurn()?.turnId;
        s.synthetic = { apiId, nextIndex: 0 };
        if (e.hasOpenMessage()) this.apiMessages.set(`${key}\u0000${apiId}`, e.ensureMessage());
      }
      const synthetic = s.synthetic!;
      const stop = str(message, "stop_reason");
      if (stop !== undefined) synthetic.stopReason = stop;
      for (const block of arr(message, "content") ?? []) {
        const index = synthetic.nextIndex++;
        if (index < (synthetic.resumeFrom ?? 0)) continue;
        s.inner.feed({ type: "content_block_start", index, content_block: block });
        s.inner.feed({ type: "content_block_stop", index });
      }
    }
    const produced = this.apiMessages.get(`${key}\u0000${apiId}`);
    const uuid = str(chunk, "uuid");
    if (uuid !== undefined && produced !== undefined) this.noteUuid(uuid, produced);
    const error = str(chunk, "error");
    if (error !== undefined) e.warn(error, `The Claude Agent SDK marked assistant message '${apiId}' with error '${error}'.`);
    this.releaseResults();
  }

  /** Ends a response rebuilt from complete frames: its stop reason, when the SDK gave one. */
  private closeSynthetic(s: Scope): void {
    const synthetic = s.synthetic;
    if (!synthetic) return;
    s.synthetic = undefined;
    if (s.turnId !== undefined) this.engine.focusTurn(s.turnId);
    s.inner.feed({ type: "message_delta", delta: synthetic.stopReason !== undefined ? { stop_reason: synthetic.stopReason } : {} });
    s.inner.feed({ type: "message_stop" });
  }

  /**
   * A user frame: tool results (adopted as `"<toolCallId>:result"` messages, §8 item 15), or a
   * user-side frame with no AgJSON home (a subagent's prompt, a replayed input) carried verbatim.
   */
  private onUser(chunk: JsonObject): void {
    const key = this.scopeKey(chunk);
    const content = arr(obj(chunk, "message"), "content");
    const results = (content ?? []).filter((b) => str(b, "type") === "tool_result");
    if (results.length === 0) {
      this.carry(chunk);
      return;
    }
    const s = this.enter(key);
    this.closeSynthetic(s);
    const uuid = str(chunk, "uuid");
    // The SDK marks a call the permission layer refused (canUseTool deny, a permission rule). Each
    // entry's fields (the permission decision, accepted or not, its source) ride the result's
    // providerMetadata["claude-agent-sdk"].toolResultMeta (D16, §0.2).
    for (const meta of arr(chunk, "tool_result_meta") ?? []) {
      const id = str(meta, "id");
      if (id === undefined || !isObject(meta)) {
        this.engine.unparsed(meta, "tool_result_meta entry without an id");
        continue;
      }
      const { id: _id, ...fields } = meta;
      this.resultMeta.set(id, fields);
      if (str(obj(meta, "permission_decision"), "decision") === "reject") {
        if (!this.deniedReasons.has(id)) this.deniedReasons.set(id, "permission denied");
      }
    }
    for (const block of results) {
      if (!isObject(block)) continue;
      const toolCallId = str(block, "tool_use_id");
      if (toolCallId === undefined) {
        this.engine.unparsed(block, "tool_result without tool_use_id");
        continue;
      }
      if (uuid !== undefined) this.noteUuid(uuid, `${toolCallId}:result`);
      this.pending.push({ toolCallId, key, block, toolUseResult: results.length === 1 ? chunk.tool_use_result : undefined });
    }
    for (const item of content ?? [])
      if (str(item, "type") !== "tool_result") this.engine.unparsed(item, "non-result content beside tool results");
    this.releaseResults();
  }

  /**
   * Lands each waiting tool result whose call block has closed. The SDK can deliver a result
   * while the provider message that called the tool is still streaming; the result waits for the
   * call's `tool.args.assembled` so it never precedes its own call.
   */
  private releaseResults(): void {
    const e = this.engine;
    const waiting: PendingResult[] = [];
    for (const p of this.pending) {
      if (e.isOpen(p.toolCallId)) {
        waiting.push(p);
        continue;
      }
      // A subagent's turn ends when its spawning call's result reaches the parent.
      const sub = this.scopes.get(p.toolCallId);
      if (sub?.turnId !== undefined && e.isTurnOpen(sub.turnId)) this.closeSubagent(sub);
      const scope = this.enter(p.key);
      this.landResult(p, scope.turnId ?? this.rootTurn());
    }
    this.pending = waiting;
  }

  private landResult(p: PendingResult, turnId: string): void {
    if (this.landed.has(p.toolCallId)) {
      this.engine.warn(
        "duplicate_tool_result",
        `A second result for tool call '${p.toolCallId}' was carried unparsed; the first one stands.`,
      );
      this.engine.unparsed(p.block, "duplicate tool_result");
      return;
    }
    this.landed.add(p.toolCallId);
    const raw = p.block.content;
    const content: AgBlock[] =
      typeof raw === "string" ? [{ type: "text", text: raw }] : Array.isArray(raw) ? raw.map(mapResultContent) : [];
    const denied = this.deniedReasons.get(p.toolCallId);
    const resultMeta = this.resultMeta.get(p.toolCallId);
    this.resultMeta.delete(p.toolCallId);
    const base = {
      type: "tool.done" as const,
      toolCallId: p.toolCallId,
      turnId,
      messageId: `${p.toolCallId}:result`,
      content,
      ...(resultMeta !== undefined ? { providerMetadata: providerMeta({ [VENDOR]: { toolResultMeta: resultMeta } }) } : {}),
    };
    // The SDK's own structured tool output (`tool_use_result`) is for the app, not the model (§2.1).
    const side = p.toolUseResult;
    const extra = side !== undefined && side !== null && side !== contentText(content) ? { sideData: side } : {};
    const ev: AgEventDraft =
      denied !== undefined
        ? { ...base, ...extra, outcome: "denied" }
        : p.block.is_error === true
          ? { ...base, ...extra, outcome: "error", isError: true, errorText: contentText(content) || "tool error" }
          : { ...base, ...extra, outcome: "ok" };
    this.engine.emit(ev);
  }

  /**
   * Subagents still open when their parent takes its terminal never returned (their spawning
   * call has no result): each takes `turn.abort`, innermost first, and no `subagent.done` (D10).
   */
  private cutSubagents(): void {
    const e = this.engine;
    for (const [key, s] of [...this.scopes].reverse()) {
      if (key === "" || s.turnId === undefined || !e.isTurnOpen(s.turnId)) continue;
      s.synthetic = undefined;
      e.focusTurn(s.turnId);
      e.abortTurn("parent-ended");
    }
  }

  /**
   * A subagent that returned (its spawning call's result reached the parent): its turn takes its
   * one terminal — its last response's close, or `unknown` — then `subagent.done`, the return
   * notice pairing `subagent.start` (D10).
   */
  private closeSubagent(s: Scope): void {
    const e = this.engine;
    const turnId = s.turnId;
    if (turnId === undefined || !e.focusTurn(turnId)) return;
    this.closeSynthetic(s);
    e.focusTurn(turnId);
    const close = e.currentTurn()?.pendingClose ?? { finishReason: "unknown" as AgFinishReason };
    e.finishTurn(close);
    e.emit({ type: "subagent.done", turnId, parentTurnId: s.parentTurnId ?? turnId });
    const root = this.scopes.get("")?.turnId;
    if (root !== undefined) e.focusTurn(root);
  }

  private noteUuid(uuid: string, messageId: string): void {
    const list = this.uuidMessages.get(uuid) ?? [];
    if (!list.includes(messageId)) list.push(messageId);
    this.uuidMessages.set(uuid, list);
  }

  /** §8 item 19: a retracted wire uuid → `message.remove` of each messageId it produced (once). */
  private retract(uuid: string): void {
    for (const id of this.uuidMessages.get(uuid) ?? []) {
      if (this.removed.has(id)) continue;
      this.removed.add(id);
      this.engine.emit({ type: "message.remove", id });
    }
  }

  private onSystem(chunk: JsonObject): void {
    const e = this.engine;
    switch (str(chunk, "subtype")) {
      case "informational": {
        const payload: JsonObject = { content: str(chunk, "content") ?? "", level: str(chunk, "level") ?? "info" };
        if (typeof chunk.prevent_continuation === "boolean") payload.preventContinuation = chunk.prevent_continuation;
        payload.frame = chunk;
        e.ext("informational", payload);
        return;
      }
      case "model_refusal_fallback":
        for (const uuid of arr(chunk, "retracted_message_uuids") ?? []) if (typeof uuid === "string") this.retract(uuid);
        return;
      case "permission_denied": {
        // Enriches the denial's tool.done (§8 item 22: wired to its existing home, not carried).
        const id = str(chunk, "tool_use_id");
        if (id !== undefined) this.deniedReasons.set(id, str(chunk, "message") ?? str(chunk, "decision_reason") ?? "permission denied");
        if (id === undefined || this.landed.has(id)) this.carry(chunk);
        return;
      }
      case "task_notification": {
        // The frame rides verbatim (§8 item 22); a background subagent it reports on has returned.
        this.carry(chunk);
        const id = str(chunk, "tool_use_id");
        const sub = id !== undefined ? this.scopes.get(id) : undefined;
        if (sub?.turnId !== undefined && e.isTurnOpen(sub.turnId))
          this.returnSubagent(sub, str(chunk, "status") ?? "completed", str(chunk, "summary"));
        return;
      }
      default:
        this.carry(chunk);
    }
  }

  /**
   * A background subagent's `task_notification`: the Agent tool's own result came back at launch,
   * so this is where the parent learns the subagent finished. `completed` closes its turn as a
   * returned subagent; `failed` with `turn.error`, any other status (stopped, killed) with
   * `turn.abort`; each then `subagent.done`, since the parent was told (D10).
   */
  private returnSubagent(s: Scope, status: string, summary: string | undefined): void {
    const e = this.engine;
    if (status === "completed") return this.closeSubagent(s);
    const turnId = s.turnId!;
    s.synthetic = undefined;
    e.focusTurn(turnId);
    if (status === "failed") e.failTurn({ message: summary ?? "the subagent failed", code: "task_failed" });
    else e.abortTurn(status);
    e.emit({ type: "subagent.done", turnId, parentTurnId: s.parentTurnId ?? turnId });
    const root = this.scopes.get("")?.turnId;
    if (root !== undefined) e.focusTurn(root);
  }

  /**
   * The query's terminal. Every scope's open response and subagent turn settles first; permission
   * denials land on the `"<turnId>:denials"` carrier message, sealed before the turn closes
   * (§8 item 15); then `turn.done`, or `turn.error` with the subtype's code (e.g. `max_turns`).
   * The usage is the SDK's cumulative total, verbatim (§8 item 4).
   */
  private onResult(chunk: JsonObject): void {
    const e = this.engine;
    for (const p of this.pending) {
      if (e.isOpen(p.toolCallId))
        e.warn("tool_result_before_call_closed", `Tool call '${p.toolCallId}' was still streaming when the query ended.`);
    }
    this.pending = this.pending.filter((p) => !e.isOpen(p.toolCallId));
    this.releaseResults();
    this.cutSubagents();
    const root = this.scope("");
    this.closeSynthetic(root);
    const turnId = this.rootTurn();
    this.landDenials(chunk, turnId);
    e.focusTurn(turnId);
    const usage = mapClaudeResultUsage(chunk);
    const subtype = str(chunk, "subtype") ?? "";
    const errors = (arr(chunk, "errors") ?? []).filter((x): x is string => typeof x === "string");
    if (subtype === "success" && chunk.is_error !== true) {
      const stop = str(chunk, "stop_reason") ?? undefined;
      const held = e.currentTurn()?.pendingClose;
      const finishReason = stop !== undefined ? mapAnthropicStopReason(stop) : (held?.finishReason ?? "unknown");
      e.finishTurn({ finishReason, ...(usage ? { usage } : {}) });
    } else {
      const message = errors.join("; ") || str(chunk, "result") || subtype || "the query failed";
      e.failTurn({ message, code: own(RESULT_ERROR_CODES, subtype) ?? (subtype || "error"), ...(usage ? { usage } : {}) });
    }
    // A streaming-input query runs several turns: the next frames open a fresh one.
    this.scopes.clear();
    this.apiMessages.clear();
  }

  /**
   * §8.0 host obligation 1: an error `query()` threw. Before a `result` it is the turn's terminal;
   * after one (the SDK also throws when its result was an error) the turn already closed, so it is
   * reported as the non-terminal `error`.
   */
  private onHostError(chunk: JsonObject): void {
    const e = this.engine;
    const message = str(chunk, "message") ?? "the query failed";
    const name = str(chunk, "name") ?? "error";
    const root = this.scopes.get("")?.turnId;
    if (root !== undefined && e.isTurnOpen(root)) {
      this.cutSubagents();
      e.focusTurn(root);
      e.failTurn({ message, code: /max.?turns/i.test(message) ? "max_turns" : name });
    } else e.warn(name, message);
  }

  /** Permission denials: one carrier message, a `denied` result for each call not already resolved. */
  private landDenials(chunk: JsonObject, turnId: string): void {
    const e = this.engine;
    const denials = (arr(chunk, "permission_denials") ?? []).filter(isObject);
    if (denials.length === 0) return;
    e.focusTurn(turnId);
    const messageId = e.openMessage({ id: `${turnId}:denials`, role: "tool" });
    e.contentBlock({ type: "data", name: "permission_denials", data: denials });
    for (const d of denials) {
      const toolCallId = str(d, "tool_use_id");
      if (toolCallId === undefined || this.landed.has(toolCallId)) continue;
      this.landed.add(toolCallId);
      const reason = this.deniedReasons.get(toolCallId) ?? `Permission to use ${str(d, "tool_name") ?? "the tool"} was denied.`;
      e.emit({ type: "tool.done", toolCallId, turnId, messageId, outcome: "denied", content: [{ type: "text", text: reason }] });
    }
    e.closeMessage(messageId);
  }

  protected override settleBeforeFlush(): void {
    this.releaseResults();
  }
}
