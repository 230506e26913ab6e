/**
 * OpenAI Chat Completions streaming facet, also serving the compatible vendors (DeepSeek, Groq,
 * xAI, Mistral, Alibaba/Qwen, Perplexity, Cerebras, Azure, the Anthropic compat endpoint).
 * Tool-call fragments are keyed by `index`, re-keyed to the provider `id` (§8 items 1, 5); a
 * change of chunk `id` starts the next response of the same turn.
 */
import type { AgFinishReason, AgSafety, AgUsage } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { ProviderFacet } from "../facet.js";
import { arr, isObject, num, obj, setUsage, str, type JsonObject } from "../util.js";

interface ChoiceState {
  textId?: string;
  refusalId?: string;
  reasoningId?: string;
  tools: Map<number, string>;
  refused: boolean;
  finishReason?: string;
  finished: boolean;
}

interface ResponseState {
  id: string;
  messageId: string;
  choices: Map<number, ChoiceState>;
  extras: JsonObject;
  usage?: JsonObject;
  safety: Map<string, AgSafety>;
  closed: boolean;
}

/** Top-level chunk keys the facet maps itself (the Chat Completions vocabulary); every other key rides `message.metadata` verbatim. */
const MAPPED_KEYS = new Set(["id", "object", "created", "model", "choices", "obfuscation", "usage"]);

/**
 * The chunk's own fields this facet does not map, onto `into` (§0.2: they ride providerMetadata);
 * a null one only when `keepNull`. Runs on every chunk, so it walks the keys in place: no
 * [key, value] pair is allocated per field.
 */
function copyExtras(chunk: JsonObject, into: JsonObject, keepNull: boolean): void {
  for (const k in chunk) {
    if (MAPPED_KEYS.has(k) || !Object.hasOwn(chunk, k)) continue;
    const v = chunk[k]!;
    if (keepNull || v !== null) into[k] = v;
  }
}

/** Every choice of the response has its finish_reason (a response with no choice has not). */
function allFinished(r: ResponseState): boolean {
  if (r.choices.size === 0) return false;
  for (const c of r.choices.values()) if (!c.finished) return false;
  return true;
}

/** Chat `finish_reason` → AgFinishReason (§4). */
export function mapChatFinishReason(reason: string | undefined): AgFinishReason {
  switch (reason) {
    case "stop":
    case "end_turn":
      return "stop";
    case "length":
    case "model_length":
      return "token_limit";
    case "tool_calls":
    case "function_call":
      return "tool_call";
    case "content_filter":
      return "safety_blocked";
    case undefined:
      return "unknown";
    default:
      return "other";
  }
}

/** Chat usage (per response, not cumulative) → AgUsage, values verbatim, a reported USD `cost` included. */
export function mapChatUsage(u: JsonObject): AgUsage {
  const usage: AgUsage = {};
  setUsage(usage, "inputTokens", num(u, "prompt_tokens"));
  setUsage(usage, "outputTokens", num(u, "completion_tokens"));
  setUsage(usage, "totalTokens", num(u, "total_tokens"));
  setUsage(usage, "cacheReadTokens", num(obj(u, "prompt_tokens_details"), "cached_tokens"));
  setUsage(usage, "reasoningTokens", num(obj(u, "completion_tokens_details"), "reasoning_tokens"));
  // A cost the provider reports in USD (OpenRouter `usage.cost`) rides verbatim; it is never computed (§4 costUsd).
  setUsage(usage, "costUsd", num(u, "cost"));
  return usage;
}

/** Azure content-filter results → AgSafety entries (category, severity, filtered). */
function collectSafety(into: Map<string, AgSafety>, results: unknown): void {
  if (!isObject(results)) return;
  for (const [category, r] of Object.entries(results)) {
    if (!isObject(r)) continue;
    const entry: AgSafety = { category };
    const severity = str(r, "severity");
    if (severity !== undefined) entry.probability = severity;
    if (typeof r.filtered === "boolean") entry.blocked = r.filtered;
    into.set(category, entry);
  }
}

/** Normalizer for Chat Completions chunks. */
export class OpenAiChatFacet extends ProviderFacet {
  private response: ResponseState | undefined;
  private responsesInTurn = 0;
  private pendingSafety = new Map<string, AgSafety>();
  private pendingExtras: JsonObject = {};
  private sourcesSeen = new Set<string>();

  constructor(opts: NormalizerOptions = {}) {
    super("openai", opts);
  }

  protected override settleBeforeFlush(): void {
    // A response whose finish_reason arrived but no usage chunk followed still ends here. One the
    // provider never finished is truncated: INV-FLUSH seals it with no synthetic block closes.
    const r = this.response;
    if (r && !r.closed && allFinished(r)) this.finishResponse(r);
  }

  protected handle(chunk: unknown): void {
    const e = this.engine;
    if (!isObject(chunk)) {
      e.unparsed(chunk, "not a chat.completion.chunk object");
      return;
    }
    const err = obj(chunk, "error");
    if (err) {
      e.failTurn({ message: str(err, "message") ?? "provider error", ...(str(err, "code") ? { code: str(err, "code")! } : {}) });
      this.response = undefined;
      return;
    }
    const choices = arr(chunk, "choices");
    if (!choices) {
      e.unparsed(chunk, "chunk without choices[]");
      return;
    }
    const id = str(chunk, "id") ?? "";
    if (id === "" && !this.response) {
      // Azure's prompt-filter preamble precedes the response and names no id.
      for (const p of arr(chunk, "prompt_filter_results") ?? []) collectSafety(this.pendingSafety, obj(p, "content_filter_results"));
      copyExtras(chunk, this.pendingExtras, true);
      if (choices.length === 0) return;
    }
    const r = this.responseFor(id, chunk);
    copyExtras(chunk, r.extras, false);
    for (const url of arr(chunk, "citations") ?? []) {
      if (typeof url !== "string" || this.sourcesSeen.has(url)) continue;
      this.sourcesSeen.add(url);
      e.source({ source: { url } });
    }
    for (const choice of choices) this.onChoice(r, choice);
    const usage = obj(chunk, "usage");
    if (usage) r.usage = usage;
    if (usage && !r.closed && allFinished(r)) this.finishResponse(r);
  }

  private responseFor(id: string, chunk: JsonObject): ResponseState {
    const e = this.engine;
    const current = this.response;
    if (current && (id === "" || id === current.id)) return current;
    if (current && !current.closed) this.finishResponse(current);
    if (!e.currentTurn()) this.responsesInTurn = 0;
    const model = str(chunk, "model");
    const messageId = e.openMessage({
      ...(id !== "" ? { id, turnHint: `turn_${id}` } : {}),
      role: "assistant",
      ...(model ? { model } : {}),
    });
    this.responsesInTurn++;
    const r: ResponseState = {
      id,
      messageId,
      choices: new Map(),
      extras: { ...this.pendingExtras },
      safety: new Map(this.pendingSafety),
      closed: false,
    };
    this.pendingExtras = {};
    this.pendingSafety.clear();
    this.response = r;
    return r;
  }

  private choiceState(r: ResponseState, index: number): ChoiceState {
    let c = r.choices.get(index);
    if (!c) {
      c = { tools: new Map(), refused: false, finished: false };
      r.choices.set(index, c);
    }
    return c;
  }

  private onChoice(r: ResponseState, choice: unknown): void {
    const e = this.engine;
    if (!isObject(choice)) {
      e.unparsed(choice, "choice is not an object");
      return;
    }
    // An index out of range is reported with the choice (§8.0) and read as the first candidate.
    const ci = e.providerIndex(choice, "index", { index: choice.index }, "choices[].index") ?? 0;
    const c = this.choiceState(r, ci);
    collectSafety(r.safety, obj(choice, "content_filter_results"));
    const delta = obj(choice, "delta") ?? {};
    // Reasoning field names differ per vendor: reasoning_content (DeepSeek, xAI, Qwen), reasoning (Groq, Cerebras).
    const reasoning = str(delta, "reasoning_content") ?? str(delta, "reasoning");
    if (reasoning) this.reasoning(c, ci, reasoning);
    const content = delta.content;
    if (typeof content === "string" && content !== "") this.text(c, ci, content);
    else if (Array.isArray(content)) {
      // Mistral magistral: content is an array of thinking/text parts.
      for (const part of content) {
        const ptype = str(part, "type");
        if (ptype === "text") this.text(c, ci, str(part, "text") ?? "");
        else if (ptype === "thinking") {
          for (const t of arr(part, "thinking") ?? []) this.reasoning(c, ci, str(t, "text") ?? "");
        } else e.unparsed(part, `unknown content part type '${ptype ?? "?"}'`);
      }
    }
    const refusal = str(delta, "refusal");
    if (refusal) {
      c.refused = true;
      c.refusalId ??= e.textStart({ candidateIndex: ci, providerMetadata: { refusal: true } });
      e.textDelta(c.refusalId, refusal);
    }
    const toolCalls = arr(delta, "tool_calls") ?? [];
    toolCalls.forEach((tc, position) => this.toolCall(c, ci, tc, position));
    const finish = str(choice, "finish_reason");
    if (finish) {
      c.finishReason = finish;
      this.closeChoiceBlocks(c);
      c.finished = true;
    }
  }

  private reasoning(c: ChoiceState, ci: number, delta: string): void {
    const e = this.engine;
    if (c.textId !== undefined) {
      e.textEnd(c.textId);
      c.textId = undefined;
    }
    c.reasoningId ??= e.reasoningStart({ candidateIndex: ci });
    e.reasoningDelta(c.reasoningId, delta);
  }

  private text(c: ChoiceState, ci: number, delta: string): void {
    const e = this.engine;
    if (delta === "") return;
    if (c.reasoningId !== undefined) {
      e.reasoningEnd(c.reasoningId);
      c.reasoningId = undefined;
    }
    c.textId ??= e.textStart({ candidateIndex: ci });
    e.textDelta(c.textId, delta);
  }

  private toolCall(c: ChoiceState, ci: number, tc: unknown, position: number): void {
    const e = this.engine;
    if (!isObject(tc)) {
      e.unparsed(tc, "tool_calls entry is not an object");
      return;
    }
    // Fragments after the first carry only the index: index → id re-keying (§8 item 5).
    const index = e.providerIndex(tc, "index", { index: tc.index }, "tool_calls[].index") ?? position;
    const fn = obj(tc, "function");
    let toolCallId = c.tools.get(index);
    if (toolCallId === undefined) {
      const id = str(tc, "id");
      toolCallId = e.toolStart({
        ...(id ? { toolCallId: id } : {}),
        // A name that is not a string refuses the call into `unparsed` (§8.0).
        name: fn?.name === undefined || fn.name === null ? "" : fn.name,
        candidateIndex: ci,
      });
      c.tools.set(index, toolCallId);
    }
    e.toolArgsDelta(toolCallId, str(fn, "arguments") ?? "");
  }

  private closeChoiceBlocks(c: ChoiceState): void {
    const e = this.engine;
    if (c.reasoningId !== undefined) e.reasoningEnd(c.reasoningId);
    if (c.textId !== undefined) e.textEnd(c.textId);
    if (c.refusalId !== undefined) e.textEnd(c.refusalId);
    for (const id of c.tools.values()) e.toolAssemble(id);
    c.reasoningId = c.textId = c.refusalId = undefined;
    c.tools.clear();
  }

  /**
   * Seals the response's message and records its end. Called on the usage chunk, or when the
   * stream moves on (or ends) without one: a finish reason already seen still ends the response.
   */
  private finishResponse(r: ResponseState): void {
    const e = this.engine;
    r.closed = true;
    for (const c of r.choices.values()) this.closeChoiceBlocks(c);
    const meta: JsonObject = { ...r.extras };
    if (r.usage) meta.usage = r.usage;
    if (Object.keys(meta).length > 0) e.messageMetadata({ openai: meta });
    const usage = r.usage ? mapChatUsage(r.usage) : undefined;
    e.closeMessage(r.messageId, usage);
    const first = r.choices.get(0) ?? [...r.choices.values()][0];
    if (!first?.finishReason) return; // no terminal from the provider: flush will abort the turn
    const refused = first.finishReason === "stop" && first.refused;
    const safety = [...r.safety.values()];
    e.endResponse({
      finishReason: refused ? "refusal" : mapChatFinishReason(first.finishReason),
      ...(usage && this.responsesInTurn === 1 ? { usage } : {}),
      ...(safety.length > 0 ? { safety } : {}),
    });
  }
}
