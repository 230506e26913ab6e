/**
 * Pydantic AI parts → AgBlocks, shared by the stream facet (`pydantic-ai.ts`) and the message-history
 * reader (`pydantic-ai-messages.ts`), so a streamed run and its stored history fold to the same blocks.
 * The shapes are those `pydantic_core.to_json` writes for the dataclasses of
 * `pydantic_ai_slim/pydantic_ai/messages.py` (pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491).
 *
 * Where each part field goes (docs/normalize/pydantic-ai.md, D28):
 * - `provider_details` is the block's `providerMetadata`, verbatim (§2 provider_details note);
 * - `id` and `provider_name` ride a first-class field where the block has one (reasoning `itemId` /
 *   `provider`, tool-call `itemId`, compaction `provider`), else a `pydantic/…` key of the block's
 *   `_meta` (text, file) or `toolMetadata` (tool calls and results, whose `_meta` does not fold, §5);
 * - a `RetryPromptPart` is an error result whose structured errors ride
 *   `providerMetadata["pydantic/retryErrors"]` (§3 RetryPromptPart note).
 */
import type { AgBlock, AgMeta, AgOpaque, AgSource, AgToolCallBlock, AgToolOutcome } from "../../../generated/types.js";
import { isObject, obj, providerMeta, str, type JsonObject } from "../util.js";

/** The `ext.<vendor>.*` segment of this facet (§12). */
export const PYDANTIC_VENDOR = "pydantic";

/** Multimodal content kinds (`UserContent` / `ToolReturnContent` items) that map to blocks. */
const MEDIA_KINDS = new Set(["image-url", "audio-url", "document-url", "video-url", "binary", "uploaded-file", "text-content"]);

/** A `provider_details` dict, when the part carries one. */
export function providerDetails(part: unknown): JsonObject | undefined {
  const pd = obj(part, "provider_details");
  return pd && Object.keys(pd).length > 0 ? pd : undefined;
}

/** `pydantic/id` and `pydantic/provider_name` of a part whose block has no first-class field for them. */
export function partMeta(part: unknown): AgMeta | undefined {
  const out: AgMeta = {};
  const id = str(part, "id");
  const providerName = str(part, "provider_name");
  if (id !== undefined) out["pydantic/id"] = id;
  if (providerName !== undefined) out["pydantic/provider_name"] = providerName;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The provider of a thinking part's opaque signature and reasoning block. */
export function thinkingProvider(part: unknown): string {
  return str(part, "provider_name") ?? PYDANTIC_VENDOR;
}

/**
 * A tool call's `args` as the block `input`: a dict verbatim, `null` / empty text `{}`, JSON text
 * parsed. Text that is not JSON stays the raw string and is reported (`malformed`), as
 * `tool.args.assembled` does for any facet (§4).
 */
export function toolInput(args: unknown): { input: unknown; malformed: boolean } {
  if (args === null || args === undefined) return { input: {}, malformed: false };
  if (typeof args !== "string") return { input: args, malformed: false };
  if (args.trim() === "") return { input: {}, malformed: false };
  try {
    return { input: JSON.parse(args) as unknown, malformed: false };
  } catch {
    return { input: args, malformed: true };
  }
}

/** What a tool-call block carries besides `toolCallId`, `name` and `input`. */
export interface CallExtras {
  itemId?: string;
  providerExecuted?: true;
  providerMetadata?: JsonObject;
  toolMetadata?: AgMeta;
}

/** The extras of a `tool-call` / `builtin-tool-call` part. */
export function callExtras(part: unknown): CallExtras {
  const out: CallExtras = {};
  const itemId = str(part, "id");
  if (itemId !== undefined) out.itemId = itemId;
  if (str(part, "part_kind") === "builtin-tool-call") out.providerExecuted = true;
  const pd = providerDetails(part);
  if (pd) out.providerMetadata = pd;
  const tm: AgMeta = {};
  const providerName = str(part, "provider_name");
  const toolKind = str(part, "tool_kind");
  if (providerName !== undefined) tm["pydantic/provider_name"] = providerName;
  if (toolKind !== undefined) tm["pydantic/tool_kind"] = toolKind;
  if (Object.keys(tm).length > 0) out.toolMetadata = tm;
  return out;
}

/** The tool-call block of a call part (history side; the stream side emits the same fields). */
export function toolCallBlock(part: JsonObject, toolCallId: string): AgBlock {
  const extras = callExtras(part);
  const block: AgToolCallBlock = { type: "tool-call", toolCallId, name: str(part, "tool_name") ?? "", input: toolInput(part.args).input };
  if (extras.providerExecuted) block.providerExecuted = true;
  if (extras.itemId !== undefined) block.itemId = extras.itemId;
  if (extras.toolMetadata) block.toolMetadata = extras.toolMetadata;
  if (extras.providerMetadata) block.providerMetadata = providerMeta(extras.providerMetadata);
  return block;
}

/** A `BinaryContent` / file URL / uploaded file as a media block, or undefined when it is none. */
export function mediaBlock(item: JsonObject): AgBlock | undefined {
  const kind = str(item, "kind");
  const meta: AgMeta = {};
  for (const k of ["identifier", "vendor_metadata", "force_download"] as const) {
    const v = item[k];
    if (v !== undefined && v !== null && v !== false) meta[`pydantic/${k}`] = v;
  }
  const withMeta = (b: AgBlock): AgBlock => (Object.keys(meta).length > 0 ? { ...b, _meta: meta } : b);
  if (kind === "text-content") {
    const text = str(item, "content") ?? "";
    if (item.metadata !== undefined && item.metadata !== null) meta["pydantic/metadata"] = item.metadata;
    return withMeta({ type: "text", text });
  }
  let source: AgSource | undefined;
  const mediaType = str(item, "media_type");
  if (kind === "binary") {
    const data = str(item, "data");
    if (data === undefined || mediaType === undefined) return undefined;
    source = { type: "base64", mediaType, data };
  } else if (kind === "uploaded-file") {
    const fileId = str(item, "file_id");
    if (fileId === undefined) return undefined;
    source = mediaType !== undefined ? { type: "file", fileId, mediaType } : { type: "file", fileId };
    const providerName = str(item, "provider_name");
    if (providerName !== undefined) meta["pydantic/provider_name"] = providerName;
  } else {
    const url = str(item, "url");
    if (url === undefined) return undefined;
    source = mediaType !== undefined ? { type: "url", url, mediaType } : { type: "url", url };
  }
  const family =
    kind === "image-url"
      ? "image"
      : kind === "audio-url"
        ? "audio"
        : kind === "document-url"
          ? "document"
          : (mediaType ?? "").split("/")[0];
  if (family === "image") return withMeta({ type: "image", source });
  if (family === "audio") return withMeta({ type: "audio", source });
  if (kind === "document-url") return withMeta({ type: "document", source });
  return withMeta({ type: "file", source });
}

/** True for a multimodal content item (`ImageUrl`, `BinaryContent`, `TextContent`, …). */
export function isMedia(x: unknown): x is JsonObject {
  return isObject(x) && typeof x.kind === "string" && MEDIA_KINDS.has(x.kind);
}

/** The model-facing text of a JSON value that is not a string, compact as `tool_return_ta.dump_json` writes it. */
function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

/** The fields of the `tool-result` a `ToolReturnPart` / `NativeToolReturnPart` / `RetryPromptPart` lands. */
export interface ResultFields {
  toolCallId: string;
  content: AgBlock[];
  outcome: AgToolOutcome;
  errorText?: string;
  structuredContent?: unknown;
  sideData?: unknown;
  toolMetadata?: AgMeta;
  providerMetadata?: JsonObject;
}

/** Tool return content → the model channel (`content`) and, for structured values, `structuredContent` (§2.1). */
function returnContent(value: unknown): { content: AgBlock[]; structuredContent?: unknown; text: string } {
  if (value === null || value === undefined) return { content: [], text: "" };
  if (typeof value === "string") return { content: [{ type: "text", text: value }], text: value };
  const items = Array.isArray(value) ? value : [value];
  if (items.length > 0 && items.every((i) => typeof i === "string" || isMedia(i))) {
    const blocks = items.map((i) => (typeof i === "string" ? ({ type: "text", text: i } as AgBlock) : mediaBlock(i as JsonObject)));
    if (blocks.every((b) => b !== undefined)) {
      const text = items.filter((i): i is string => typeof i === "string").join("");
      return { content: blocks as AgBlock[], text };
    }
  }
  const text = jsonText(value);
  return { content: [{ type: "text", text }], structuredContent: value, text };
}

/** The `tool-result` fields of a tool return or retry prompt part; undefined when it names no call. */
export function resultFields(part: JsonObject, toolCallId?: string): ResultFields | undefined {
  const id = toolCallId ?? str(part, "tool_call_id");
  if (id === undefined) return undefined;
  const tm: AgMeta = {};
  const toolName = str(part, "tool_name");
  const timestamp = str(part, "timestamp");
  if (toolName !== undefined) tm["pydantic/tool_name"] = toolName;
  if (timestamp !== undefined) tm["pydantic/timestamp"] = timestamp;
  if (str(part, "part_kind") === "retry-prompt") {
    // §3 RetryPromptPart note: an error result; ErrorDetails[] verbatim beside the serialized text.
    tm["pydantic/retry"] = true;
    const errors = Array.isArray(part.content) ? part.content : undefined;
    const errorText = typeof part.content === "string" ? part.content : jsonText(part.content);
    const out: ResultFields = {
      toolCallId: id,
      content: [{ type: "text", text: errorText }],
      outcome: "error",
      errorText,
      toolMetadata: tm,
    };
    if (errors) out.providerMetadata = { "pydantic/retryErrors": errors };
    return out;
  }
  const toolKind = str(part, "tool_kind");
  const providerName = str(part, "provider_name");
  if (toolKind !== undefined) tm["pydantic/tool_kind"] = toolKind;
  if (providerName !== undefined) tm["pydantic/provider_name"] = providerName;
  const { content, structuredContent, text } = returnContent(part.content);
  const native = str(part, "outcome") ?? "success";
  let outcome: AgToolOutcome = "ok";
  if (native === "denied") outcome = "denied";
  else if (native === "failed" || native === "interrupted") outcome = "error";
  if (native !== "success" && native !== "failed" && native !== "denied") tm["pydantic/outcome"] = native;
  const out: ResultFields = { toolCallId: id, content, outcome, toolMetadata: tm };
  if (outcome === "error") out.errorText = text;
  if (structuredContent !== undefined) out.structuredContent = structuredContent;
  if (part.metadata !== undefined && part.metadata !== null) out.sideData = part.metadata;
  const pd = providerDetails(part);
  if (pd) out.providerMetadata = pd;
  return out;
}

/** The tool-result block of a return / retry part (history side). */
export function toolResultBlock(f: ResultFields): AgBlock {
  const block: Record<string, unknown> = { type: "tool-result", toolCallId: f.toolCallId, content: f.content, outcome: f.outcome };
  if (f.errorText !== undefined) block.errorText = f.errorText;
  if (f.structuredContent !== undefined) block.structuredContent = f.structuredContent;
  if (f.sideData !== undefined) block.sideData = f.sideData;
  if (f.providerMetadata) block.providerMetadata = f.providerMetadata;
  if (f.toolMetadata && Object.keys(f.toolMetadata).length > 0) block.toolMetadata = f.toolMetadata;
  return block as unknown as AgBlock;
}

/** The opaque replay blob of a compaction part: OpenAI's `provider_details.encrypted_content` (§10 item 13). */
function compactionOpaque(part: JsonObject): AgOpaque | undefined {
  const value = str(obj(part, "provider_details"), "encrypted_content");
  if (value === undefined) return undefined;
  const provider = str(part, "provider_name");
  return provider !== undefined ? { kind: "ciphertext", value, provider } : { kind: "ciphertext", value };
}

/**
 * A `CompactionPart` → `compaction` block (§2, §10 item 13): readable summary as `text`, the
 * provider's encrypted item as `opaque`, and — the block having no `providerMetadata` — the whole
 * `provider_details` and the part `id` under `_meta` so the part re-inputs byte-identical.
 */
export function compactionBlock(part: JsonObject): AgBlock {
  const block: AgBlock = { type: "compaction" };
  const text = str(part, "content");
  if (text !== undefined) block.text = text;
  const opaque = compactionOpaque(part);
  if (opaque) block.opaque = opaque;
  const provider = str(part, "provider_name");
  if (provider !== undefined) block.provider = provider;
  const meta: AgMeta = {};
  const id = str(part, "id");
  const pd = providerDetails(part);
  if (id !== undefined) meta["pydantic/id"] = id;
  if (pd) meta["pydantic/provider_details"] = pd;
  if (Object.keys(meta).length > 0) block._meta = meta;
  return block;
}

/** A `FilePart` → image / audio / file block carrying the part's own fields. */
export function filePartBlock(part: JsonObject): AgBlock | undefined {
  const content = obj(part, "content");
  const block = content ? mediaBlock(content) : undefined;
  if (!block) return undefined;
  const meta = { ...(block._meta ?? {}), ...(partMeta(part) ?? {}) };
  const out: Record<string, unknown> = { ...block };
  if (Object.keys(meta).length > 0) out._meta = meta;
  const pd = providerDetails(part);
  if (pd && out.type !== "text") out.providerMetadata = pd;
  return out as unknown as AgBlock;
}
