/**
 * OpenAI Responses streaming facet (also xAI Responses, LM Studio / Open Responses, Azure,
 * GitHub Copilot). One response (`response.created` … `response.completed`) is one message; its
 * output items become blocks. Items are tracked by `output_index`, never by `item_id`: some
 * providers rotate item ids between events of the same item. The id `output_item.done` gives is
 * the item's id (it is what `response.completed` lists and what a replay must echo), so a block's
 * `itemId` and its `providerMetadata.itemId` both carry it (§2, §12; docs/spec-decisions.md D11).
 */
import type { AgBlock, AgCitation, AgFinishReason, AgPausedAsk, AgUsage } from "../../../generated/types.js";
import type { NormalizerEngine, NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, own, providerMeta, setUsage, str, type JsonObject } from "../util.js";

type ItemTrack =
  | { kind: "message"; parts: Map<number, { id: string; citations: AgCitation[] }>; meta: JsonObject }
  | {
      kind: "reasoning";
      /** The block id once `reasoning.start` went out; absent while the start is held. */
      id: string | undefined;
      /** The item id `output_item.added` gave. */
      addedId: string | undefined;
      /** The item id the `reasoning.start` named (`itemId`). */
      startedItemId: string | undefined;
      /** An event of the item named another item id: the start waits for `output_item.done`. */
      rotated: boolean;
      /** Summary / reasoning text held while the start waits. */
      held: { text: string; partIndex: number | undefined }[];
      partsSeen: Set<number>;
      streamed: boolean;
    }
  | {
      kind: "tool";
      id: string;
      itemType: string;
      client: boolean;
      name: string;
      itemId: string | undefined;
      callId: string | undefined;
      hosted: boolean;
      serverName: string | undefined;
    }
  /** A call whose `call_id` is only final at `output_item.done` (tool search): started there. */
  | { kind: "held-tool"; itemType: string }
  | { kind: "passive"; itemType: string };

interface ResponseState {
  messageId: string;
  items: Map<number, ItemTrack>;
  lastItemType?: string;
  asks: AgPausedAsk[];
  /** call_id of each tool_search_call, for outputs whose own call_id is null (§8 item 20). */
  openToolSearches: string[];
  failed: boolean;
}

/** Hosted tools the provider runs itself: the wire item type → the tool name used on `tool.start`. */
const HOSTED_TOOLS: Record<string, string> = {
  web_search_call: "web_search",
  file_search_call: "file_search",
  code_interpreter_call: "code_interpreter",
  image_generation_call: "image_generation",
  mcp_call: "mcp",
  program: "program",
};

/** Tool items the client executes (their result comes back as input on the next request). */
const CLIENT_TOOLS: Record<string, string> = {
  function_call: "",
  custom_tool_call: "",
  local_shell_call: "local_shell",
  apply_patch_call: "apply_patch",
};

/** Responses usage → AgUsage (per response), values verbatim. */
export function mapResponsesUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", num(u, "input_tokens"));
  setUsage(usage, "outputTokens", num(u, "output_tokens"));
  setUsage(usage, "totalTokens", num(u, "total_tokens"));
  setUsage(usage, "cacheReadTokens", num(obj(u, "input_tokens_details"), "cached_tokens"));
  setUsage(usage, "reasoningTokens", num(obj(u, "output_tokens_details"), "reasoning_tokens"));
  return usage;
}

/**
 * A mapped usage with every count AgJSON can hold (a count is a number ≥ 0, §4 AgUsage); a count
 * out of range is left out and reported — a non-terminal `error` plus the provider's usage in
 * `ext.<vendor>.unparsed` (§8.0: never silently dropped).
 */
export function checkedUsage(e: NormalizerEngine, usage: AgUsage | undefined, raw: unknown): AgUsage | undefined {
  if (!usage) return usage;
  const bad = Object.entries(usage).filter(([, v]) => typeof v === "number" && !(v >= 0));
  if (bad.length === 0) return usage;
  const kept: AgUsage = { ...usage };
  for (const [k] of bad) delete kept[k as keyof AgUsage];
  e.warn(
    "invalid_provider_value",
    `usage counts AgJSON cannot hold (${bad.map(([k, v]) => `${k}=${String(v)}`).join(", ")}) were left out; the provider's usage rides ext.${e.vendor}.unparsed (§8.0)`,
  );
  e.unparsed({ usage: raw }, "usage count out of range");
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** A summary part index AgJSON can hold (a non-negative integer), else undefined and reported (§8.0). */
function partIndexOf(e: NormalizerEngine, chunk: JsonObject): number | undefined {
  const v = chunk.summary_index;
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  e.unparsed(chunk, "summary_index is not a non-negative integer; the text is kept without a part index");
  return undefined;
}

/** Normalizer for the Responses event stream. */
export class OpenAiResponsesFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;

  constructor(opts: NormalizerOptions = {}) {
    super("openai", opts);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    const type = str(chunk, "type");
    if (!isObject(chunk) || type === undefined) {
      e.unparsed(chunk, "not a Responses stream event");
      return;
    }
    switch (type) {
      case "response.created":
        return this.onCreated(chunk);
      case "response.in_progress":
      case "response.queued":
        this.ensureResponse(obj(chunk, "response"));
        return;
      case "response.completed":
      case "response.incomplete":
        return this.onCompleted(chunk);
      case "response.failed":
        return this.onFailed(obj(chunk, "response"), obj(obj(chunk, "response"), "error"));
      case "error":
        return this.onFailed(undefined, obj(chunk, "error") ?? chunk);
      case "response.output_item.added":
        return this.onItemAdded(chunk);
      case "response.output_item.done":
        return this.onItemDone(chunk);
      case "response.content_part.added":
        return this.onPartAdded(chunk);
      case "response.content_part.done":
        return this.onPartDone(chunk);
      case "response.output_text.delta":
      case "response.refusal.delta":
        return this.onTextDelta(chunk);
      case "response.output_text.done":
      case "response.refusal.done":
        return this.onTextDone(chunk);
      case "response.output_text.annotation.added":
        return this.onAnnotation(chunk);
      case "response.reasoning_summary_part.added":
      case "response.reasoning_summary_part.done":
      case "response.reasoning_summary_text.done":
      case "response.reasoning_text.done":
        return this.onReasoningMarker(chunk);
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.onReasoningDelta(chunk);
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
      case "response.mcp_call_arguments.delta":
        return this.onArgsDelta(chunk);
      case "response.function_call_arguments.done":
      case "response.custom_tool_call_input.done":
      case "response.mcp_call_arguments.done":
        return this.onArgsDone(chunk);
      case "response.image_generation_call.partial_image":
        return this.onPartialImage(chunk);
      default:
        // Hosted-tool progress markers and the streamed code/command/diff/output text of hosted
        // items: their content lands complete with `output_item.done`, so nothing is lost here.
        // A marker naming no stream position still has its bad output_index reported (§8.0).
        if (
          /^response\.[a-z_]+\.(in_progress|searching|interpreting|generating|completed|failed)$/.test(type) ||
          /^response\.(code_interpreter_call_code|shell_call_command|shell_call_output_content|apply_patch_call_operation_diff)\.(added|delta|done)$/.test(
            type,
          )
        ) {
          e.providerIndex(chunk, "output_index", chunk, `${type}.output_index`);
          return;
        }
        e.unparsed(chunk, `unknown event type '${type}'`);
    }
  }

  private onCreated(chunk: JsonObject): void {
    if (this.response) this.closeResponse(undefined);
    this.ensureResponse(obj(chunk, "response"));
  }

  private ensureResponse(resp: JsonObject | undefined): ResponseState {
    if (this.response) return this.response;
    const e = this.engine;
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const id = str(resp, "id");
    const model = str(resp, "model");
    const messageId = e.openMessage({
      ...(id !== undefined ? { id, turnHint: `turn_${id}` } : {}),
      role: "assistant",
      ...(model ? { model } : {}),
    });
    this.responsesInTurn++;
    this.response = { messageId, items: new Map(), asks: [], openToolSearches: [], failed: false };
    return this.response;
  }

  private item(chunk: JsonObject): ItemTrack | undefined {
    return this.ensureResponse(undefined).items.get(num(chunk, "output_index") ?? -1);
  }

  private onItemAdded(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse(undefined);
    // An output_index that is no stream position (fractional, negative) is reported (§8.0), and still
    // keys the item, so the deltas and the done that name it find it.
    const given = num(chunk, "output_index");
    if (given !== undefined && !(Number.isSafeInteger(given) && given >= 0))
      e.providerIndex(chunk, "output_index", chunk, "response.output_item.added.output_index");
    const index = given ?? r.items.size;
    const item = obj(chunk, "item");
    const itemType = str(item, "type") ?? "";
    const itemId = str(item, "id");
    r.lastItemType = itemType;
    if (itemType === "message") {
      const meta: JsonObject = {};
      if (itemId !== undefined) meta.itemId = itemId;
      if (item?.phase !== undefined) meta.phase = item.phase;
      r.items.set(index, { kind: "message", parts: new Map(), meta });
    } else if (itemType === "reasoning") {
      // The start waits for the item's first content, whose item_id says whether ids rotate (D11).
      r.items.set(index, {
        kind: "reasoning",
        id: undefined,
        addedId: itemId,
        startedItemId: undefined,
        rotated: false,
        held: [],
        partsSeen: new Set(),
        streamed: false,
      });
    } else if (itemType === "tool_search_call") {
      // Its call_id (the toolCallId) may change by `output_item.done` and its arguments only
      // arrive there: the call starts at done, under the final ids (§8 item 20, D11).
      r.items.set(index, { kind: "held-tool", itemType });
    } else if (own(CLIENT_TOOLS, itemType) !== undefined || own(HOSTED_TOOLS, itemType) !== undefined || itemType === "shell_call") {
      this.startTool(r, index, item ?? {});
    } else {
      r.items.set(index, { kind: "passive", itemType });
    }
  }

  /** Opens the tool call of an output item: `tool.start` under its call_id, the item id on `itemId` (§2). */
  private startTool(r: ResponseState, index: number, item: JsonObject): Extract<ItemTrack, { kind: "tool" }> {
    const e = this.engine;
    const itemType = str(item, "type") ?? "";
    const itemId = str(item, "id");
    const hosted =
      own(HOSTED_TOOLS, itemType) !== undefined ||
      (itemType === "shell_call" && str(obj(item, "environment"), "type") !== "local") ||
      (itemType === "tool_search_call" && str(item, "execution") === "server");
    // The call is correlated by call_id (the AgJSON toolCallId); the item id rides itemId (§2).
    const callId = str(item, "call_id") ?? itemId;
    // A name that is not a string refuses the call into `unparsed` (§8.0), never a made-up name.
    const given = item?.name;
    const name =
      given !== undefined && given !== null && typeof given !== "string"
        ? (given as never)
        : str(item, "name") || own(CLIENT_TOOLS, itemType) || own(HOSTED_TOOLS, itemType) || itemType.replace(/_call$/, "");
    const serverName = str(item, "server_label");
    const id = e.toolStart({
      ...(callId !== undefined ? { toolCallId: callId } : {}),
      name,
      ...(hosted ? { providerExecuted: true } : {}),
      ...(serverName !== undefined ? { serverName } : {}),
      ...(itemId !== undefined ? { itemId } : {}),
    });
    if (itemType === "tool_search_call") r.openToolSearches.push(id);
    const track: Extract<ItemTrack, { kind: "tool" }> = {
      kind: "tool",
      id,
      itemType,
      client: !hosted,
      name,
      itemId,
      callId,
      hosted,
      serverName,
    };
    r.items.set(index, track);
    return track;
  }

  private onItemDone(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse(undefined);
    const index = num(chunk, "output_index") ?? -1;
    const item = obj(chunk, "item") ?? {};
    const itemType = str(item, "type") ?? "";
    let track = r.items.get(index);
    if (!track) {
      this.onItemAdded(chunk);
      track = r.items.get(index);
    }
    if (!track) return;
    const itemId = str(item, "id");
    switch (track.kind) {
      case "message": {
        // The done item's id is the item's id: text.end's providerMetadata carries it (D11).
        if (itemId !== undefined) track.meta.itemId = itemId;
        // Parts never streamed (or streamed short) are completed from the item (INV-DELTA).
        (arr(item, "content") ?? []).forEach((part, ci) => {
          const text = str(part, "text") ?? str(part, "refusal");
          if (text === undefined) return;
          let p = track.parts.get(ci);
          if (!p) {
            this.onPartAdded({ output_index: index, content_index: ci, part });
            p = track.parts.get(ci);
          }
          if (p && e.isOpen(p.id)) e.textSnapshot(p.id, text);
        });
        for (const p of track.parts.values()) e.textEnd(p.id, { citations: p.citations, providerMetadata: track.meta });
        return;
      }
      case "reasoning":
        return this.onReasoningItemDone(track, item);
      case "held-tool":
        return this.onToolItemDone(this.startTool(r, index, item), item);
      case "tool":
        return this.onToolItemDone(track, item);
      case "passive":
        return this.onPassiveItem(r, itemType, item);
    }
  }

  /**
   * Opens a held reasoning block: under the id the item's events agree on, with the text held so far.
   * A rotating item (D11) opens at `output_item.done`, under its final id.
   */
  private startReasoning(track: Extract<ItemTrack, { kind: "reasoning" }>, itemId: string | undefined): string {
    const e = this.engine;
    if (track.id !== undefined) return track.id;
    track.id = e.reasoningStart({ ...(itemId !== undefined ? { id: itemId, itemId } : {}) });
    track.startedItemId = itemId;
    for (const h of track.held) e.reasoningDelta(track.id, h.text, h.partIndex);
    track.held = [];
    return track.id;
  }

  /** Reasoning text of an item: streamed once the block is open, held while its start waits (D11). */
  private reasoningText(
    track: Extract<ItemTrack, { kind: "reasoning" }>,
    chunk: JsonObject,
    text: string,
    partIndex: number | undefined,
  ): void {
    noteRotation(track, chunk);
    if (text === "") return;
    if (track.id === undefined && track.rotated) {
      track.held.push({ text, partIndex });
      return;
    }
    this.engine.reasoningDelta(this.startReasoning(track, track.addedId), text, partIndex);
  }

  private onReasoningItemDone(track: Extract<ItemTrack, { kind: "reasoning" }>, item: JsonObject): void {
    const e = this.engine;
    const finalId = str(item, "id") ?? track.addedId;
    const id = this.startReasoning(track, finalId);
    (arr(item, "summary") ?? []).forEach((part, pi) => {
      if (!track.partsSeen.has(pi)) e.reasoningDelta(id, str(part, "text") ?? "", pi);
    });
    if (!track.streamed) for (const part of arr(item, "content") ?? []) e.reasoningDelta(id, str(part, "text") ?? "");
    const enc = str(item, "encrypted_content");
    // reasoning.opaque sets the block's itemId (§5), so a final id rides it to the block top level.
    if (enc) e.reasoningOpaque(id, "ciphertext", enc, finalId);
    let itemId = finalId;
    if (!enc && finalId !== track.startedItemId) {
      // The id changed only at done and no opaque event can carry it: the block keeps the id its
      // start named, in both places (D11), and the change is reported.
      e.warn(
        "item-id-changed",
        `reasoning item '${track.startedItemId ?? "?"}' was '${finalId ?? "?"}' at output_item.done; the block keeps '${track.startedItemId ?? "?"}'`,
      );
      itemId = track.startedItemId;
    }
    e.reasoningEnd(id, itemId !== undefined ? { itemId } : undefined);
  }

  private onToolItemDone(track: Extract<ItemTrack, { kind: "tool" }>, item: JsonObject): void {
    const e = this.engine;
    const id = track.id;
    // tool.start fixed the call's name (§4); a different one at done cannot rename it, so it is
    // carried, never dropped (§8.0).
    if (item.name !== undefined && item.name !== null && item.name !== track.name)
      e.unparsed({ toolCallId: id, name: item.name }, "the call's name changed at output_item.done");
    let input: unknown;
    const meta: JsonObject = {};
    switch (track.itemType) {
      case "function_call":
      case "mcp_call": {
        const args = str(item, "arguments");
        if (args !== undefined && e.isOpen(id)) e.toolArgsSnapshot(id, args);
        // A programmatic call names the program that made it; the replay echoes it (§12 replay-load-bearing).
        if (isObject(item.caller)) meta.caller = item.caller;
        input = parseArgs(e.toolArgsText(id));
        e.toolAssemble(id, Object.keys(meta).length > 0 ? { providerMetadata: meta } : {});
        break;
      }
      case "custom_tool_call":
        // A custom tool's input is free text, not JSON: it is assembled verbatim as a string.
        input = str(item, "input") ?? e.toolArgsText(id) ?? "";
        e.toolAssemble(id, { input });
        break;
      case "tool_search_call":
        input = item.arguments ?? {};
        e.toolAssemble(id, { input });
        break;
      case "code_interpreter_call":
      case "program": {
        const code: JsonObject = { code: item.code ?? "" };
        if (item.container_id !== undefined) code.container_id = item.container_id;
        input = code;
        const fingerprint = str(item, "fingerprint");
        if (fingerprint !== undefined) meta.fingerprint = fingerprint;
        e.toolAssemble(id, { input, ...(fingerprint !== undefined ? { providerMetadata: meta } : {}) });
        break;
      }
      case "image_generation_call": {
        const opts: JsonObject = {};
        for (const k of ["revised_prompt", "size", "quality", "background", "output_format"]) if (item[k] !== undefined) opts[k] = item[k];
        input = opts;
        e.toolAssemble(id, { input });
        break;
      }
      case "web_search_call":
      case "file_search_call": {
        input = item.action ?? (item.queries !== undefined ? { queries: item.queries } : {});
        e.toolAssemble(id, { input });
        break;
      }
      default:
        input = item.action ?? item.operation ?? {};
        // A shell call's environment (local, or the container it ran in) is part of the item a replay echoes.
        if (track.itemType === "shell_call" && isObject(item.environment)) meta.environment = item.environment;
        e.toolAssemble(id, { input, ...(Object.keys(meta).length > 0 ? { providerMetadata: meta } : {}) });
    }
    this.settleToolIds(track, item, input, meta);
    // Results of these arrive as their own output items (shell_call_output, program_output, tool_search_output).
    if (track.client || track.itemType === "program" || track.itemType === "shell_call" || track.itemType === "tool_search_call") return;
    const failed = str(item, "status") === "failed" || (item.error !== undefined && item.error !== null);
    const errorText = failed ? (typeof item.error === "string" ? item.error : JSON.stringify(item.error ?? "failed")) : undefined;
    e.toolDone({
      toolCallId: id,
      content: hostedResultBlocks(track.itemType, item),
      outcome: failed ? "error" : "ok",
      ...(failed ? { isError: true, errorText: errorText ?? "failed" } : {}),
      providerMetadata: { type: track.itemType, status: item.status ?? null },
    });
  }

  /**
   * The ids `output_item.done` gives are the item's (D11). A changed item id re-states the call
   * whole (`content.block` tool-call: REPLACE in place, §5, D1) so `itemId` carries the final one;
   * a changed call_id cannot re-key a started call (it is the toolCallId): it is reported.
   */
  private settleToolIds(track: Extract<ItemTrack, { kind: "tool" }>, item: JsonObject, input: unknown, meta: JsonObject): void {
    const e = this.engine;
    const finalItemId = str(item, "id");
    const finalCallId = str(item, "call_id") ?? finalItemId;
    if (finalCallId !== undefined && track.callId !== undefined && finalCallId !== track.callId) {
      e.warn("call-id-changed", `call '${track.callId}' was '${finalCallId}' at output_item.done; the call keeps '${track.callId}'`);
    }
    if (finalItemId === undefined || finalItemId === track.itemId) return;
    track.itemId = finalItemId;
    const block: AgBlock = { type: "tool-call", toolCallId: track.id, name: track.name, input, itemId: finalItemId };
    if (track.hosted) block.providerExecuted = true;
    if (track.serverName !== undefined) block.serverName = track.serverName;
    if (Object.keys(meta).length > 0) block.providerMetadata = providerMeta(meta);
    e.contentBlock(block, { id: `${track.id}:restated` });
  }

  private onPassiveItem(r: ResponseState, itemType: string, item: JsonObject): void {
    const e = this.engine;
    const itemId = str(item, "id");
    switch (itemType) {
      case "shell_call_output":
      case "program_output":
      case "tool_search_output": {
        let callId = str(item, "call_id");
        if (callId === undefined && itemType === "tool_search_output") callId = r.openToolSearches.shift();
        if (callId === undefined) {
          // No resolvable correlation: carried losslessly rather than fabricating one (§8 item 20).
          e.contentBlock({ type: "data", name: itemType, data: item }, itemId !== undefined ? { id: itemId } : {});
          return;
        }
        // The item's own fields a replay echoes ride providerMetadata verbatim (§12): its id and status,
        // a shell output's per-command stdout/stderr/outcome, a server tool search's null call_id.
        const meta: JsonObject = { type: itemType, ...(itemId !== undefined ? { itemId } : {}) };
        if (typeof item.status === "string") meta.status = item.status;
        if (itemType === "shell_call_output") {
          if (Array.isArray(item.output)) meta.output = item.output;
          if (typeof item.max_output_length === "number") meta.max_output_length = item.max_output_length;
        }
        if (itemType === "tool_search_output" && typeof item.execution === "string") meta.execution = item.execution;
        e.toolDone({
          toolCallId: callId,
          content: outputBlocks(itemType, item),
          outcome: "ok",
          providerMetadata: meta,
        });
        return;
      }
      case "compaction": {
        const block: AgBlock = { type: "compaction", provider: "openai" };
        const enc = str(item, "encrypted_content");
        if (enc !== undefined) block.opaque = { kind: "ciphertext", value: enc, provider: "openai" };
        e.contentBlock(block, itemId !== undefined ? { id: itemId } : {});
        return;
      }
      case "mcp_approval_request": {
        const askId = itemId ?? e.mintId("ask");
        const ask: AgPausedAsk = {
          askId,
          kind: "approval",
          toolCallId: askId,
          metadata: { name: item.name, arguments: item.arguments, server_label: item.server_label },
        };
        // A name that is not a string refuses the call into `unparsed` (§8.0), never a made-up name.
        const name =
          item.name !== undefined && item.name !== null && typeof item.name !== "string"
            ? (item.name as never)
            : (str(item, "name") ?? "mcp");
        e.toolStart({
          toolCallId: askId,
          name,
          providerExecuted: true,
          ...(str(item, "server_label") ? { serverName: str(item, "server_label")! } : {}),
        });
        e.toolArgsSnapshot(askId, str(item, "arguments") ?? "");
        e.toolAssemble(askId);
        e.emit({ type: "hitl.ask", ...ask });
        r.asks.push(ask);
        return;
      }
      default:
        // mcp_list_tools and any item type without an AgJSON home: one whole data block, verbatim.
        e.contentBlock({ type: "data", name: itemType || "item", data: item }, itemId !== undefined ? { id: itemId } : {});
    }
  }

  private onPartAdded(chunk: JsonObject): void {
    const e = this.engine;
    const track = this.item(chunk);
    if (track?.kind !== "message") {
      if (track?.kind === "reasoning") return; // reasoning_text part (Open Responses): deltas follow
      e.unparsed(chunk, "content part for an item that is not a message");
      return;
    }
    const ci = num(chunk, "content_index") ?? track.parts.size;
    if (track.parts.has(ci)) return;
    const part = obj(chunk, "part");
    const base = str(track.meta, "itemId");
    const providerMetadata: JsonObject = { ...track.meta };
    if (str(part, "type") === "refusal") providerMetadata.refusal = true;
    const id = e.textStart({ ...(base !== undefined ? { id: ci === 0 ? base : `${base}:${ci}` } : {}), providerMetadata });
    track.parts.set(ci, { id, citations: [] });
    const initial = str(part, "text");
    if (initial) e.textDelta(id, initial);
  }

  private part(chunk: JsonObject): { id: string; citations: AgCitation[] } | undefined {
    const track = this.item(chunk);
    if (track?.kind !== "message") return undefined;
    const ci = num(chunk, "content_index") ?? 0;
    if (!track.parts.has(ci)) this.onPartAdded({ ...chunk, part: { type: "output_text", text: "" } });
    return track.parts.get(ci);
  }

  private onTextDelta(chunk: JsonObject): void {
    const p = this.part(chunk);
    if (!p) return this.engine.unparsed(chunk, "text delta for an unknown item");
    this.engine.textDelta(p.id, str(chunk, "delta") ?? "");
  }

  private onTextDone(chunk: JsonObject): void {
    const p = this.part(chunk);
    if (!p) return this.engine.unparsed(chunk, "text done for an unknown item");
    const text = str(chunk, "text") ?? str(chunk, "refusal");
    if (text !== undefined) this.engine.textSnapshot(p.id, text);
  }

  private onPartDone(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind === "reasoning") return;
    const p = this.part(chunk);
    if (!p) return this.engine.unparsed(chunk, "content part done for an unknown item");
    const text = str(obj(chunk, "part"), "text") ?? str(obj(chunk, "part"), "refusal");
    if (text !== undefined) this.engine.textSnapshot(p.id, text);
  }

  private onAnnotation(chunk: JsonObject): void {
    const e = this.engine;
    const p = this.part(chunk);
    const a = obj(chunk, "annotation");
    if (!p || !a) return e.unparsed(chunk, "annotation for an unknown text part");
    const cit = this.mapAnnotation(a);
    if (cit) p.citations.push(cit);
    else e.unparsed(chunk, `unknown annotation type '${str(a, "type") ?? "?"}'`);
  }

  /** Responses annotations → AgCitation; file citations also emit their `source` (§4, §5 citation key). */
  private mapAnnotation(a: JsonObject): AgCitation | undefined {
    const e = this.engine;
    const type = str(a, "type");
    const title = str(a, "title") ?? str(a, "filename");
    if (type === "url_citation") {
      const cit: AgCitation = {
        citedText: "",
        kind: "url",
        url: str(a, "url") ?? "",
        indexFrame: "response",
        unit: "char",
        bounds: "[start,end)",
      };
      const start = num(a, "start_index");
      const end = num(a, "end_index");
      if (start !== undefined) cit.startIndex = start;
      if (end !== undefined) cit.endIndex = end;
      if (title !== undefined) cit.title = title;
      return cit;
    }
    if (type === "file_citation" || type === "container_file_citation") {
      const fileId = str(a, "file_id") ?? "";
      const sourceId = e.source({
        source: { type: "file", fileId },
        providerMetadata: { annotation: a },
      });
      const start = num(a, "start_index") ?? num(a, "index") ?? 0;
      const end = num(a, "end_index") ?? num(a, "index") ?? start;
      const cit: AgCitation = {
        citedText: "",
        kind: "offset",
        startIndex: start,
        endIndex: end,
        sourceIds: [sourceId],
        unit: "char",
        bounds: type === "file_citation" ? "[start,end]" : "[start,end)",
        indexFrame: "response",
      };
      if (title !== undefined) cit.title = title;
      return cit;
    }
    return undefined;
  }

  private onReasoningMarker(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind !== "reasoning") return this.engine.unparsed(chunk, "reasoning event for an unknown item");
    noteRotation(track, chunk);
    const pi = partIndexOf(this.engine, chunk);
    const text = str(chunk, "text");
    if (pi !== undefined && text !== undefined && !track.partsSeen.has(pi)) {
      track.partsSeen.add(pi);
      track.streamed = true;
      this.reasoningText(track, chunk, text, pi);
    }
  }

  private onReasoningDelta(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind !== "reasoning") return this.engine.unparsed(chunk, "reasoning delta for an unknown item");
    const pi = partIndexOf(this.engine, chunk);
    if (pi !== undefined) track.partsSeen.add(pi);
    track.streamed = true;
    this.reasoningText(track, chunk, str(chunk, "delta") ?? "", pi);
  }

  private onArgsDelta(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind !== "tool") return this.engine.unparsed(chunk, "argument delta for an unknown call");
    this.engine.toolArgsDelta(track.id, str(chunk, "delta") ?? "");
  }

  private onArgsDone(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind !== "tool") return this.engine.unparsed(chunk, "arguments done for an unknown call");
    const full = str(chunk, "arguments") ?? str(chunk, "input");
    if (full !== undefined) this.engine.toolArgsSnapshot(track.id, full);
  }

  private onPartialImage(chunk: JsonObject): void {
    const track = this.item(chunk);
    if (track?.kind !== "tool") return this.engine.unparsed(chunk, "partial image for an unknown call");
    // A partial image is a preliminary result: tool.done more:true, replaced by the final one (§2.2).
    // Its bytes are in the call's output_format, as the final image's are.
    const mediaType = `image/${str(chunk, "output_format") ?? "png"}`;
    this.engine.toolDone({
      toolCallId: track.id,
      content: [{ type: "image", source: { type: "base64", mediaType, data: str(chunk, "partial_image_b64") ?? "" } }],
      outcome: "ok",
      more: true,
      preliminary: true,
      providerMetadata: { partial_image_index: chunk.partial_image_index ?? null },
    });
  }

  private onCompleted(chunk: JsonObject): void {
    const resp = obj(chunk, "response") ?? {};
    this.ensureResponse(resp);
    this.closeResponse(resp);
  }

  private onFailed(resp: JsonObject | undefined, error: JsonObject | undefined): void {
    const e = this.engine;
    const r = this.response;
    if (r?.failed) return; // the `error` event already closed this response's turn
    if (r) r.failed = true;
    else if (!e.currentTurn()) this.ensureResponse(resp).failed = true;
    const usage = obj(resp, "usage");
    const code = str(error, "code") ?? str(error, "type");
    e.failTurn({
      message: str(error, "message") ?? "response failed",
      ...(code !== undefined ? { code } : {}),
      ...(usage ? { usage: checkedUsage(e, mapResponsesUsage(usage), usage) } : {}),
    });
  }

  /** Reasoning items whose start is still held when their response ends: opened with what they hold. */
  private releaseHeld(r: ResponseState): void {
    for (const track of r.items.values())
      if (track.kind === "reasoning" && track.id === undefined) this.startReasoning(track, track.addedId);
  }

  protected override settleBeforeFlush(): void {
    if (this.response && !this.response.failed) this.releaseHeld(this.response);
    super.settleBeforeFlush();
  }

  private closeResponse(resp: JsonObject | undefined): void {
    const e = this.engine;
    const r = this.response;
    if (r && !r.failed) this.releaseHeld(r);
    this.response = undefined;
    if (!r || r.failed) return;
    const usageRaw = obj(resp, "usage");
    const meta: JsonObject = {};
    for (const k of ["status", "incomplete_details", "service_tier", "content_filters", "usage"]) {
      if (resp?.[k] !== undefined && resp[k] !== null) meta[k] = resp[k];
    }
    for (const [k, v] of Object.entries(resp ?? {})) if (k.endsWith("_usage")) meta[k] = v;
    if (Object.keys(meta).length > 0) e.messageMetadata({ openai: meta });
    const usage = usageRaw ? checkedUsage(e, mapResponsesUsage(usageRaw), usageRaw) : undefined;
    e.closeMessage(r.messageId, usage);
    if (!resp) return; // a new response began without this one completing: flush decides
    const status = str(resp, "status");
    const incompleteReason = str(obj(resp, "incomplete_details"), "reason");
    let finishReason: AgFinishReason = "stop";
    if (status === "incomplete") finishReason = incompleteReason === "content_filter" ? "safety_blocked" : "token_limit";
    else if (r.asks.length > 0) finishReason = "paused";
    else if (r.lastItemType !== undefined && own(CLIENT_TOOLS, r.lastItemType) !== undefined) finishReason = "tool_call";
    e.endResponse({
      finishReason,
      ...(r.asks.length > 0 ? { outcome: { type: "paused", asks: r.asks } } : {}),
      ...(usage && this.responsesInTurn === 1 ? { usage } : {}),
    });
  }
}

/** A function call's argument text as its input: JSON, or the raw text when it is not (as toolAssemble keeps it). */
function parseArgs(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An event of a reasoning item whose start is held naming another item id: the ids rotate (D11). */
function noteRotation(track: Extract<ItemTrack, { kind: "reasoning" }>, chunk: JsonObject): void {
  const eventItemId = str(chunk, "item_id");
  if (track.id === undefined && eventItemId !== undefined && track.addedId !== undefined && eventItemId !== track.addedId)
    track.rotated = true;
}

/** A hosted tool item's result as AgBlocks. */
function hostedResultBlocks(itemType: string, item: JsonObject): AgBlock[] {
  switch (itemType) {
    case "web_search_call": {
      const sources = arr(obj(item, "action"), "sources") ?? [];
      return sources.map((s) => {
        const b: AgBlock = { type: "search-result" };
        const url = str(s, "url");
        if (url !== undefined) b.url = url;
        return b;
      });
    }
    case "code_interpreter_call":
      return (arr(item, "outputs") ?? []).map((o): AgBlock => {
        if (str(o, "type") === "logs") return { type: "code-result", outcome: "ok", output: str(o, "logs") ?? "" };
        if (str(o, "type") === "image" && str(o, "url")) return { type: "image", source: { type: "url", url: str(o, "url")! } };
        return { type: "data", name: str(o, "type") ?? "output", data: o };
      });
    case "image_generation_call": {
      const data = str(item, "result");
      const format = str(item, "output_format") ?? "png";
      return data ? [{ type: "image", source: { type: "base64", mediaType: `image/${format}`, data } }] : [];
    }
    case "mcp_call": {
      const output = str(item, "output");
      return output !== undefined ? [{ type: "text", text: output }] : [];
    }
    default: {
      const results = item.results ?? item.outputs ?? item.output;
      return results !== undefined && results !== null ? [{ type: "data", name: itemType, data: results }] : [];
    }
  }
}

/** A separately-delivered output item (shell, program, tool search) as AgBlocks. */
function outputBlocks(itemType: string, item: JsonObject): AgBlock[] {
  if (itemType === "shell_call_output") {
    return (arr(item, "output") ?? []).map((o): AgBlock => {
      const exit = num(obj(o, "outcome"), "exit_code");
      return {
        type: "code-result",
        outcome: str(obj(o, "outcome"), "type") === "timeout" ? "deadline_exceeded" : exit === undefined || exit === 0 ? "ok" : "failed",
        output: (str(o, "stdout") ?? "") + (str(o, "stderr") ?? ""),
      };
    });
  }
  if (itemType === "program_output") {
    const result = item.result;
    return [typeof result === "string" ? { type: "text", text: result } : { type: "data", name: "result", data: result ?? null }];
  }
  // tool_search_output: a structured listing, kept even when empty (§8 item 20).
  return [{ type: "data", name: "tools", data: arr(item, "tools") ?? [] }];
}
