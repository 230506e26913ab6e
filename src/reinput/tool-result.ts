/**
 * The model-facing part of a tool result (§2.1, §10 item 3): `content` and `structuredContent`
 * reach the model; `uiData` and `sideData` never do; an MCP `pendingInput.requestState` is the
 * MCP server's continuation (§3.1), not the model's. Shared by every target.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import type { PlacedResult } from "./conversation.js";
import { stringifyExact } from "../wire/exact-numbers.js";
import type { Reporter } from "./report.js";

/** The channels of one result that reach the model. */
export interface ModelFacingResult {
  /**
   * The `content` blocks a target can read, in order, each with its index in `content` (the report's
   * `content[i]`). A block of a type a later minor added (§0.2, §12) is reported here, once for every
   * target, and is not among them.
   */
  content: Array<{ block: Lenient.AgKnownBlock; index: number }>;
  /** `structuredContent`, when present (the structured form; §2.1 "always reaches the model"). */
  structured?: unknown;
  /** True for outcome error or denied (or isError). */
  isError: boolean;
  /** Text to send when the result has no content of its own (errorText, a denial). */
  fallbackText?: string;
}

/** Reads a result's model-facing channels and reports the channels that stay behind. */
export function modelFacing(r: PlacedResult, report: Reporter): ModelFacingResult {
  const block: Lenient.AgToolResultBlock = r.block;
  for (const field of ["uiData", "sideData"] as const) {
    if (block[field] !== undefined) {
      report.dropped("model-hidden-channel", r, `${field} never reaches the model (§2.1); it stays with the host.`, field);
    }
  }
  if (block.pendingInput?.requestState !== undefined) {
    report.dropped(
      "server-continuation",
      r,
      "pendingInput.requestState is the MCP server's continuation (§3.1): it is echoed to the MCP server on resume, never sent to the model.",
      "pendingInput",
    );
  }
  const isError = block.outcome === "error" || block.outcome === "denied" || Boolean(block.isError);
  const content: ModelFacingResult["content"] = [];
  block.content.forEach((b, index) => {
    if (isKnownBlock(b)) content.push({ block: b, index });
    else
      report.dropped(
        "unsupported-block",
        r,
        `A "${b.type}" block of the result is of a type this version does not know (§0.2, §12); it was left out.`,
        `content[${index}]`,
      );
  });
  const out: ModelFacingResult = { content, isError };
  if (block.structuredContent !== undefined) out.structured = block.structuredContent;
  // Nothing of the result's own reaches the model: the error text or the denial stands in for it.
  if (content.length === 0 && block.structuredContent === undefined) {
    if (block.outcome === "error") out.fallbackText = block.errorText;
    else if (block.outcome === "denied") out.fallbackText = "The tool call was denied.";
  }
  return out;
}

/**
 * The structured channel as JSON text for a target with no structured slot, or undefined when a
 * text block of `content` already carries the same JSON (the MCP convention: a server that returns
 * structuredContent SHOULD also return it serialized as text).
 */
export function structuredAsText(result: ModelFacingResult): string | undefined {
  if (result.structured === undefined) return undefined;
  const text = stringifyExact(result.structured);
  // Compared as doubles: a text block holding the same JSON up to a number's rounding already
  // carries it to the model (and holds its own text of that number).
  const doubles = JSON.stringify(result.structured);
  for (const { block: b } of result.content) {
    if (b.type !== "text") continue;
    if (b.text === text) return undefined;
    try {
      if (JSON.stringify(JSON.parse(b.text)) === doubles) return undefined;
    } catch {
      // not JSON: not the serialized structured content
    }
  }
  return text;
}

/**
 * A block the target cannot carry as itself, as text the model can still read (code output, data,
 * a resource), or undefined when it has no readable form. Blocks of a type a later minor added
 * never reach it: the plan and {@link modelFacing} leave them out (§0.2, §12).
 */
export function blockAsText(block: Lenient.AgKnownBlock): string | undefined {
  switch (block.type) {
    case "text":
      return block.text;
    case "code":
      return block.code;
    case "code-result":
      return block.output;
    case "data":
      return stringifyExact(block.data);
    case "resource":
      return block.resource.text;
    case "resource-link":
      return block.uri;
    case "search-result":
      return [block.title, block.url].filter((x) => x !== undefined).join(" — ") || undefined;
    default:
      return undefined;
  }
}
