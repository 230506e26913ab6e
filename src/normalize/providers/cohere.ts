/**
 * Cohere v2 chat streaming facet (`POST /v2/chat`, `stream: true`). Content blocks are keyed by the
 * content `index`, tool calls by the tool `index` (two separate index spaces). Cohere streams its
 * citations AFTER the text they cite (`citation-start` follows `content-end`), so a text block's
 * `text.end` is held until `message-end` and then carries its citations (§5 `text.end`, the
 * streamed-text citation carrier — never a duplicate supplement block).
 */
import type { AgCitation, AgFinishReason, AgJsonValue, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, str, type JsonObject } from "../util.js";

type ContentTrack =
  | { kind: "text"; id: string; contentIndex: number; ended: boolean; citations: AgCitation[] }
  | { kind: "reasoning"; id: string; contentIndex: number; ended: boolean };

interface ResponseState {
  messageId: string;
  content: Map<number, ContentTrack>;
  /** Open tool calls by tool index. */
  tools: Map<number, string>;
  /** The open tool-plan reasoning block. */
  planId?: string;
  /** Citations of thinking content: no AgJSON carrier on a reasoning block, so they ride metadata. */
  thinkingCitations: AgJsonValue[];
  /** Top-level message-start fields with no AgJSON home. */
  extras: JsonObject;
}

/** Cohere `finish_reason` values that end the turn with `turn.error` rather than `turn.done`. */
const ERROR_FINISHES = new Set(["ERROR", "TIMEOUT"]);

/** Cohere v2 `finish_reason` → AgFinishReason (§4). ERROR / TIMEOUT never reach here: they are `turn.error`. */
export function mapCohereFinishReason(reason: string | undefined): AgFinishReason {
  switch (reason) {
    case "COMPLETE":
    case "STOP_SEQUENCE":
      return "stop";
    case "MAX_TOKENS":
      return "token_limit";
    case "TOOL_CALL":
      return "tool_call";
    case undefined:
      return "unknown";
    default:
      return "other";
  }
}

/**
 * Cohere usage → AgUsage, values verbatim: `tokens` are the model's own counts (input / output),
 * `cached_tokens` the prompt tokens served from cache. `billed_units` are a billing measure with
 * no AgUsage field; they ride message.metadata with the raw usage object. Per response, not cumulative.
 */
export function mapCohereUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = {};
  const tokens = obj(u, "tokens");
  const input = num(tokens, "input_tokens");
  const output = num(tokens, "output_tokens");
  const cached = num(u, "cached_tokens");
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (cached !== undefined) usage.cacheReadTokens = cached;
  return usage;
}

/** The `delta.message` object of a Cohere stream event. */
function deltaMessage(chunk: JsonObject): JsonObject | undefined {
  return obj(obj(chunk, "delta"), "message");
}

/** A field Cohere sends as one object (and some SDK versions as a one-element array). */
function single(x: AgJsonValue | undefined): JsonObject | undefined {
  if (isObject(x)) return x;
  if (Array.isArray(x) && x.length === 1 && isObject(x[0])) return x[0];
  return undefined;
}

/** Normalizer for Cohere v2 chat stream events. */
export class CohereFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;
  /** Cohere source id → emitted `source.sourceId`: each grounding source is emitted once per invoke. */
  private sources = new Map<string, string>();

  constructor(opts: NormalizerOptions = {}) {
    super("cohere", opts);
  }

  protected override settleBeforeFlush(): void {
    // A text block the provider ended (content-end) but whose message-end never came: its held
    // text.end is the provider's own close, released here with the citations seen so far. Blocks
    // the provider never ended get nothing (INV-FLUSH).
    if (this.response) this.releaseEndedTexts(this.response);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) {
      e.unparsed(chunk, "not a Cohere stream event object");
      return;
    }
    const type = str(chunk, "type");
    if (type === undefined) {
      // An HTTP error body ({id?, message}) in place of a stream.
      if (typeof chunk.message === "string") {
        e.failTurn({ message: chunk.message });
        this.response = undefined;
      } else e.unparsed(chunk, "event without a type");
      return;
    }
    // A content or tool index out of range: the event is reported and carried whole (§8.0).
    if (chunk.index !== undefined && chunk.index !== null && e.providerIndex(chunk, "index", chunk, `${type}.index`) === undefined) return;
    switch (type) {
      case "message-start":
        return this.onMessageStart(chunk);
      case "content-start":
        return this.onContentStart(chunk);
      case "content-delta":
        return this.onContentDelta(chunk);
      case "content-end":
        return this.onContentEnd(chunk);
      case "tool-plan-delta":
        return this.onToolPlan(str(deltaMessage(chunk), "tool_plan") ?? "");
      case "tool-call-start":
        return this.onToolCallStart(chunk);
      case "tool-call-delta":
        return this.onToolCallDelta(chunk);
      case "tool-call-end":
        return this.onToolCallEnd(chunk);
      case "citation-start":
        return this.onCitation(chunk);
      case "citation-end":
        return; // pairs with citation-start; the citation was taken whole from the start event
      case "message-end":
        return this.onMessageEnd(chunk);
      default:
        // `debug` (the raw prompt) and event types newer than this facet have no AgJSON home.
        e.unparsed(chunk, `unmapped event type '${type}'`);
    }
  }

  private onMessageStart(chunk: JsonObject): void {
    const e = this.engine;
    if (this.response) this.finishResponse(this.response, undefined);
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const id = str(chunk, "id");
    const message = deltaMessage(chunk) ?? {};
    const messageId = e.openMessage({ ...(id !== undefined && id !== "" ? { id, turnHint: `turn_${id}` } : {}), role: "assistant" });
    this.responsesInTurn++;
    const r: ResponseState = { messageId, content: new Map(), tools: new Map(), thinkingCitations: [], extras: {} };
    for (const [k, v] of Object.entries(chunk)) if (k !== "id" && k !== "type" && k !== "delta") r.extras[k] = v;
    this.response = r;
    // The start message is an empty skeleton; anything already inside it is not streamed again.
    const plan = str(message, "tool_plan");
    if (plan) this.onToolPlan(plan);
    for (const key of ["content", "tool_calls", "citations"]) {
      const items = arr(message, key);
      if (items && items.length > 0) e.unparsed({ [key]: items }, `message-start carrying ${key}`);
    }
  }

  private ensureResponse(): ResponseState {
    if (!this.response) {
      const e = this.engine;
      if (!e.currentTurn()) this.responsesInTurn = 0;
      this.responsesInTurn++;
      this.response = { messageId: e.ensureMessage(), content: new Map(), tools: new Map(), thinkingCitations: [], extras: {} };
    }
    return this.response;
  }

  /** Ends the tool plan when the model moves on to content or calls. */
  private closePlan(r: ResponseState): void {
    if (r.planId === undefined) return;
    this.engine.reasoningEnd(r.planId);
    r.planId = undefined;
  }

  /**
   * `tool-plan-delta` is the model's plan before it calls tools ("I will use the weather tool…"):
   * Cohere's chain-of-thought for the tool step, replayed on the assistant message's own
   * `tool_plan` field, never inside `content`. That is reasoning in AgJSON's vocabulary (§0.6), so
   * it becomes a reasoning block marked `providerMetadata.toolPlan` — not answer text.
   */
  private onToolPlan(delta: string): void {
    const r = this.ensureResponse();
    if (delta === "") return;
    r.planId ??= this.engine.reasoningStart({ providerMetadata: { toolPlan: true } });
    this.engine.reasoningDelta(r.planId, delta);
  }

  private openContent(r: ResponseState, index: number, kind: "text" | "thinking"): ContentTrack {
    const e = this.engine;
    this.closePlan(r);
    const track: ContentTrack =
      kind === "thinking"
        ? { kind: "reasoning", id: e.reasoningStart(), contentIndex: index, ended: false }
        : { kind: "text", id: e.textStart(), contentIndex: index, ended: false, citations: [] };
    r.content.set(index, track);
    return track;
  }

  /** Appends a content delta; false when it carries no field of the block's kind (the caller degrades it). */
  private appendContent(track: ContentTrack, content: JsonObject | undefined): boolean {
    const piece = str(content, track.kind === "text" ? "text" : "thinking");
    if (piece === undefined) return false;
    if (track.kind === "text") this.engine.textDelta(track.id, piece);
    else this.engine.reasoningDelta(track.id, piece);
    return true;
  }

  private onContentStart(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const index = num(chunk, "index") ?? r.content.size;
    const content = obj(deltaMessage(chunk), "content");
    const kind = str(content, "type");
    if (kind !== "text" && kind !== "thinking") {
      e.unparsed(chunk, `unknown content type '${kind ?? "?"}'`);
      return;
    }
    // A start without its initial field is an empty start, not an error.
    const track = this.openContent(r, index, kind);
    if (content && kind in content) this.appendContent(track, content);
  }

  private onContentDelta(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const index = num(chunk, "index") ?? 0;
    const content = obj(deltaMessage(chunk), "content");
    let track = r.content.get(index);
    if (!track) {
      // No content-start seen (a stream picked up mid-way): the delta's own field names the kind.
      if (str(content, "text") !== undefined) track = this.openContent(r, index, "text");
      else if (str(content, "thinking") !== undefined) track = this.openContent(r, index, "thinking");
    }
    if (!track || track.ended) {
      e.unparsed(chunk, track ? "content-delta after content-end" : "content-delta with neither text nor thinking");
      return;
    }
    if (!this.appendContent(track, content))
      e.unparsed(chunk, `content-delta without the ${track.kind === "text" ? "text" : "thinking"} of its block`);
  }

  private onContentEnd(chunk: JsonObject): void {
    const r = this.ensureResponse();
    const track = r.content.get(num(chunk, "index") ?? -1);
    if (!track || track.ended) {
      this.engine.unparsed(chunk, "content-end for an unknown content block");
      return;
    }
    track.ended = true;
    // Reasoning has no citation carrier: it ends now. Text waits for its citations (see the header).
    if (track.kind === "reasoning") this.engine.reasoningEnd(track.id);
  }

  private onToolCallStart(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    this.closePlan(r);
    const index = num(chunk, "index") ?? r.tools.size;
    const call = single(deltaMessage(chunk)?.tool_calls);
    if (!call) {
      e.unparsed(chunk, "tool-call-start without a tool call");
      return;
    }
    const fn = obj(call, "function");
    const id = str(call, "id");
    const toolCallId = e.toolStart({
      ...(id !== undefined && id !== "" ? { toolCallId: id } : {}),
      name: fn?.name === undefined || fn.name === null ? "" : fn.name,
    });
    r.tools.set(index, toolCallId);
    e.toolArgsDelta(toolCallId, str(fn, "arguments") ?? "");
  }

  private onToolCallDelta(chunk: JsonObject): void {
    const r = this.ensureResponse();
    const toolCallId = r.tools.get(num(chunk, "index") ?? -1);
    const fn = obj(single(deltaMessage(chunk)?.tool_calls), "function");
    if (toolCallId === undefined || !fn) {
      this.engine.unparsed(
        chunk,
        toolCallId === undefined ? "tool-call-delta for an unknown tool call" : "tool-call-delta without a function",
      );
      return;
    }
    this.engine.toolArgsDelta(toolCallId, str(fn, "arguments") ?? "");
  }

  private onToolCallEnd(chunk: JsonObject): void {
    const r = this.ensureResponse();
    const index = num(chunk, "index") ?? -1;
    const toolCallId = r.tools.get(index);
    if (toolCallId === undefined) {
      this.engine.unparsed(chunk, "tool-call-end for an unknown tool call");
      return;
    }
    r.tools.delete(index);
    // `""` (a no-argument call, the empty-tool-call stream) assembles to {} (§8 item 1).
    this.engine.toolAssemble(toolCallId);
  }

  private onCitation(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureResponse();
    const raw = deltaMessage(chunk)?.citations;
    const list = Array.isArray(raw) ? raw : [raw];
    for (const c of list) {
      if (!isObject(c)) {
        e.unparsed(chunk, "citation-start without a citation");
        continue;
      }
      if (str(c, "type") === "THINKING_CONTENT") {
        r.thinkingCitations.push(c);
        continue;
      }
      const target = this.citedText(r, num(c, "content_index"));
      const start = num(c, "start");
      const end = num(c, "end");
      if (!target || start === undefined || end === undefined) {
        e.unparsed(chunk, target ? "citation without start/end offsets" : "citation for no text block");
        continue;
      }
      const cit: AgCitation = {
        citedText: str(c, "text") ?? "",
        kind: "offset",
        startIndex: start,
        endIndex: end,
        sourceIds: (arr(c, "sources") ?? []).map((s) => this.sourceId(s)),
        // Offsets count characters into the cited text item; end is exclusive ("automation of
        // tasks" = [21,40)).
        unit: "char",
        bounds: "[start,end)",
        indexFrame: "response",
      };
      const ci = num(c, "content_index");
      if (ci !== undefined) cit.partIndex = ci;
      const title = (arr(c, "sources") ?? []).map((s) => str(obj(s, "document"), "title")).find((t) => t !== undefined);
      if (title !== undefined) cit.title = title;
      target.citations.push(cit);
    }
  }

  /** The text block a citation names by `content_index`, else the latest text block of the message. */
  private citedText(r: ResponseState, contentIndex: number | undefined): Extract<ContentTrack, { kind: "text" }> | undefined {
    if (contentIndex !== undefined) {
      const t = r.content.get(contentIndex);
      return t?.kind === "text" ? t : undefined;
    }
    let last: Extract<ContentTrack, { kind: "text" }> | undefined;
    for (const t of r.content.values()) if (t.kind === "text") last = t;
    return last;
  }

  /**
   * Emits a Cohere citation source once (§4 `source`) and returns its sourceId. Document and tool
   * sources both become `{type:"document"}` payloads — Cohere itself hands tool results to the
   * model as documents — with the whole native source verbatim on `providerMetadata.citationSource`.
   */
  private sourceId(s: AgJsonValue): string {
    const e = this.engine;
    const nativeId = str(s, "id");
    const seen = nativeId !== undefined ? this.sources.get(nativeId) : undefined;
    if (seen !== undefined) return seen;
    const title = str(obj(s, "document"), "title");
    const sourceId = e.source({
      ...(nativeId !== undefined && nativeId !== "" ? { sourceId: nativeId } : {}),
      source: { type: "document", ...(title !== undefined ? { title } : {}) },
      providerMetadata: { citationSource: s },
    });
    if (nativeId !== undefined) this.sources.set(nativeId, sourceId);
    return sourceId;
  }

  /** Releases the held `text.end` of every text block the provider ended, with its citations. */
  private releaseEndedTexts(r: ResponseState): void {
    for (const t of r.content.values()) {
      if (t.kind !== "text" || !t.ended || !this.engine.isOpen(t.id)) continue;
      this.engine.textEnd(t.id, { citations: t.citations });
    }
  }

  private onMessageEnd(chunk: JsonObject): void {
    const r = this.ensureResponse();
    this.finishResponse(r, chunk);
  }

  /**
   * Seals the response's message: the provider ended it (message-end), or a new message-start
   * superseded it (`end` undefined: no terminal, so flush aborts the turn unless a later one ends it).
   */
  private finishResponse(r: ResponseState, end: JsonObject | undefined): void {
    const e = this.engine;
    this.response = undefined;
    this.closePlan(r);
    if (end) {
      // message-end ends every block, including content the provider never sent content-end for.
      for (const t of r.content.values()) t.ended = true;
      for (const id of r.tools.values()) e.toolAssemble(id);
      r.tools.clear();
    }
    this.releaseEndedTexts(r);
    for (const t of r.content.values()) if (t.kind === "reasoning" && e.isOpen(t.id) && t.ended) e.reasoningEnd(t.id);
    const delta = obj(end, "delta") ?? {};
    const finish = str(delta, "finish_reason");
    const rawUsage = obj(delta, "usage");
    const bag: JsonObject = { ...r.extras };
    for (const [k, v] of Object.entries(delta)) if (v !== null) bag[k] = v;
    for (const [k, v] of Object.entries(end ?? {})) if (k !== "type" && k !== "delta") bag[k] = v;
    if (r.thinkingCitations.length > 0) bag.thinking_citations = r.thinkingCitations;
    if (Object.keys(bag).length > 0) e.messageMetadata({ cohere: bag });
    const usage = rawUsage ? mapCohereUsage(rawUsage) : undefined;
    e.closeMessage(r.messageId, usage);
    if (!end) return;
    if (finish !== undefined && ERROR_FINISHES.has(finish)) {
      // The generation failed: terminal, never held, never a success (INV-TURN).
      e.failTurn({
        message: str(delta, "error") ?? `Cohere ended the generation with finish_reason ${finish}`,
        code: finish,
        retriable: finish === "TIMEOUT",
        ...(usage ? { usage } : {}),
      });
      return;
    }
    e.endResponse({ finishReason: mapCohereFinishReason(finish), ...(usage && this.responsesInTurn === 1 ? { usage } : {}) });
  }
}
