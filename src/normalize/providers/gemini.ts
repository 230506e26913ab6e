/**
 * Google Gemini `streamGenerateContent` facet (Gemini API and Vertex AI). Chunks are incremental
 * `GenerateContentResponse`s; a change of `responseId` starts the next response (message) of the
 * turn. Covers §8 items 2 (null functionCall id → derived toolCallId + providerCallIndex), 4
 * (running-total usageMetadata flagged cumulative) and 8 (thoughtSignature kept on every signed
 * part), grounding → `source` + byte-offset citations, safety ratings, Vertex `partialArgs`.
 */
import type { AgBlock, AgCitation, AgFinishReason, AgSafety, AgUsage } from "../../../generated/types.js";
import type { NormalizerEngine, NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, providerMeta, setUsage, str, type JsonObject } from "../util.js";

interface PartialCall {
  id: string;
  name: string;
  candidateIndex: number;
  /** The call's position among the response's calls when Gemini gave it no id (§8 item 2). */
  providerCallIndex?: number;
  args: JsonObject;
  /** jsonPath of the last string fragment that announced a continuation. */
  continuing?: string;
  signature?: string;
}

interface CandidateState {
  textId?: string;
  reasoningId?: string;
  call?: PartialCall;
  callCount: number;
  citations: AgCitation[];
  finishReason?: string;
  safety: AgSafety[];
}

interface ResponseState {
  responseId?: string;
  messageId: string;
  candidates: Map<number, CandidateState>;
  usage?: JsonObject;
  sawToolCall: boolean;
  closed: boolean;
  metadata: JsonObject;
}

/** Gemini `finishReason` → AgFinishReason (§4; the safety family collapses to safety_blocked). */
export function mapGeminiFinishReason(reason: string | undefined, sawToolCall: boolean): AgFinishReason {
  switch (reason) {
    case "STOP":
      return sawToolCall ? "tool_call" : "stop";
    case "MAX_TOKENS":
      return "token_limit";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
      return "safety_blocked";
    case "MALFORMED_FUNCTION_CALL":
      return "malformed_tool_call";
    case "UNEXPECTED_TOOL_CALL":
      return "unexpected_tool_call";
    case "OTHER":
      return "other";
    default:
      return "unknown";
  }
}

/** usageMetadata (running totals) → AgUsage with `cumulative: true`, values verbatim (§8 item 4). */
export function mapGeminiUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = { cumulative: true };
  setUsage(usage, "inputTokens", num(u, "promptTokenCount"));
  setUsage(usage, "outputTokens", num(u, "candidatesTokenCount"));
  setUsage(usage, "totalTokens", num(u, "totalTokenCount"));
  setUsage(usage, "cacheReadTokens", num(u, "cachedContentTokenCount"));
  setUsage(usage, "reasoningTokens", num(u, "thoughtsTokenCount"));
  setUsage(usage, "toolUseInputTokens", num(u, "toolUsePromptTokenCount"));
  return usage;
}

/** Gemini safety ratings → AgSafety. */
export function mapGeminiSafety(ratings: unknown[] | undefined): AgSafety[] {
  return (ratings ?? []).filter(isObject).map((r) => {
    const s: AgSafety = { category: str(r, "category") ?? "HARM_CATEGORY_UNSPECIFIED" };
    const probability = str(r, "probability");
    const score = num(r, "probabilityScore");
    if (probability !== undefined) s.probability = probability;
    if (score !== undefined) s.score = score;
    if (typeof r.blocked === "boolean") s.blocked = r.blocked;
    return s;
  });
}

/**
 * The safety entries of a block, with the native reason as a blocked category when nothing else
 * names it (§4 safety_blocked: the collapsed RECITATION / SPII / PROHIBITED_CONTENT / … stays
 * recoverable). A SAFETY block is named already by a rating marked blocked; no other reason is.
 */
export function withBlockReason(safety: AgSafety[], reason: string): AgSafety[] {
  const named = safety.some((s) => s.category === reason) || (reason === "SAFETY" && safety.some((s) => s.blocked === true));
  return named ? safety : [...safety, { category: reason, blocked: true }];
}

/** Splits a Vertex `jsonPath` (`$.a.b[0].c`) into keys and indexes. */
export function parseJsonPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path.replace(/^\$/, ""))) !== null) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else if (m[3] !== undefined) out.push(m[3]);
  }
  return out;
}

/** Applies one `partialArgs` fragment to the call's argument object (string fragments append). */
function applyPartialArg(call: PartialCall, frag: JsonObject): void {
  const path = str(frag, "jsonPath") ?? "$";
  const keys = parseJsonPath(path);
  let value: unknown;
  if ("stringValue" in frag) value = frag.stringValue;
  else if ("numberValue" in frag) value = frag.numberValue;
  else if ("boolValue" in frag) value = frag.boolValue;
  else if ("nullValue" in frag) value = null;
  else if ("structValue" in frag) value = frag.structValue;
  else if ("listValue" in frag) value = frag.listValue;
  let node: Record<string | number, unknown> = call.args;
  keys.forEach((k, i) => {
    const last = i === keys.length - 1;
    if (last) {
      const prior = node[k];
      node[k] = call.continuing === path && typeof prior === "string" && typeof value === "string" ? prior + value : value;
      return;
    }
    if (!isObject(node[k]) && !Array.isArray(node[k])) node[k] = typeof keys[i + 1] === "number" ? [] : {};
    node = node[k] as Record<string | number, unknown>;
  });
  call.continuing = frag.willContinue === true ? path : undefined;
}

/**
 * Normalizer for Gemini `streamGenerateContent` chunks. A response still open at flush never got a
 * finishReason on every candidate (a finished one is closed on arrival): it is truncated, and
 * INV-FLUSH seals it with no synthetic block closes (a half-streamed Vertex call is never
 * assembled from its partial arguments).
 */
export class GeminiFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;

  constructor(opts: NormalizerOptions = {}, engine?: NormalizerEngine) {
    super("google", opts, engine);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) {
      e.unparsed(chunk, "not a GenerateContentResponse object");
      return;
    }
    const error = obj(chunk, "error");
    if (error) {
      // A non-stream HTTP error body (e.g. 429 RESOURCE_EXHAUSTED) ends the turn.
      const code = str(error, "status") ?? (num(error, "code") !== undefined ? String(num(error, "code")) : undefined);
      const httpCode = num(error, "code");
      e.failTurn({
        message: str(error, "message") ?? "provider error",
        ...(code !== undefined ? { code } : {}),
        retriable: httpCode === 429 || httpCode === 503 || httpCode === 500,
      });
      this.response = undefined;
      return;
    }
    const candidates = arr(chunk, "candidates");
    const feedback = obj(chunk, "promptFeedback");
    if (!candidates && !feedback && !obj(chunk, "usageMetadata")) {
      e.unparsed(chunk, "chunk with neither candidates, promptFeedback nor usageMetadata");
      return;
    }
    const r = this.responseFor(chunk);
    const usage = obj(chunk, "usageMetadata");
    if (usage) r.usage = usage;
    for (const k of ["modelVersion", "createTime"]) if (chunk[k] !== undefined) r.metadata[k] = chunk[k];
    if (feedback) this.onPromptFeedback(r, feedback);
    for (const cand of candidates ?? []) this.onCandidate(r, cand);
    const states = [...r.candidates.values()];
    if (states.length > 0 && states.every((c) => c.finishReason !== undefined)) this.closeResponse(r);
  }

  private responseFor(chunk: JsonObject): ResponseState {
    const e = this.engine;
    const responseId = str(chunk, "responseId");
    const current = this.response;
    if (current && !current.closed && (responseId === undefined || responseId === current.responseId)) return current;
    if (current && !current.closed) this.closeResponse(current);
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const model = str(chunk, "modelVersion");
    const messageId = e.openMessage({
      ...(responseId !== undefined ? { id: responseId, turnHint: `turn_${responseId}` } : {}),
      role: "assistant",
      ...(model ? { model } : {}),
    });
    this.responsesInTurn++;
    const r: ResponseState = {
      messageId,
      candidates: new Map(),
      sawToolCall: false,
      closed: false,
      metadata: {},
      ...(responseId !== undefined ? { responseId } : {}),
    };
    this.response = r;
    return r;
  }

  private candidate(r: ResponseState, index: number): CandidateState {
    let c = r.candidates.get(index);
    if (!c) {
      c = { callCount: 0, citations: [], safety: [] };
      r.candidates.set(index, c);
    }
    return c;
  }

  private onPromptFeedback(r: ResponseState, feedback: JsonObject): void {
    const e = this.engine;
    const reason = str(feedback, "blockReason");
    if (reason === undefined) return;
    const safety = withBlockReason(mapGeminiSafety(arr(feedback, "safetyRatings")), reason);
    const mapped =
      reason === "SAFETY" ? "safety" : reason === "BLOCKLIST" ? "blocklist" : reason === "PROHIBITED_CONTENT" ? "prohibited" : "other";
    e.emit({ type: "prompt.blocked", reason: mapped, ...(safety.length > 0 ? { safety } : {}) });
    const c = this.candidate(r, 0);
    c.finishReason = "SAFETY";
    c.safety.push(...safety);
  }

  private onCandidate(r: ResponseState, cand: unknown): void {
    const e = this.engine;
    if (!isObject(cand)) {
      e.unparsed(cand, "candidate is not an object");
      return;
    }
    // An index out of range is reported with the candidate (§8.0) and read as the first candidate.
    const ci = this.engine.providerIndex(cand, "index", { index: cand.index }, "candidates[].index") ?? 0;
    const c = this.candidate(r, ci);
    for (const part of arr(obj(cand, "content"), "parts") ?? []) this.onPart(r, c, ci, part);
    const grounding = obj(cand, "groundingMetadata");
    if (grounding) this.onGrounding(r, c, grounding);
    const citationMetadata = obj(cand, "citationMetadata");
    if (citationMetadata) r.metadata.citationMetadata = citationMetadata;
    const safety = mapGeminiSafety(arr(cand, "safetyRatings"));
    if (safety.length > 0) c.safety = safety;
    const finish = str(cand, "finishReason");
    if (finish !== undefined) {
      this.closeCandidateBlocks(c);
      c.finishReason = finish;
      const message = str(cand, "finishMessage");
      if (message !== undefined) r.metadata.finishMessage = message;
    }
  }

  private onPart(r: ResponseState, c: CandidateState, ci: number, part: unknown): void {
    const e = this.engine;
    if (!isObject(part)) {
      e.unparsed(part, "part is not an object");
      return;
    }
    const signature = str(part, "thoughtSignature");
    const fc = obj(part, "functionCall");
    if (fc) return this.onFunctionCall(r, c, ci, part, fc, signature);
    // Any non-call part ends a streamed Vertex call still open (some end without a terminal {}).
    this.closeCall(c);
    if (typeof part.text === "string") {
      if (part.thought === true) {
        if (c.textId !== undefined) this.endText(c);
        c.reasoningId ??= e.reasoningStart({ candidateIndex: ci });
        e.reasoningDelta(c.reasoningId, part.text);
        if (signature !== undefined) this.sealReasoning(c, signature);
        return;
      }
      if (part.text !== "") {
        if (c.reasoningId !== undefined) this.sealReasoning(c);
        c.textId ??= e.textStart({ candidateIndex: ci });
        e.textDelta(c.textId, part.text);
      } else if (signature !== undefined) {
        // A signature on an empty answer part of its own (Gemini's trailing signed part): it goes
        // back on such a part at the same place, after whatever came before it, neither onto the
        // thought part nor onto the answer text (D18, §8 item 8, §10 item 4).
        if (c.reasoningId !== undefined) this.sealReasoning(c);
        this.endText(c);
        c.reasoningId = e.reasoningStart({
          candidateIndex: ci,
          providerMetadata: { thoughtSignaturePart: "text", thoughtSignatureOwnPart: true },
        });
        this.sealReasoning(c, signature);
        return;
      }
      if (signature !== undefined) {
        // A signature on a (often empty) answer part: the signed thinking of a thinking-only turn
        // rides a reasoning block's opaque carrier (§8 item 8, §10 item 4b).
        const id = c.reasoningId ?? e.reasoningStart({ candidateIndex: ci, providerMetadata: { thoughtSignaturePart: "text" } });
        c.reasoningId = id;
        this.sealReasoning(c, signature);
      }
      return;
    }
    if (c.reasoningId !== undefined) this.sealReasoning(c);
    const block = mapGeminiPart(part);
    if (block) {
      e.contentBlock(block, { candidateIndex: ci });
      if (signature !== undefined) {
        c.reasoningId = e.reasoningStart({ candidateIndex: ci, providerMetadata: { thoughtSignaturePart: block.type } });
        this.sealReasoning(c, signature);
      }
      return;
    }
    e.unparsed(part, "part kind with no AgJSON mapping");
  }

  private onFunctionCall(
    r: ResponseState,
    c: CandidateState,
    ci: number,
    part: JsonObject,
    fc: JsonObject,
    signature: string | undefined,
  ): void {
    const e = this.engine;
    r.sawToolCall = true;
    // A name that is present but not a string cannot become a tool-call; the part is carried, never
    // dropped (§8.0 graceful degradation) — whole, so a thoughtSignature beside it survives (§8 item 8).
    if (fc.name !== undefined && fc.name !== null && typeof fc.name !== "string") {
      e.warn("unparsed-part", "a functionCall part with a non-string name was carried as ext.google.unparsed");
      e.unparsed(part, "functionCall name is not a string");
      return;
    }
    const name = str(fc, "name");
    const partial = arr(fc, "partialArgs");
    if (name !== undefined || (!c.call && (partial || fc.willContinue === true))) {
      this.closeCall(c);
      if (c.textId !== undefined) this.endText(c);
      if (c.reasoningId !== undefined) this.sealReasoning(c);
      // Developer-API calls carry a null id: derive one and keep the positional index (§8 item 2).
      const providerId = str(fc, "id");
      const index = c.callCount++;
      const id = e.toolStart({
        ...(providerId ? { toolCallId: providerId } : {}),
        name: name ?? "",
        candidateIndex: ci,
        ...(providerId ? {} : { providerMetadata: { providerCallIndex: index } }),
      });
      c.call = {
        id,
        name: name ?? "",
        candidateIndex: ci,
        ...(providerId ? {} : { providerCallIndex: index }),
        args: isObject(fc.args) ? { ...fc.args } : {},
        ...(signature !== undefined ? { signature } : {}),
      };
      if (fc.willContinue !== true && !partial) {
        this.closeCall(c, isObject(fc.args) ? fc.args : {});
        return;
      }
    }
    const call = c.call;
    if (!call) return;
    if (signature !== undefined) call.signature = signature;
    for (const frag of partial ?? []) if (isObject(frag)) applyPartialArg(call, frag);
    if (Object.keys(fc).length === 0) this.closeCall(c);
  }

  private closeCall(c: CandidateState, input?: unknown): void {
    const call = c.call;
    if (!call) return;
    c.call = undefined;
    const args = input ?? call.args;
    this.engine.toolAssemble(call.id, {
      input: args,
      ...(call.signature !== undefined ? { signature: call.signature } : {}),
    });
    if (call.providerCallIndex === undefined) return;
    // providerCallIndex is a field of the tool-call block (§2) that no tool.* event carries: the
    // assembled call is re-stated whole, REPLACEd in place (§5 content.block, D1), with it on top.
    const block: AgBlock = {
      type: "tool-call",
      toolCallId: call.id,
      name: call.name,
      input: args,
      providerCallIndex: call.providerCallIndex,
      providerMetadata: providerMeta({ providerCallIndex: call.providerCallIndex }),
    };
    if (call.signature !== undefined) block.signature = call.signature;
    // Its own event id, so the derived ids of later calls do not shift (§8 item 2: stable ids).
    this.engine.contentBlock(block, { id: `${call.id}:restated`, candidateIndex: call.candidateIndex });
  }

  private sealReasoning(c: CandidateState, signature?: string): void {
    const id = c.reasoningId;
    if (id === undefined) return;
    if (signature !== undefined) this.engine.reasoningOpaque(id, "signature", signature);
    this.engine.reasoningEnd(id);
    c.reasoningId = undefined;
  }

  private endText(c: CandidateState): void {
    if (c.textId === undefined) return;
    this.engine.textEnd(c.textId, { citations: c.citations });
    c.citations = [];
    c.textId = undefined;
  }

  private closeCandidateBlocks(c: CandidateState): void {
    this.closeCall(c);
    this.sealReasoning(c);
    this.endText(c);
  }

  /**
   * groundingChunks → `source` events in array order (chunkIndex kept); groundingSupports →
   * offset citations in UTF-8 byte units bound by sourceIds (§5 `source`, citation key).
   */
  private onGrounding(r: ResponseState, c: CandidateState, g: JsonObject): void {
    const e = this.engine;
    const sourceIds: string[] = [];
    (arr(g, "groundingChunks") ?? []).forEach((chunk, chunkIndex) => {
      const web = obj(chunk, "web") ?? obj(chunk, "retrievedContext");
      const uri = str(web, "uri");
      const title = str(web, "title");
      sourceIds.push(
        e.source({
          source:
            uri !== undefined
              ? { url: uri, ...(title !== undefined ? { title } : {}) }
              : { type: "document", ...(title !== undefined ? { title } : {}) },
          chunkIndex,
          providerMetadata: { groundingChunk: chunk },
        }),
      );
    });
    for (const support of arr(g, "groundingSupports") ?? []) {
      const seg = obj(support, "segment");
      const ids = (arr(support, "groundingChunkIndices") ?? []).flatMap((i) =>
        typeof i === "number" && sourceIds[i] !== undefined ? [sourceIds[i]!] : [],
      );
      const cit: AgCitation = {
        citedText: str(seg, "text") ?? "",
        kind: "offset",
        startIndex: num(seg, "startIndex") ?? 0,
        endIndex: num(seg, "endIndex") ?? 0,
        sourceIds: ids,
        unit: "byte",
        bounds: "[start,end)",
        indexFrame: "response",
      };
      const partIndex = num(seg, "partIndex");
      if (partIndex !== undefined) cit.partIndex = partIndex;
      const scores = arr(support, "confidenceScores")?.filter((x): x is number => typeof x === "number");
      if (scores && scores.length > 0) cit.confidenceScores = scores;
      c.citations.push(cit);
    }
    const html = str(obj(g, "searchEntryPoint"), "renderedContent");
    if (html !== undefined) e.emit({ type: "display.required", provider: "google", html });
    const rest: JsonObject = {};
    for (const [k, v] of Object.entries(g))
      if (k !== "groundingChunks" && k !== "groundingSupports" && k !== "searchEntryPoint") rest[k] = v;
    if (Object.keys(rest).length > 0) r.metadata.groundingMetadata = rest;
  }

  private closeResponse(r: ResponseState): void {
    const e = this.engine;
    r.closed = true;
    for (const c of r.candidates.values()) this.closeCandidateBlocks(c);
    const meta: JsonObject = { ...r.metadata };
    if (r.usage) meta.usageMetadata = r.usage;
    if (r.responseId !== undefined) meta.responseId = r.responseId;
    e.messageMetadata({ google: meta });
    const usage = r.usage ? mapGeminiUsage(r.usage) : undefined;
    e.closeMessage(r.messageId, usage);
    const first = r.candidates.get(0) ?? [...r.candidates.values()][0];
    if (first?.finishReason === undefined) return; // no terminal: flush aborts the turn
    const finishReason = mapGeminiFinishReason(first.finishReason, r.sawToolCall);
    let safety = [...r.candidates.values()].flatMap((c) => c.safety);
    if (finishReason === "safety_blocked") safety = withBlockReason(safety, first.finishReason);
    e.endResponse({
      finishReason,
      ...(usage && this.responsesInTurn === 1 ? { usage } : {}),
      ...(safety.length > 0 ? { safety } : {}),
    });
  }
}

/** Non-text Gemini parts that map to one whole AgBlock. */
function mapGeminiPart(part: JsonObject): AgBlock | undefined {
  const code = obj(part, "executableCode");
  if (code) return { type: "code", language: (str(code, "language") ?? "PYTHON").toLowerCase(), code: str(code, "code") ?? "" };
  const result = obj(part, "codeExecutionResult");
  if (result) {
    const outcome = str(result, "outcome");
    return {
      type: "code-result",
      outcome: outcome === "OUTCOME_OK" ? "ok" : outcome === "OUTCOME_DEADLINE_EXCEEDED" ? "deadline_exceeded" : "failed",
      output: str(result, "output") ?? "",
    };
  }
  const inline = obj(part, "inlineData");
  if (inline) {
    const mediaType = str(inline, "mimeType") ?? "application/octet-stream";
    const source = { type: "base64" as const, mediaType, data: str(inline, "data") ?? "" };
    return mediaType.startsWith("image/")
      ? { type: "image", source }
      : mediaType.startsWith("audio/")
        ? { type: "audio", source }
        : { type: "file", source };
  }
  const file = obj(part, "fileData");
  if (file) {
    const mediaType = str(file, "mimeType");
    return { type: "file", source: { type: "url", url: str(file, "fileUri") ?? "", ...(mediaType ? { mediaType } : {}) } };
  }
  return undefined;
}
