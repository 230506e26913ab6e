/**
 * AgBlock[] ⇄ AG-UI content (`string | ContentPart[]`), shared by tool results, messages snapshots
 * and RunAgentInput. The five AG-UI part kinds take the §2 blocks they can hold exactly; any other
 * block (or a field AG-UI has no slot for) makes the conversion lossy, which the caller learns from
 * `exact` and answers by carrying the original blocks under `metadata.agjson` (docs/bridges/ag-ui.md).
 */
import type { AgBlock, AgSource } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import { isKnownBlock, isKnownSource } from "../../../generated/schema-facts.js";
import type { ContentPart, PartSource } from "./vocabulary.js";
import { isRecord } from "../../json-guards.js";

/** AG-UI content for some blocks, and whether it holds every field of every block. */
export interface AgUiContent {
  content: string | ContentPart[];
  exact: boolean;
}

function toPartSource(source: AgSource): PartSource {
  switch (source.type) {
    case "base64":
      return { type: "data", value: source.data, mimeType: source.mediaType };
    case "url":
      return source.mediaType === undefined
        ? { type: "url", value: source.url }
        : { type: "url", value: source.url, mimeType: source.mediaType };
    case "file":
      return source.mediaType === undefined
        ? { type: "file", value: source.fileId }
        : { type: "file", value: source.fileId, mimeType: source.mediaType };
  }
}

/** The §2 source of an AG-UI part source, read structurally (a file handle's `provider` has no AgSource slot). */
export function fromPartSource(source: unknown): AgSource | undefined {
  if (!isRecord(source) || typeof source.value !== "string") return undefined;
  const mime = typeof source.mimeType === "string" ? source.mimeType : undefined;
  switch (source.type) {
    case "data":
      return mime === undefined ? undefined : { type: "base64", mediaType: mime, data: source.value };
    case "url":
      return mime === undefined ? { type: "url", url: source.value } : { type: "url", url: source.value, mediaType: mime };
    case "file":
      return mime === undefined ? { type: "file", fileId: source.value } : { type: "file", fileId: source.value, mediaType: mime };
    default:
      return undefined;
  }
}

/** Keys a block may carry that an AG-UI part also holds; any other key makes the part lossy. */
const PART_KEYS: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "text"]),
  image: new Set(["type", "source"]),
  audio: new Set(["type", "source"]),
  file: new Set(["type", "source"]),
  document: new Set(["type", "source"]),
};

function onlyKeys(block: L.AgBlock, allowed: ReadonlySet<string> | undefined): boolean {
  if (allowed === undefined) return false;
  for (const key of Object.keys(block)) if (!allowed.has(key)) return false;
  return true;
}

function toPart(block: L.AgBlock): ContentPart {
  // A block or source of a type a later minor added (§0.2, §12) has no part: it is read as text,
  // like any block without a part, and rides metadata.agjson whole.
  if (!isKnownBlock(block)) return { type: "text", text: JSON.stringify(block) };
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
    case "file":
    case "document": {
      const source = block.source;
      if (!isKnownSource(source)) return { type: "text", text: JSON.stringify(block) };
      if (block.type === "image") return { type: "image", source: toPartSource(source) };
      if (block.type === "audio") return { type: "audio", source: toPartSource(source) };
      // §2: video travels as a `file` block with a video/* media type; AG-UI has a video part.
      if (block.type === "file" && source.mediaType !== undefined && source.mediaType.startsWith("video/"))
        return { type: "video", source: toPartSource(source) };
      return { type: "document", source: toPartSource(source) };
    }
    default:
      // No AG-UI part holds it: a readable text rendering, the block itself rides metadata.agjson.
      return { type: "text", text: JSON.stringify(block) };
  }
}

/**
 * AG-UI content for `blocks`: one text block becomes a plain string (the form every AG-UI client
 * renders), anything else an ordered part list. `exact` is false when a block or a field of one
 * has no AG-UI slot.
 */
export function toAgUiContent(blocks: readonly L.AgBlock[]): AgUiContent {
  if (blocks.length === 0) return { content: "", exact: true };
  const parts = blocks.map(toPart);
  // Inexact: a field without a part slot, or a non-text block read as text (toPart's fallback, e.g.
  // a media block whose source type a later minor added).
  const exact = blocks.every((b, i) => onlyKeys(b, PART_KEYS[b.type]) && (b.type === "text" || parts[i]?.type !== "text"));
  const only = blocks[0];
  if (blocks.length === 1 && only !== undefined && isKnownBlock(only) && only.type === "text") return { content: only.text, exact };
  return { content: parts, exact };
}

/**
 * The §2 blocks of AG-UI content, read structurally (it may come from an untrusted peer): a string
 * is one text block (the empty string none); a part AG-UI 1.0 does not define, or one whose source
 * is malformed, is kept as a `provider-raw` block rather than dropped.
 */
export function fromAgUiContent(content: unknown): AgBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content))
    return content === undefined || content === null ? [] : [{ type: "provider-raw", vendor: "ag-ui", raw: content }];
  return content.map((part: unknown): AgBlock => {
    if (isRecord(part)) {
      if (part.type === "text" && typeof part.text === "string") return { type: "text", text: part.text };
      const source = fromPartSource(part.source);
      if (source !== undefined) {
        if (part.type === "image") return { type: "image", source };
        if (part.type === "audio") return { type: "audio", source };
        if (part.type === "video") return { type: "file", source };
        if (part.type === "document") return { type: "document", source };
      }
    }
    return { type: "provider-raw", vendor: "ag-ui", raw: part ?? null };
  });
}

/** The text of AG-UI content (parts other than text contribute nothing). */
export function agUiContentText(content: string | readonly ContentPart[] | undefined): string {
  if (content === undefined) return "";
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : "")).join("");
}
