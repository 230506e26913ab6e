/**
 * OpenAI Agents SDK facet (`@openai/agents` 0.20, `run(agent, input, { stream: true })`), JSON-
 * serialized events. The SDK wraps the Responses stream: every `raw_model_stream_event` of type
 * `model` carries one Responses event, which the openai-responses mapping (inherited, not copied)
 * turns into messages, text, reasoning and function calls. The same content then reaches the stream
 * a second time as run items (`message_output_created`, `tool_called`, …) and as the SDK's own
 * `output_text_delta` / `response_started` / `response_done` digests: those are used only for what
 * the raw stream did not already carry, so no text or tool call appears twice.
 *
 * What only the run items carry: client-side tool outputs (`tool_output`, landing after
 * `response.completed`, §8 item 14), the built-in tools' lifecycle (§8 item 20), handoffs,
 * approvals and the agent in charge. Thrown terminals and guardrail results reach the facet as the
 * host-fed lines of `openai-agents-host.ts` (§8.0 host obligation 1).
 */
import type { AgBlock, AgEvent, AgGuardrailTarget, AgPausedAsk } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { OpenAiResponsesFacet } from "../providers/openai-responses.js";
import { arr, isObject, json, obj, own, str, type JsonObject } from "../util.js";

/** Built-in tool items the Agents runtime executes itself: wire item type → synthesized name (§8 item 20). */
const BUILTIN_TOOLS: Record<string, string> = {
  shell_call: "builtin:shell",
  local_shell_call: "builtin:local_shell",
  apply_patch_call: "builtin:apply_patch",
  computer_call: "builtin:computer",
  tool_search_call: "builtin:tool_search",
};

/**
 * Hosted tools the SDK re-reports as `hosted_tool_call` run items named by the wire item type:
 * resolved server-side, start and result come from that one run item (§8 item 20).
 */
const HOSTED_TOOLS = new Set(["web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call"]);

/** The error classes a host feeds as `__host_error__` → the `turn.error` code (§8.0 host obligation 1). */
const HOST_ERROR_CODES: Record<string, { code: string; retriable?: boolean }> = {
  MaxTurnsExceededError: { code: "max_turns" },
  InputGuardrailTripwireTriggered: { code: "guardrail_tripwire" },
  OutputGuardrailTripwireTriggered: { code: "guardrail_tripwire" },
  ToolInputGuardrailTripwireTriggered: { code: "guardrail_tripwire" },
  ToolOutputGuardrailTripwireTriggered: { code: "guardrail_tripwire" },
  GuardrailExecutionError: { code: "guardrail_error" },
  ModelBehaviorError: { code: "model_behavior" },
  InvalidToolInputError: { code: "model_behavior" },
  ModelRefusalError: { code: "refusal" },
  ModelTimeoutError: { code: "timeout", retriable: true },
  ToolCallError: { code: "tool_error" },
  ToolTimeoutError: { code: "tool_timeout" },
  UserError: { code: "user_error" },
  InvalidToolOutputError: { code: "user_error" },
  SystemError: { code: "system_error" },
  // openai SDK HTTP exceptions (the model call failed before any stream).
  APIError: { code: "http_error" },
  BadRequestError: { code: "http_400" },
  AuthenticationError: { code: "http_401" },
  PermissionDeniedError: { code: "http_403" },
  NotFoundError: { code: "http_404" },
  ConflictError: { code: "http_409" },
  UnprocessableEntityError: { code: "http_422" },
  RateLimitError: { code: "http_429", retriable: true },
  InternalServerError: { code: "http_5xx", retriable: true },
  APIConnectionError: { code: "connection_error", retriable: true },
  APIConnectionTimeoutError: { code: "timeout", retriable: true },
};

/** Responses hosted-tool item types a `hosted_tool_call` run item names (its `name`). */
const HOSTED_ITEM_TYPES = new Set(["web_search_call", "file_search_call", "code_interpreter_call", "image_generation_call", "mcp_call"]);

/** Where a tool call was opened, so its late result lands in the same (still open) message. */
interface CallHome {
  turnId: string;
  messageId: string;
}

/** Normalizer for `@openai/agents` run stream events. */
export class OpenAiAgentsFacet extends OpenAiResponsesFacet {
  /** `seq` as the caller sees it: held `message.end`s are released later, so the facet re-stamps (INV-SEQ). */
  private seqOut = 0;
  /** Item ids and call ids the raw model stream delivered (dedupe of the run-item copies). */
  private readonly rawSeen = new Set<string>();
  /** Call id → the message its `tool.start` went to. */
  private readonly homes = new Map<string, CallHome>();
  /** Message id → client-executed calls whose result has not landed yet (§8 item 14). */
  private readonly pending = new Map<string, Set<string>>();
  /** Message id → its `message.end`, held while results are pending. */
  private readonly held = new Map<string, AgEvent>();
  /** The message the latest response opened. */
  private lastMessage: CallHome | undefined;
  /** Open tool-search calls by every id their correlation chain resolves to (§8 item 20). */
  private readonly toolSearches = new Map<string, string>();
  private readonly asks: AgPausedAsk[] = [];
  /** Raw built-in / hosted items whose run item has not come yet (carried if it never does). */
  private readonly unpaired = new Map<string, JsonObject>();
  /** `guardrail.result`s already reported (a tripwire arrives both as a result and on its error). */
  private readonly guardrailsSeen = new Set<string>();
  /** A turn of this invoke already closed with `turn.error`. */
  private failed = false;

  constructor(opts: NormalizerOptions = {}) {
    super(opts);
  }

  override push(native: unknown): AgEvent[] {
    return this.route(super.push(native));
  }

  override flush(): AgEvent[] {
    return this.route(super.flush());
  }

  protected override handle(chunk: unknown): void {
    const e = this.engine;
    const type = str(chunk, "type");
    if (!isObject(chunk) || type === undefined) {
      e.unparsed(chunk, "not an @openai/agents stream event");
      return;
    }
    switch (type) {
      case "raw_model_stream_event":
        return this.onRaw(chunk);
      case "run_item_stream_event":
        return this.onRunItem(chunk);
      case "agent_updated_stream_event": {
        const agent = obj(chunk, "agent");
        e.ext("agent-updated", { agentName: str(agent, "name") ?? null, agent: agent ?? null });
        return;
      }
      case "__host_error__":
        return this.onHostError(chunk);
      case "__host_guardrail_result__":
        return this.onGuardrail(chunk, false);
      default:
        e.unparsed(chunk, `unknown @openai/agents event type '${type}'`);
    }
  }

  // ── raw model events ─────────────────────────────────────────────────────────────────────

  private onRaw(chunk: JsonObject): void {
    const data = obj(chunk, "data");
    const dataType = str(data, "type");
    if (dataType === "model") {
      const event = obj(data, "event");
      if (!event) return this.engine.unparsed(chunk, "model event without a Responses event");
      const item = obj(event, "item");
      const itemType = str(item, "type") ?? "";
      const isItemEvent = str(event, "type") === "response.output_item.added" || str(event, "type") === "response.output_item.done";
      for (const id of [str(item, "id"), str(item, "call_id")]) if (id !== undefined) this.rawSeen.add(id);
      // Built-in and hosted tools are driven from their run items (§8 item 20), never from the raw item.
      if (
        isItemEvent &&
        item &&
        (own(BUILTIN_TOOLS, itemType) !== undefined || HOSTED_TOOLS.has(itemType) || itemType === "tool_search_output")
      ) {
        const callId = HOSTED_TOOLS.has(itemType) ? str(item, "id") : (str(item, "call_id") ?? str(item, "id"));
        // Its run item comes after `response.completed`: hold this message's end for it (§8 item 14).
        if (itemType !== "tool_search_output" && callId !== undefined && this.lastMessage && !this.homes.has(callId))
          this.expect(callId, this.lastMessage);
        const key = str(item, "id") ?? callId;
        if (key !== undefined && str(event, "type") === "response.output_item.done") this.unpaired.set(key, item);
        return;
      }
      super.handle(event);
      return;
    }
    // The SDK's own digests of the same model events (and the usage summary it re-reports at
    // `response_done`): the raw events already delivered all of it.
    if (dataType === "response_started" || dataType === "output_text_delta" || dataType === "response_done") return;
    this.engine.unparsed(chunk, `unknown raw model event '${dataType ?? "?"}'`);
  }

  // ── run items ────────────────────────────────────────────────────────────────────────────

  private onRunItem(chunk: JsonObject): void {
    const name = str(chunk, "name");
    const item = obj(chunk, "item") ?? {};
    const raw = obj(item, "rawItem") ?? {};
    for (const id of [...correlationChain(raw), str(obj(raw, "providerData"), "id")]) if (id !== undefined) this.unpaired.delete(id);
    switch (name) {
      case "message_output_created":
        return this.onMessageItem(raw);
      case "reasoning_item_created":
        return this.onReasoningItem(raw);
      case "compaction_item_created":
        if (!this.seen(raw)) this.engine.contentBlock({ type: "compaction", provider: "openai" });
        return;
      case "tool_called":
      case "handoff_requested":
        return this.onToolCalled(raw);
      case "tool_output":
        return this.onToolOutput(item, raw);
      case "handoff_occurred":
        return this.onHandoff(item, raw);
      case "tool_search_called":
        return this.onToolCalled(raw);
      case "tool_search_output_created":
        return this.onToolSearchOutput(raw);
      case "tool_approval_requested":
        return this.onApproval(item, raw);
      default:
        this.engine.unparsed(chunk, `unknown run item event '${name ?? "?"}'`);
    }
  }

  private seen(raw: JsonObject): boolean {
    const id = str(raw, "id");
    const callId = str(raw, "callId") ?? str(raw, "call_id");
    return (id !== undefined && this.rawSeen.has(id)) || (callId !== undefined && this.rawSeen.has(callId));
  }

  /** A message the raw stream did not carry (a non-streaming model): its text, whole. */
  private onMessageItem(raw: JsonObject): void {
    if (this.seen(raw)) return;
    const e = this.engine;
    for (const part of arr(raw, "content") ?? []) {
      const text = str(part, "text") ?? str(part, "refusal");
      if (text === undefined) continue;
      const id = e.textStart({});
      e.textDelta(id, text);
      e.textEnd(id);
    }
  }

  private onReasoningItem(raw: JsonObject): void {
    if (this.seen(raw)) return;
    const e = this.engine;
    const id = e.reasoningStart({});
    for (const part of [...(arr(raw, "content") ?? []), ...(arr(raw, "summary") ?? [])]) e.reasoningDelta(id, str(part, "text") ?? "");
    e.reasoningEnd(id);
  }

  private onToolCalled(raw: JsonObject): void {
    const e = this.engine;
    const rawType = str(raw, "type") ?? "";
    if (own(BUILTIN_TOOLS, rawType) !== undefined) return this.startBuiltin(rawType, raw);
    if (rawType === "hosted_tool_call") return this.hostedCall(raw);
    if (this.seen(raw)) return;
    // A function call the raw stream never showed (a non-streaming model): whole, from the item.
    const callId = str(raw, "callId") ?? str(raw, "call_id");
    const id = e.toolStart({
      ...(callId !== undefined ? { toolCallId: callId } : {}),
      name: str(raw, "name") ?? "function",
      ...(str(raw, "id") ? { itemId: str(raw, "id")! } : {}),
    });
    e.toolAssemble(id, { input: parseArgs(raw.arguments) });
  }

  /**
   * A hosted tool (`hosted_tool_call`, which has a name): `tool.start` and `tool.done` together from
   * this one event (§8 item 20). MCP items the Responses mapping already landed are not repeated.
   */
  private hostedCall(raw: JsonObject): void {
    const e = this.engine;
    const name = str(raw, "name") ?? "hosted_tool";
    const id = str(raw, "id");
    if (!HOSTED_TOOLS.has(name) && this.seen(raw)) return;
    const detail = obj(raw, "providerData") ?? {};
    const input = raw.arguments !== undefined ? parseArgs(raw.arguments) : (detail.action ?? detail.queries ?? detail.code ?? {});
    const output = raw.output;
    const content: AgBlock[] =
      name === "image_generation_call" && typeof output === "string"
        ? [{ type: "image", source: { type: "base64", mediaType: `image/${str(detail, "output_format") ?? "png"}`, data: output } }]
        : typeof output === "string"
          ? [{ type: "text", text: output }]
          : [{ type: "data", name, data: detail }];
    const failed = str(raw, "status") === "failed";
    // A failed call is an error result that names its error (§2: errorText iff outcome error; §2.2
    // isError derived from it) — without errorText the engine refuses the tool.done and the call
    // is left with no result.
    const error = failed ? { isError: true as const, errorText: errorTextOf(content) } : {};
    const home = id !== undefined ? this.homes.get(id) : undefined;
    // The result names the Responses item it was (web_search_call, …), as the Responses facet's do,
    // so a replay rebuilds that item under its id (§10 item 4); the run item's own type rides beside.
    const meta: JsonObject = {
      type: HOSTED_ITEM_TYPES.has(name) ? name : "hosted_tool_call",
      runItem: "hosted_tool_call",
      status: raw.status ?? null,
    };
    if (home && id !== undefined) {
      const toolCallId = e.claimId(id);
      const at = { turnId: home.turnId, messageId: home.messageId };
      e.emit({ type: "tool.start", toolCallId, name, providerExecuted: true, itemId: id, ...at });
      e.emit({ type: "tool.args.assembled", toolCallId, input: json(input), ...at });
      e.emit({ type: "tool.done", toolCallId, content, outcome: failed ? "error" : "ok", ...error, providerMetadata: meta, ...at });
      return;
    }
    const toolCallId = e.toolStart({ ...(id !== undefined ? { toolCallId: id, itemId: id } : {}), name, providerExecuted: true });
    e.toolAssemble(toolCallId, { input: json(input) });
    e.toolDone({ toolCallId, content, outcome: failed ? "error" : "ok", ...error, providerMetadata: meta });
  }

  /** Full lifecycle of a built-in call from its run item, in the message of its response (§8 item 20). */
  private startBuiltin(rawType: string, raw: JsonObject): void {
    const e = this.engine;
    const name = own(BUILTIN_TOOLS, rawType)!;
    const chain = correlationChain(raw);
    if (rawType === "tool_search_call" && chain.length === 0) {
      // No resolvable correlation id: carried losslessly, never given a fabricated one (§8 item 20).
      e.ext("tool-search-call", { item: raw });
      return;
    }
    const input = json(
      rawType === "computer_call"
        ? (raw.actions ?? raw.action ?? {})
        : rawType === "apply_patch_call"
          ? (raw.operation ?? {})
          : rawType === "tool_search_call"
            ? (raw.arguments ?? {})
            : (raw.action ?? {}),
    );
    const itemId = str(raw, "id");
    const home = chain.map((id) => this.homes.get(id)).find((h) => h !== undefined);
    let callId: string;
    if (home) {
      // Its response's message is sealed on the engine but its end is held on the wire: the call
      // lands there, where the raw item would have (§8 item 14).
      callId = chain.find((id) => this.homes.has(id))!;
      const toolCallId = e.claimId(callId);
      e.emit({
        type: "tool.start",
        toolCallId,
        name,
        turnId: home.turnId,
        messageId: home.messageId,
        ...(itemId !== undefined ? { itemId } : {}),
      });
      e.emit({ type: "tool.args.assembled", toolCallId, input, turnId: home.turnId, messageId: home.messageId });
    } else {
      callId = e.toolStart({
        ...(chain[0] !== undefined ? { toolCallId: chain[0] } : {}),
        name,
        ...(itemId !== undefined ? { itemId } : {}),
      });
      e.toolAssemble(callId, { input });
    }
    if (rawType === "tool_search_call") for (const id of chain) this.toolSearches.set(id, callId);
  }

  /** Marks a call whose result is still to come, so its message's end is held (§8 item 14). */
  private expect(toolCallId: string, home: CallHome): void {
    this.homes.set(toolCallId, home);
    const set = this.pending.get(home.messageId) ?? new Set<string>();
    set.add(toolCallId);
    this.pending.set(home.messageId, set);
  }

  private onToolOutput(item: JsonObject, raw: JsonObject): void {
    const e = this.engine;
    const callId = str(raw, "callId") ?? str(raw, "call_id");
    if (callId === undefined) return e.unparsed({ item }, "tool output without a call id");
    const rawType = str(raw, "type") ?? "";
    let content: AgBlock[];
    let outcome: "ok" | "error" = "ok";
    let structured: unknown;
    switch (rawType) {
      case "computer_call_result":
        content = [screenshotBlock(obj(raw, "output"))];
        break;
      case "shell_call_output":
        // The per-command output the SDK fed the model (stdout, stderr, outcome) is the structured
        // result (§2.1 structuredContent, verbatim); the code-result blocks render it (§8 item 20).
        if (Array.isArray(raw.output)) structured = json(raw.output);
        content = (arr(raw, "output") ?? []).map((o): AgBlock => {
          const outcomeObj = obj(o, "outcome");
          const exit = outcomeObj?.exitCode ?? outcomeObj?.exit_code;
          return {
            type: "code-result",
            outcome:
              str(outcomeObj, "type") === "timeout"
                ? "deadline_exceeded"
                : exit === undefined || exit === null || exit === 0
                  ? "ok"
                  : "failed",
            output: (str(o, "stdout") ?? "") + (str(o, "stderr") ?? ""),
          };
        });
        break;
      case "apply_patch_call_output":
        outcome = str(raw, "status") === "failed" ? "error" : "ok";
        content = str(raw, "output") !== undefined ? [{ type: "text", text: str(raw, "output")! }] : [];
        break;
      default:
        content = outputBlocks(raw.output, item.output);
    }
    const meta: JsonObject = { type: rawType || "function_call_result" };
    // A function result's item status (in_progress / completed / incomplete) has no §2 field; it rides
    // the OpenAI bag, and re-input hands it back on the function_call_output item (D17, §0.2).
    if ((rawType === "" || rawType === "function_call_result") && raw.status !== undefined) meta.status = json(raw.status);
    this.landResult(callId, content, outcome, meta, structured);
  }

  /** Lands a client-executed result in the message its call went to, then releases that message if complete. */
  private landResult(callId: string, content: AgBlock[], outcome: "ok" | "error", meta: JsonObject, structuredContent?: unknown): void {
    const e = this.engine;
    const home = this.homes.get(callId);
    // An error result names its error (§2: errorText is present iff outcome is error).
    const error = outcome === "error" ? { isError: true as const, errorText: errorTextOf(content) } : {};
    const structured = structuredContent !== undefined ? { structuredContent } : {};
    if (!home) {
      e.toolDone({ toolCallId: callId, content, outcome, ...error, ...structured, providerMetadata: meta });
      return;
    }
    e.emit({
      type: "tool.done",
      toolCallId: callId,
      content,
      outcome,
      ...error,
      ...structured,
      providerMetadata: meta,
      turnId: home.turnId,
      messageId: home.messageId,
    });
  }

  private onHandoff(item: JsonObject, raw: JsonObject): void {
    const e = this.engine;
    const callId = str(raw, "callId") ?? str(raw, "call_id");
    if (callId !== undefined) this.landResult(callId, outputBlocks(raw.output, undefined), "ok", { type: "handoff_output" });
    const from = str(obj(item, "sourceAgent"), "name");
    const to = str(obj(item, "targetAgent"), "name");
    e.emit({
      type: "handoff",
      kind: "transfer",
      ...(from !== undefined ? { fromAgentId: from } : {}),
      ...(to !== undefined ? { toAgentId: to, toAgentName: to } : {}),
      turnId: e.ensureTurn(),
    });
  }

  private onToolSearchOutput(raw: JsonObject): void {
    const e = this.engine;
    const callId = correlationChain(raw)
      .map((id) => this.toolSearches.get(id))
      .find((id) => id !== undefined);
    if (callId === undefined) {
      e.ext("tool-search-output", { item: raw });
      return;
    }
    // A structured listing, kept even when it lists nothing (§8 item 20).
    this.landResult(callId, [{ type: "data", name: "tools", data: arr(raw, "tools") ?? [] }], "ok", { type: "tool_search_output" });
  }

  private onApproval(item: JsonObject, raw: JsonObject): void {
    const e = this.engine;
    const callId = str(raw, "callId") ?? str(raw, "call_id") ?? str(raw, "id");
    const askId = callId ?? e.mintId("ask");
    const ask: AgPausedAsk = { askId, kind: "approval", ...(callId !== undefined ? { toolCallId: callId } : {}) };
    const metadata: JsonObject = {};
    for (const k of ["name", "arguments", "type"]) if (raw[k] !== undefined) metadata[k] = raw[k];
    const agent = str(obj(item, "agent"), "name");
    if (agent !== undefined) metadata.agent = agent;
    ask.metadata = metadata;
    e.emit({ type: "hitl.ask", ...ask, turnId: e.ensureTurn() });
    this.asks.push(ask);
    // The run stops here until the host approves: the turn closes paused (§7), not on a tool call.
    e.endResponse({ finishReason: "paused", outcome: { type: "paused", asks: [...this.asks] } });
  }

  // ── host-fed lines (§8.0 host obligation 1) ──────────────────────────────────────────────

  /**
   * Raw built-in / hosted items the run never re-reported as run items (the SDK threw first):
   * carried verbatim, so nothing the model produced is dropped (§8.0 graceful degradation).
   */
  private carryUnpaired(): void {
    for (const item of this.unpaired.values()) this.engine.ext("unpaired-item", { reason: "no run item followed this raw item", item });
    this.unpaired.clear();
  }

  protected override settleBeforeFlush(): void {
    this.carryUnpaired();
    super.settleBeforeFlush();
  }

  private onHostError(chunk: JsonObject): void {
    const e = this.engine;
    const name = str(chunk, "name") ?? "Error";
    const message = str(chunk, "message") ?? name;
    this.carryUnpaired();
    if (obj(chunk, "guardrail")) this.onGuardrail(obj(chunk, "guardrail")!, true);
    const mapped = own(HOST_ERROR_CODES, name) ?? { code: "host_error" };
    if (!e.currentTurn() && this.failed) {
      // The stream already closed the turn with its own error: the exception repeats it.
      e.warn(mapped.code, message);
      return;
    }
    if (name === "AbortError") {
      e.ensureTurn();
      e.abortTurn("cancelled");
      return;
    }
    e.failTurn({ message, code: mapped.code, ...(mapped.retriable ? { retriable: true } : {}) });
  }

  private onGuardrail(g: JsonObject, tripped: boolean): void {
    const e = this.engine;
    const target = str(g, "target");
    const triggered = tripped || g.tripwireTriggered === true;
    const name = str(g, "name");
    const key = `${target ?? "input"}\u0000${name ?? ""}`;
    if (this.guardrailsSeen.has(key)) return;
    this.guardrailsSeen.add(key);
    e.emit({
      type: "guardrail.result",
      target: isGuardrailTarget(target) ? target : "input",
      passed: !triggered,
      ...(triggered ? { action: "terminate" as const } : {}),
      ...(name !== undefined ? { guardrailName: name } : {}),
      ...(g.outputInfo !== undefined ? { _meta: { outputInfo: g.outputInfo } } : {}),
      turnId: e.ensureTurn(),
    });
  }

  // ── output routing: the held closes of §8 item 14, and the caller's seq ─────────────────

  private route(events: AgEvent[]): AgEvent[] {
    const out: AgEvent[] = [];
    const pass = (ev: AgEvent): void => {
      out.push({ ...ev, seq: this.seqOut++ });
    };
    const release = (turnId: string): void => {
      for (const [mid, end] of [...this.held]) {
        if (end.turnId === turnId) {
          this.held.delete(mid);
          this.pending.delete(mid);
          pass(end);
        }
      }
    };
    for (const ev of events) {
      switch (ev.type) {
        case "message.start":
          if (ev.turnId !== undefined) release(ev.turnId);
          this.lastMessage = ev.turnId !== undefined ? { turnId: ev.turnId, messageId: ev.id } : undefined;
          pass(ev);
          break;
        case "tool.start":
          if (!ev.providerExecuted && ev.turnId !== undefined && ev.messageId !== undefined && !this.homes.has(ev.toolCallId)) {
            this.expect(ev.toolCallId, { turnId: ev.turnId, messageId: ev.messageId });
          }
          pass(ev);
          break;
        case "tool.done": {
          pass(ev);
          const home = this.homes.get(ev.toolCallId);
          const waiting = home ? this.pending.get(home.messageId) : undefined;
          if (home && waiting) {
            waiting.delete(ev.toolCallId);
            const end = this.held.get(home.messageId);
            if (waiting.size === 0 && end) {
              this.held.delete(home.messageId);
              this.pending.delete(home.messageId);
              pass(end);
            }
          }
          break;
        }
        case "message.end":
          if ((this.pending.get(ev.id)?.size ?? 0) > 0) this.held.set(ev.id, ev);
          else pass(ev);
          break;
        case "turn.done":
        case "turn.error":
        case "turn.abort":
          if (ev.type === "turn.error") this.failed = true;
          if (ev.turnId !== undefined) release(ev.turnId);
          pass(ev);
          break;
        default:
          pass(ev);
      }
    }
    return out;
  }
}

function isGuardrailTarget(x: string | undefined): x is AgGuardrailTarget {
  return x === "input" || x === "output" || x === "tool";
}

/** Parsed tool arguments (the SDK keeps them as the model's JSON text); text that is not JSON stays text. */
function parseArgs(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  if (args.trim() === "") return {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * The tool-search correlation chain the SDK resolves pairs through (§8 item 20): `call_id` /
 * `callId`, then the loader's `providerData.call_id` / `providerData.callId`, then the item's own
 * `id`. Empty when nothing is resolvable.
 */
function correlationChain(raw: JsonObject): string[] {
  const pd = obj(raw, "providerData");
  return [str(raw, "call_id"), str(raw, "callId"), str(pd, "call_id"), str(pd, "callId"), str(raw, "id")].filter(
    (x): x is string => x !== undefined && x !== "",
  );
}

/** `computer_call_result` output → a `file` block: a screenshot is an image, never text (§8 item 20). */
function screenshotBlock(output: JsonObject | undefined): AgBlock {
  const data = str(output, "data") ?? str(output, "image_url") ?? "";
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(data);
  if (m) return { type: "file", source: { type: "base64", mediaType: m[1]!, data: m[2]! } };
  if (/^https?:\/\//.test(data)) return { type: "file", source: { type: "url", url: data } };
  return { type: "file", source: { type: "base64", mediaType: "image/png", data } };
}

/**
 * A function tool's result as AgBlocks: the structured output the SDK sends back to the model
 * (`{type:"text"|"image"|"file", …}` or a list of them), else the value the tool returned.
 */
function outputBlocks(output: unknown, returned: unknown): AgBlock[] {
  const one = (o: unknown): AgBlock => {
    if (typeof o === "string") return { type: "text", text: o };
    const type = str(o, "type");
    if ((type === "text" || type === "input_text") && str(o, "text") !== undefined) return { type: "text", text: str(o, "text")! };
    if (type === "image" || type === "input_image") {
      const url = str(o, "image") ?? str(o, "image_url") ?? str(o, "url") ?? str(o, "data") ?? "";
      const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
      return m
        ? { type: "image", source: { type: "base64", mediaType: m[1]!, data: m[2]! } }
        : { type: "image", source: { type: "url", url } };
    }
    return { type: "data", name: type ?? "output", data: json(o) };
  };
  if (Array.isArray(output)) return output.map(one);
  if (output !== undefined && output !== null) return [one(output)];
  if (returned !== undefined && returned !== null)
    return [one(typeof returned === "string" ? returned : { type: "result", value: json(returned) })];
  return [];
}

/** The error text of a failed client result: its text, else a generic line (never empty). */
function errorTextOf(content: AgBlock[]): string {
  const text = content.map((b) => (b.type === "text" ? b.text : b.type === "code-result" ? b.output : "")).join("");
  return text !== "" ? text : "the tool reported a failure";
}
