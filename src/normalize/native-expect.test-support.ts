/**
 * Test support: what a provider stream says, read straight from the native chunks with no
 * normalizer involved, so the facets' output can be checked against the provider's own data
 * (folded text, assembled tool inputs, byte-identical blobs, truncation).
 */
import type { FacetName } from "./index.js";
import { arr, isObject, num, obj, str } from "./util.js";

/** The provider-side facts a normalized stream must reproduce. */
export interface NativeFacts {
  /** Concatenation of every visible-text fragment, in stream order. */
  text: string;
  /** Parsed arguments of every tool call the provider streamed, by provider call id (`#n`: the n-th call, for id-less providers). */
  toolInputs: Map<string, unknown>;
  /** Replay blobs (signatures, encrypted content/indexes, redacted data) that must survive byte-identical. */
  blobs: string[];
  /** Per-response usage the provider reported, in AgUsage names with the numbers verbatim (facets that model it). */
  usage?: Record<string, number | boolean>[];
}

/** Copies the numeric native fields named by `names` (AgUsage name → native value) that are present. */
function usageOf(names: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(names)) if (typeof v === "number") out[k] = v;
  return out;
}

function parseArgs(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function anthropicFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const usage: Record<string, number | boolean>[] = [];
  let raw: Record<string, unknown> = {};
  const toolInputs = new Map<string, unknown>();
  const blobs: string[] = [];
  let blocks = new Map<number, { type: string; id: string; args: string; startInput: unknown; signature: string }>();
  const addBlock = (index: number, b: unknown): void => {
    const type = str(b, "type") ?? "";
    if (type === "text") text += str(b, "text") ?? "";
    if (type === "redacted_thinking") blobs.push(str(b, "data") ?? "");
    for (const item of arr(b, "content") ?? []) {
      const enc = str(item, "encrypted_content");
      if (enc !== undefined) blobs.push(enc);
    }
    blocks.set(index, {
      type,
      id: str(b, "id") ?? "",
      args: "",
      startInput: isObject(b) ? b.input : undefined,
      signature: str(b, "signature") ?? "",
    });
  };
  const stopBlock = (index: number): void => {
    const b = blocks.get(index);
    if (!b) return;
    if (b.type === "tool_use" || b.type === "server_tool_use" || b.type === "mcp_tool_use") {
      const hasStart = isObject(b.startInput) && Object.keys(b.startInput).length > 0;
      toolInputs.set(b.id, b.args === "" && hasStart ? b.startInput : parseArgs(b.args));
    }
    if (b.type === "thinking" && b.signature !== "") blobs.push(b.signature);
    blocks.delete(index);
  };
  for (const c of chunks) {
    const type = str(c, "type");
    if (type === "message_start") {
      blocks = new Map();
      (arr(obj(c, "message"), "content") ?? []).forEach((b, i) => {
        addBlock(-1 - i, b);
        stopBlock(-1 - i);
      });
    } else if (type === "content_block_start") addBlock(num(c, "index") ?? -1, obj(c, "content_block"));
    else if (type === "content_block_delta") {
      const d = obj(c, "delta");
      const b = blocks.get(num(c, "index") ?? -1);
      const dt = str(d, "type");
      if (dt === "text_delta") text += str(d, "text") ?? "";
      if (dt === "input_json_delta" && b) b.args += str(d, "partial_json") ?? "";
      if (dt === "signature_delta" && b) b.signature += str(d, "signature") ?? "";
      if (dt === "citations_delta") {
        const enc = str(obj(d, "citation"), "encrypted_index");
        if (enc !== undefined) blobs.push(enc);
      }
    } else if (type === "content_block_stop") stopBlock(num(c, "index") ?? -1);
    // Usage: message_start's running totals, updated by each message_delta; one entry per response
    // the provider ended (message_stop), flagged cumulative (§8 item 4).
    if (type === "message_start") raw = { ...(obj(obj(c, "message"), "usage") ?? {}) };
    if (type === "message_delta") Object.assign(raw, obj(c, "usage") ?? {});
    if (type === "message_stop" && Object.keys(raw).length > 0) {
      usage.push({
        cumulative: true,
        ...usageOf({
          inputTokens: raw.input_tokens,
          outputTokens: raw.output_tokens,
          cacheReadTokens: raw.cache_read_input_tokens,
          cacheWriteTokens: raw.cache_creation_input_tokens,
        }),
      });
    }
  }
  return { text, toolInputs, blobs, usage };
}

function chatFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const toolInputs = new Map<string, unknown>();
  let responseId: string | undefined;
  let calls = new Map<string, { id: string; args: string }>();
  const usage: Record<string, number | boolean>[] = [];
  let raw: Record<string, unknown> | undefined;
  const closeResponse = (): void => {
    for (const c of calls.values()) toolInputs.set(c.id, parseArgs(c.args));
    calls = new Map();
    // The response's usage chunk (trailing, or on the final choice chunk), per response, verbatim.
    if (raw) {
      usage.push(
        usageOf({
          inputTokens: raw.prompt_tokens,
          outputTokens: raw.completion_tokens,
          totalTokens: raw.total_tokens,
          cacheReadTokens: obj(raw, "prompt_tokens_details")?.cached_tokens,
          reasoningTokens: obj(raw, "completion_tokens_details")?.reasoning_tokens,
        }),
      );
    }
    raw = undefined;
  };
  for (const c of chunks) {
    const id = str(c, "id") ?? "";
    if (id !== "" && id !== responseId) {
      closeResponse();
      responseId = id;
    }
    raw = obj(c, "usage") ?? raw;
    for (const choice of arr(c, "choices") ?? []) {
      const delta = obj(choice, "delta");
      const content = delta?.content;
      if (typeof content === "string") text += content;
      else if (Array.isArray(content)) for (const p of content) if (str(p, "type") === "text") text += str(p, "text") ?? "";
      text += str(delta, "refusal") ?? "";
      (arr(delta, "tool_calls") ?? []).forEach((tc, position) => {
        const key = `${num(choice, "index") ?? 0}:${num(tc, "index") ?? position}`;
        const call = calls.get(key) ?? { id: str(tc, "id") ?? key, args: "" };
        call.args += str(obj(tc, "function"), "arguments") ?? "";
        calls.set(key, call);
      });
    }
  }
  closeResponse();
  return { text, toolInputs, blobs: [], usage };
}

function responsesFacts(chunks: unknown[]): NativeFacts {
  const usage: Record<string, number | boolean>[] = [];
  const toolInputs = new Map<string, unknown>();
  const blobs: string[] = [];
  const parts = new Map<string, string>();
  let response = 0;
  const partKey = (c: unknown): string => `${response}:${num(c, "output_index") ?? -1}:${num(c, "content_index") ?? 0}`;
  for (const c of chunks) {
    const type = str(c, "type");
    if (type === "response.created") response++;
    if (type === "response.completed" || type === "response.incomplete") {
      const u = obj(obj(c, "response"), "usage");
      if (u) {
        usage.push(
          usageOf({
            inputTokens: u.input_tokens,
            outputTokens: u.output_tokens,
            totalTokens: u.total_tokens,
            cacheReadTokens: obj(u, "input_tokens_details")?.cached_tokens,
            reasoningTokens: obj(u, "output_tokens_details")?.reasoning_tokens,
          }),
        );
      }
    }
    if (type === "response.output_text.delta") parts.set(partKey(c), (parts.get(partKey(c)) ?? "") + (str(c, "delta") ?? ""));
    if (type === "response.output_text.done") parts.set(partKey(c), str(c, "text") ?? "");
    if (type !== "response.output_item.done") continue;
    const item = obj(c, "item");
    const itemType = str(item, "type");
    const callId = str(item, "call_id") ?? str(item, "id") ?? "";
    if (itemType === "message") {
      (arr(item, "content") ?? []).forEach((p, ci) => {
        const text = str(p, "text");
        if (text !== undefined) parts.set(`${response}:${num(c, "output_index") ?? -1}:${ci}`, text);
      });
    }
    if (itemType === "function_call" || itemType === "mcp_call") toolInputs.set(callId, parseArgs(str(item, "arguments") ?? ""));
    if (itemType === "custom_tool_call") toolInputs.set(callId, str(item, "input") ?? "");
    for (const k of ["encrypted_content", "fingerprint"]) {
      const blob = str(item, k);
      if (blob) blobs.push(blob);
    }
  }
  return { text: [...parts.values()].join(""), toolInputs, blobs, usage };
}

function setPath(root: Record<string, unknown>, path: string, value: unknown, append: boolean): void {
  const keys = [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
  let node: Record<string | number, unknown> = root;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) {
      node[k] = append && typeof node[k] === "string" ? String(node[k]) + String(value) : value;
    } else {
      if (typeof node[k] !== "object" || node[k] === null) node[k] = typeof keys[i + 1] === "number" ? [] : {};
      node = node[k] as Record<string | number, unknown>;
    }
  });
}

function geminiFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const toolInputs = new Map<string, unknown>();
  const blobs: string[] = [];
  let ordinal = 0;
  let open: { args: Record<string, unknown>; cont?: string } | undefined;
  const close = (): void => {
    if (open) toolInputs.set(`#${ordinal++}`, open.args);
    open = undefined;
  };
  // usageMetadata is a running total (§8 item 4): a response's usage is the last one seen by the
  // chunk in which every candidate has finished.
  const usage: Record<string, number | boolean>[] = [];
  let raw: Record<string, unknown> | undefined;
  for (const c of chunks) {
    raw = obj(c, "usageMetadata") ?? raw;
    const candidates = arr(c, "candidates") ?? [];
    if (raw && candidates.length > 0 && candidates.every((cand) => str(cand, "finishReason") !== undefined)) {
      usage.push({
        cumulative: true,
        ...usageOf({
          inputTokens: raw.promptTokenCount,
          outputTokens: raw.candidatesTokenCount,
          totalTokens: raw.totalTokenCount,
          cacheReadTokens: raw.cachedContentTokenCount,
          reasoningTokens: raw.thoughtsTokenCount,
          toolUseInputTokens: raw.toolUsePromptTokenCount,
        }),
      });
      raw = undefined;
    }
    for (const cand of candidates) {
      for (const part of arr(obj(cand, "content"), "parts") ?? []) {
        const sig = str(part, "thoughtSignature");
        if (sig !== undefined) blobs.push(sig);
        const fc = obj(part, "functionCall");
        if (!fc) {
          close();
          if (str(part, "text") !== undefined && (part as { thought?: boolean }).thought !== true) text += str(part, "text");
          continue;
        }
        if (str(fc, "name") !== undefined) {
          close();
          open = { args: isObject(fc.args) ? { ...fc.args } : {} };
        }
        for (const frag of arr(fc, "partialArgs") ?? []) {
          if (!open || !isObject(frag)) continue;
          const path = str(frag, "jsonPath") ?? "$";
          const value =
            "stringValue" in frag
              ? frag.stringValue
              : "numberValue" in frag
                ? frag.numberValue
                : "boolValue" in frag
                  ? frag.boolValue
                  : null;
          setPath(open.args, path, value, open.cont === path);
          open.cont = frag.willContinue === true ? path : undefined;
        }
        if (Object.keys(fc).length === 0) close();
      }
      if (str(cand, "finishReason") !== undefined) close();
    }
  }
  close();
  return { text, toolInputs, blobs, usage };
}

/** Bedrock ConverseStream frames (keyed by event name; blocks keyed by contentBlockIndex). */
function bedrockFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const toolInputs = new Map<string, unknown>();
  const blobs: string[] = [];
  const usage: Record<string, number>[] = [];
  let blocks = new Map<number, { toolUseId?: string; args: string; signature: string; redacted: string }>();
  const block = (i: number) => {
    let b = blocks.get(i);
    if (!b) blocks.set(i, (b = { args: "", signature: "", redacted: "" }));
    return b;
  };
  const stopBlock = (i: number): void => {
    const b = blocks.get(i);
    if (!b) return;
    if (b.toolUseId !== undefined) toolInputs.set(b.toolUseId, parseArgs(b.args));
    if (b.redacted !== "") blobs.push(b.redacted);
    else if (b.signature !== "") blobs.push(b.signature);
    blocks.delete(i);
  };
  for (const c of chunks) {
    if (obj(c, "messageStart")) blocks = new Map();
    const start = obj(c, "contentBlockStart");
    const toolUse = obj(obj(start, "start"), "toolUse");
    if (toolUse) block(num(start, "contentBlockIndex") ?? -1).toolUseId = str(toolUse, "toolUseId") ?? "";
    const deltaEvent = obj(c, "contentBlockDelta");
    if (deltaEvent) {
      const b = block(num(deltaEvent, "contentBlockIndex") ?? -1);
      const d = obj(deltaEvent, "delta");
      text += str(d, "text") ?? "";
      b.args += str(obj(d, "toolUse"), "input") ?? "";
      const rc = obj(d, "reasoningContent");
      b.signature += str(rc, "signature") ?? "";
      b.redacted += str(rc, "redactedContent") ?? "";
    }
    const stop = obj(c, "contentBlockStop");
    if (stop) stopBlock(num(stop, "contentBlockIndex") ?? -1);
    if (obj(c, "messageStop")) for (const i of [...blocks.keys()]) stopBlock(i);
    const u = obj(obj(c, "metadata"), "usage");
    if (u) {
      usage.push(
        usageOf({
          inputTokens: u.inputTokens,
          outputTokens: u.outputTokens,
          totalTokens: u.totalTokens,
          cacheReadTokens: u.cacheReadInputTokens,
          cacheWriteTokens: u.cacheWriteInputTokens,
        }),
      );
    }
  }
  return { text, toolInputs, blobs, usage };
}

/** Cohere v2 chat events (content by content index, tool calls by tool index; the tool plan is not text). */
function cohereFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const toolInputs = new Map<string, unknown>();
  const usage: Record<string, number>[] = [];
  let calls = new Map<number, { id: string; args: string }>();
  const closeCalls = (): void => {
    for (const call of calls.values()) toolInputs.set(call.id, parseArgs(call.args));
    calls = new Map();
  };
  for (const c of chunks) {
    const type = str(c, "type");
    const message = obj(obj(c, "delta"), "message");
    const content = obj(message, "content");
    const index = num(c, "index") ?? -1;
    if (type === "content-start" || type === "content-delta") text += str(content, "text") ?? "";
    if (type === "tool-call-start" || type === "tool-call-delta") {
      const tc = obj(message, "tool_calls");
      const call = calls.get(index) ?? { id: str(tc, "id") ?? `#${index}`, args: "" };
      call.args += str(obj(tc, "function"), "arguments") ?? "";
      calls.set(index, call);
    }
    if (type === "tool-call-end") {
      const call = calls.get(index);
      if (call) toolInputs.set(call.id, parseArgs(call.args));
      calls.delete(index);
    }
    if (type === "message-end") {
      closeCalls();
      const u = obj(obj(c, "delta"), "usage");
      const tokens = obj(u, "tokens");
      if (u)
        usage.push(usageOf({ inputTokens: tokens?.input_tokens, outputTokens: tokens?.output_tokens, cacheReadTokens: u.cached_tokens }));
    }
  }
  return { text, toolInputs, blobs: [], usage };
}

/**
 * Gemini Interactions events (steps keyed by `index`): `text` deltas of model_output steps are the
 * text; function_call arguments are the `arguments_delta` strings joined (else the step's own
 * `arguments`), built-in call arguments the last whole payload; every non-empty step signature is
 * a blob; each `interaction.completed` usage is one response's usage.
 */
function interactionsFacts(chunks: unknown[]): NativeFacts {
  let text = "";
  const toolInputs = new Map<string, unknown>();
  const blobs: string[] = [];
  const usage: Record<string, number>[] = [];
  let steps = new Map<number, { type: string; id: string; args: unknown; fragments: string; signature: string }>();
  const stopStep = (index: number): void => {
    const s = steps.get(index);
    if (!s) return;
    steps.delete(index);
    if (s.type === "function_call" || s.type.endsWith("_call"))
      toolInputs.set(s.id, s.fragments !== "" ? parseArgs(s.fragments) : (s.args ?? {}));
    if (s.signature !== "") blobs.push(s.signature);
  };
  for (const c of chunks) {
    const type = str(c, "event_type");
    const index = num(c, "index") ?? -1;
    if (type === "interaction.created") steps = new Map();
    if (type === "step.start") {
      const step = obj(c, "step");
      const stepType = str(step, "type") ?? "";
      steps.set(index, {
        type: stepType,
        id: str(step, "id") ?? "",
        args: step?.arguments,
        fragments: "",
        signature: str(step, "signature") ?? "",
      });
      for (const item of arr(step, "content") ?? []) if (str(item, "type") === "text") text += str(item, "text") ?? "";
    }
    if (type === "step.delta") {
      const d = obj(c, "delta");
      const s = steps.get(index);
      const dt = str(d, "type");
      if (dt === "text" && s?.type === "model_output") text += str(d, "text") ?? "";
      if (!s) continue;
      if (dt === "thought_signature") s.signature += str(d, "signature") ?? "";
      if (dt === "arguments_delta") s.fragments += str(d, "arguments") ?? "";
      if (dt === s.type && isObject(d) && d.arguments !== undefined) s.args = d.arguments;
      if (dt === s.type && str(d, "signature")) s.signature = str(d, "signature")!;
    }
    if (type === "step.stop") stopStep(index);
    if (type === "interaction.completed") {
      for (const i of [...steps.keys()]) stopStep(i);
      const u = obj(obj(c, "interaction"), "usage");
      if (u) {
        usage.push(
          usageOf({
            inputTokens: u.total_input_tokens,
            outputTokens: u.total_output_tokens,
            totalTokens: u.total_tokens,
            cacheReadTokens: u.total_cached_tokens,
            reasoningTokens: u.total_thought_tokens,
            toolUseInputTokens: u.total_tool_use_tokens,
          }),
        );
      }
    }
  }
  return { text, toolInputs, blobs, usage };
}

/** Provider facts of a stream, or undefined for a facet whose facts are not modelled here. */
export function nativeFacts(facet: FacetName, chunks: unknown[]): NativeFacts | undefined {
  switch (facet) {
    case "anthropic":
      return anthropicFacts(chunks);
    case "openai-chat":
      return chatFacts(chunks);
    case "openai-responses":
      return responsesFacts(chunks);
    case "gemini":
      return geminiFacts(chunks);
    case "bedrock":
      return bedrockFacts(chunks);
    case "cohere":
      return cohereFacts(chunks);
    case "gemini-interactions":
      return interactionsFacts(chunks);
    default:
      return undefined;
  }
}

/**
 * Whether the provider itself ended the last response of a (possibly truncated) stream; when it
 * did not, a flushed stream must close its turn with `turn.abort` (INV-FLUSH).
 */
export function lastResponseEnded(facet: FacetName, chunks: unknown[]): boolean {
  switch (facet) {
    case "anthropic": {
      let ended = true;
      for (const c of chunks) {
        const t = str(c, "type");
        if (t === "message_start") ended = false;
        if (t === "message_stop" || t === "error") ended = true;
      }
      return ended;
    }
    case "openai-chat": {
      let ended = true;
      let current: string | undefined;
      for (const c of chunks) {
        const id = str(c, "id") ?? "";
        if (id !== "" && id !== current) {
          current = id;
          ended = false;
        }
        for (const choice of arr(c, "choices") ?? []) if (str(choice, "finish_reason")) ended = true;
      }
      return ended;
    }
    case "openai-responses": {
      let ended = true;
      for (const c of chunks) {
        const t = str(c, "type") ?? "";
        if (t === "response.created") ended = false;
        if (["response.completed", "response.incomplete", "response.failed", "error"].includes(t)) ended = true;
      }
      return ended;
    }
    case "gemini": {
      let ended = true;
      let current: string | undefined;
      for (const c of chunks) {
        const id = str(c, "responseId");
        if (id !== undefined && id !== current) {
          current = id;
          ended = false;
        }
        if (obj(c, "error")) ended = true;
        for (const cand of arr(c, "candidates") ?? []) if (str(cand, "finishReason")) ended = true;
      }
      return ended;
    }
    case "bedrock": {
      let ended = true;
      for (const c of chunks) {
        if (!isObject(c)) continue;
        if ("messageStart" in c) ended = false;
        if (
          [
            "messageStop",
            "internalServerException",
            "modelStreamErrorException",
            "validationException",
            "throttlingException",
            "serviceUnavailableException",
          ].some((k) => k in c)
        )
          ended = true;
      }
      return ended;
    }
    case "cohere": {
      let ended = true;
      for (const c of chunks) {
        const t = str(c, "type");
        if (t === "message-start") ended = false;
        if (t === "message-end") ended = true;
      }
      return ended;
    }
    case "gemini-interactions": {
      let ended = true;
      for (const c of chunks) {
        const t = str(c, "event_type");
        if (t === "interaction.created") ended = false;
        if (t === "interaction.completed" || t === "error") ended = true;
      }
      return ended;
    }
    default:
      return true;
  }
}
