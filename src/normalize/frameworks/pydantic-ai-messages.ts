/**
 * A stored Pydantic AI message history — the JSON `ModelMessagesTypeAdapter.dump_json(...)` /
 * `result.all_messages_json()` writes: `ModelRequest` / `ModelResponse` objects with their parts
 * (pydantic_ai_slim/pydantic_ai/messages.py at pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491)
 * — as AgMessages. Parts become blocks through the same functions the `pydantic-ai` stream facet
 * uses, so a streamed run and its stored history fold to the same blocks (docs/normalize/pydantic-ai.md).
 *
 * A response is one assistant message. A request splits by role: system prompts → a `system`
 * message, user prompts → `user`, tool returns and retry prompts → one `tool` message (§2.2, §3
 * RetryPromptPart note). Message-level fields no AgMessage field holds (timestamps, run ids, the
 * request's rendered `instructions`, a response's usage and finish reason) ride `metadata` under
 * `pydantic/request` / `pydantic/response`, verbatim; a part this reader does not know rides a
 * `provider-raw` block (§0.2: nothing dropped).
 */
import type { AgBlock, AgMessage, AgRole, AgUsage } from "../../../generated/types.js";
import {
  PYDANTIC_VENDOR,
  compactionBlock,
  filePartBlock,
  isMedia,
  mediaBlock,
  partMeta,
  providerDetails,
  resultFields,
  thinkingProvider,
  toolCallBlock,
  toolResultBlock,
} from "./pydantic-ai-parts.js";
import { arr, isObject, num, providerMeta, setUsage, str, type JsonObject } from "../util.js";

/** Options of {@link fromPydanticAiMessages}. */
export interface PydanticAiMessagesOptions {
  /** Stamped on every message (§1.3 persisted cross-refs). */
  threadId?: string;
  turnId?: string;
}

/**
 * Converts a Pydantic AI message history (the parsed JSON array) into AgMessages. Input that is
 * not such a history is refused with a TypeError naming the field at fault.
 */
export function fromPydanticAiMessages(history: unknown, opts: PydanticAiMessagesOptions = {}): AgMessage[] {
  if (!Array.isArray(history))
    throw new TypeError(
      `fromPydanticAiMessages(): the history is ${describe(history)}; give the JSON array ModelMessagesTypeAdapter writes.`,
    );
  const out: AgMessage[] = [];
  const used = new Set<string>();
  const fresh = (wanted: string): string => {
    let id = wanted;
    for (let n = 1; used.has(id); n++) id = `${wanted}:${n}`;
    used.add(id);
    return id;
  };
  const push = (m: AgMessage): void => {
    if (opts.turnId !== undefined) m.turnId = opts.turnId;
    if (opts.threadId !== undefined) m.threadId = opts.threadId;
    out.push(m);
  };
  history.forEach((message, i) => {
    if (!isObject(message))
      throw new TypeError(`fromPydanticAiMessages(): [${i}] is ${describe(message)}, not a ModelRequest / ModelResponse object.`);
    const parts = arr(message, "parts");
    if (!parts)
      throw new TypeError(`fromPydanticAiMessages(): [${i}].parts is ${describe(message.parts)}; every message has a parts array.`);
    const kind = str(message, "kind");
    const rest = restOf(message);
    if (kind === "response") {
      const m: AgMessage = {
        id: fresh(str(message, "provider_response_id") ?? `message:${i}`),
        role: "assistant",
        content: parts.map(responseBlock),
      };
      const model = str(message, "model_name");
      if (model !== undefined && model !== "") m.model = model;
      const usage = requestUsage(message.usage);
      if (usage) m.usage = usage;
      if (rest) m.metadata = { "pydantic/response": rest };
      push(m);
    } else if (kind === "request") {
      for (const group of requestGroups(parts)) {
        const m: AgMessage = { id: fresh(`message:${i}`), role: group.role, content: group.blocks };
        if (rest) m.metadata = { "pydantic/request": rest };
        push(m);
      }
    } else {
      throw new TypeError(`fromPydanticAiMessages(): [${i}].kind is ${describe(message.kind)}; a message is kind "request" or "response".`);
    }
  });
  return out;
}

function describe(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "string") return `the string ${JSON.stringify(x.slice(0, 40))}`;
  if (x === undefined) return "missing";
  return typeof x === "object" ? "an object" : `a ${typeof x}`;
}

/** A message's own fields beside `parts` and `kind`, verbatim, when any is set. */
function restOf(message: JsonObject): JsonObject | undefined {
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(message)) if (k !== "parts" && k !== "kind" && v !== null) rest[k] = v;
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/** A response's `RequestUsage` → AgUsage (per-request counts, verbatim). */
function requestUsage(u: unknown): AgUsage | undefined {
  if (!isObject(u)) return undefined;
  const usage: AgUsage = {};
  const count = (k: string): number | undefined => {
    const n = num(u, k);
    return n !== undefined && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  setUsage(usage, "inputTokens", count("input_tokens"));
  setUsage(usage, "outputTokens", count("output_tokens"));
  setUsage(usage, "cacheReadTokens", count("cache_read_tokens"));
  setUsage(usage, "cacheWriteTokens", count("cache_write_tokens"));
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** One `ModelResponsePart` → its block (the stream facet emits the same fields). */
function responseBlock(part: unknown): AgBlock {
  if (!isObject(part)) return raw(part);
  switch (str(part, "part_kind")) {
    case "text": {
      const block: AgBlock = { type: "text", text: str(part, "content") ?? "" };
      const pd = providerDetails(part);
      const meta = partMeta(part);
      if (pd) block.providerMetadata = providerMeta(pd);
      if (meta) block._meta = meta;
      return block;
    }
    case "thinking": {
      const block: AgBlock = { type: "reasoning", text: str(part, "content") ?? "" };
      const provider = thinkingProvider(part);
      const signature = str(part, "signature");
      if (signature !== undefined) block.opaque = { kind: "signature", value: signature, provider };
      block.provider = provider;
      const itemId = str(part, "id");
      if (itemId !== undefined) block.itemId = itemId;
      const pd = providerDetails(part);
      if (pd) block.providerMetadata = providerMeta(pd);
      return block;
    }
    case "tool-call":
    case "builtin-tool-call": {
      const id = str(part, "tool_call_id");
      return id !== undefined && typeof part.tool_name === "string" ? toolCallBlock(part, id) : raw(part);
    }
    case "builtin-tool-return": {
      const f = resultFields(part);
      return f ? toolResultBlock(f) : raw(part);
    }
    case "compaction":
      return compactionBlock(part);
    case "file":
      return filePartBlock(part) ?? raw(part);
    default:
      return raw(part);
  }
}

function raw(part: unknown): AgBlock {
  return { type: "provider-raw", vendor: PYDANTIC_VENDOR, raw: part === undefined ? null : (part as never) };
}

/** A request's parts, in order, grouped into consecutive same-role messages. */
function requestGroups(parts: unknown[]): { role: AgRole; blocks: AgBlock[] }[] {
  const groups: { role: AgRole; blocks: AgBlock[] }[] = [];
  const add = (role: AgRole, blocks: AgBlock[]): void => {
    const last = groups[groups.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks);
    else groups.push({ role, blocks });
  };
  for (const part of parts) {
    const kind = str(part, "part_kind");
    if (!isObject(part)) add("user", [raw(part)]);
    else if (kind === "system-prompt") {
      const block: AgBlock = { type: "text", text: str(part, "content") ?? "" };
      const meta: JsonObject = {};
      if (typeof part.dynamic_ref === "string") meta["pydantic/dynamic_ref"] = part.dynamic_ref;
      if (typeof part.timestamp === "string") meta["pydantic/timestamp"] = part.timestamp;
      if (Object.keys(meta).length > 0) block._meta = meta;
      add("system", [block]);
    } else if (kind === "user-prompt") {
      const content = part.content;
      const items = Array.isArray(content) ? content : [content];
      const blocks = items.map((item): AgBlock => {
        if (typeof item === "string") return { type: "text", text: item };
        if (isMedia(item)) return mediaBlock(item) ?? raw(item);
        return raw(item);
      });
      if (typeof part.timestamp === "string" && blocks[0])
        blocks[0] = { ...blocks[0], _meta: { ...(blocks[0]._meta ?? {}), "pydantic/timestamp": part.timestamp } } as AgBlock;
      add("user", blocks);
    } else if (kind === "tool-return" || kind === "retry-prompt") {
      const f = resultFields(part);
      add("tool", [f ? toolResultBlock(f) : raw(part)]);
    } else add(groups[groups.length - 1]?.role ?? "user", [raw(part)]);
  }
  return groups;
}
