/**
 * Google ADK facet (`@google/adk` 2.x `Runner.runAsync` events, `StreamingMode.SSE`). Each model
 * response's Gemini content goes through the gemini facet's mapping on this facet's engine; this
 * module adds what ADK layers on top: the `partial:false` aggregate that repeats streamed text is
 * suppressed (§8 item 3, §10 item 9), function responses land as tool messages (a null call id
 * matched by name and position, §8 item 2), `actions` (stateDelta → `state.delta`, artifactDelta
 * → `artifact.*`, transferToAgent / escalate → `handoff`, requestedAuthConfigs /
 * requestedToolConfirmations → one `hitl.ask` each in a paused close, §8 items 12 and 18),
 * `interrupted` → `turn.abort` exactly once (§8 item 17), `longRunningToolIds` → `tool.start`
 * `longRunning`, and unmapped Part / Event fields as
 * `provider-raw` blocks (§8 item 23). One invocation is one turn (`turnId` = `invocationId`).
 */
import type { AgAuthConfig, AgBlock, AgEvent, AgPausedAsk } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { GeminiFacet, mapGeminiFinishReason, mapGeminiUsage } from "../providers/gemini.js";
import { arr, isObject, num, obj, omit, str, type JsonObject } from "../util.js";

/** Part fields with no AgJSON route: carried as `provider-raw` whenever present (§8 item 23). */
const RAW_PART_FIELDS = ["mediaResolution", "videoMetadata", "toolCall", "toolResponse", "partMetadata"] as const;
/** Optional Event / LlmResponse fields with no AgJSON route (§8 item 23). */
const RAW_EVENT_FIELDS = [
  "branch",
  "candidateIndex",
  "customMetadata",
  "citationMetadata",
  "cacheMetadata",
  "liveSessionResumptionUpdate",
  "inputTranscription",
  "outputTranscription",
  "avgLogprobs",
  "logprobsResult",
] as const;
/** `actions` keys this facet maps; any other rides `provider-raw`. */
const MAPPED_ACTIONS = new Set([
  "stateDelta",
  "artifactDelta",
  "transferToAgent",
  "escalate",
  "requestedAuthConfigs",
  "requestedToolConfirmations",
  "skipSummarization",
]);

/** An ADK AuthConfig → the flat AgAuthConfig (the whole native config rides the ask's metadata). */
export function mapAdkAuthConfig(config: unknown): AgAuthConfig {
  const scheme = obj(config, "authScheme");
  const flows = obj(scheme, "flows");
  const flow = flows ? Object.values(flows).find(isObject) : undefined;
  const out: AgAuthConfig = { scheme: str(scheme, "type") ?? str(scheme, "scheme") ?? "unknown" };
  const authorizationUrl = str(flow, "authorizationUrl");
  const tokenUrl = str(flow, "tokenUrl");
  if (authorizationUrl !== undefined) out.authorizationUrl = authorizationUrl;
  if (tokenUrl !== undefined) out.tokenUrl = tokenUrl;
  const scopes = obj(flow, "scopes");
  if (scopes) out.scopes = Object.keys(scopes);
  const clientId = str(obj(obj(config, "rawAuthCredential"), "oauth2"), "clientId");
  if (clientId !== undefined) out.clientId = clientId;
  return out;
}

/** Normalizer for ADK runner events. */
export class AdkFacet extends ProviderFacet {
  private readonly opts: NormalizerOptions;
  /** The gemini mapping of the model response in progress (one per response). */
  private inner: GeminiFacet | undefined;
  /** Streamed (partial) text of the response in progress: its aggregate repeats it. */
  private sawPartial = false;
  /** The first event id of the response in progress: its message id. */
  private responseId: string | undefined;
  /** Calls by name in emission order, for function responses with a null id (§8 item 2). */
  private callsByName = new Map<string, string[]>();
  private answeredByName = new Map<string, number>();
  /** Call ids ADK listed in an event's `longRunningToolIds`. */
  private longRunningIds = new Set<string>();
  private asks: AgPausedAsk[] = [];
  private interrupted = false;
  private failed = false;
  private lastAuthor: string | undefined;
  private lastError: { message: string; code: string } | undefined;

  constructor(opts: NormalizerOptions = {}) {
    super("google", opts);
    this.opts = opts;
  }

  /**
   * ADK lists the long-running calls of a model event in its `longRunningToolIds` (an array; a
   * `{$set}` where a Set was serialized), next to the calls themselves: each listed call's
   * `tool.start` carries `longRunning: true` (§4 `tool.start`). The Gemini mapping opens the call,
   * so the flag is set on the event it returns.
   */
  override push(native: unknown): AgEvent[] {
    const event = isObject(native) && isObject(native.event) && str(native, "invocationId") === undefined ? native.event : native;
    const listed = isObject(event) ? event.longRunningToolIds : undefined;
    const ids = Array.isArray(listed) ? listed : isObject(listed) && Array.isArray(listed.$set) ? listed.$set : [];
    for (const id of ids) if (typeof id === "string") this.longRunningIds.add(id);
    const out = super.push(native);
    return out.map((ev) => {
      if (ev.type !== "tool.start") return ev;
      const list = this.callsByName.get(ev.name) ?? [];
      list.push(ev.toolCallId);
      this.callsByName.set(ev.name, list);
      return this.longRunningIds.has(ev.toolCallId) ? { ...ev, longRunning: true } : ev;
    });
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    const event = isObject(chunk) && isObject(chunk.event) && str(chunk, "invocationId") === undefined ? chunk.event : chunk;
    if (isObject(event) && str(event, "type") === "__host_error__") return this.onHostError(event);
    if (!isObject(event) || (str(event, "invocationId") === undefined && str(event, "id") === undefined)) {
      e.unparsed(chunk, "not an ADK Event");
      return;
    }
    if (this.interrupted || this.failed) {
      // §8 item 17: the interrupted invocation took its one terminal; nothing may reopen it.
      e.unparsed(event, "event after the invocation's terminal");
      return;
    }
    const invocationId = str(event, "invocationId");
    e.ensureTurn(invocationId);
    const author = str(event, "author");
    const content = obj(event, "content");
    const role = str(content, "role");
    const parts = (arr(content, "parts") ?? []).filter(isObject);
    const responses = parts.filter((p) => isObject(p.functionResponse));
    if (responses.length > 0 || role === "user") {
      this.closeResponse();
      this.onFunctionResponses(event, parts);
    } else if (content || str(event, "finishReason") !== undefined || obj(event, "usageMetadata")) {
      if (author !== undefined && author !== this.lastAuthor && this.inner) this.closeResponse();
      this.onModelEvent(event, parts);
    }
    if (author !== undefined && author !== "user") this.lastAuthor = author;
    this.carryRawFields(event, parts);
    this.onActions(event);
    const errorCode = str(event, "errorCode") ?? (num(event, "errorCode") !== undefined ? String(num(event, "errorCode")) : undefined);
    if (errorCode !== undefined || str(event, "errorMessage") !== undefined) {
      // ADK may yield several error events before the invocation ends: each is reported, and the
      // last one closes the turn when the run ends (settleBeforeFlush).
      this.closeResponse();
      const message = str(event, "errorMessage") ?? errorCode ?? "ADK error";
      e.warn(errorCode ?? "error", message);
      this.lastError = { message, code: errorCode ?? "error" };
      return;
    }
    if (content) this.lastError = undefined;
    if (event.interrupted === true) {
      this.closeResponse();
      e.abortTurn("interrupted");
      this.interrupted = true;
    }
  }

  /**
   * One model event. A `partial:true` event streams its parts; the `partial:false` aggregate that
   * follows partials repeats their text and thoughts, so only its other parts (function calls, …)
   * and its finish reason / usage are mapped (§8 item 3: no double render).
   */
  private onModelEvent(event: JsonObject, parts: JsonObject[]): void {
    const partial = event.partial === true;
    const kept = !partial && this.sawPartial ? parts.filter((p) => typeof p.text !== "string") : parts;
    if (partial) this.sawPartial = true;
    const candidate: JsonObject = { index: 0 };
    if (kept.length > 0) candidate.content = { role: "model", parts: kept.map((p) => omit(p, RAW_PART_FIELDS) ?? {}) };
    const finish = str(event, "finishReason");
    if (finish !== undefined) candidate.finishReason = finish;
    if (str(event, "finishMessage") !== undefined) candidate.finishMessage = event.finishMessage ?? null;
    const grounding = obj(event, "groundingMetadata");
    if (grounding) candidate.groundingMetadata = grounding;
    const response: JsonObject = { candidates: [candidate] };
    const usage = obj(event, "usageMetadata");
    if (usage) response.usageMetadata = usage;
    if (str(event, "modelVersion") !== undefined) response.modelVersion = event.modelVersion ?? null;
    if (kept.length === 0 && !this.inner) {
      // A finish (and usage) arriving on its own after the response's content was already ended
      // by a function response: it is that response's end, with no content of its own.
      if (finish !== undefined) {
        this.engine.endResponse({ finishReason: mapGeminiFinishReason(finish, false), ...(usage ? { usage: mapGeminiUsage(usage) } : {}) });
      }
      return;
    }
    if (!this.inner) {
      this.inner = new GeminiFacet(this.opts, this.engine);
      this.responseId = str(event, "id");
    }
    if (this.responseId !== undefined) response.responseId = this.responseId;
    const opening = !this.engine.hasOpenMessage();
    this.inner.feed(response);
    const author = str(event, "author");
    if (opening && author !== undefined && this.engine.hasOpenMessage()) this.engine.messageMetadata({ adk: { author } });
    if (finish !== undefined) {
      this.inner = undefined;
      this.sawPartial = false;
    }
  }

  /** Ends the model response in progress (its message), without inventing a finish reason. */
  private closeResponse(): void {
    if (!this.inner) return;
    this.inner = undefined;
    this.sawPartial = false;
    if (this.engine.hasOpenMessage()) this.engine.closeMessage();
  }

  /** A function-response event: one tool message with a `tool.done` per response part. */
  private onFunctionResponses(event: JsonObject, parts: JsonObject[]): void {
    const e = this.engine;
    e.openMessage({ id: str(event, "id") ?? "", role: "tool" });
    const skip = obj(event, "actions")?.skipSummarization === true;
    for (const part of parts) {
      const fr = obj(part, "functionResponse");
      if (!fr) {
        if (typeof part.text === "string") e.contentBlock({ type: "text", text: part.text });
        else e.contentBlock({ type: "provider-raw", vendor: "google", raw: part });
        continue;
      }
      const name = str(fr, "name") ?? "";
      let toolCallId = str(fr, "id");
      const meta: JsonObject = {};
      if (toolCallId === undefined || toolCallId === "") {
        // A null id answers the name's next call in emission order (§8 item 2).
        const n = this.answeredByName.get(name) ?? 0;
        this.answeredByName.set(name, n + 1);
        toolCallId = this.callsByName.get(name)?.[n];
        meta.providerCallIndex = n;
      }
      if (toolCallId === undefined) {
        e.unparsed(part, `functionResponse '${name}' matches no call of this invocation`);
        continue;
      }
      const response = fr.response;
      const error = isObject(response) ? response.error : undefined;
      const content: AgBlock[] = [{ type: "text", text: typeof response === "string" ? response : JSON.stringify(response ?? null) }];
      const base = {
        toolCallId,
        content,
        ...(isObject(response) ? { structuredContent: response } : {}),
        ...(skip ? { skipSummarization: true } : {}),
        ...(Object.keys(meta).length > 0 ? { providerMetadata: meta } : {}),
      };
      if (error !== undefined && error !== null)
        e.toolDone({ ...base, outcome: "error", isError: true, errorText: typeof error === "string" ? error : JSON.stringify(error) });
      else e.toolDone({ ...base, outcome: "ok" });
    }
    e.closeMessage();
  }

  /** §8 item 23: Part and optional Event fields with no AgJSON route ride `provider-raw`. */
  private carryRawFields(event: JsonObject, parts: JsonObject[]): void {
    const e = this.engine;
    const raw: JsonObject = {};
    for (const k of RAW_EVENT_FIELDS) {
      if (event[k] !== undefined && event[k] !== null) raw[k] = event[k]!;
    }
    const partFields = parts.map((p) => {
      const found: JsonObject = {};
      for (const k of RAW_PART_FIELDS) if (p[k] !== undefined && p[k] !== null) found[k] = p[k]!;
      return found;
    });
    if (partFields.some((f) => Object.keys(f).length > 0)) raw.parts = partFields;
    const actions = obj(event, "actions");
    const unmapped = actions ? omit(actions, [...MAPPED_ACTIONS]) : undefined;
    if (unmapped) raw.actions = unmapped;
    if (Object.keys(raw).length === 0) return;
    const block: AgBlock = { type: "provider-raw", vendor: "google", raw };
    if (e.hasOpenMessage()) e.contentBlock(block);
    else {
      const id = e.openMessage({ role: "assistant" });
      e.contentBlock(block);
      e.closeMessage(id);
    }
  }

  private onActions(event: JsonObject): void {
    const e = this.engine;
    const actions = obj(event, "actions");
    if (!actions) return;
    const author = str(event, "author") ?? "agent";
    const stateDelta = obj(actions, "stateDelta");
    // ADK session state is flat; keyed by the writing agent it is a node-keyed update (§12).
    if (stateDelta && Object.keys(stateDelta).length > 0) e.emit({ type: "state.delta", patch: { [author]: stateDelta } });
    const turnId = e.currentTurn()?.turnId;
    for (const [filename, version] of Object.entries(obj(actions, "artifactDelta") ?? {})) {
      if (turnId === undefined) break;
      const artifactId = `${filename}@${typeof version === "number" ? version : JSON.stringify(version)}`;
      e.emit({ type: "artifact.start", artifactId, turnId, threadId: this.opts.threadId ?? "thread", name: filename });
      e.emit({
        type: "artifact.delta",
        artifactId,
        part: { type: "data", name: "adk-artifact-version", data: { filename, version: version ?? null } },
        append: false,
      });
      e.emit({ type: "artifact.end", artifactId, lastChunk: true });
    }
    const transfer = str(actions, "transferToAgent");
    if (transfer !== undefined)
      e.emit({ type: "handoff", kind: "transfer", fromAgentId: author, toAgentId: transfer, toAgentName: transfer });
    if (actions.escalate === true) e.emit({ type: "handoff", kind: "escalate", fromAgentId: author });
    for (const [toolCallId, config] of Object.entries(obj(actions, "requestedAuthConfigs") ?? {})) {
      const ask: AgPausedAsk = { askId: `auth:${toolCallId}`, kind: "auth", toolCallId, authConfig: mapAdkAuthConfig(config) };
      if (isObject(config)) ask.metadata = config;
      this.ask(ask);
    }
    for (const [toolCallId, confirmation] of Object.entries(obj(actions, "requestedToolConfirmations") ?? {})) {
      const ask: AgPausedAsk = { askId: `confirm:${toolCallId}`, kind: "approval", toolCallId };
      const hint = str(confirmation, "hint");
      if (hint !== undefined && hint !== "") ask.message = hint;
      if (isObject(confirmation)) ask.metadata = confirmation;
      this.ask(ask);
    }
  }

  private ask(ask: AgPausedAsk): void {
    if (this.asks.some((a) => a.askId === ask.askId)) return;
    this.asks.push(ask);
    this.engine.emit({ type: "hitl.ask", ...ask, continuation: "resume" });
  }

  private onHostError(chunk: JsonObject): void {
    this.closeResponse();
    this.engine.failTurn({ message: str(chunk, "message") ?? "ADK run failed", code: str(chunk, "name") ?? "error" });
    this.failed = true;
  }

  /**
   * `runAsync` ending is the invocation's completion (ADK has no terminal event). Asks make it a
   * pause (§8 items 12, 18); otherwise the last model response's finish closes the turn, and a
   * run that never finished a response is left to INV-FLUSH.
   */
  protected override settleBeforeFlush(): void {
    const e = this.engine;
    if (this.interrupted || this.failed || !e.currentTurn()) return;
    if (this.inner && !e.currentTurn()?.pendingClose) return;
    this.closeResponse();
    if (this.lastError) e.failTurn(this.lastError);
    else if (this.asks.length > 0) e.finishTurn({ finishReason: "paused", outcome: { type: "paused", asks: this.asks } });
  }
}
