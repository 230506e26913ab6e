/**
 * Anthropic Messages streaming facet (§8 items 1, 2, 4, 13): translates `message_start` …
 * `message_stop` runs into engine calls. Several runs in one invoke (a tool loop) become several
 * messages of one turn.
 */
import type { AgBlock, AgCitation, AgFinishReason, AgSafety, AgUsage } from "../../../generated/types.js";
import type { NormalizerEngine, NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, omit, setUsage, str, type JsonObject } from "../util.js";

type BlockTrack =
  | { kind: "text"; id: string; citations: AgCitation[] }
  | { kind: "reasoning"; id: string; signature: string; redacted?: string }
  | { kind: "tool"; id: string; startInput: unknown; sawDelta: boolean; whole?: boolean }
  | { kind: "compaction"; text: string; raw: JsonObject }
  | { kind: "done" };

interface ResponseState {
  messageId: string;
  blocks: Map<number, BlockTrack>;
  usage: JsonObject;
  stopReason?: string;
  delta: JsonObject;
  extras: JsonObject;
}

/** Anthropic `stop_reason` → AgFinishReason (§4). */
export function mapAnthropicStopReason(reason: string | undefined): AgFinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "max_tokens":
      return "token_limit";
    case "tool_use":
      return "tool_call";
    case "pause_turn":
      return "pause_turn";
    case "refusal":
      return "refusal";
    case "model_context_window_exceeded":
      return "context_window_exceeded";
    case undefined:
      return "unknown";
    default:
      return "other";
  }
}

/** Anthropic usage (running totals, §8 item 4) → AgUsage flagged `cumulative: true`, values verbatim. */
export function mapAnthropicUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = { cumulative: true };
  setUsage(usage, "inputTokens", num(u, "input_tokens"));
  setUsage(usage, "outputTokens", num(u, "output_tokens"));
  setUsage(usage, "cacheReadTokens", num(u, "cache_read_input_tokens"));
  setUsage(usage, "cacheWriteTokens", num(u, "cache_creation_input_tokens"));
  return usage;
}

/** One Anthropic citation → AgCitation; `undefined` for a location type this facet does not know. */
export function mapAnthropicCitation(c: unknown): AgCitation | undefined {
  if (!isObject(c)) return undefined;
  const citedText = str(c, "cited_text") ?? "";
  const title = str(c, "document_title") ?? str(c, "title");
  const base: { citedText: string; title?: string } = { citedText };
  if (title !== undefined) base.title = title;
  const documentIndex = num(c, "document_index") ?? 0;
  switch (str(c, "type")) {
    case "web_search_result_location": {
      const cit: AgCitation = { ...base, kind: "url", url: str(c, "url") ?? "" };
      const enc = str(c, "encrypted_index");
      if (enc !== undefined) cit.encryptedIndex = enc;
      return cit;
    }
    case "char_location":
      return {
        ...base,
        kind: "char",
        indexFrame: "source",
        documentIndex,
        startCharIndex: num(c, "start_char_index") ?? 0,
        endCharIndex: num(c, "end_char_index") ?? 0,
      };
    case "page_location":
      return {
        ...base,
        kind: "page",
        indexFrame: "source",
        documentIndex,
        startPage: num(c, "start_page_number") ?? 0,
        endPage: num(c, "end_page_number") ?? 0,
      };
    case "content_block_location":
      return {
        ...base,
        kind: "block",
        indexFrame: "source",
        documentIndex,
        startBlockIndex: num(c, "start_block_index") ?? 0,
        endBlockIndex: num(c, "end_block_index") ?? 0,
      };
    case "search_result_location": {
      const cit: AgCitation = {
        ...base,
        kind: "block",
        indexFrame: "source",
        documentIndex: num(c, "search_result_index") ?? 0,
        startBlockIndex: num(c, "start_block_index") ?? 0,
        endBlockIndex: num(c, "end_block_index") ?? 0,
      };
      const source = str(c, "source");
      if (source !== undefined) cit.source = source;
      return cit;
    }
    default:
      return undefined;
  }
}

/** Maps one item of a server-tool result `content` array to an AgBlock. */
function mapResultItem(item: unknown): AgBlock {
  if (isObject(item)) {
    const type = str(item, "type");
    if (type === "web_search_result") {
      const block: AgBlock = { type: "search-result" };
      const url = str(item, "url");
      const title = str(item, "title");
      const pageAge = str(item, "page_age");
      const enc = str(item, "encrypted_content");
      if (url !== undefined) block.url = url;
      if (title !== undefined) block.title = title;
      if (pageAge !== undefined) block.pageAge = pageAge;
      if (enc !== undefined) block.opaque = { kind: "ciphertext", value: enc, provider: "anthropic" };
      return block;
    }
    if (type === "text" && typeof item.text === "string") return { type: "text", text: item.text };
  }
  return { type: "data", name: str(item, "type") ?? "item", data: item };
}

interface MappedResult {
  content: AgBlock[];
  outcome: "ok" | "error";
  isError?: boolean;
  errorText?: string;
  errorCode?: string;
  structuredContent?: unknown;
}

/**
 * A server/MCP tool result block (complete inside `content_block_start`) → `tool.done` fields.
 * The native `content` rides verbatim on `structuredContent` when it is an object (the
 * model-facing structured form, §2.1); `content[]` holds the best-effort AgBlocks.
 */
export function mapAnthropicToolResult(block: JsonObject): MappedResult {
  const content = block.content;
  if (Array.isArray(content)) {
    const blocks = content.map(mapResultItem);
    if (block.is_error === true) {
      const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
      return { content: blocks, outcome: "error", isError: true, errorText: text || "tool error" };
    }
    return { content: blocks, outcome: "ok" };
  }
  if (!isObject(content)) return { content: [], outcome: "ok" };
  const type = str(content, "type") ?? "";
  const errorCode = str(content, "error_code");
  if (errorCode !== undefined || type.endsWith("_error")) {
    const code = errorCode ?? type;
    return { content: [], outcome: "error", isError: true, errorText: code, errorCode: code, structuredContent: content };
  }
  const blocks: AgBlock[] = [];
  if (type === "code_execution_result" || type === "bash_code_execution_result") {
    const rc = num(content, "return_code");
    blocks.push({
      type: "code-result",
      outcome: rc === undefined || rc === 0 ? "ok" : "failed",
      output: (str(content, "stdout") ?? "") + (str(content, "stderr") ?? ""),
    });
    for (const f of arr(content, "content") ?? []) blocks.push(mapResultItem(f));
  } else if (type === "advisor_result" && typeof content.text === "string") {
    blocks.push({ type: "text", text: content.text });
  } else if (type === "text_editor_code_execution_view_result" && typeof content.content === "string") {
    blocks.push({ type: "text", text: content.content });
  } else if (type === "web_fetch_result") {
    const doc = obj(content, "content");
    const data = str(obj(doc, "source"), "data");
    if (data !== undefined) blocks.push({ type: "text", text: data });
  } else {
    blocks.push({ type: "data", name: type || "result", data: content });
  }
  return { content: blocks, outcome: "ok", structuredContent: content };
}

const TOOL_USE_TYPES = new Set(["tool_use", "server_tool_use", "mcp_tool_use"]);

/** Normalizer for the Anthropic Messages stream. */
export class AnthropicFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;

  constructor(opts: NormalizerOptions = {}, engine?: NormalizerEngine) {
    super("anthropic", opts, engine);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    const type = str(chunk, "type");
    if (!isObject(chunk) || type === undefined) {
      e.unparsed(chunk, "not an Anthropic stream event");
      return;
    }
    switch (type) {
      case "ping":
        return;
      case "message_start":
        return this.onMessageStart(chunk);
      case "content_block_start":
        return this.onBlockStart(chunk);
      case "content_block_delta":
        return this.onBlockDelta(chunk);
      case "content_block_stop":
        return this.onBlockStop(chunk);
      case "message_delta":
        return this.onMessageDelta(chunk);
      case "message_stop":
        return this.onMessageStop();
      case "error": {
        const err = obj(chunk, "error");
        const code = str(err, "type");
        e.failTurn({
          message: str(err, "message") ?? "provider error",
          ...(code !== undefined ? { code } : {}),
          retriable: code === "overloaded_error" || code === "api_error",
        });
        this.response = undefined;
        return;
      }
      default:
        e.unparsed(chunk, `unknown event type '${type}'`);
    }
  }

  private onMessageStart(chunk: JsonObject): void {
    const e = this.engine;
    if (this.response) this.onMessageStop();
    const message = obj(chunk, "message") ?? {};
    const id = str(message, "id");
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const messageId = e.openMessage({
      ...(id !== undefined ? { id, turnHint: `turn_${id}` } : {}),
      role: "assistant",
      ...(str(message, "model") !== undefined ? { model: str(message, "model")! } : {}),
    });
    this.responsesInTurn++;
    const state: ResponseState = {
      messageId,
      blocks: new Map(),
      usage: { ...(obj(message, "usage") ?? {}) },
      delta: {},
      extras: {},
    };
    const stop = str(message, "stop_reason");
    if (stop !== undefined) state.stopReason = stop;
    const container = message.container;
    if (container !== undefined && container !== null) state.extras.container = container;
    this.response = state;
    // Some runs (programmatic tool calling) deliver complete blocks inside message_start.
    const content = arr(message, "content") ?? [];
    content.forEach((block, i) => {
      this.onBlockStart({ type: "content_block_start", content_block: block }, -1 - i);
      this.onBlockStop({ type: "content_block_stop", index: -1 - i });
    });
  }

  private ensureResponse(): ResponseState {
    if (!this.response) {
      const messageId = this.engine.ensureMessage();
      if (!this.engine.currentTurn()) this.responsesInTurn = 0;
      this.responsesInTurn++;
      this.response = { messageId, blocks: new Map(), usage: {}, delta: {}, extras: {} };
    }
    return this.response;
  }

  /** `key`: where a block delivered inside message_start is tracked (it has no stream index). */
  private onBlockStart(chunk: JsonObject, key?: number): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const given = key ?? e.providerIndex(chunk, "index", chunk, "content_block_start.index");
    // An index out of range was reported with the chunk (§8.0); its deltas find no block and ride unparsed too.
    if (given === undefined && chunk.index !== undefined && chunk.index !== null && key === undefined) return;
    const index = given ?? r.blocks.size;
    const block = obj(chunk, "content_block");
    const type = str(block, "type");
    if (!block || type === undefined) {
      e.unparsed(chunk, "content_block_start without a content_block");
      return;
    }
    const open = r.blocks.get(index);
    if (open !== undefined && this.completeOpenBlock(open, block, type)) return;
    if (type === "text") {
      const id = e.textStart();
      const citations: AgCitation[] = [];
      // Absent and null citations are identical: no citations (§8 item 13).
      for (const c of arr(block, "citations") ?? []) {
        const mapped = mapAnthropicCitation(c);
        if (mapped) citations.push(mapped);
      }
      r.blocks.set(index, { kind: "text", id, citations });
      e.textDelta(id, str(block, "text") ?? "");
    } else if (type === "thinking" || type === "redacted_thinking") {
      const id = e.reasoningStart();
      const track: BlockTrack = { kind: "reasoning", id, signature: str(block, "signature") ?? "" };
      if (type === "redacted_thinking") track.redacted = str(block, "data") ?? "";
      r.blocks.set(index, track);
      e.reasoningDelta(id, str(block, "thinking") ?? "");
    } else if (TOOL_USE_TYPES.has(type)) {
      const toolCallId = str(block, "id");
      const serverName = str(block, "server_name");
      const caller = block.caller;
      const id = e.toolStart({
        ...(toolCallId !== undefined ? { toolCallId } : {}),
        // A name that is not a string refuses the call into `unparsed` (§8.0), never a made-up name.
        name: block.name === undefined || block.name === null ? type : block.name,
        ...(type !== "tool_use" ? { providerExecuted: true } : {}),
        ...(serverName !== undefined ? { serverName } : {}),
        ...(isObject(caller) ? { providerMetadata: { caller } } : {}),
      });
      r.blocks.set(index, { kind: "tool", id, startInput: block.input, sawDelta: false });
    } else if (type.endsWith("_tool_result")) {
      const toolCallId = str(block, "tool_use_id");
      if (toolCallId === undefined) {
        e.unparsed(chunk, `${type} without tool_use_id`);
      } else {
        const mapped = mapAnthropicToolResult(block);
        const meta = omit(block, ["type", "tool_use_id", "content", "is_error"]);
        e.toolDone({
          toolCallId,
          ...mapped,
          providerMetadata: { type, ...(meta ?? {}) },
        });
      }
      r.blocks.set(index, { kind: "done" });
    } else if (type === "compaction") {
      r.blocks.set(index, { kind: "compaction", text: str(block, "content") ?? "", raw: block });
    } else {
      e.unparsed(chunk, `unknown content block type '${type}'`);
      r.blocks.set(index, { kind: "done" });
    }
  }

  private onBlockDelta(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const track = r.blocks.get(num(chunk, "index") ?? NaN);
    const delta = obj(chunk, "delta");
    const dtype = str(delta, "type");
    if (!track || !delta) {
      e.unparsed(chunk, "delta for an unknown content block");
      return;
    }
    if (dtype === "text_delta" && track.kind === "text") e.textDelta(track.id, str(delta, "text") ?? "");
    else if (dtype === "citations_delta" && track.kind === "text") {
      const mapped = mapAnthropicCitation(delta.citation);
      if (mapped) track.citations.push(mapped);
      else e.unparsed(chunk, "unknown citation location type");
    } else if (dtype === "input_json_delta" && track.kind === "tool") {
      const part = str(delta, "partial_json") ?? "";
      if (part !== "") track.sawDelta = true;
      e.toolArgsDelta(track.id, part);
    } else if (dtype === "thinking_delta" && track.kind === "reasoning") e.reasoningDelta(track.id, str(delta, "thinking") ?? "");
    else if (dtype === "signature_delta" && track.kind === "reasoning") track.signature += str(delta, "signature") ?? "";
    else if (dtype === "compaction_delta" && track.kind === "compaction") track.text += str(delta, "content") ?? "";
    else e.unparsed(chunk, `unmapped delta '${dtype ?? "?"}' for a ${track.kind} block`);
  }

  /**
   * A whole block for an index whose block is still open: the rest of a partially streamed block,
   * as the Claude Agent SDK delivers it when its stream stopped early and it fell back to a
   * non-streaming call (claude-agent-sdk.ts). The open block is completed — the text that did not
   * stream as its delta (INV-DELTA), the whole input as the authoritative `tool.args.assembled`
   * (§4) — so nothing that streamed lands twice. False when the block is not the open one's rest.
   */
  private completeOpenBlock(open: BlockTrack, block: JsonObject, type: string): boolean {
    const e = this.engine;
    if (open.kind === "text" && type === "text") {
      e.textSnapshot(open.id, str(block, "text") ?? "");
      const whole = (arr(block, "citations") ?? []).map(mapAnthropicCitation).filter((c): c is AgCitation => c !== undefined);
      if (whole.length > 0) open.citations = whole;
      return true;
    }
    if (open.kind === "tool" && TOOL_USE_TYPES.has(type) && str(block, "id") === open.id) {
      open.startInput = block.input ?? {};
      open.whole = true;
      return true;
    }
    return false;
  }

  private onBlockStop(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const index = num(chunk, "index") ?? NaN;
    const track = r.blocks.get(index);
    if (!track) {
      e.unparsed(chunk, "stop for an unknown content block");
      return;
    }
    r.blocks.set(index, { kind: "done" });
    switch (track.kind) {
      case "text":
        e.textEnd(track.id, { citations: track.citations });
        return;
      case "reasoning":
        // The signature seals the visible reasoning; it is replayed byte-identical (§2, §10 item 13).
        if (track.redacted !== undefined) e.reasoningOpaque(track.id, "redacted", track.redacted);
        else if (track.signature !== "") e.reasoningOpaque(track.id, "signature", track.signature);
        e.reasoningEnd(track.id);
        return;
      case "tool": {
        const hasStartInput = isObject(track.startInput) && Object.keys(track.startInput).length > 0;
        if (track.whole || (!track.sawDelta && hasStartInput)) e.toolAssemble(track.id, { input: track.startInput });
        else e.toolAssemble(track.id);
        return;
      }
      case "compaction": {
        const block: AgBlock = { type: "compaction", provider: "anthropic" };
        if (track.text !== "") block.text = track.text;
        const extra = omit(track.raw, ["type", "content"]);
        if (extra) block._meta = { anthropic: extra };
        e.contentBlock(block);
        return;
      }
      case "done":
        return;
    }
  }

  private onMessageDelta(chunk: JsonObject): void {
    const r = this.ensureResponse();
    const delta = obj(chunk, "delta") ?? {};
    const stop = str(delta, "stop_reason");
    if (stop !== undefined) r.stopReason = stop;
    for (const [k, v] of Object.entries(delta)) if (k !== "stop_reason" && v !== null) r.delta[k] = v;
    // Usage is the provider's running total (§8 item 4): a total message_delta names `null` is not
    // reported there, and the one message_start gave stays, verbatim.
    for (const [k, v] of Object.entries(obj(chunk, "usage") ?? {})) if (v !== null) r.usage[k] = v;
    for (const [k, v] of Object.entries(chunk)) {
      if (k !== "type" && k !== "delta" && k !== "usage") r.extras[k] = v;
    }
  }

  private onMessageStop(): void {
    const e = this.engine;
    const r = this.response;
    if (!r) return;
    this.response = undefined;
    // Provider data with no AgJSON field rides the message's metadata verbatim (§5 message.metadata).
    const metadata: JsonObject = { ...r.extras, ...r.delta };
    if (r.stopReason !== undefined) metadata.stop_reason = r.stopReason;
    if (Object.keys(r.usage).length > 0) metadata.usage = r.usage;
    e.messageMetadata({ anthropic: metadata });
    const usage = Object.keys(r.usage).length > 0 ? mapAnthropicUsage(r.usage) : undefined;
    e.closeMessage(r.messageId, usage);
    const safety: AgSafety[] = [];
    const details = obj(r.delta, "stop_details");
    const category = str(details, "category");
    if (category !== undefined) safety.push({ category, blocked: true });
    // A turn's usage is the single response's running total; a multi-response turn keeps usage per message.
    e.endResponse({
      finishReason: mapAnthropicStopReason(r.stopReason),
      ...(usage && this.responsesInTurn === 1 ? { usage } : {}),
      ...(safety.length > 0 ? { safety } : {}),
    });
  }
}
