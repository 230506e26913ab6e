/**
 * Amazon Bedrock ConverseStream facet. Each native chunk is one decoded AWS event-stream frame,
 * keyed by its event name (`{"messageStart":{…}}`, `{"contentBlockDelta":{…}}`, …). Blocks are
 * keyed by `contentBlockIndex`; text and reasoning blocks have no start frame and open on their
 * first delta. Bedrock sends the usage frame (`metadata`) AFTER `messageStop`, so the message is
 * sealed only once both arrived (or at the next message / flush); the turn close is recorded at
 * `messageStop` and released by `flush()` like every facet's (§8 item 14).
 */
import type { AgBlock, AgCitation, AgFinishReason, AgSafety, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, own, providerMeta, setUsage, str, type JsonObject } from "../util.js";
import { isEnumValue } from "../../../generated/schema-facts.js";

type BlockTrack =
  | { kind: "text"; id: string; citations: AgCitation[] }
  | { kind: "reasoning"; id: string; signature: string; redacted?: string }
  | { kind: "tool"; id: string }
  | { kind: "tool-result"; toolUseId: string; start: JsonObject; content: AgBlock[]; json: unknown[] }
  | { kind: "image"; format?: string; data: string; s3?: JsonObject; error?: unknown }
  | { kind: "done" };

interface ResponseState {
  messageId: string;
  blocks: Map<number, BlockTrack>;
  /** The `messageStop` payload, once seen: the provider ended the response. */
  stop?: JsonObject;
  /** The `metadata` payload (usage, metrics, trace), once seen. */
  meta?: JsonObject;
}

/** Stream exception frames; each is terminal (`turn.error`). Retriable: the AWS SDK's retryable set. */
const EXCEPTIONS: Record<string, boolean> = {
  internalServerException: true,
  modelStreamErrorException: false,
  validationException: false,
  throttlingException: true,
  serviceUnavailableException: true,
};

/** The non-exception frame names of ConverseStreamOutput. */
const FRAMES = new Set(["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);

/** ConverseStream `stopReason` → AgFinishReason (§4). */
export function mapBedrockStopReason(reason: string | undefined): AgFinishReason {
  switch (reason) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_call";
    case "max_tokens":
      return "token_limit";
    case "model_context_window_exceeded":
      return "context_window_exceeded";
    case "guardrail_intervened":
    case "content_filtered":
      return "safety_blocked";
    case "malformed_tool_use":
      return "malformed_tool_call";
    case undefined:
      return "unknown";
    default:
      // malformed_model_output and reasons newer than this facet: the neutral target; the raw
      // stopReason rides message.metadata.bedrock verbatim.
      return "other";
  }
}

/** ConverseStream usage (per response, not running totals) → AgUsage, values verbatim. */
export function mapBedrockUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", num(u, "inputTokens"));
  setUsage(usage, "outputTokens", num(u, "outputTokens"));
  setUsage(usage, "totalTokens", num(u, "totalTokens"));
  setUsage(usage, "cacheReadTokens", num(u, "cacheReadInputTokens"));
  setUsage(usage, "cacheWriteTokens", num(u, "cacheWriteInputTokens"));
  return usage;
}

/** One ConverseStream `CitationsDelta` → AgCitation; `undefined` for a location this facet does not know. */
export function mapBedrockCitation(c: unknown): AgCitation | undefined {
  if (!isObject(c)) return undefined;
  const citedText = (arr(c, "sourceContent") ?? []).map((s) => str(s, "text") ?? "").join("");
  const base: { citedText: string; title?: string; source?: string } = { citedText };
  const title = str(c, "title");
  const source = str(c, "source");
  if (title !== undefined) base.title = title;
  if (source !== undefined) base.source = source;
  const loc = obj(c, "location");
  const web = obj(loc, "web");
  if (web) return { ...base, kind: "url", url: str(web, "url") ?? "" };
  const range = (l: JsonObject): { documentIndex: number; start: number; end: number } => ({
    documentIndex: num(l, "documentIndex") ?? num(l, "searchResultIndex") ?? 0,
    start: num(l, "start") ?? 0,
    end: num(l, "end") ?? 0,
  });
  const char = obj(loc, "documentChar");
  if (char) {
    const r = range(char);
    return { ...base, kind: "char", indexFrame: "source", documentIndex: r.documentIndex, startCharIndex: r.start, endCharIndex: r.end };
  }
  const page = obj(loc, "documentPage");
  if (page) {
    const r = range(page);
    return { ...base, kind: "page", indexFrame: "source", documentIndex: r.documentIndex, startPage: r.start, endPage: r.end };
  }
  const chunk = obj(loc, "documentChunk") ?? obj(loc, "searchResultLocation");
  if (chunk) {
    const r = range(chunk);
    return { ...base, kind: "block", indexFrame: "source", documentIndex: r.documentIndex, startBlockIndex: r.start, endBlockIndex: r.end };
  }
  return undefined;
}

/** Normalizer for Bedrock ConverseStream frames. */
export class BedrockFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;

  constructor(opts: NormalizerOptions = {}) {
    // Vendor segment: the API family the facet reads, as the AI SDK keys its provider metadata (§12).
    super("bedrock", opts);
  }

  protected override settleBeforeFlush(): void {
    // messageStop came but the usage frame did not: the provider ended the response, so seal it
    // with what it sent. Without messageStop the stream is truncated: INV-FLUSH, no synthetic closes.
    if (this.response?.stop) this.finishResponse(this.response);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk) || Object.keys(chunk).length === 0) {
      e.unparsed(chunk, "not a ConverseStream event frame");
      return;
    }
    // An HTTP error body (no event key, a bare message) ends the turn like an exception frame.
    if (typeof chunk.message === "string" && !Object.keys(chunk).some((k) => FRAMES.has(k) || own(EXCEPTIONS, k) !== undefined)) {
      const code = str(chunk, "__type") ?? str(chunk, "code");
      e.failTurn({ message: chunk.message, ...(code !== undefined ? { code } : {}) });
      this.response = undefined;
      return;
    }
    for (const [key, value] of Object.entries(chunk)) {
      const payload = isObject(value) ? value : undefined;
      if (!payload) {
        e.unparsed({ [key]: value }, `frame '${key}' without an object payload`);
        continue;
      }
      switch (key) {
        case "messageStart":
          this.onMessageStart(payload);
          break;
        case "contentBlockStart":
          this.onBlockStart(payload);
          break;
        case "contentBlockDelta":
          this.onBlockDelta(payload);
          break;
        case "contentBlockStop":
          this.onBlockStop(payload);
          break;
        case "messageStop":
          this.onMessageStop(payload);
          break;
        case "metadata":
          this.onMetadata(payload);
          break;
        default:
          if (own(EXCEPTIONS, key) !== undefined) this.onException(key, payload);
          else e.unparsed({ [key]: value }, `unknown event '${key}'`);
      }
    }
  }

  private onMessageStart(p: JsonObject): void {
    const e = this.engine;
    if (this.response) this.finishResponse(this.response);
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const role = str(p, "role");
    const messageId = e.openMessage({ role: isEnumValue("AgRole", role) ? role : "assistant" });
    this.responsesInTurn++;
    this.response = { messageId, blocks: new Map() };
  }

  private ensureResponse(): ResponseState {
    if (!this.response) {
      const e = this.engine;
      if (!e.currentTurn()) this.responsesInTurn = 0;
      this.responsesInTurn++;
      this.response = { messageId: e.ensureMessage(), blocks: new Map() };
    }
    return this.response;
  }

  private onBlockStart(p: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const given = e.providerIndex(p, "contentBlockIndex", { contentBlockStart: p }, "contentBlockStart.contentBlockIndex");
    // An index out of range was reported with the frame (§8.0); the block's deltas ride unparsed too.
    if (given === undefined && p.contentBlockIndex !== undefined && p.contentBlockIndex !== null) return;
    const index = given ?? r.blocks.size;
    const start = obj(p, "start");
    const toolUse = obj(start, "toolUse");
    const toolResult = obj(start, "toolResult");
    const image = obj(start, "image");
    if (toolUse) {
      const toolUseId = str(toolUse, "toolUseId");
      const id = e.toolStart({
        ...(toolUseId !== undefined ? { toolCallId: toolUseId } : {}),
        // A name that is not a string refuses the call into `unparsed` (§8.0).
        name: toolUse.name === undefined || toolUse.name === null ? "" : toolUse.name,
        // A server tool (web grounding, …) runs inside Bedrock; its result arrives as a toolResult block.
        ...(str(toolUse, "type") === "server_tool_use" ? { providerExecuted: true } : {}),
      });
      r.blocks.set(index, { kind: "tool", id });
    } else if (toolResult) {
      r.blocks.set(index, { kind: "tool-result", toolUseId: str(toolResult, "toolUseId") ?? "", start: toolResult, content: [], json: [] });
    } else if (image) {
      const format = str(image, "format");
      r.blocks.set(index, { kind: "image", data: "", ...(format !== undefined ? { format } : {}) });
    } else {
      e.unparsed({ contentBlockStart: p }, "contentBlockStart of an unknown block kind");
      r.blocks.set(index, { kind: "done" });
    }
  }

  /** The block at `index`, opening a text block when the provider streams text without a start frame. */
  private textTrack(r: ResponseState, index: number): BlockTrack | undefined {
    const track = r.blocks.get(index);
    if (track) return track;
    const opened: BlockTrack = { kind: "text", id: this.engine.textStart(), citations: [] };
    r.blocks.set(index, opened);
    return opened;
  }

  private onBlockDelta(p: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const raw = { contentBlockDelta: p };
    const given = e.providerIndex(p, "contentBlockIndex", raw, "contentBlockDelta.contentBlockIndex");
    // An index out of range was reported with the frame (§8.0): no block is opened for it.
    if (given === undefined && p.contentBlockIndex !== undefined && p.contentBlockIndex !== null) return;
    const index = given ?? -1;
    const delta = obj(p, "delta");
    if (!delta) {
      e.unparsed(raw, "contentBlockDelta without a delta");
      return;
    }
    for (const [kind, value] of Object.entries(delta)) {
      if (kind === "text" && typeof value === "string") {
        const track = this.textTrack(r, index);
        if (track?.kind === "text") e.textDelta(track.id, value);
        else e.unparsed(raw, `text delta for a ${track?.kind ?? "missing"} block`);
      } else if (kind === "citation") {
        const track = this.textTrack(r, index);
        const mapped = mapBedrockCitation(value);
        if (track?.kind === "text" && mapped) track.citations.push(mapped);
        else e.unparsed(raw, mapped ? `citation for a ${track?.kind ?? "missing"} block` : "citation with an unknown location");
      } else if (kind === "reasoningContent" && isObject(value)) {
        this.reasoningDelta(r, index, value, raw);
      } else if (kind === "toolUse" && isObject(value)) {
        const track = r.blocks.get(index);
        if (track?.kind === "tool") e.toolArgsDelta(track.id, str(value, "input") ?? "");
        else e.unparsed(raw, "toolUse delta for a block that is not a started tool call");
      } else if (kind === "toolResult" && Array.isArray(value)) {
        const track = r.blocks.get(index);
        if (track?.kind !== "tool-result") {
          e.unparsed(raw, "toolResult delta for a block that is not a started tool result");
          continue;
        }
        for (const part of value) {
          if (typeof str(part, "text") === "string") track.content.push({ type: "text", text: str(part, "text")! });
          else if (isObject(part) && "json" in part) track.json.push(part.json);
          else e.unparsed(raw, "toolResult delta part that is neither text nor json");
        }
      } else if (kind === "image" && isObject(value)) {
        const track = r.blocks.get(index);
        if (track?.kind !== "image") {
          e.unparsed(raw, "image delta for a block that is not a started image");
          continue;
        }
        const source = obj(value, "source");
        const bytes = str(source, "bytes");
        if (bytes !== undefined) track.data += bytes;
        const s3 = obj(source, "s3Location");
        if (s3) track.s3 = s3;
        if (value.error !== undefined) track.error = value.error;
      } else {
        e.unparsed(raw, `unknown delta member '${kind}'`);
      }
    }
  }

  private reasoningDelta(r: ResponseState, index: number, rc: JsonObject, raw: JsonObject): void {
    const e = this.engine;
    let track = r.blocks.get(index);
    if (!track) {
      track = { kind: "reasoning", id: e.reasoningStart(), signature: "" };
      r.blocks.set(index, track);
    }
    if (track.kind !== "reasoning") {
      e.unparsed(raw, `reasoningContent delta for a ${track.kind} block`);
      return;
    }
    const text = str(rc, "text");
    const signature = str(rc, "signature");
    const redacted = str(rc, "redactedContent");
    if (text !== undefined) e.reasoningDelta(track.id, text);
    // Signature and redacted fragments are concatenated as sent: replayed byte-identical (§13.2).
    if (signature !== undefined) track.signature += signature;
    if (redacted !== undefined) track.redacted = (track.redacted ?? "") + redacted;
    if (text === undefined && signature === undefined && redacted === undefined)
      e.unparsed(raw, "reasoningContent delta with no known member");
  }

  private onBlockStop(p: JsonObject): void {
    const r = this.ensureResponse();
    const index = num(p, "contentBlockIndex") ?? -1;
    if (!r.blocks.has(index)) {
      this.engine.unparsed({ contentBlockStop: p }, "stop for an unknown content block");
      return;
    }
    this.closeTrack(r, index);
  }

  /** Ends one block the provider finished, emitting what it accumulated. */
  private closeTrack(r: ResponseState, index: number): void {
    const e = this.engine;
    const track = r.blocks.get(index);
    if (!track) return;
    r.blocks.set(index, { kind: "done" });
    switch (track.kind) {
      case "text":
        e.textEnd(track.id, { citations: track.citations });
        return;
      case "reasoning":
        // §5 reasoning.opaque: one blob per block; a redacted block's data is its opaque value.
        if (track.redacted !== undefined) e.reasoningOpaque(track.id, "redacted", track.redacted);
        else if (track.signature !== "") e.reasoningOpaque(track.id, "signature", track.signature);
        e.reasoningEnd(track.id);
        return;
      case "tool":
        e.toolAssemble(track.id);
        return;
      case "tool-result": {
        const failed = str(track.start, "status") === "error";
        const structured = track.json.length === 0 ? undefined : track.json.length === 1 ? track.json[0] : track.json;
        const content = [...track.content];
        if (structured !== undefined && content.length === 0) content.push({ type: "data", name: "json", data: structured });
        const errorText = track.content.map((b) => (b.type === "text" ? b.text : "")).join("");
        const type = str(track.start, "type");
        e.toolDone({
          toolCallId: track.toolUseId,
          content,
          outcome: failed ? "error" : "ok",
          ...(failed ? { isError: true, errorText: errorText || "tool error" } : {}),
          ...(structured !== undefined ? { structuredContent: structured } : {}),
          ...(type !== undefined ? { providerMetadata: { type } } : {}),
        });
        return;
      }
      case "image": {
        const mediaType = `image/${track.format ?? "png"}`;
        const uri = str(track.s3, "uri");
        if (track.data !== "") e.contentBlock({ type: "image", source: { type: "base64", mediaType, data: track.data } });
        else if (uri !== undefined)
          e.contentBlock({
            type: "image",
            source: { type: "url", url: uri, mediaType },
            providerMetadata: providerMeta({ s3Location: track.s3 ?? {} }),
          });
        if (track.error !== undefined) e.unparsed({ image: { error: track.error } }, "image block error");
        return;
      }
      case "done":
        return;
    }
  }

  private onMessageStop(p: JsonObject): void {
    const r = this.ensureResponse();
    // Blocks the provider left open end with the response: it has ended every one of them.
    for (const index of [...r.blocks.keys()]) this.closeTrack(r, index);
    r.stop = p;
    const stopReason = str(p, "stopReason");
    this.engine.endResponse({ finishReason: mapBedrockStopReason(stopReason), ...this.safetyOf(stopReason) });
    if (r.meta) this.finishResponse(r);
  }

  private onMetadata(p: JsonObject): void {
    const r = this.ensureResponse();
    r.meta = p;
    if (r.stop) this.finishResponse(r);
    // Before messageStop the frame is still shown now (never held invisibly); the seal repeats it.
    else this.engine.messageMetadata({ bedrock: this.metadataBag(r) });
  }

  /** §4 safety_blocked: the collapsed stop reason stays recoverable as the category. */
  private safetyOf(stopReason: string | undefined): { safety?: AgSafety[] } {
    if (stopReason === "guardrail_intervened" || stopReason === "content_filtered")
      return { safety: [{ category: stopReason, blocked: true }] };
    return {};
  }

  /** Everything the provider said about the response that has no AgJSON field, verbatim. */
  private metadataBag(r: ResponseState): JsonObject {
    return { ...(r.stop ?? {}), ...(r.meta ?? {}) };
  }

  /** Seals the response's message with its metadata and usage, and records the turn close. */
  private finishResponse(r: ResponseState): void {
    const e = this.engine;
    this.response = undefined;
    const bag = this.metadataBag(r);
    if (Object.keys(bag).length > 0) e.messageMetadata({ bedrock: bag });
    const rawUsage = obj(r.meta, "usage");
    const usage = rawUsage ? mapBedrockUsage(rawUsage) : undefined;
    e.closeMessage(r.messageId, usage);
    if (!r.stop) return; // never ended by the provider: flush aborts the turn (INV-TURN)
    const stopReason = str(r.stop, "stopReason");
    // A turn's usage is its single response's; a multi-response turn keeps usage per message.
    e.endResponse({
      finishReason: mapBedrockStopReason(stopReason),
      ...(usage && this.responsesInTurn === 1 ? { usage } : {}),
      ...this.safetyOf(stopReason),
    });
  }

  private onException(name: string, p: JsonObject): void {
    const e = this.engine;
    const extras: JsonObject = {};
    for (const [k, v] of Object.entries(p)) if (k !== "message") extras[k] = v;
    // Fields beyond the message (modelStreamErrorException's originalStatusCode / originalMessage)
    // ride the open message's metadata; with no message open they are carried unparsed.
    if (Object.keys(extras).length > 0) {
      if (e.hasOpenMessage()) e.messageMetadata({ bedrock: { ...(this.response ? this.metadataBag(this.response) : {}), [name]: p } });
      else {
        e.ensureTurn();
        e.unparsed({ [name]: p }, `${name} fields with no AgJSON home`);
      }
    }
    e.failTurn({ message: str(p, "message") ?? name, code: name, retriable: own(EXCEPTIONS, name) === true });
    this.response = undefined;
  }
}
