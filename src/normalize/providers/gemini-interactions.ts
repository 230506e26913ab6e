/**
 * Gemini Interactions API streaming facet (`POST /v1/interactions` with `stream: true`). One
 * interaction (`interaction.created` … `interaction.completed`) is one assistant message; its
 * steps, framed by `index` (`step.start` / `step.delta` / `step.stop`), become blocks: `thought` →
 * reasoning with its `thought_signature` (§8 item 8), `model_output` → text (+ media) with
 * byte-offset `url_citation`s, `function_call` → a client tool call, the built-in
 * `*_call` / `*_result` steps → provider-executed calls and their results. The interaction's
 * status decides the close: completed / requires_action / incomplete → a held `turn.done`,
 * failed → `turn.error`, cancelled → `turn.abort` (§8 item 17).
 */
import type { AgBlock, AgCitation, AgFinishReason, AgSourcePayload, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, omit, own, providerMeta, setUsage, str, type JsonObject } from "../util.js";

/** Built-in (provider-executed) tool call step types → the tool name on `tool.start`. */
const BUILTIN_CALLS: Record<string, string> = {
  google_search_call: "google_search",
  code_execution_call: "code_execution",
  url_context_call: "url_context",
  file_search_call: "file_search",
  google_maps_call: "google_maps",
  mcp_server_tool_call: "mcp_server_tool",
};

/** Built-in tool result step types → the call step type they answer. */
const BUILTIN_RESULTS: Record<string, string> = {
  google_search_result: "google_search_call",
  code_execution_result: "code_execution_call",
  url_context_result: "url_context_call",
  file_search_result: "file_search_call",
  google_maps_result: "google_maps_call",
  mcp_server_tool_result: "mcp_server_tool_call",
};

/** Error codes (gRPC status names and HTTP statuses) a client may retry. */
const RETRIABLE = new Set(["RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED", "429", "500", "503", "504"]);

type StepTrack =
  | { kind: "thought"; id: string; signature: string }
  | { kind: "output"; textId?: string; text: string; citations: AgCitation[] }
  | { kind: "call"; id: string; stepType: string; client: boolean; args: unknown; signature?: string }
  | { kind: "result"; stepType: string; step: JsonObject; result: unknown; isError: boolean; signature?: string }
  | { kind: "unknown"; stepType: string };

interface InteractionState {
  messageId: string;
  steps: Map<number, StepTrack>;
  /** Fields of the interaction object as the provider reported them (created, then completed). */
  metadata: JsonObject;
  /** Latest status from `interaction.status_update` (recorded; the end is `interaction.completed`). */
  status?: string;
  sawClientCall: boolean;
  /** Provider call id → emitted toolCallId, for built-in calls not yet answered by a result step. */
  openBuiltinCalls: Map<string, { toolCallId: string; stepType: string }>;
  /** Grounding URLs already emitted as `source` events. */
  sourceUrls: Set<string>;
}

/** Interactions usage → AgUsage: the interaction's totals, reported once, verbatim (not running totals). */
export function mapInteractionsUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", num(u, "total_input_tokens"));
  setUsage(usage, "outputTokens", num(u, "total_output_tokens"));
  setUsage(usage, "totalTokens", num(u, "total_tokens"));
  setUsage(usage, "cacheReadTokens", num(u, "total_cached_tokens"));
  setUsage(usage, "reasoningTokens", num(u, "total_thought_tokens"));
  setUsage(usage, "toolUseInputTokens", num(u, "total_tool_use_tokens"));
  return usage;
}

/**
 * The finish reason of an interaction that ended normally. `requires_action` is the API's own
 * "the client must run the function calls" signal; `completed` with a client call means the same.
 */
export function mapInteractionsStatus(status: string | undefined, sawClientCall: boolean): AgFinishReason {
  switch (status) {
    case "completed":
      return sawClientCall ? "tool_call" : "stop";
    case "requires_action":
      return "tool_call";
    case "incomplete":
      return "token_limit";
    default:
      return "unknown";
  }
}

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

/** The UTF-8 byte range [start, end) of `bytes` as a string (§2: Interactions offsets are bytes). */
function byteSlice(bytes: Uint8Array, start: number, end: number): string {
  if (start < 0 || end > bytes.length || start > end) return "";
  return UTF8_DECODER.decode(bytes.subarray(start, end));
}

/**
 * Normalizer for the Interactions API event stream. An interaction still open at flush never sent
 * interaction.completed: INV-FLUSH seals its message without closing its steps and aborts the turn
 * (a recorded status_update is not a terminal).
 */
export class GeminiInteractionsFacet extends ProviderFacet {
  private interaction: InteractionState | undefined;
  private interactionsInTurn = 0;
  /** True after an error closed the current interaction's turn: its late terminal is not re-emitted. */
  private failed = false;

  constructor(opts: NormalizerOptions = {}) {
    super("google", opts);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) {
      e.unparsed(chunk, "not an Interactions stream event");
      return;
    }
    const type = str(chunk, "event_type");
    if (type === undefined) {
      const error = obj(chunk, "error");
      if (error) return this.onError(error);
      e.unparsed(chunk, "event without event_type");
      return;
    }
    switch (type) {
      case "interaction.created":
        return this.onCreated(chunk);
      case "interaction.status_update":
      case "interaction.in_progress":
      case "interaction.requires_action":
        return this.onStatus(chunk);
      case "step.start":
        return this.onStepStart(chunk);
      case "step.delta":
        return this.onStepDelta(chunk);
      case "step.stop":
        return this.onStepStop(chunk);
      case "interaction.completed":
        return this.onCompleted(chunk);
      case "error":
        return this.onError(obj(chunk, "error") ?? {});
      default:
        e.unparsed(chunk, `unknown event_type '${type}'`);
    }
  }

  // ── interaction lifecycle ─────────────────────────────────────────────────────────────────

  private onCreated(chunk: JsonObject): void {
    if (this.interaction) this.closeInteraction(undefined);
    this.ensureInteraction(obj(chunk, "interaction"));
  }

  /**
   * The open interaction, opening its message when the stream gave no `interaction.created`. The
   * interaction id names the turn (`turn_<id>`) and the message; stateless (`store:false`)
   * interactions send `id: ""`, so those ids are derived (INV-BLOCK).
   */
  private ensureInteraction(interaction: JsonObject | undefined): InteractionState {
    if (this.interaction) return this.interaction;
    const e = this.engine;
    if (!e.currentTurn()) this.interactionsInTurn = 0;
    this.failed = false;
    const id = str(interaction, "id") || undefined;
    const model = str(interaction, "model");
    const messageId = e.openMessage({
      ...(id !== undefined ? { id, turnHint: `turn_${id}` } : {}),
      role: "assistant",
      ...(model ? { model } : {}),
    });
    this.interactionsInTurn++;
    this.interaction = {
      messageId,
      steps: new Map(),
      metadata: { ...(interaction ?? {}) },
      sawClientCall: false,
      openBuiltinCalls: new Map(),
      sourceUrls: new Set(),
    };
    return this.interaction;
  }

  private onStatus(chunk: JsonObject): void {
    if (!this.interaction && this.failed) return; // the error event already closed this interaction's turn
    const r = this.ensureInteraction(undefined);
    const status = str(chunk, "status");
    // A status transition is recorded, not a terminal: interaction.completed ends the interaction
    // (it carries the usage, which must reach message.end before the seal, INV-MSG).
    if (status !== undefined) r.status = status;
  }

  private onCompleted(chunk: JsonObject): void {
    const interaction = obj(chunk, "interaction") ?? {};
    if (!this.interaction && this.failed) return; // the error event already closed this interaction's turn
    this.ensureInteraction(interaction);
    this.closeInteraction(interaction);
  }

  /** An `error` event or an HTTP error body: one terminal `turn.error`, at once (errors are not held). */
  private onError(error: JsonObject): void {
    const e = this.engine;
    const r = this.interaction;
    const codeRaw = error.code;
    const code = typeof codeRaw === "string" ? codeRaw : typeof codeRaw === "number" ? String(codeRaw) : str(error, "status");
    const status = str(error, "status");
    if (r) {
      this.stopSteps(r);
      e.messageMetadata({ google: { ...r.metadata, error } });
    }
    e.failTurn({
      message: str(error, "message") ?? "provider error",
      ...(code !== undefined ? { code } : {}),
      retriable: (code !== undefined && RETRIABLE.has(code)) || (status !== undefined && RETRIABLE.has(status)),
    });
    this.interaction = undefined;
    this.failed = true;
  }

  /**
   * Ends the open interaction: open steps are stopped, the provider's interaction fields ride
   * `message.metadata.google`, the usage seals the message, and the status closes the turn.
   * `interaction` is undefined when a new interaction began without this one completing.
   */
  private closeInteraction(interaction: JsonObject | undefined): void {
    const e = this.engine;
    const r = this.interaction;
    if (!r) return;
    this.interaction = undefined;
    this.stopSteps(r);
    if (!interaction) {
      e.closeMessage(r.messageId);
      return; // no terminal for this one: flush decides (a later interaction replaces nothing)
    }
    const meta: JsonObject = { ...r.metadata, ...interaction };
    if (r.status !== undefined && meta.status === undefined) meta.status = r.status;
    e.messageMetadata({ google: meta });
    const usageRaw = obj(interaction, "usage");
    const usage = usageRaw ? mapInteractionsUsage(usageRaw) : undefined;
    e.closeMessage(r.messageId, usage);
    const status = str(interaction, "status") ?? r.status;
    if (status === "failed") {
      const error = obj(interaction, "error");
      const code = str(error, "code");
      e.failTurn({
        message: str(error, "message") ?? "interaction failed",
        code: code ?? "failed",
        retriable: code !== undefined && RETRIABLE.has(code),
        ...(usage ? { usage } : {}),
      });
      return;
    }
    if (status === "cancelled") {
      // The interaction was cancelled: an interruption, never a success (§8 item 17); the usage
      // already landed on message.end.
      e.abortTurn("cancelled");
      return;
    }
    e.endResponse({
      finishReason: mapInteractionsStatus(status, r.sawClientCall),
      ...(usage && this.interactionsInTurn === 1 ? { usage } : {}),
    });
  }

  // ── steps ─────────────────────────────────────────────────────────────────────────────────

  private onStepStart(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureInteraction(undefined);
    // An index out of range is reported with the chunk (§8.0); its deltas find no step and ride unparsed too.
    if (chunk.index !== undefined && chunk.index !== null && e.providerIndex(chunk, "index", chunk, "step.start.index") === undefined)
      return;
    const index = num(chunk, "index");
    const step = obj(chunk, "step");
    const stepType = str(step, "type");
    if (index === undefined || !step || stepType === undefined) {
      e.unparsed(chunk, "step.start without index or typed step");
      return;
    }
    const prior = r.steps.get(index);
    if (prior) this.stopStep(r, index, prior);
    if (stepType === "thought") {
      const track: StepTrack = { kind: "thought", id: e.reasoningStart(), signature: str(step, "signature") ?? "" };
      r.steps.set(index, track);
      for (const item of arr(step, "summary") ?? []) this.onThoughtSummary(track, item, chunk);
      return;
    }
    if (stepType === "model_output") {
      const track: StepTrack = { kind: "output", text: "", citations: [] };
      r.steps.set(index, track);
      for (const item of arr(step, "content") ?? []) {
        if (!isObject(item)) {
          e.unparsed(item, "model_output content item is not an object");
          continue;
        }
        const annotations = arr(item, "annotations");
        if (!this.onOutputDelta(track, item) && !annotations)
          e.unparsed(item, `model_output content of type '${str(item, "type") ?? "?"}'`);
        if (annotations) this.onAnnotations(r, track, annotations, chunk);
      }
      return;
    }
    if (stepType === "function_call" || own(BUILTIN_CALLS, stepType) !== undefined) {
      const client = stepType === "function_call";
      const providerId = str(step, "id") || undefined;
      // A client call's name that is not a string refuses the call into `unparsed` (§8.0).
      const name: unknown = client
        ? step.name === undefined || step.name === null
          ? ""
          : step.name
        : stepType === "mcp_server_tool_call"
          ? (str(step, "name") ?? own(BUILTIN_CALLS, stepType)!)
          : own(BUILTIN_CALLS, stepType)!;
      const serverName = str(step, "server_name");
      // The step's own fields the call maps (the Interactions API's vocabulary); the rest rides along.
      const extra = omit(step, ["type", "id", "name", "arguments", "signature", "server_name"]);
      const id = e.toolStart({
        ...(providerId !== undefined ? { toolCallId: providerId } : {}),
        name,
        ...(client ? {} : { providerExecuted: true }),
        ...(serverName !== undefined ? { serverName } : {}),
        ...(extra ? { providerMetadata: extra } : {}),
      });
      const signature = str(step, "signature") || undefined;
      r.steps.set(index, { kind: "call", id, stepType, client, args: step.arguments ?? undefined, ...(signature ? { signature } : {}) });
      if (client) r.sawClientCall = true;
      else if (providerId !== undefined) r.openBuiltinCalls.set(providerId, { toolCallId: id, stepType });
      return;
    }
    if (own(BUILTIN_RESULTS, stepType) !== undefined) {
      const signature = str(step, "signature") || undefined;
      r.steps.set(index, {
        kind: "result",
        stepType,
        step,
        result: step.result ?? null,
        isError: step.is_error === true,
        ...(signature ? { signature } : {}),
      });
      return;
    }
    // user_input (timeline only) and step types newer than this facet: carried, never dropped.
    r.steps.set(index, { kind: "unknown", stepType });
    e.unparsed(chunk, `step type '${stepType}' with no AgJSON mapping`);
  }

  private onStepDelta(chunk: JsonObject): void {
    const e = this.engine;
    const r = this.ensureInteraction(undefined);
    const index = num(chunk, "index");
    const track = index !== undefined ? r.steps.get(index) : undefined;
    const delta = obj(chunk, "delta");
    const dtype = str(delta, "type");
    if (!track || !delta || dtype === undefined) {
      e.unparsed(chunk, track ? "step.delta without a typed delta" : "step.delta for a step that was never started");
      return;
    }
    switch (track.kind) {
      case "thought":
        if (dtype === "thought_signature") {
          // Signature fragments append as sent; one reasoning.opaque carries them at step.stop (§8 item 8).
          track.signature += str(delta, "signature") ?? "";
          return;
        }
        if (dtype === "thought_summary") return this.onThoughtSummary(track, delta.content, chunk);
        break;
      case "output":
        if (dtype === "text_annotation_delta" || dtype === "text_annotation") {
          return this.onAnnotations(r, track, arr(delta, "annotations") ?? [], chunk);
        }
        if (this.onOutputDelta(track, delta)) return;
        break;
      case "call":
        if (dtype === "arguments_delta") {
          // Calls stream their JSON arguments as raw partial strings (§8 item 1).
          e.toolArgsDelta(track.id, str(delta, "arguments") ?? "");
          const signature = str(delta, "signature");
          if (signature) track.signature = signature;
          return;
        }
        if (dtype === track.stepType) {
          // A whole-payload delta (built-in calls, or a function call sent in one piece): the
          // arguments object replaces the one so far.
          if (delta.arguments !== undefined && delta.arguments !== null) track.args = delta.arguments;
          const signature = str(delta, "signature");
          if (signature) track.signature = signature;
          return;
        }
        break;
      case "result":
        if (dtype === track.stepType) {
          // Result deltas carry the whole result payload.
          if ("result" in delta) track.result = delta.result ?? null;
          if (typeof delta.is_error === "boolean") track.isError = delta.is_error;
          const signature = str(delta, "signature");
          if (signature) track.signature = signature;
          for (const [k, v] of Object.entries(delta)) if (!["type", "result", "is_error", "signature"].includes(k)) track.step[k] = v;
          return;
        }
        break;
      case "unknown":
        break;
    }
    const stepName = track.kind === "thought" ? "thought" : track.kind === "output" ? "model_output" : track.stepType;
    e.unparsed(chunk, `delta type '${dtype}' not expected in a '${stepName}' step`);
  }

  private onStepStop(chunk: JsonObject): void {
    const r = this.ensureInteraction(undefined);
    const index = num(chunk, "index");
    const track = index !== undefined ? r.steps.get(index) : undefined;
    if (index === undefined || !track) {
      this.engine.unparsed(chunk, "step.stop for a step that was never started");
      return;
    }
    if (track.kind === "unknown") this.engine.unparsed(chunk, `end of step type '${track.stepType}'`);
    this.stopStep(r, index, track);
  }

  private stopSteps(r: InteractionState): void {
    for (const [index, track] of [...r.steps]) this.stopStep(r, index, track);
  }

  /** Ends one step's block: text with its citations, reasoning with its signature, calls, results. */
  private stopStep(r: InteractionState, index: number, track: StepTrack): void {
    const e = this.engine;
    r.steps.delete(index);
    switch (track.kind) {
      case "thought":
        // The signature of a thought step rides its reasoning block's opaque carrier, byte-identical
        // (§8 item 8, §10 item 4b/4c); an empty one is no signature.
        if (track.signature !== "") e.reasoningOpaque(track.id, "signature", track.signature);
        e.reasoningEnd(track.id);
        return;
      case "output":
        if (track.textId !== undefined) e.textEnd(track.textId, { citations: track.citations });
        return;
      case "call": {
        const signature = track.signature !== undefined ? { signature: track.signature } : {};
        const fragments = e.toolArgsText(track.id);
        if (fragments !== undefined && fragments !== "") e.toolAssemble(track.id, signature);
        else e.toolAssemble(track.id, { input: isObject(track.args) || Array.isArray(track.args) ? track.args : {}, ...signature });
        return;
      }
      case "result":
        return this.landResult(r, track);
      case "unknown":
        return;
    }
  }

  // ── step content ──────────────────────────────────────────────────────────────────────────

  private onThoughtSummary(track: Extract<StepTrack, { kind: "thought" }>, item: unknown, chunk: JsonObject): void {
    const text = str(item, "text");
    if (str(item, "type") === "text" && text !== undefined) {
      this.engine.reasoningDelta(track.id, text);
      return;
    }
    // An image thought summary has no home in a reasoning block.
    this.engine.unparsed(chunk, `thought summary item of type '${str(item, "type") ?? "?"}'`);
  }

  /** A text or media piece of a model_output step; false when the delta is of another kind. */
  private onOutputDelta(track: Extract<StepTrack, { kind: "output" }>, d: JsonObject): boolean {
    const e = this.engine;
    if (str(d, "type") === "text") {
      const text = str(d, "text") ?? "";
      track.textId ??= e.textStart();
      track.text += text;
      e.textDelta(track.textId, text);
      return true;
    }
    const block = mediaBlock(d);
    if (!block) return false;
    // Media arrives whole. An open text block stays open so its byte offsets keep counting the
    // step's whole text; the media block lands after it.
    e.contentBlock(block);
    return true;
  }

  /**
   * Annotations → citations on the step's text block (emitted on `text.end`, §5). Offsets are
   * UTF-8 bytes of the step's text, end exclusive (the API documents them "measured in bytes"):
   * `unit:"byte"`, `bounds:"[start,end)"`, `indexFrame:"response"`; `citedText` is that byte range
   * of the text. Each cited URL or document is also a `source` (once per URL) so the grounded
   * turn records its sources (§4 `source`, AgTurnRecord.sources).
   */
  private onAnnotations(
    r: InteractionState,
    track: Extract<StepTrack, { kind: "output" }>,
    annotations: unknown[],
    chunk: JsonObject,
  ): void {
    const e = this.engine;
    track.textId ??= e.textStart();
    const bytes = UTF8_ENCODER.encode(track.text);
    for (const a of annotations) {
      const type = str(a, "type");
      if (!isObject(a) || (type !== "url_citation" && type !== "place_citation" && type !== "file_citation")) {
        e.unparsed({ ...chunk, delta: { type: "text_annotation_delta", annotations: [a] } }, `unknown annotation type '${type ?? "?"}'`);
        continue;
      }
      const start = num(a, "start_index");
      const end = num(a, "end_index");
      const range =
        start !== undefined && end !== undefined
          ? { citedText: byteSlice(bytes, start, end), startIndex: start, endIndex: end }
          : { citedText: "" };
      const span = { unit: "byte" as const, bounds: "[start,end)" as const, indexFrame: "response" as const };
      if (type === "file_citation") {
        const title = str(a, "file_name");
        const uri = str(a, "document_uri") ?? str(a, "url");
        const source: AgSourcePayload =
          uri !== undefined
            ? { url: uri, ...(title !== undefined ? { title } : {}) }
            : { type: "document", ...(title !== undefined ? { title, filename: title } : {}) };
        const sourceId = e.source({ source, providerMetadata: { annotation: a } });
        const cit: AgCitation = {
          kind: "offset",
          citedText: range.citedText,
          startIndex: start ?? 0,
          endIndex: end ?? start ?? 0,
          sourceIds: [sourceId],
          ...span,
        };
        if (title !== undefined) cit.title = title;
        track.citations.push(cit);
        continue;
      }
      const url = str(a, "url") ?? "";
      const title = type === "place_citation" ? str(a, "name") : str(a, "title");
      const cit: AgCitation = { kind: "url", url, ...range, ...span };
      if (title !== undefined) cit.title = title;
      track.citations.push(cit);
      if (url !== "" && !r.sourceUrls.has(url)) {
        r.sourceUrls.add(url);
        // Fields beyond the mapped ones (a place's place_id, …) ride the source verbatim.
        const extra = omit(a, ["type", "url", type === "place_citation" ? "name" : "title", "start_index", "end_index"]);
        e.source({ source: { url, ...(title !== undefined ? { title } : {}) }, ...(extra ? { providerMetadata: { annotation: a } } : {}) });
      }
    }
  }

  /**
   * A built-in tool result → `tool.done` for the call it answers (by `call_id`; without one, the
   * oldest unanswered call of the matching type — never a fabricated id, §8 item 20). A result
   * with no resolvable call is carried whole as a `data` block.
   */
  private landResult(r: InteractionState, track: Extract<StepTrack, { kind: "result" }>): void {
    const e = this.engine;
    const callType = own(BUILTIN_RESULTS, track.stepType);
    let callId = str(track.step, "call_id") || undefined;
    if (callId === undefined) {
      for (const [pid, c] of r.openBuiltinCalls)
        if (c.stepType === callType) {
          callId = pid;
          break;
        }
    }
    const call = callId !== undefined ? r.openBuiltinCalls.get(callId) : undefined;
    if (callId !== undefined) r.openBuiltinCalls.delete(callId);
    const { content, html } = resultBlocks(track.stepType, track.result, track.isError);
    const meta: JsonObject = { type: track.stepType };
    if (track.signature !== undefined) meta.signature = track.signature;
    const extra = omit(track.step, ["type", "call_id", "result", "is_error", "signature"]);
    if (extra) Object.assign(meta, extra);
    if (callId === undefined) {
      // A signature sent on a delta is the step's too: it rides the carried step (§8 item 8).
      const signature = track.signature !== undefined ? { signature: track.signature } : {};
      e.contentBlock({
        type: "data",
        name: track.stepType,
        data: { ...track.step, result: track.result, is_error: track.isError, ...signature },
      });
    } else {
      const errorText = (): string => (typeof track.result === "string" ? track.result : JSON.stringify(track.result ?? "error"));
      e.toolDone({
        toolCallId: call?.toolCallId ?? callId,
        content,
        outcome: track.isError ? "error" : "ok",
        ...(track.isError ? { isError: true, errorText: errorText() } : {}),
        providerMetadata: meta,
      });
    }
    // Google Search suggestions are the search entry point Google's terms require to be shown
    // (§4 display.required, §13.3). Each result item repeats it; identical HTML is emitted once.
    const shown: string[] = [];
    for (const h of html) {
      if (shown.includes(h)) continue;
      shown.push(h);
      e.emit({ type: "display.required", provider: "google", html: h });
    }
  }
}

/** A whole media piece of a model_output step as an AgBlock (base64 `data` or a `uri`). */
function mediaBlock(d: JsonObject): AgBlock | undefined {
  const type = str(d, "type");
  if (type !== "image" && type !== "audio" && type !== "video" && type !== "document") return undefined;
  const data = str(d, "data");
  const uri = str(d, "uri");
  const mediaType = str(d, "mime_type");
  if (data === undefined && uri === undefined) return undefined;
  const source =
    data !== undefined
      ? { type: "base64" as const, mediaType: mediaType ?? "application/octet-stream", data }
      : { type: "url" as const, url: uri!, ...(mediaType !== undefined ? { mediaType } : {}) };
  const extra = omit(d, ["type", "data", "uri", "mime_type"]);
  const providerMetadata = extra ? { providerMetadata: providerMeta(extra) } : {};
  if (type === "image") return { type: "image", source, ...providerMetadata };
  if (type === "audio") return { type: "audio", source, ...providerMetadata };
  if (type === "document") return { type: "document", source, ...providerMetadata };
  return { type: "file", source, ...providerMetadata };
}

/**
 * A built-in result payload as model-facing blocks, plus the HTML Google requires to be rendered.
 * Google Search: each `{url, title}` item → a `search-result` block, each `search_suggestions` /
 * `rendered_content` → display HTML, anything else → a `data` block with the item. Code
 * execution: a string result → `code-result`. Other tools: a string → `text`, else one `data`
 * block with the result verbatim.
 */
function resultBlocks(stepType: string, result: unknown, isError: boolean): { content: AgBlock[]; html: string[] } {
  const content: AgBlock[] = [];
  const html: string[] = [];
  if (result === null || result === undefined) return { content, html };
  if (stepType === "google_search_result" && Array.isArray(result)) {
    for (const item of result) {
      if (!isObject(item)) {
        content.push({ type: "data", name: stepType, data: item });
        continue;
      }
      for (const k of ["search_suggestions", "rendered_content"]) {
        const v = str(item, k);
        if (v !== undefined) html.push(v);
      }
      const url = str(item, "url");
      const title = str(item, "title");
      if (url !== undefined || title !== undefined) {
        content.push({ type: "search-result", ...(url !== undefined ? { url } : {}), ...(title !== undefined ? { title } : {}) });
      }
      const rest = omit(item, ["search_suggestions", "rendered_content", "url", "title"]);
      if (rest) content.push({ type: "data", name: stepType, data: rest });
    }
    return { content, html };
  }
  if (typeof result === "string") {
    content.push(
      stepType === "code_execution_result"
        ? { type: "code-result", outcome: isError ? "failed" : "ok", output: result }
        : { type: "text", text: result },
    );
    return { content, html };
  }
  content.push({ type: "data", name: stepType, data: result });
  return { content, html };
}
