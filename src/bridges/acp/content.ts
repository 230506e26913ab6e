/**
 * Content between AgJSON blocks (§2) and ACP content blocks (MCP-shaped: text, image, audio,
 * resource_link, resource), both directions: a prompt's blocks become the user AgMessage, an
 * output block becomes a message chunk or tool-call content.
 */
// Types come in with resolution-mode "import" (as import types: Biome parses those, not the
// attribute on an `import type` statement): the SDK is ESM-only, and the declarations ship as
// CommonJS ones (dist/cjs), where a plain import of it fails to compile (TS1479/TS1541).
type ContentBlock = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).ContentBlock;
type PlanEntry = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).PlanEntry;
type PlanEntryPriority = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).PlanEntryPriority;
type PlanEntryStatus = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).PlanEntryStatus;
import type { AgBlock, AgJsonValue } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import { isKnownBlock, isKnownSource } from "../../../generated/schema-facts.js";
import { isRecord } from "../../json-guards.js";

/** One ACP prompt block as an AgBlock (§3.2: the user message's content). */
export function agBlockOf(block: ContentBlock): AgBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", source: { type: "base64", mediaType: block.mimeType, data: block.data } };
    case "audio":
      return { type: "audio", source: { type: "base64", mediaType: block.mimeType, data: block.data } };
    case "resource_link":
      return {
        type: "resource-link",
        uri: block.uri,
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
        ...(block.name !== block.uri ? { _meta: { "acp/name": block.name } } : {}),
      };
    case "resource": {
      const r = block.resource;
      return {
        type: "resource",
        resource: { uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...("text" in r ? { text: r.text } : { blob: r.blob }) },
      };
    }
  }
}

/**
 * An output AgBlock as ACP content, or undefined when ACP has no content type for it (then the
 * caller sends it as an `_agjson/event`) — as for a block or source of a type a later minor added
 * (§0.2, §12). Code and code results render as fenced text.
 */
export function acpContentOf(block: L.AgBlock): ContentBlock | undefined {
  if (!isKnownBlock(block)) return undefined;
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "code":
      return { type: "text", text: `\`\`\`${block.language}\n${block.code}\n\`\`\`` };
    case "code-result":
      return {
        type: "text",
        text: `\`\`\`${block.outcome === "ok" ? "" : ` ${block.outcome}`}\n${block.output}\n\`\`\``.replace("``` ", "```"),
      };
    case "image":
    case "audio":
    case "file":
    case "document": {
      const s = block.source;
      if (!isKnownSource(s)) return undefined;
      if (s.type === "base64" && (block.type === "image" || block.type === "audio"))
        return { type: block.type, data: s.data, mimeType: s.mediaType };
      if (s.type === "base64")
        return { type: "resource", resource: { uri: `data:${s.mediaType};base64,`, mimeType: s.mediaType, blob: s.data } };
      if (s.type === "url") {
        const name = block.type === "file" ? (block.filename ?? s.url) : block.type === "document" ? (block.title ?? s.url) : s.url;
        return { type: "resource_link", uri: s.url, name, ...(s.mediaType ? { mimeType: s.mediaType } : {}) };
      }
      return undefined;
    }
    case "resource": {
      const r = block.resource;
      // §13.3, §6 Pattern 1a: an MCP Apps surface's `_meta.ui` (its csp above all) is what the host
      // enforces when it renders the HTML; AgJSON only carries it, so it crosses with the resource.
      const meta = r._meta !== undefined ? { _meta: r._meta } : {};
      if (r.text !== undefined)
        return { type: "resource", resource: { uri: r.uri, text: r.text, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...meta } };
      if (r.blob !== undefined)
        return { type: "resource", resource: { uri: r.uri, blob: r.blob, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...meta } };
      return { type: "resource_link", uri: r.uri, name: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), ...meta };
    }
    case "resource-link":
      return { type: "resource_link", uri: block.uri, name: block.uri, ...(block.mimeType ? { mimeType: block.mimeType } : {}) };
    case "search-result":
      return block.url !== undefined ? { type: "resource_link", uri: block.url, name: block.title ?? block.url } : undefined;
    default:
      return undefined;
  }
}

const PRIORITIES: readonly PlanEntryPriority[] = ["high", "medium", "low"];
const STATUSES: readonly PlanEntryStatus[] = ["pending", "in_progress", "completed"];

/**
 * The ACP plan carried by a `data` block named "plan" (the agjson convention, docs/bridges/acp.md):
 * `{entries: [...]}` or the bare array, each entry a string or `{content, priority?, status?}`.
 * Undefined when the data has another shape.
 */
export function planEntriesOf(data: AgJsonValue): PlanEntry[] | undefined {
  const entries: unknown = isRecord(data) ? data.entries : undefined;
  const list: unknown = Array.isArray(data) ? data : entries;
  if (!Array.isArray(list)) return undefined;
  const out: PlanEntry[] = [];
  for (const e of list) {
    if (typeof e === "string") {
      out.push({ content: e, priority: "medium", status: "pending" });
      continue;
    }
    if (!isRecord(e) || typeof e.content !== "string") return undefined;
    const priority = PRIORITIES.find((p) => p === e.priority) ?? "medium";
    const status = STATUSES.find((s) => s === e.status) ?? "pending";
    out.push({ content: e.content, priority, status });
  }
  return out;
}
