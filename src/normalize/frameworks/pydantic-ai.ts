/**
 * Pydantic AI facet: the events of `agent.run_stream_events()` (or `agent.iter()` node streams), each
 * written by `pydantic_core.to_json` — `event_kind`-discriminated dataclasses of
 * `pydantic_ai_slim/pydantic_ai/messages.py` and `run.py`, read at
 * pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491 (docs/normalize/pydantic-ai.md).
 *
 * One agent run is one turn, closed by `agent_run_result`; a stream that ends without it is
 * truncated (INV-FLUSH). Each model response is one assistant message: it opens at the `part_start`
 * with no `previous_part_kind` (the framework sets that field on every later part of the same
 * response) and is sealed when the framework starts handling it (`function_tool_call`, …). Function
 * and output tool results of one round land in one adopted `role:"tool"` message (§5 tool.done),
 * as the framework gathers them into one `ModelRequest`.
 *
 * Parts are index-keyed and re-keyed to ids here (§8 item 5). Where the framework's `apply` and the
 * spec's prose disagree the framework wins (docs/spec-decisions.md D27):
 * - a tool call's `tool_name_delta` appends, its `tool_call_id` replaces, a string `args_delta`
 *   appends and a dict one merges — so its identity is only settled once the framework moves on
 *   from it (a part at another index starts, or the response ends: a `part_start` at the same index
 *   still replaces it), where the call is released as `tool.start` + `tool.args.*` (§8 item 10: no
 *   `tool.start` before a stable id);
 * - `ThinkingPartDelta.signature_delta` REPLACES the signature ("never treated as a delta"), so each
 *   one is a `reasoning.opaque` REPLACE, never a `reasoning.opaque.delta` append (§8 item 9).
 */
import type { AgEventDraft, NormalizerOptions } from "../engine.js";
import type { AgFinishReason, AgPausedAsk, AgUsage } from "../../../generated/types.js";
import { ProviderFacet } from "../facet.js";
import {
  PYDANTIC_VENDOR,
  callExtras,
  compactionBlock,
  filePartBlock,
  isMedia,
  mediaBlock,
  partMeta,
  providerDetails,
  resultFields,
  toolInput,
} from "./pydantic-ai-parts.js";
import { arr, isObject, num, obj, own, providerMeta, setUsage, str, type JsonObject } from "../util.js";

/** `ModelResponse.finish_reason` (OpenTelemetry values) → AgFinishReason. */
const FINISH: Record<string, AgFinishReason> = {
  stop: "stop",
  length: "token_limit",
  content_filter: "safety_blocked",
  tool_call: "tool_call",
  error: "other",
};

/**
 * Events with no AgJSON counterpart beyond what the part stream already carried: each rides
 * `ext.pydantic.frame {kind, frame}` verbatim (the one bulk carry of §8 item 22), never dropped (§8.0).
 */
const FRAME_KINDS = new Set([
  "final_result",
  "function_tool_call",
  "output_tool_call",
  "deferred_tool_results",
  "tool_availability_delta",
  "enqueued_messages",
  "realtime_turn_complete",
  "realtime_input_speech_start",
  "realtime_response_interrupted",
  "realtime_input_speech_end",
  "realtime_output_speech_start",
  "realtime_output_speech_end",
  "realtime_input_transcription_error",
  "realtime_session_reconnect",
  "realtime_session_error",
]);

/** A streamed text or thinking part: its block and what of it is on the wire already. */
interface ProseState {
  kind: "text" | "thinking";
  blockId: string;
  /** Content emitted so far (the prefix later snapshots must extend, INV-DELTA). */
  content: string;
  providerName?: string;
  providerDetails?: JsonObject;
  /** The signature (and its provider) last sent as `reasoning.opaque`. */
  signature?: string;
  signatureProvider?: string;
}

/** A tool call (function, output or builtin) held until its identity is settled (§8 item 10). */
interface CallState {
  kind: "call";
  /** The call as the framework's `apply` has built it so far. */
  part: JsonObject;
  ended: boolean;
  released?: { toolCallId: string; name: unknown; nativeId: string | undefined; key: string };
}

/**
 * A part that arrives whole (builtin return, compaction, file), held like a call: OpenAI's added /
 * done items replace it at the same index, and §5 reconciles none of these blocks by id.
 */
interface WholeState {
  kind: "whole";
  part: JsonObject;
  chunk: JsonObject;
}

type PartState = ProseState | CallState | WholeState | { kind: "other" };

/** Pydantic AI `AgentStreamEvent` / `AgentRunResultEvent` JSON → AgEvents. */
export class PydanticAiFacet extends ProviderFacet {
  /** Parts of the model response being streamed, by the framework's part index. */
  private parts = new Map<number, PartState>();
  private inResponse = false;
  /** The adopted tool message of the current round of function / output tool results. */
  private toolMessageId: string | undefined;
  /** Native `tool_call_id` → the `toolCallId` it went out as (INV-BLOCK may suffix a repeat). */
  private readonly callIds = new Map<string, string>();
  private readonly pendingApprovals = new Map<string, AgPausedAsk>();
  private readonly pendingCalls = new Set<string>();

  constructor(opts: NormalizerOptions = {}) {
    super(PYDANTIC_VENDOR, opts);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) {
      e.unparsed(chunk, "not a Pydantic AI event object");
      return;
    }
    const kind = str(chunk, "event_kind");
    switch (kind) {
      case "part_start":
        this.partStart(chunk);
        return;
      case "part_delta":
        this.partDelta(chunk);
        return;
      case "part_end":
        this.partEnd(chunk);
        return;
      case "function_tool_result":
      case "output_tool_result":
        this.finishResponse();
        this.toolResult(chunk);
        return;
      case "deferred_tool_requests":
        this.finishResponse();
        this.deferredRequests(chunk);
        return;
      case "agent_run_result":
        this.finishResponse();
        this.runResult(chunk);
        return;
      case "__host_error__":
        // §8.0 host obligation 1: an exception the run raised, fed by the host (docs/normalize/pydantic-ai.md).
        this.finishResponse();
        e.failTurn({ message: str(chunk, "message") ?? "the agent run raised", code: hostErrorCode(str(chunk, "type")) });
        return;
    }
    if (kind !== undefined && FRAME_KINDS.has(kind)) {
      if (kind !== "final_result" && !kind.startsWith("realtime_")) this.finishResponse();
      if (kind === "deferred_tool_results") this.resolveDeferred(chunk);
      e.ext("frame", { kind, frame: chunk });
      return;
    }
    e.unparsed(chunk, kind === undefined ? "no event_kind" : `unknown event_kind '${kind}'`);
  }

  // ── model response parts ────────────────────────────────────────────────────────────────

  private partIndex(chunk: JsonObject): number | undefined {
    const index = this.engine.providerIndex(chunk, "index", chunk);
    if (index === undefined && chunk.index === undefined)
      this.engine.unparsed(chunk, `${str(chunk, "event_kind") ?? "part event"} without an index`);
    return index;
  }

  private partStart(chunk: JsonObject): void {
    const index = this.partIndex(chunk);
    const part = obj(chunk, "part");
    if (index === undefined) return;
    if (!part) {
      this.engine.unparsed(chunk, "part_start without a part");
      return;
    }
    // The framework sets previous_part_kind on every part of a response but its first.
    const prev = chunk.previous_part_kind;
    if (!this.inResponse || prev === null || (prev === undefined && index === 0 && this.parts.size > 0)) this.startResponse();
    this.openPart(index, part, chunk);
  }

  private openPart(index: number, part: JsonObject, chunk: JsonObject): void {
    const e = this.engine;
    // A part at another index starts: the framework is done with the held ones (it ends the
    // previous part before starting the next), so they go out now, in place (§5 block order).
    this.releaseHeld(index);
    const existing = this.parts.get(index);
    const kind = str(part, "part_kind");
    switch (kind) {
      case "text":
      case "thinking": {
        // "If multiple PartStartEvents are received with the same index, the new one should fully replace the old one."
        if (existing !== undefined && existing.kind === kind) {
          this.reconcileProse(existing, part);
          return;
        }
        const pd = providerDetails(part);
        const content = str(part, "content") ?? "";
        const providerName = str(part, "provider_name");
        let blockId: string;
        if (kind === "text") {
          const meta = partMeta(part);
          blockId = e.textStart({ ...(pd ? { providerMetadata: pd } : {}), ...(meta ? { _meta: meta } : {}) });
          e.textDelta(blockId, content);
        } else {
          const itemId = str(part, "id");
          blockId = e.reasoningStart({ ...(itemId !== undefined ? { itemId } : {}), ...(pd ? { providerMetadata: pd } : {}) });
          e.reasoningDelta(blockId, content);
        }
        const state: ProseState = { kind, blockId, content };
        if (providerName !== undefined) state.providerName = providerName;
        if (pd) state.providerDetails = pd;
        this.parts.set(index, state);
        if (kind === "thinking") this.signature(state, str(part, "signature"));
        return;
      }
      case "tool-call":
      case "builtin-tool-call":
        if (existing?.kind === "call") {
          existing.part = part;
          existing.ended = false;
        } else this.parts.set(index, { kind: "call", part, ended: false });
        return;
      case "builtin-tool-return":
      case "compaction":
      case "file":
        // Sent when the framework moves on (releaseHeld); a part_start at this index replaces it.
        this.parts.set(index, { kind: "whole", part, chunk });
        return;
      default:
        // Speech (realtime only) and kinds newer than this facet: carried, never guessed at.
        this.parts.set(index, { kind: "other" });
        e.unparsed(chunk, `part kind '${kind ?? "(none)"}' has no AgJSON mapping`);
    }
  }

  private partDelta(chunk: JsonObject): void {
    const e = this.engine;
    const index = this.partIndex(chunk);
    if (index === undefined) return;
    const delta = obj(chunk, "delta");
    const state = this.inResponse ? this.parts.get(index) : undefined;
    const kind = str(delta, "part_delta_kind");
    if (!delta || state === undefined || state.kind === "other" || state.kind === "whole" || !matches(state.kind, kind)) {
      e.unparsed(
        chunk,
        state === undefined ? "part_delta for a part that never started" : `part_delta '${kind ?? "(none)"}' does not apply to this part`,
      );
      return;
    }
    if (state.kind === "call") {
      this.applyCallDelta(state, delta, chunk);
      return;
    }
    const content = str(delta, "content_delta");
    if (content !== undefined) {
      if (state.kind === "text") e.textDelta(state.blockId, content);
      else e.reasoningDelta(state.blockId, content);
      state.content += content;
    }
    const providerName = str(delta, "provider_name");
    if (providerName !== undefined) state.providerName = providerName;
    const pd = obj(delta, "provider_details");
    if (pd) state.providerDetails = { ...(state.providerDetails ?? {}), ...pd };
    // D27: signature_delta REPLACES ("never treated as a delta"), so it is a REPLACE on the wire.
    if (state.kind === "thinking") this.signature(state, str(delta, "signature_delta"));
  }

  private partEnd(chunk: JsonObject): void {
    const index = this.partIndex(chunk);
    if (index === undefined) return;
    const part = obj(chunk, "part");
    if (!part) {
      this.engine.unparsed(chunk, "part_end without a part");
      return;
    }
    let state = this.inResponse ? this.parts.get(index) : undefined;
    if (state === undefined) {
      // An end whose start never arrived: the framework's complete part opens it.
      if (!this.inResponse) this.startResponse();
      this.openPart(index, part, chunk);
      state = this.parts.get(index);
    }
    if (state === undefined || state.kind === "other" || state.kind === "whole") return;
    if (state.kind === "call") {
      // Held until another part starts or the response ends: a part_start at this same index
      // would still replace it (messages.py PartStartEvent).
      state.part = part;
      state.ended = true;
      if (state.released) this.changedAfterRelease(state);
      return;
    }
    // The framework's complete part is authoritative: what the deltas left out is sent now.
    this.reconcileProse(state, part);
  }

  /** Brings a text / thinking block up to the framework's complete (or replacing) part. */
  private reconcileProse(state: ProseState, part: JsonObject): void {
    const e = this.engine;
    const full = str(part, "content") ?? "";
    if (full.startsWith(state.content)) {
      const rest = full.slice(state.content.length);
      if (state.kind === "text") e.textDelta(state.blockId, rest);
      else e.reasoningDelta(state.blockId, rest);
      state.content = full;
    } else if (full !== state.content) {
      e.warn(
        "non_prefix_snapshot",
        `Part content for '${state.blockId}' does not extend what was already emitted; the new content is carried unparsed.`,
      );
      e.unparsed({ id: state.blockId, snapshot: full }, "non-prefix part content");
    }
    const providerName = str(part, "provider_name");
    if (providerName !== undefined) state.providerName = providerName;
    const pd = providerDetails(part);
    if (pd) state.providerDetails = pd;
    if (state.kind === "thinking") this.signature(state, str(part, "signature"));
  }

  /** Sends a thinking part's signature as the reasoning block's opaque REPLACE, byte-identical (§5, §10 item 13). */
  private signature(state: ProseState, value: string | undefined): void {
    if (value === undefined) return;
    const provider = state.providerName ?? PYDANTIC_VENDOR;
    if (value === state.signature && provider === state.signatureProvider) return;
    this.engine.emit({ type: "reasoning.opaque", id: state.blockId, kind: "signature", value, provider });
    state.signature = value;
    state.signatureProvider = provider;
  }

  /** `ToolCallPartDelta.apply` (messages.py `_apply_to_part`), on the held call. */
  private applyCallDelta(state: CallState, delta: JsonObject, chunk: JsonObject): void {
    const part = { ...state.part };
    const name = str(delta, "tool_name_delta");
    if (name) part.tool_name = (str(part, "tool_name") ?? "") + name;
    const args = delta.args_delta;
    if (typeof args === "string") {
      if (isObject(part.args)) return this.conflict(chunk, "a JSON text args_delta on dict arguments");
      part.args = (typeof part.args === "string" ? part.args : "") + args;
    } else if (isObject(args)) {
      if (typeof part.args === "string") return this.conflict(chunk, "a dict args_delta on JSON text arguments");
      part.args = { ...(isObject(part.args) ? part.args : {}), ...args };
    }
    const id = str(delta, "tool_call_id");
    if (id) part.tool_call_id = id;
    const providerName = str(delta, "provider_name");
    if (providerName) part.provider_name = providerName;
    const pd = obj(delta, "provider_details");
    if (pd && Object.keys(pd).length > 0) part.provider_details = { ...(obj(part, "provider_details") ?? {}), ...pd };
    state.part = part;
    if (state.released) this.changedAfterRelease(state);
  }

  /** The framework raises UnexpectedModelBehavior here; the delta is carried, the call kept (§8.0). */
  private conflict(chunk: JsonObject, what: string): void {
    this.engine.warn("unexpected_model_behavior", `Pydantic AI refuses ${what}; the delta rides ext.${PYDANTIC_VENDOR}.unparsed (§8.0).`);
    this.engine.unparsed(chunk, what);
  }

  /** Sends a held call: `tool.start`, its raw argument text, and (once complete) `tool.args.assembled`. */
  private release(state: CallState): void {
    const e = this.engine;
    const p = state.part;
    const nativeId = str(p, "tool_call_id");
    const extras = callExtras(p);
    const toolCallId = e.toolStart({
      ...(nativeId !== undefined ? { toolCallId: nativeId } : {}),
      name: p.tool_name,
      ...(extras.providerExecuted ? { providerExecuted: true } : {}),
      ...(extras.itemId !== undefined ? { itemId: extras.itemId } : {}),
      ...(extras.providerMetadata ? { providerMetadata: extras.providerMetadata } : {}),
      ...(extras.toolMetadata ? { toolMetadata: extras.toolMetadata } : {}),
    });
    if (nativeId !== undefined && !this.callIds.has(nativeId)) this.callIds.set(nativeId, toolCallId);
    if (typeof p.args === "string") e.toolArgsDelta(toolCallId, p.args);
    state.released = { toolCallId, name: p.tool_name, nativeId, key: "" };
    if (!state.ended) return;
    const { input, malformed } = toolInput(p.args);
    if (malformed) e.warn("malformed_tool_args", `Tool call '${toolCallId}' arguments are not valid JSON; its input carries the raw text.`);
    e.toolAssemble(toolCallId, { input });
    state.released.key = callKey(p);
  }

  /**
   * A released call the framework changed afterwards (an interleaved late delta): a sent call is
   * never re-stated — `tool.args.assembled` is once per call (INV-BLOCK) and a name or id cannot
   * change (§8 item 10) — so the change is reported and carried (§8.0).
   */
  private changedAfterRelease(state: CallState): void {
    const e = this.engine;
    const r = state.released!;
    const p = state.part;
    const key = callKey(p);
    if (key === r.key && p.tool_name === r.name && str(p, "tool_call_id") === r.nativeId) return;
    r.key = key;
    r.name = p.tool_name;
    r.nativeId = str(p, "tool_call_id");
    e.warn(
      "tool_call_changed",
      `Tool call '${r.toolCallId}' changed after it was sent; the framework's new part rides ext.${PYDANTIC_VENDOR}.unparsed (§8 item 10).`,
    );
    e.unparsed({ toolCallId: r.toolCallId, part: p }, "tool call changed after it was sent");
  }

  /** Sends every held call and builtin return but the one at `except`, in index order. */
  private releaseHeld(except?: number): void {
    for (const i of [...this.parts.keys()].sort((a, b) => a - b)) {
      if (i === except) continue;
      const state = this.parts.get(i)!;
      if (state.kind === "call" && !state.released) {
        state.ended = true;
        this.release(state);
      } else if (state.kind === "whole") {
        this.parts.set(i, { kind: "other" });
        this.wholePart(state);
      }
    }
  }

  /**
   * A whole part goes out: a builtin tool's return as `tool.done` in the response's own message
   * (provider-executed, §2); a compaction or file part as one `content.block`.
   */
  private wholePart(state: WholeState): void {
    const e = this.engine;
    if (str(state.part, "part_kind") !== "builtin-tool-return") {
      const block = str(state.part, "part_kind") === "compaction" ? compactionBlock(state.part) : filePartBlock(state.part);
      if (block) e.contentBlock(block);
      else e.unparsed(state.chunk, "file part without binary content");
      return;
    }
    const nativeId = str(state.part, "tool_call_id");
    const f = resultFields(state.part, nativeId !== undefined ? (this.callIds.get(nativeId) ?? nativeId) : undefined);
    if (!f) {
      e.unparsed(state.chunk, "builtin tool return without a tool_call_id");
      return;
    }
    const { providerMetadata, ...rest } = f;
    e.toolDone({ ...rest, ...(providerMetadata ? { providerMetadata } : {}) });
  }

  private startResponse(): void {
    this.finishResponse();
    this.toolMessageId = undefined;
    this.engine.openMessage({ role: "assistant" });
    this.inResponse = true;
  }

  /** The model response is over: held calls go out, prose blocks seal, the message seals (INV-MSG). */
  private finishResponse(): void {
    if (!this.inResponse) return;
    const e = this.engine;
    this.releaseHeld();
    for (const i of [...this.parts.keys()].sort((a, b) => a - b)) {
      const state = this.parts.get(i)!;
      if (state.kind === "text") e.textEnd(state.blockId, state.providerDetails ? { providerMetadata: state.providerDetails } : {});
      else if (state.kind === "thinking") e.reasoningEnd(state.blockId, state.providerDetails, state.providerName ?? PYDANTIC_VENDOR);
    }
    e.closeMessage();
    this.parts.clear();
    this.inResponse = false;
  }

  /**
   * INV-FLUSH: held parts go out as far as they came — a call the stream cut before its `part_end`
   * as its start and raw arguments (no `tool.args.assembled`), a complete one whole, a builtin
   * return as its result; nothing else is closed here.
   */
  protected override settleBeforeFlush(): void {
    if (!this.inResponse) return;
    for (const i of [...this.parts.keys()].sort((a, b) => a - b)) {
      const state = this.parts.get(i)!;
      if (state.kind === "call" && !state.released) this.release(state);
      else if (state.kind === "whole") this.wholePart(state);
    }
  }

  // ── tool results, deferred tools, the run's end ──────────────────────────────────────────

  /** `function_tool_result` / `output_tool_result`: one round's results share one adopted tool message (§5 tool.done). */
  private toolResult(chunk: JsonObject): void {
    const e = this.engine;
    const part = obj(chunk, "part");
    const nativeId = str(part, "tool_call_id");
    const f = part ? resultFields(part, nativeId !== undefined ? (this.callIds.get(nativeId) ?? nativeId) : undefined) : undefined;
    if (!f) {
      e.unparsed(chunk, "tool result without a part naming its call");
      return;
    }
    const turnId = e.ensureTurn();
    this.toolMessageId ??= e.mintId("tool-results", turnId);
    const { providerMetadata, ...rest } = f;
    const ev: AgEventDraft = { type: "tool.done", ...rest, messageId: this.toolMessageId };
    if (providerMetadata) ev.providerMetadata = providerMeta(providerMetadata);
    e.emit(ev);
    if (nativeId !== undefined) {
      this.pendingApprovals.delete(nativeId);
      this.pendingCalls.delete(nativeId);
    }
    // FunctionToolResultEvent.content: what the framework sends the model as a user prompt after the result.
    const content = chunk.content;
    if (content === undefined || content === null) return;
    const items = Array.isArray(content) ? content : [content];
    e.openMessage({ role: "user" });
    for (const item of items) {
      const block = typeof item === "string" ? { type: "text" as const, text: item } : isMedia(item) ? mediaBlock(item) : undefined;
      if (block) e.contentBlock(block);
      else e.contentBlock({ type: "provider-raw", vendor: PYDANTIC_VENDOR, raw: item });
    }
    e.closeMessage();
  }

  /** `deferred_tool_requests`: each approval is a `hitl.ask` (§7); external calls wait for client results. */
  private deferredRequests(chunk: JsonObject): void {
    const e = this.engine;
    const requests = obj(chunk, "requests");
    if (!requests) {
      e.unparsed(chunk, "deferred_tool_requests without requests");
      return;
    }
    const metadata = obj(requests, "metadata");
    e.ensureTurn();
    for (const call of arr(requests, "approvals") ?? []) {
      const nativeId = str(call, "tool_call_id");
      if (nativeId === undefined) {
        e.unparsed(call, "approval request without a tool_call_id");
        continue;
      }
      const toolCallId = this.callIds.get(nativeId) ?? nativeId;
      const ask: AgPausedAsk = { askId: toolCallId, kind: "approval", toolCallId };
      const m = obj(metadata, nativeId);
      if (m) ask.metadata = m;
      this.pendingApprovals.set(nativeId, ask);
      e.emit({ type: "hitl.ask", ...ask });
    }
    for (const call of arr(requests, "calls") ?? []) {
      const nativeId = str(call, "tool_call_id");
      if (nativeId !== undefined) this.pendingCalls.add(nativeId);
    }
  }

  /** `deferred_tool_results` from a handler inside the run: those calls no longer hold the run. */
  private resolveDeferred(chunk: JsonObject): void {
    const results = obj(chunk, "results");
    for (const key of Object.keys(obj(results, "approvals") ?? {})) this.pendingApprovals.delete(key);
    for (const key of Object.keys(obj(results, "calls") ?? {})) this.pendingCalls.delete(key);
  }

  /** `agent_run_result`: the run's close — paused on approvals (§7), else done with its output. */
  private runResult(chunk: JsonObject): void {
    const e = this.engine;
    const result = obj(chunk, "result");
    const state = obj(result, "_state");
    const usage = runUsage(obj(state, "usage"));
    const output = result !== undefined && "output" in result ? result.output : undefined;
    e.ensureTurn();
    const withResult = output !== undefined ? { result: output } : {};
    const common = usage ? { usage } : {};
    if (this.pendingApprovals.size > 0) {
      e.finishTurn({
        finishReason: "paused",
        outcome: { type: "paused", asks: [...this.pendingApprovals.values()], ...withResult },
        ...common,
      });
    } else if (this.pendingCalls.size > 0) {
      e.finishTurn({ finishReason: "tool_call", outcome: { type: "success", ...withResult }, ...common });
    } else {
      // A run that ends on its output tool ends on a `tool_call` response; the turn itself stopped.
      const last = lastFinish(arr(state, "message_history"));
      e.finishTurn({
        finishReason: last === undefined || last === "tool_call" ? "stop" : last,
        outcome: { type: "success", ...withResult },
        ...common,
      });
    }
    if (!result) e.unparsed(chunk, "agent_run_result without a result");
    this.pendingApprovals.clear();
    this.pendingCalls.clear();
  }
}

/** True when a delta kind applies to a part state (messages.py `apply`). */
function matches(state: "text" | "thinking" | "call", deltaKind: string | undefined): boolean {
  return (state === "call" ? "tool_call" : state) === deltaKind;
}

/** What a re-assembled call compares: its input and provider details. */
function callKey(p: JsonObject): string {
  return JSON.stringify([p.args ?? null, providerDetails(p) ?? null]);
}

/** `RunUsage` → AgUsage, counts verbatim (per-run totals the framework summed; never computed here). */
function runUsage(u: JsonObject | undefined): AgUsage | undefined {
  if (!u) return undefined;
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", nonNegative(num(u, "input_tokens")));
  setUsage(usage, "outputTokens", nonNegative(num(u, "output_tokens")));
  setUsage(usage, "cacheReadTokens", nonNegative(num(u, "cache_read_tokens")));
  setUsage(usage, "cacheWriteTokens", nonNegative(num(u, "cache_write_tokens")));
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function nonNegative(n: number | undefined): number | undefined {
  return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The finish reason of the run's last model response in the result's message history. */
function lastFinish(history: unknown[] | undefined): AgFinishReason | undefined {
  for (let i = (history?.length ?? 0) - 1; i >= 0; i--) {
    const m = history![i];
    if (str(m, "kind") !== "response") continue;
    const reason = str(m, "finish_reason");
    return reason !== undefined ? own(FINISH, reason) : undefined;
  }
  return undefined;
}

/** The exception classes a host feeds as `__host_error__` → `turn.error.code` (§8.0 host obligation 1). */
const HOST_ERRORS: Record<string, string> = {
  UsageLimitExceeded: "usage_limit",
  UnexpectedModelBehavior: "model_behavior",
  IncompleteToolCall: "token_limit",
  ModelHTTPError: "http_error",
  ModelAPIError: "model_api_error",
  ContentFilterError: "safety_blocked",
  UserError: "user_error",
  AgentRunError: "agent_run_error",
};

function hostErrorCode(type: string | undefined): string {
  return (type !== undefined ? own(HOST_ERRORS, type) : undefined) ?? "host_error";
}
