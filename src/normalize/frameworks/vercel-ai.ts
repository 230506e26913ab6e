/**
 * Vercel AI SDK facets (`ai` 7.x). Two input shapes, two facets (docs/normalize/vercel-ai.md):
 * - `vercel-ai` — the parts of `streamText(...).fullStream` (server side: `text-delta.text`,
 *   `tool-call`, `tool-result`, `finish-step` with usage, `finish` with `totalUsage`);
 * - `vercel-ai-ui` — the chunks of `toUIMessageStream()` / `createUIMessageStream()` (what a route
 *   handler sends the browser: `text-delta.delta`, `tool-input-available`, `tool-output-available`,
 *   `data-*` parts, message metadata).
 * Both share the same type names with different fields, so a facet never guesses which it reads.
 *
 * The SDK has already parsed the provider's stream, so no provider facet applies. One `streamText`
 * call is one turn; each step (`start-step` … `finish-step`, one model call of a tool loop) is one
 * message. `providerMetadata` rides verbatim (Anthropic signatures, OpenAI item ids).
 */
import type { AgBlock, AgFinishReason, AgMeta, AgPausedAsk, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { checkedUsage } from "../providers/openai-responses.js";
import { isObject, json, num, obj, setUsage, str, type JsonObject } from "../util.js";

/** AI SDK `FinishReason` → AgFinishReason. */
const FINISH: Record<string, AgFinishReason> = {
  stop: "stop",
  length: "token_limit",
  "content-filter": "safety_blocked",
  "tool-calls": "tool_call",
  error: "other",
  other: "other",
  unknown: "unknown",
};

/** AI SDK `LanguageModelUsage` → AgUsage, values verbatim. */
export function mapAiSdkUsage(u: JsonObject | undefined): AgUsage | undefined {
  if (!u) return undefined;
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", num(u, "inputTokens"));
  setUsage(usage, "outputTokens", num(u, "outputTokens"));
  setUsage(usage, "totalTokens", num(u, "totalTokens"));
  setUsage(usage, "cacheReadTokens", num(obj(u, "inputTokenDetails"), "cacheReadTokens") ?? num(u, "cachedInputTokens"));
  setUsage(usage, "cacheWriteTokens", num(obj(u, "inputTokenDetails"), "cacheWriteTokens"));
  setUsage(usage, "reasoningTokens", num(obj(u, "outputTokenDetails"), "reasoningTokens") ?? num(u, "reasoningTokens"));
  return Object.keys(usage).length > 0 ? usage : undefined;
}

function meta(part: JsonObject): AgMeta | undefined {
  const pm = obj(part, "providerMetadata");
  return pm && Object.keys(pm).length > 0 ? pm : undefined;
}

/** A tool chunk's own fields: `dynamic` (false included), `toolMetadata`, `providerMetadata` (§2.2 shared core, §4). */
interface ToolFields {
  dynamic?: boolean;
  toolMetadata?: AgMeta;
  providerMetadata?: AgMeta;
}

function toolFields(part: JsonObject): ToolFields {
  const toolMetadata = obj(part, "toolMetadata");
  const pm = meta(part);
  return {
    ...(typeof part.dynamic === "boolean" ? { dynamic: part.dynamic } : {}),
    ...(toolMetadata ? { toolMetadata } : {}),
    ...(pm ? { providerMetadata: pm } : {}),
  };
}

/** What `tool.args.assembled` holds of a call chunk besides `input` (§4: no `dynamic` there, it rides tool.start). */
function assembledFields(part: JsonObject): { title?: string; toolMetadata?: AgMeta; providerMetadata?: AgMeta } {
  const { toolMetadata, providerMetadata } = toolFields(part);
  const title = str(part, "title");
  return {
    ...(title !== undefined ? { title } : {}),
    ...(toolMetadata ? { toolMetadata } : {}),
    ...(providerMetadata ? { providerMetadata } : {}),
  };
}

/** What both shapes share: steps as messages, native block ids re-keyed per step, data parts, closes. */
abstract class AiSdkStreamFacet extends ProviderFacet {
  /** Native text / reasoning ids → engine ids; the SDK reuses ids across steps ("0", "0", …). */
  protected readonly blockIds = new Map<string, string>();
  /** Native data-part id → the content.block id it was delivered under, and its message. */
  private readonly dataParts = new Map<string, { id: string; messageId: string }>();
  protected readonly asks: AgPausedAsk[] = [];
  protected stepUsage: AgUsage | undefined;

  protected constructor(opts: NormalizerOptions) {
    super("vercel", opts);
  }

  protected startStep(): void {
    this.blockIds.clear();
    this.engine.openMessage({ role: "assistant" });
  }

  protected finishStep(part: JsonObject): void {
    const e = this.engine;
    const pm = meta(part);
    const extra: JsonObject = {};
    for (const k of ["finishReason", "rawFinishReason", "response", "warnings"]) if (part[k] !== undefined) extra[k] = part[k];
    if (pm || Object.keys(extra).length > 0) e.messageMetadata({ vercel: { ...extra, ...(pm ? { providerMetadata: pm } : {}) } });
    e.closeMessage(undefined, checkedUsage(e, mapAiSdkUsage(obj(part, "usage")), part.usage));
  }

  protected textStart(nativeId: string, providerMetadata: AgMeta | undefined): void {
    this.engine.ensureMessage();
    this.blockIds.set(`text\u0000${nativeId}`, this.engine.textStart({ ...(providerMetadata ? { providerMetadata } : {}) }));
  }

  protected textDelta(nativeId: string, delta: string): void {
    if (!this.blockIds.has(`text\u0000${nativeId}`)) this.textStart(nativeId, undefined);
    const id = this.blockIds.get(`text\u0000${nativeId}`)!;
    this.engine.textDelta(id, delta);
  }

  protected textEnd(nativeId: string, providerMetadata: AgMeta | undefined): void {
    const id = this.blockIds.get(`text\u0000${nativeId}`);
    if (id !== undefined) this.engine.textEnd(id, providerMetadata ? { providerMetadata } : {});
  }

  protected reasoningStart(nativeId: string, providerMetadata: AgMeta | undefined): void {
    this.engine.ensureMessage();
    this.blockIds.set(`reasoning\u0000${nativeId}`, this.engine.reasoningStart({ ...(providerMetadata ? { providerMetadata } : {}) }));
  }

  protected reasoningDelta(nativeId: string, delta: string): void {
    let id = this.blockIds.get(`reasoning\u0000${nativeId}`);
    if (id === undefined) {
      this.reasoningStart(nativeId, undefined);
      id = this.blockIds.get(`reasoning\u0000${nativeId}`)!;
    }
    this.engine.reasoningDelta(id, delta);
  }

  protected reasoningEnd(nativeId: string, providerMetadata: AgMeta | undefined): void {
    const id = this.blockIds.get(`reasoning\u0000${nativeId}`);
    if (id === undefined) return;
    // An Anthropic thinking signature (or redacted data) is the block's opaque replay blob (§5 reasoning.opaque).
    const anthropic = obj(providerMetadata, "anthropic");
    const signature = str(anthropic, "signature");
    const redacted = str(anthropic, "redactedData");
    if (signature !== undefined) this.engine.reasoningOpaque(id, "signature", signature);
    else if (redacted !== undefined) this.engine.reasoningOpaque(id, "redacted", redacted);
    this.engine.reasoningEnd(id, providerMetadata);
  }

  /** Opens the call from its first chunk; `dynamic`, `title` and `toolMetadata` are the call's own (§4 tool.start). */
  protected toolStart(toolCallId: string, name: string, part: JsonObject): void {
    if (this.engine.isOpen(toolCallId)) return;
    const title = str(part, "title");
    this.engine.toolStart({
      toolCallId,
      name,
      ...(part.providerExecuted === true ? { providerExecuted: true } : {}),
      ...(title !== undefined ? { title } : {}),
      ...toolFields(part),
    });
  }

  /** A tool result in the step's message (tools run inside the step, before `finish-step`). */
  protected toolResult(
    toolCallId: string,
    output: unknown,
    opts: { error?: string; denied?: boolean; preliminary?: boolean } & ToolFields = {},
  ): void {
    const e = this.engine;
    const content: AgBlock[] =
      opts.error !== undefined
        ? [{ type: "text", text: opts.error }]
        : typeof output === "string"
          ? [{ type: "text", text: output }]
          : output === undefined
            ? []
            : [{ type: "text", text: JSON.stringify(output) }];
    e.toolDone({
      toolCallId,
      content,
      outcome: opts.denied ? "denied" : opts.error !== undefined ? "error" : "ok",
      ...(opts.error !== undefined ? { isError: true, errorText: opts.error } : {}),
      ...(typeof output === "object" && output !== null ? { structuredContent: json(output) } : {}),
      ...(opts.preliminary ? { preliminary: true, more: true } : {}),
      ...(opts.dynamic !== undefined ? { dynamic: opts.dynamic } : {}),
      ...(opts.toolMetadata ? { toolMetadata: opts.toolMetadata } : {}),
      ...(opts.providerMetadata ? { providerMetadata: opts.providerMetadata } : {}),
    });
  }

  protected approval(approvalId: string, toolCallId: string | undefined, detail: JsonObject): void {
    const ask: AgPausedAsk = { askId: approvalId, kind: "approval", ...(toolCallId !== undefined ? { toolCallId } : {}), metadata: detail };
    this.engine.emit({ type: "hitl.ask", ...ask, turnId: this.engine.ensureTurn() });
    this.asks.push(ask);
  }

  /** A `data-<name>` part: a `data` block by name; a later part with the same id replaces it in place (§5 INV-BLOCK). */
  protected dataPart(type: string, part: JsonObject): void {
    const e = this.engine;
    const name = type.slice("data-".length);
    const nativeId = str(part, "id");
    const block: AgBlock = {
      type: "data",
      name,
      data: json(part.data),
      ...(nativeId !== undefined ? { id: nativeId } : {}),
      ...(part.transient === true ? { transient: true } : {}),
    };
    const prior = nativeId !== undefined ? this.dataParts.get(nativeId) : undefined;
    // A data part written after `finish` gets its own message; the call's close still stands.
    const close = e.currentTurn()?.pendingClose;
    const messageId = e.ensureMessage();
    if (close) e.endResponse(close);
    if (prior && prior.messageId === messageId) {
      e.emit({ type: "content.block", id: prior.id, block, messageId });
      return;
    }
    const id = e.contentBlock(block, nativeId !== undefined ? { id: `data-${nativeId}` } : {});
    if (nativeId !== undefined) this.dataParts.set(nativeId, { id, messageId });
  }

  /** The end of the whole call: the turn's close, held until flush (a paused close when asks are open). */
  protected finish(reason: string | undefined, usage: AgUsage | undefined): void {
    const e = this.engine;
    if (e.hasOpenMessage()) e.closeMessage();
    e.ensureTurn();
    if (this.asks.length > 0) {
      e.endResponse({ finishReason: "paused", outcome: { type: "paused", asks: [...this.asks] }, ...(usage ? { usage } : {}) });
      return;
    }
    e.endResponse({ finishReason: FINISH[reason ?? "unknown"] ?? "other", ...(usage ? { usage } : {}) });
  }

  protected abort(reason: string | undefined): void {
    this.engine.ensureTurn();
    this.engine.abortTurn(reason ?? "aborted");
  }

  protected fail(message: string): void {
    this.engine.failTurn({ message, code: "stream_error" });
  }
}

function errorText(x: unknown): string {
  if (typeof x === "string") return x;
  return str(x, "message") ?? JSON.stringify(x ?? null);
}

/** `streamText(...).fullStream` parts. */
export class VercelAiFacet extends AiSdkStreamFacet {
  constructor(opts: NormalizerOptions = {}) {
    super(opts);
  }

  protected handle(part: unknown): void {
    const e = this.engine;
    const type = str(part, "type");
    if (!isObject(part) || type === undefined) return e.unparsed(part, "not an AI SDK stream part");
    const id = str(part, "id") ?? "";
    switch (type) {
      case "start":
        e.ensureTurn();
        return;
      case "start-step":
        return this.startStep();
      case "finish-step":
        return this.finishStep(part);
      case "text-start":
        return this.textStart(id, meta(part));
      case "text-delta":
        return this.textDelta(id, str(part, "text") ?? str(part, "delta") ?? "");
      case "text-end":
        return this.textEnd(id, meta(part));
      case "reasoning-start":
        return this.reasoningStart(id, meta(part));
      case "reasoning-delta":
        return this.reasoningDelta(id, str(part, "text") ?? str(part, "delta") ?? "");
      case "reasoning-end":
        return this.reasoningEnd(id, meta(part));
      case "tool-input-start":
        return this.toolStart(id, str(part, "toolName") ?? "tool", part);
      case "tool-input-delta":
        e.toolArgsDelta(id, str(part, "delta") ?? "");
        return;
      case "tool-input-end":
        return;
      case "tool-call": {
        const callId = str(part, "toolCallId") ?? "";
        this.toolStart(callId, str(part, "toolName") ?? "tool", part);
        e.toolAssemble(callId, { input: json(part.input), ...assembledFields(part) });
        return;
      }
      case "tool-result":
        return this.toolResult(str(part, "toolCallId") ?? "", part.output, {
          ...(part.preliminary === true ? { preliminary: true } : {}),
          ...toolFields(part),
        });
      case "tool-error":
        return this.toolResult(str(part, "toolCallId") ?? "", undefined, { error: errorText(part.error), ...toolFields(part) });
      case "tool-output-denied":
        return this.toolResult(str(part, "toolCallId") ?? "", undefined, { denied: true });
      case "tool-approval-request": {
        const call = obj(part, "toolCall");
        return this.approval(str(part, "approvalId") ?? e.mintId("ask"), str(call, "toolCallId"), { toolCall: call ?? null });
      }
      case "source": {
        const url = str(part, "url");
        const title = str(part, "title");
        const pm = meta(part);
        e.source({
          ...(str(part, "id") !== undefined ? { sourceId: str(part, "id")! } : {}),
          source:
            str(part, "sourceType") === "document"
              ? {
                  type: "document",
                  ...(str(part, "mediaType") ? { mediaType: str(part, "mediaType")! } : {}),
                  ...(title !== undefined ? { title } : {}),
                  ...(str(part, "filename") ? { filename: str(part, "filename")! } : {}),
                }
              : { url: url ?? "", ...(title !== undefined ? { title } : {}) },
          ...(pm ? { providerMetadata: pm } : {}),
        });
        return;
      }
      case "file": {
        const file = obj(part, "file");
        const mediaType = str(file, "mediaType") ?? "application/octet-stream";
        const data = str(file, "base64") ?? "";
        e.contentBlock(
          mediaType.startsWith("image/")
            ? { type: "image", source: { type: "base64", mediaType, data } }
            : { type: "file", source: { type: "base64", mediaType, data } },
        );
        return;
      }
      case "finish":
        return this.finish(str(part, "finishReason"), checkedUsage(this.engine, mapAiSdkUsage(obj(part, "totalUsage")), part.totalUsage));
      case "abort":
        return this.abort(str(part, "reason"));
      case "error":
        return this.fail(errorText(part.error));
      case "raw":
        e.ext("raw", { rawValue: json(part.rawValue) });
        return;
      case "custom":
        e.ext("custom", { kind: str(part, "kind") ?? null, providerMetadata: json(part.providerMetadata) });
        return;
      default:
        e.unparsed(part, `unknown AI SDK stream part '${type}'`);
    }
  }
}

/** `toUIMessageStream()` chunks. */
export class VercelAiUiFacet extends AiSdkStreamFacet {
  constructor(opts: NormalizerOptions = {}) {
    super(opts);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    const type = str(chunk, "type");
    if (!isObject(chunk) || type === undefined) return e.unparsed(chunk, "not a UI message stream chunk");
    const id = str(chunk, "id") ?? "";
    const callId = str(chunk, "toolCallId") ?? "";
    if (type.startsWith("data-")) return this.dataPart(type, chunk);
    switch (type) {
      case "start": {
        e.ensureTurn();
        const metadata = obj(chunk, "messageMetadata");
        const messageId = str(chunk, "messageId");
        if (metadata || messageId !== undefined) e.ext("ui-message", { messageId: messageId ?? null, messageMetadata: metadata ?? null });
        return;
      }
      case "start-step":
        return this.startStep();
      case "finish-step":
        return this.finishStep(chunk);
      case "text-start":
        return this.textStart(id, meta(chunk));
      case "text-delta":
        return this.textDelta(id, str(chunk, "delta") ?? "");
      case "text-end":
        return this.textEnd(id, meta(chunk));
      case "reasoning-start":
        return this.reasoningStart(id, meta(chunk));
      case "reasoning-delta":
        return this.reasoningDelta(id, str(chunk, "delta") ?? "");
      case "reasoning-end":
        return this.reasoningEnd(id, meta(chunk));
      case "tool-input-start":
        return this.toolStart(callId, str(chunk, "toolName") ?? "tool", chunk);
      case "tool-input-delta":
        e.toolArgsDelta(callId, str(chunk, "inputTextDelta") ?? "");
        return;
      case "tool-input-available": {
        this.toolStart(callId, str(chunk, "toolName") ?? "tool", chunk);
        e.toolAssemble(callId, { input: json(chunk.input), ...assembledFields(chunk) });
        return;
      }
      case "tool-input-error":
        // The input failed the SDK's validation; the call's outcome (an output or an output error) follows.
        this.toolStart(callId, str(chunk, "toolName") ?? "tool", chunk);
        e.toolAssemble(callId, { input: json(chunk.input), ...assembledFields(chunk) });
        e.warn("tool_input_error", `Tool call '${callId}': ${str(chunk, "errorText") ?? "invalid tool input"}`);
        return;
      case "tool-output-available":
        return this.toolResult(callId, chunk.output, {
          ...(chunk.preliminary === true ? { preliminary: true } : {}),
          ...toolFields(chunk),
        });
      case "tool-output-error":
        return this.toolResult(callId, undefined, { error: str(chunk, "errorText") ?? "tool error", ...toolFields(chunk) });
      case "tool-output-denied":
        return this.toolResult(callId, undefined, { denied: true });
      case "tool-approval-request":
        return this.approval(str(chunk, "approvalId") ?? e.mintId("ask"), callId || undefined, {});
      case "source-url":
        e.source({
          ...(str(chunk, "sourceId") ? { sourceId: str(chunk, "sourceId")! } : {}),
          source: { url: str(chunk, "url") ?? "", ...(str(chunk, "title") ? { title: str(chunk, "title")! } : {}) },
        });
        return;
      case "source-document":
        e.source({
          ...(str(chunk, "sourceId") ? { sourceId: str(chunk, "sourceId")! } : {}),
          source: {
            type: "document",
            ...(str(chunk, "mediaType") ? { mediaType: str(chunk, "mediaType")! } : {}),
            ...(str(chunk, "title") ? { title: str(chunk, "title")! } : {}),
            ...(str(chunk, "filename") ? { filename: str(chunk, "filename")! } : {}),
          },
        });
        return;
      case "file": {
        const url = str(chunk, "url") ?? "";
        const mediaType = str(chunk, "mediaType") ?? "application/octet-stream";
        const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
        const source = m ? { type: "base64" as const, mediaType: m[1]!, data: m[2]! } : { type: "url" as const, url, mediaType };
        e.contentBlock(mediaType.startsWith("image/") ? { type: "image", source } : { type: "file", source });
        return;
      }
      case "message-metadata": {
        const metadata = obj(chunk, "messageMetadata");
        if (metadata) e.messageMetadata({ vercel: { messageMetadata: metadata } });
        return;
      }
      case "finish": {
        const metadata = obj(chunk, "messageMetadata");
        if (metadata) e.ext("ui-message", { messageMetadata: metadata });
        return this.finish(str(chunk, "finishReason"), undefined);
      }
      case "abort":
        return this.abort(str(chunk, "reason"));
      case "error":
        return this.fail(str(chunk, "errorText") ?? "error");
      case "custom":
        e.ext("custom", { kind: str(chunk, "kind") ?? null, providerMetadata: json(chunk.providerMetadata) });
        return;
      default:
        e.unparsed(chunk, `unknown UI message stream chunk '${type}'`);
    }
  }
}
