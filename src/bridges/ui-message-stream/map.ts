/**
 * Field-level mappings from AgJSON (§2, §4) to AI SDK UI message stream values: finish reasons,
 * provider metadata, citations, grounding sources, media blocks and tool results. Whatever a UI
 * chunk has no field for rides the `agjson` key of its `providerMetadata`, so it is never lost.
 */
import type {
  AgBlock,
  AgCitation,
  AgFinishReason,
  AgMeta,
  AgKnownSource,
  AgSource,
  AgSourcePayload,
  AgToolResultBlock,
} from "../../../generated/lenient-types.js";
import { isKnownCitation, isKnownSource } from "../../../generated/schema-facts.js";
import type { UICitation, UIFinishReason, UIJsonValue, UIProviderMetadata } from "./chunks.js";
import { isRecord } from "../../json-guards.js";

type JsonObject = Record<string, UIJsonValue | undefined>;

/** A plain JSON object (what the AI SDK accepts as one provider's metadata entry). */
export function isJsonObject(value: unknown): value is JsonObject {
  return isRecord(value);
}

/** A JSON value read from a validated event (every AgJSON opaque value is JSON, §0.1). */
function isJsonValue(value: unknown): value is UIJsonValue {
  return value === null || typeof value !== "function";
}

/** An AgJSON-side bag keyed as one JSON object, dropping `undefined` values. */
export function jsonObject(bag: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(bag)) if (v !== undefined && isJsonValue(v)) out[k] = v;
  return out;
}

/**
 * `providerMetadata` for a chunk. AgJSON keys echo verbatim (§12), often flat (`{itemId}`), while the
 * AI SDK requires provider → object: an all-object bag passes through; otherwise the bag moves under
 * `agjson.providerMetadata`. `extra` (AgJSON fields with no chunk home) merges into `agjson`.
 */
export function uiProviderMetadata(meta: AgMeta | undefined, extra?: Record<string, unknown>): UIProviderMetadata | undefined {
  const out: UIProviderMetadata = {};
  if (meta !== undefined && Object.keys(meta).length > 0) {
    const entries = Object.entries(meta);
    if (entries.every(([, v]) => isJsonObject(v))) {
      for (const [k, v] of entries) if (isJsonObject(v)) out[k] = v;
    } else {
      out.agjson = { providerMetadata: jsonObject(meta) };
    }
  }
  if (extra !== undefined) {
    const bag = jsonObject(extra);
    if (Object.keys(bag).length > 0) out.agjson = { ...(out.agjson ?? {}), ...bag };
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** §4 AgFinishReason → the AI SDK's coarser FinishReason (the exact value rides the turn.done data chunk). */
export function uiFinishReason(reason: AgFinishReason): UIFinishReason {
  switch (reason) {
    case "stop":
      return "stop";
    case "token_limit":
    case "context_window_exceeded":
      return "length";
    case "tool_call":
    case "paused":
      return "tool-calls";
    case "refusal":
    case "safety_blocked":
      return "content-filter";
    case "malformed_tool_call":
    case "unexpected_tool_call":
      return "error";
    default:
      // pause_turn, rejected, other, unknown — and a reason a later minor added (§0.2, §12).
      return "other";
  }
}

const nonNegativeInt = (n: number | undefined): number | undefined => (n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined);

/**
 * An AgCitation (§2) as an AI SDK text citation. A `url` citation keeps its url and response offsets;
 * the document-frame kinds (char/page/block/offset) become a document source named after the cited
 * document. The original citation always rides `source.providerMetadata.agjson.citation`.
 */
export function uiCitation(c: AgCitation, index: number): UICitation {
  const providerMetadata: UIProviderMetadata = { agjson: { citation: jsonObject({ ...c }) } };
  if (!isKnownCitation(c)) {
    // A citation kind a later minor added (§0.2, §12): a document source, the original in providerMetadata.
    const id = `citation-${index}`;
    const citedText = typeof c.citedText === "string" ? c.citedText : "";
    return { source: { type: "source", sourceType: "document", id, mediaType: "text/plain", title: id, providerMetadata }, citedText };
  }
  if (c.kind === "url") {
    const out: UICitation = {
      source: {
        type: "source",
        sourceType: "url",
        id: c.source ?? c.url,
        url: c.url,
        ...(c.title !== undefined ? { title: c.title } : {}),
        providerMetadata,
      },
      citedText: c.citedText,
    };
    const start = nonNegativeInt(c.startIndex);
    const end = nonNegativeInt(c.endIndex);
    if (start !== undefined) out.startIndex = start;
    if (end !== undefined) out.endIndex = end;
    return out;
  }
  const id = c.kind === "offset" ? (c.sourceIds[0] ?? c.source ?? `citation-${index}`) : (c.source ?? `document-${c.documentIndex}`);
  return {
    source: { type: "source", sourceType: "document", id, mediaType: "text/plain", title: c.title ?? id, providerMetadata },
    citedText: c.citedText,
  };
}

/** A media source as a URL the AI SDK can load: a data: URL for inline bytes; a provider file id has none. */
export function sourceUrl(source: AgKnownSource): string | undefined {
  switch (source.type) {
    case "base64":
      return `data:${source.mediaType};base64,${source.data}`;
    case "url":
      return source.url;
    case "file":
      return undefined;
  }
}

/** The §2 blocks whose bytes are an `AgSource` (image, audio, file, document), read off the generated types. */
type MediaBlock = Extract<AgBlock, { source: AgSource }>;

/** A media type for each: the compiler refuses this table until a media block the schema adds has one. */
const DEFAULT_MEDIA: Record<MediaBlock["type"], string> = {
  image: "image/*",
  audio: "audio/*",
  file: "application/octet-stream",
  document: "application/octet-stream",
};

function isMediaBlock(block: AgBlock): block is MediaBlock {
  return Object.hasOwn(DEFAULT_MEDIA, block.type);
}

/** The `file` chunk of an image/audio/file/document block, or undefined when its bytes have no URL. */
export function fileChunkOf(block: AgBlock): { url: string; mediaType: string; providerMetadata?: UIProviderMetadata } | undefined {
  if (!isMediaBlock(block)) return undefined;
  const source = block.source;
  // A source type a later minor added (§0.2, §12) has no URL the AI SDK can load.
  if (!isKnownSource(source)) return undefined;
  const url = sourceUrl(source);
  if (url === undefined) return undefined;
  const extra: Record<string, unknown> = { blockType: block.type };
  if (block.type === "file" && block.filename !== undefined) extra.filename = block.filename;
  if (block.type === "document" && block.title !== undefined) extra.title = block.title;
  if (block.annotations !== undefined) extra.annotations = block.annotations;
  if (block._meta !== undefined) extra._meta = block._meta;
  const providerMetadata = uiProviderMetadata(block.providerMetadata, extra);
  return { url, mediaType: source.mediaType ?? DEFAULT_MEDIA[block.type], ...(providerMetadata ? { providerMetadata } : {}) };
}

/** A §4 `source` payload as a `source-url` or `source-document` chunk body. */
export function sourceChunkOf(
  sourceId: string,
  source: AgSourcePayload,
  providerMetadata: AgMeta | undefined,
  chunkIndex: number | undefined,
):
  | { type: "source-url"; sourceId: string; url: string; title?: string; providerMetadata?: UIProviderMetadata }
  | {
      type: "source-document";
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: UIProviderMetadata;
    } {
  const extra: Record<string, unknown> = {};
  if (chunkIndex !== undefined) extra.chunkIndex = chunkIndex;
  if ("url" in source && typeof source.url === "string") {
    if ("type" in source) extra.source = source;
    const pm = uiProviderMetadata(providerMetadata, extra);
    const title = "title" in source && typeof source.title === "string" ? source.title : undefined;
    return {
      type: "source-url",
      sourceId,
      url: source.url,
      ...(title !== undefined ? { title } : {}),
      ...(pm ? { providerMetadata: pm } : {}),
    };
  }
  if (!("type" in source) || source.type !== "document") extra.source = source;
  const mediaType = "mediaType" in source && typeof source.mediaType === "string" ? source.mediaType : "application/octet-stream";
  const title =
    "title" in source && typeof source.title === "string"
      ? source.title
      : "filename" in source && typeof source.filename === "string"
        ? source.filename
        : sourceId;
  const filename = "filename" in source && typeof source.filename === "string" ? source.filename : undefined;
  const pm = uiProviderMetadata(providerMetadata, extra);
  return {
    type: "source-document",
    sourceId,
    mediaType,
    title,
    ...(filename !== undefined ? { filename } : {}),
    ...(pm ? { providerMetadata: pm } : {}),
  };
}

/** Which field of a tool result became the UI tool part's `output`. */
export type ToolOutputSource = "structuredContent" | "text" | "content";

/**
 * The `output` of a tool part from a tool result (§2.1): the model-facing `structuredContent` when
 * present, else the text of an all-text `content`, else the `content` blocks themselves.
 */
export function toolOutput(result: Pick<AgToolResultBlock, "content" | "structuredContent">): { output: unknown; from: ToolOutputSource } {
  if (result.structuredContent !== undefined) return { output: result.structuredContent, from: "structuredContent" };
  if (result.content.length > 0 && result.content.every((b) => b.type === "text")) {
    return { output: result.content.map((b) => (b.type === "text" ? b.text : "")).join(""), from: "text" };
  }
  return { output: result.content, from: "content" };
}
