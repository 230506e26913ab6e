/**
 * AgMessage[] → Anthropic Messages request (`system` + `messages`). Replay blobs go back
 * byte-identical (§10 item 13, §13.2): the reasoning block's `opaque` as the `thinking.signature`
 * or the `redacted_thinking.data`, web-search `encrypted_content` (search-result `opaque`) and
 * `encrypted_index` (citation `encryptedIndex`), and the server-tool blocks the facet recorded.
 * The request types below are structural (no SDK import); `sdk-types.test-d.ts` checks them against
 * `@anthropic-ai/sdk`.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { isKnownBlock, isKnownCitation, isKnownSource } from "../../generated/schema-facts.js";
import {
  messagesOf,
  ownsBlobs,
  planConversation,
  type PlacedBlock,
  type PlacedResult,
  type ReinputOptions,
  type ReinputResult,
} from "./conversation.js";
import { IdMapper } from "./ids.js";
import { Reporter } from "./report.js";
import { isJsonObject } from "./opaque-json.js";
import { blockAsText, modelFacing, structuredAsText } from "./tool-result.js";
import { isRecord } from "../json-guards.js";

/** Anthropic citation params (the five location kinds). */
export type AnthropicCitation =
  | {
      type: "char_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_char_index: number;
      end_char_index: number;
    }
  | {
      type: "page_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_page_number: number;
      end_page_number: number;
    }
  | {
      type: "content_block_location";
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_block_index: number;
      end_block_index: number;
    }
  | { type: "web_search_result_location"; cited_text: string; encrypted_index: string; title: string | null; url: string }
  | {
      type: "search_result_location";
      cited_text: string;
      search_result_index: number;
      source: string;
      start_block_index: number;
      end_block_index: number;
      title: string | null;
    };

export interface AnthropicTextBlock {
  type: "text";
  text: string;
  citations?: AnthropicCitation[];
}

export type AnthropicImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export interface AnthropicImageBlock {
  type: "image";
  source:
    | { type: "base64"; media_type: AnthropicImageMediaType; data: string }
    | { type: "url"; url: string }
    | { type: "file"; file_id: string };
}

export interface AnthropicDocumentBlock {
  type: "document";
  source:
    | { type: "base64"; media_type: "application/pdf"; data: string }
    | { type: "text"; media_type: "text/plain"; data: string }
    | { type: "url"; url: string }
    | { type: "file"; file_id: string };
  title?: string;
}

export interface AnthropicThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

/** Who called a tool (programmatic tool calling), echoed from the call's providerMetadata. */
export type AnthropicCaller = { type: "direct" } | { type: "code_execution_20250825" | "code_execution_20260120"; tool_id: string };

export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  caller?: AnthropicCaller;
}

export type AnthropicServerToolName =
  | "advisor"
  | "web_search"
  | "web_fetch"
  | "code_execution"
  | "bash_code_execution"
  | "text_editor_code_execution"
  | "tool_search_tool_regex"
  | "tool_search_tool_bm25";

/** A server tool call; `advisor` is a beta tool (the stable SDK's ServerToolUseBlockParam names the others). */
export interface AnthropicServerToolUseBlock<Name extends AnthropicServerToolName = AnthropicServerToolName> {
  type: "server_tool_use";
  id: string;
  name: Name;
  input: unknown;
  caller?: AnthropicCaller;
}

export interface AnthropicWebSearchResultBlock {
  type: "web_search_result";
  url: string;
  title: string;
  encrypted_content: string;
  page_age?: string | null;
}

export type AnthropicWebSearchErrorCode =
  | "invalid_tool_input"
  | "unavailable"
  | "max_uses_exceeded"
  | "too_many_requests"
  | "query_too_long"
  | "request_too_large";

export interface AnthropicWebSearchToolResultBlock {
  type: "web_search_tool_result";
  tool_use_id: string;
  content: AnthropicWebSearchResultBlock[] | { type: "web_search_tool_result_error"; error_code: AnthropicWebSearchErrorCode };
  caller?: AnthropicCaller;
}

export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
}

/** The error codes of a code-execution or tool-search result (bash and the text editor add one each); `unavailable` is in every set. */
export type AnthropicCodeExecutionErrorCode = "invalid_tool_input" | "unavailable" | "too_many_requests" | "execution_time_exceeded";

export type AnthropicWebFetchErrorCode =
  | "invalid_tool_input"
  | "url_too_long"
  | "url_not_allowed"
  | "url_not_in_prior_context"
  | "url_not_accessible"
  | "unsupported_content_type"
  | "too_many_requests"
  | "max_uses_exceeded"
  | "unavailable"
  | "content_too_large";

export type AnthropicAdvisorErrorCode =
  | "max_uses_exceeded"
  | "prompt_too_long"
  | "too_many_requests"
  | "overloaded"
  | "unavailable"
  | "execution_time_exceeded"
  | "model_not_found";

/** A fetched page as the web-fetch result carries it: a document block (its title, citations, … ride along as recorded). */
export interface AnthropicWebFetchResult {
  type: "web_fetch_result";
  url: string;
  content: { type: "document"; source: AnthropicDocumentBlock["source"] };
}

export interface AnthropicWebFetchToolResultBlock {
  type: "web_fetch_tool_result";
  tool_use_id: string;
  content: { type: "web_fetch_tool_result_error"; error_code: AnthropicWebFetchErrorCode } | AnthropicWebFetchResult;
}

/** A file the code produced, by its Files API id. */
export interface AnthropicCodeExecutionOutput<Type extends string> {
  type: Type;
  file_id: string;
}

export interface AnthropicCodeExecutionToolResultBlock {
  type: "code_execution_tool_result";
  tool_use_id: string;
  content:
    | { type: "code_execution_tool_result_error"; error_code: AnthropicCodeExecutionErrorCode }
    | {
        type: "code_execution_result";
        stdout: string;
        stderr: string;
        return_code: number;
        content: AnthropicCodeExecutionOutput<"code_execution_output">[];
      }
    | {
        type: "encrypted_code_execution_result";
        encrypted_stdout: string;
        stderr: string;
        return_code: number;
        content: AnthropicCodeExecutionOutput<"code_execution_output">[];
      };
}

export interface AnthropicBashCodeExecutionToolResultBlock {
  type: "bash_code_execution_tool_result";
  tool_use_id: string;
  content:
    | {
        type: "bash_code_execution_tool_result_error";
        error_code: AnthropicCodeExecutionErrorCode | "output_file_too_large";
      }
    | {
        type: "bash_code_execution_result";
        stdout: string;
        stderr: string;
        return_code: number;
        content: AnthropicCodeExecutionOutput<"bash_code_execution_output">[];
      };
}

export interface AnthropicTextEditorCodeExecutionToolResultBlock {
  type: "text_editor_code_execution_tool_result";
  tool_use_id: string;
  content:
    | { type: "text_editor_code_execution_tool_result_error"; error_code: AnthropicCodeExecutionErrorCode | "file_not_found" }
    | { type: "text_editor_code_execution_view_result"; content: string; file_type: "text" | "image" | "pdf" }
    | { type: "text_editor_code_execution_create_result"; is_file_update: boolean }
    | { type: "text_editor_code_execution_str_replace_result" };
}

export interface AnthropicToolSearchToolResultBlock {
  type: "tool_search_tool_result";
  tool_use_id: string;
  content:
    | { type: "tool_search_tool_result_error"; error_code: AnthropicCodeExecutionErrorCode }
    | { type: "tool_search_tool_search_result"; tool_references: Array<{ type: "tool_reference"; tool_name: string }> };
}

/** The advisor's answer (a beta server tool). */
export interface AnthropicAdvisorToolResultBlock {
  type: "advisor_tool_result";
  tool_use_id: string;
  content:
    | { type: "advisor_tool_result_error"; error_code: AnthropicAdvisorErrorCode }
    | { type: "advisor_result"; text: string }
    | { type: "advisor_redacted_result"; encrypted_content: string };
}

/** A call of a remote MCP server the MCP connector ran (beta). */
export interface AnthropicMcpToolUseBlock {
  type: "mcp_tool_use";
  id: string;
  name: string;
  server_name: string;
  input: unknown;
}

/** The MCP connector's result (beta). */
export interface AnthropicMcpToolResultBlock {
  type: "mcp_tool_result";
  tool_use_id: string;
  content: string | Array<{ type: "text"; text: string }>;
  is_error: boolean;
}

/** A compaction summary Anthropic wrote (beta). */
export interface AnthropicCompactionBlock {
  type: "compaction";
  content: string;
}

/**
 * The server-tool result blocks replayed from what the facet recorded (the result's native
 * `content` on structuredContent, its other fields on providerMetadata, which ride along as
 * recorded): web fetch, code execution, tool search, advisor, MCP connector.
 */
export type AnthropicVerbatimBlock =
  | AnthropicWebFetchToolResultBlock
  | AnthropicCodeExecutionToolResultBlock
  | AnthropicBashCodeExecutionToolResultBlock
  | AnthropicTextEditorCodeExecutionToolResultBlock
  | AnthropicToolSearchToolResultBlock
  | AnthropicAdvisorToolResultBlock
  | AnthropicMcpToolResultBlock;

/** The blocks only the beta Messages API types (`client.beta.messages`): MCP connector, compaction, advisor. */
export type AnthropicBetaOnlyBlock =
  | AnthropicMcpToolUseBlock
  | AnthropicMcpToolResultBlock
  | AnthropicCompactionBlock
  | AnthropicAdvisorToolResultBlock
  | AnthropicServerToolUseBlock<"advisor">;

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicServerToolUseBlock
  | AnthropicWebSearchToolResultBlock
  | AnthropicToolResultBlock
  | AnthropicVerbatimBlock
  | AnthropicMcpToolUseBlock
  | AnthropicCompactionBlock;

/** The blocks the stable Messages API types (`client.messages`): every block but the beta-only ones. */
export type AnthropicStableContentBlock =
  | Exclude<AnthropicContentBlock, AnthropicBetaOnlyBlock | AnthropicServerToolUseBlock>
  | AnthropicServerToolUseBlock<Exclude<AnthropicServerToolName, "advisor">>;

export interface AnthropicMessageParam<Block = AnthropicContentBlock> {
  role: "user" | "assistant";
  content: Block[];
}

/**
 * The request fragment: spread it into `client.beta.messages.create({ model, max_tokens, ...request })`,
 * or, when `isAnthropicStableRequest(request)`, into `client.messages.create(…)`.
 */
export interface AnthropicRequest {
  system?: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
}

/** A request with no beta-only block: what the stable `client.messages.create` is typed to take. */
export interface AnthropicStableRequest extends AnthropicRequest {
  messages: AnthropicMessageParam<AnthropicStableContentBlock>[];
}

const BETA_ONLY_TYPES: ReadonlySet<string> = new Set(["mcp_tool_use", "mcp_tool_result", "compaction", "advisor_tool_result"]);

function isStableBlock(b: AnthropicContentBlock): b is AnthropicStableContentBlock {
  if (b.type === "server_tool_use") return b.name !== "advisor";
  return !BETA_ONLY_TYPES.has(b.type);
}

/**
 * Whether `request` holds no beta-only block (MCP connector, compaction, advisor), so the stable
 * `client.messages.create` takes it; otherwise `client.beta.messages.create` does. The SDK types
 * those blocks on its beta client only, the API takes them on the same endpoint.
 */
export function isAnthropicStableRequest(request: AnthropicRequest): request is AnthropicStableRequest {
  return request.messages.every((m) => m.content.every(isStableBlock));
}

const SERVER_TOOLS = new Set<string>([
  "advisor",
  "web_search",
  "web_fetch",
  "code_execution",
  "bash_code_execution",
  "text_editor_code_execution",
  "tool_search_tool_regex",
  "tool_search_tool_bm25",
]);
const WEB_SEARCH_ERRORS = new Set<string>([
  "invalid_tool_input",
  "unavailable",
  "max_uses_exceeded",
  "too_many_requests",
  "query_too_long",
  "request_too_large",
]);

/** Lenient.AgMessage[] (or the Lenient.AgReduceResult reduce() returns) → Anthropic `system` + `messages`, with the report. */
export function toAnthropic(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: ReinputOptions = {},
): ReinputResult<AnthropicRequest> {
  const report = new Reporter();
  const ids = new IdMapper({ allowed: "A-Za-z0-9_-", maxLength: 64, describe: "Anthropic tool ids match ^[a-zA-Z0-9_-]{1,64}$" }, report);
  const plan = planConversation(messagesOf(input), "anthropic", opts, report);
  const system: AnthropicTextBlock[] = [];
  const messages: AnthropicMessageParam[] = [];
  const dropped = new Set<string>();
  let seenTurn = false;

  const push = (role: "user" | "assistant", content: AnthropicContentBlock[]): void => {
    const last = messages[messages.length - 1];
    // Consecutive turns of one role are one Anthropic message (tool results first, as required).
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };

  for (const seg of plan) {
    if (seg.kind === "system") {
      if (seenTurn) report.changed("system-hoisted", seg.at, "Anthropic has one system prompt: this system message was moved to `system`.");
      for (const p of seg.blocks) {
        const text = blockAsText(p.block);
        if (text !== undefined && text !== "") system.push({ type: "text", text });
        else report.dropped("unsupported-block", p, `A ${p.block.type} block has no place in the Anthropic system prompt.`);
      }
      continue;
    }
    seenTurn = true;
    if (seg.kind === "results") {
      push(
        "user",
        seg.results.map((r) => toolResult(r, ids, report)),
      );
      continue;
    }
    const content: AnthropicContentBlock[] = [];
    for (const p of seg.blocks) {
      const b = seg.kind === "assistant" ? assistantBlock(p, ids, report, dropped) : userBlock(p, report);
      if (b !== undefined) content.push(b);
    }
    if (content.length === 0) {
      report.dropped("empty-message", seg.at, `Message "${seg.at.messageId}" has nothing Anthropic can carry; it was left out.`);
      continue;
    }
    push(seg.kind, content);
  }
  const request: AnthropicRequest = { messages };
  if (system.length > 0) request.system = system;
  return { request, report: report.entries };
}

/** A user-side block: text, image, document; other readable blocks as text. */
function userBlock(p: PlacedBlock, report: Reporter): AnthropicContentBlock | undefined {
  const b = p.block;
  switch (b.type) {
    case "text":
      if (b.text === "") {
        report.dropped("unsupported-block", p, "Anthropic rejects an empty text block.");
        return undefined;
      }
      return { type: "text", text: b.text };
    case "image":
    case "file":
    case "document":
      return media(p, b.source, b.type === "document" ? b.title : undefined, report);
    default:
      return asText(p, report);
  }
}

/** A block with no Anthropic form of its own, sent as readable text (reported), or dropped. */
function asText(p: PlacedBlock, report: Reporter): AnthropicTextBlock | undefined {
  const b = p.block;
  const text = b.type === "data" || b.type === "provider-raw" || b.type === "reasoning" ? undefined : blockAsText(b);
  if (text === undefined || text === "") {
    report.dropped("unsupported-block", p, `Anthropic has no input form for a ${b.type} block.`);
    return undefined;
  }
  report.changed("converted-block", p, `A ${b.type} block was sent as text.`);
  return { type: "text", text };
}

/** An AgSource as an Anthropic image or document block, by media type. */
function media(
  p: PlacedBlock,
  source: Lenient.AgSource,
  title: string | undefined,
  report: Reporter,
): AnthropicImageBlock | AnthropicDocumentBlock | undefined {
  if (!isKnownSource(source)) {
    report.dropped(
      "unsupported-block",
      p,
      `A "${source.type}" source is of a type this version does not know (§0.2, §12); Anthropic gets no form of it.`,
    );
    return undefined;
  }
  const mediaType = source.mediaType ?? "";
  const imageType = imageMediaType(mediaType);
  if (p.block.type === "image" || imageType !== undefined) {
    if (source.type === "base64") {
      if (imageType === undefined) {
        report.dropped("unsupported-block", p, `Anthropic accepts base64 images of image/jpeg, png, gif and webp, not "${mediaType}".`);
        return undefined;
      }
      return { type: "image", source: { type: "base64", media_type: imageType, data: source.data } };
    }
    return { type: "image", source: source.type === "url" ? { type: "url", url: source.url } : { type: "file", file_id: source.fileId } };
  }
  let doc: AnthropicDocumentBlock | undefined;
  if (source.type === "url") doc = { type: "document", source: { type: "url", url: source.url } };
  else if (source.type === "file") doc = { type: "document", source: { type: "file", file_id: source.fileId } };
  else if (mediaType === "application/pdf")
    doc = { type: "document", source: { type: "base64", media_type: "application/pdf", data: source.data } };
  else if (mediaType.startsWith("text/")) {
    const text = base64Utf8(source.data);
    if (text === undefined) {
      report.dropped("unsupported-block", p, `its ${mediaType} data is not base64, so there is no text to send Anthropic.`);
      return undefined;
    }
    doc = { type: "document", source: { type: "text", media_type: "text/plain", data: text } };
  }
  if (doc === undefined) {
    report.dropped("unsupported-block", p, `Anthropic has no input form for a ${p.block.type} of "${mediaType}".`);
    return undefined;
  }
  const name = title ?? (p.block.type === "file" ? p.block.filename : undefined);
  if (name !== undefined) doc.title = name;
  return doc;
}

function imageMediaType(m: string): AnthropicImageMediaType | undefined {
  return m === "image/jpeg" || m === "image/png" || m === "image/gif" || m === "image/webp" ? m : undefined;
}

/** An assistant-side block; `dropped` collects provider-executed calls whose results must go too. */
function assistantBlock(p: PlacedBlock, ids: IdMapper, report: Reporter, dropped: Set<string>): AnthropicContentBlock | undefined {
  const b = p.block;
  const own = ownsBlobs(p.provider, "anthropic");
  switch (b.type) {
    case "text": {
      if (b.text === "") {
        report.dropped("unsupported-block", p, "Anthropic rejects an empty text block.");
        return undefined;
      }
      const block: AnthropicTextBlock = { type: "text", text: b.text };
      const citations = (b.citations ?? []).flatMap((c) => citation(c, own));
      if (citations.length < (b.citations?.length ?? 0)) {
        report.dropped(
          "unsupported-block",
          p,
          `${(b.citations?.length ?? 0) - citations.length} citation(s) have no Anthropic location form (or carry another provider's index).`,
          "citations",
        );
      }
      if (citations.length > 0) block.citations = citations;
      return block;
    }
    case "reasoning": {
      if (b.opaque === undefined) {
        report.dropped("reasoning-without-blob", p, "Anthropic verifies thinking by its signature; reasoning without one is not sent.");
        return undefined;
      }
      if (!own) {
        report.dropped("foreign-blob", p, `Reasoning sealed by "${p.provider}" is not sent to Anthropic (§13.2).`, "opaque");
        return undefined;
      }
      if (b.opaque.kind === "redacted") return { type: "redacted_thinking", data: b.opaque.value };
      return { type: "thinking", thinking: b.text ?? "", signature: b.opaque.value };
    }
    case "compaction": {
      if (own && b.provider !== "openai" && b.text !== undefined) return { type: "compaction", content: b.text };
      if (b.text !== undefined && b.text !== "") {
        report.changed("converted-block", p, "A compaction summary of another provider was sent as text.");
        return { type: "text", text: b.text };
      }
      report.dropped("foreign-blob", p, `A compaction blob of "${p.provider}" is not sent to Anthropic (§13.2).`, "opaque");
      return undefined;
    }
    case "tool-call": {
      // Only Gemini signs calls; Anthropic has no slot for it (§13.2: never sent elsewhere).
      if (b.signature !== undefined)
        report.dropped(
          "foreign-blob",
          p,
          `A call signature of "${p.provider ?? "another provider"}" is not sent to Anthropic (§13.2).`,
          "signature",
        );
      const caller = own ? callerOf(b.providerMetadata?.caller) : undefined;
      if (b.providerExecuted === true) {
        if (!own) {
          dropped.add(b.toolCallId);
          report.dropped(
            "provider-executed-tool",
            p,
            `"${b.name}" ran inside "${p.provider}"; Anthropic cannot replay another provider's server tool (its result is dropped too).`,
          );
          return undefined;
        }
        if (b.serverName !== undefined)
          return { type: "mcp_tool_use", id: b.toolCallId, name: b.name, server_name: b.serverName, input: b.input };
        if (!SERVER_TOOLS.has(b.name)) {
          dropped.add(b.toolCallId);
          report.dropped(
            "provider-executed-tool",
            p,
            `Server tool "${b.name}" has no Anthropic server_tool_use form (its result is dropped too).`,
          );
          return undefined;
        }
        const block: AnthropicServerToolUseBlock = {
          type: "server_tool_use",
          id: b.toolCallId,
          name: serverToolName(b.name),
          input: b.input,
        };
        if (caller !== undefined) block.caller = caller;
        return block;
      }
      const block: AnthropicToolUseBlock = {
        type: "tool_use",
        id: ids.map(b.toolCallId, p),
        name: b.name,
        input: objectInput(p, b.input, report),
      };
      if (caller !== undefined) block.caller = caller;
      return block;
    }
    case "tool-result":
      return serverResult(p, b, own, report, dropped);
    case "image":
    case "file":
    case "document":
      report.dropped("unsupported-block", p, `Anthropic assistant turns carry no ${b.type} blocks.`);
      return undefined;
    default:
      return asText(p, report);
  }
}

function serverToolName(name: string): AnthropicServerToolName {
  switch (name) {
    case "advisor":
    case "web_fetch":
    case "code_execution":
    case "bash_code_execution":
    case "text_editor_code_execution":
    case "tool_search_tool_regex":
    case "tool_search_tool_bm25":
      return name;
    default:
      return "web_search";
  }
}

function callerOf(x: unknown): AnthropicCaller | undefined {
  if (!isRecord(x)) return undefined;
  const type = "type" in x ? x.type : undefined;
  if (type === "direct") return { type: "direct" };
  const toolId = "tool_id" in x ? x.tool_id : undefined;
  if ((type === "code_execution_20250825" || type === "code_execution_20260120") && typeof toolId === "string")
    return { type, tool_id: toolId };
  return undefined;
}

/** Anthropic tool input is a JSON object; a raw (unparsable) argument string is wrapped. */
function objectInput(p: PlacedBlock, input: unknown, report: Reporter): unknown {
  if (isJsonObject(input)) return input;
  report.changed("converted-block", p, "Anthropic tool input must be an object: the call's input was sent as { input: <value> }.", "input");
  return { input };
}

/** A provider-executed call's result, rebuilt as the native block the facet recorded. */
function serverResult(
  p: PlacedBlock,
  b: Extract<Lenient.AgBlock, { type: "tool-result" }>,
  own: boolean,
  report: Reporter,
  dropped: Set<string>,
): AnthropicContentBlock | undefined {
  if (dropped.has(b.toolCallId)) return undefined;
  const type = b.providerMetadata?.type;
  if (!own || typeof type !== "string") {
    report.dropped("provider-executed-tool", p, "A server-tool result with no Anthropic form is not sent.");
    return undefined;
  }
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b.providerMetadata ?? {})) if (k !== "type") rest[k] = v;
  if (type === "web_search_tool_result") {
    const caller = callerOf(rest.caller);
    const block: AnthropicWebSearchToolResultBlock = { type, tool_use_id: b.toolCallId, content: [] };
    if (b.outcome === "error") {
      const code = b.errorCode ?? "";
      block.content = {
        type: "web_search_tool_result_error",
        error_code: WEB_SEARCH_ERRORS.has(code) ? webSearchErrorCode(code) : "unavailable",
      };
    } else {
      const results: AnthropicWebSearchResultBlock[] = [];
      for (const [i, r] of b.content.entries()) {
        if (!isKnownBlock(r) || r.type !== "search-result" || r.opaque === undefined || r.url === undefined) continue;
        // §13.2: a result names its own sealer; one sealed by another provider is never sent here,
        // whoever the surrounding result is attributed to.
        if (!ownsBlobs(r.opaque.provider, "anthropic")) {
          report.dropped(
            "foreign-blob",
            p,
            `A search result sealed by "${r.opaque.provider}" is not sent to Anthropic (§13.2).`,
            `content[${i}]`,
          );
          continue;
        }
        const item: AnthropicWebSearchResultBlock = {
          type: "web_search_result",
          url: r.url,
          title: r.title ?? "",
          encrypted_content: r.opaque.value,
        };
        if (r.pageAge !== undefined) item.page_age = r.pageAge;
        results.push(item);
      }
      block.content = results;
    }
    if (caller !== undefined) block.caller = caller;
    return block;
  }
  return verbatimResult(p, b, type, rest, report);
}

const CODE_EXECUTION_ERRORS = ["invalid_tool_input", "unavailable", "too_many_requests", "execution_time_exceeded"] as const;
const WEB_FETCH_ERRORS = [
  "invalid_tool_input",
  "url_too_long",
  "url_not_allowed",
  "url_not_in_prior_context",
  "url_not_accessible",
  "unsupported_content_type",
  "too_many_requests",
  "max_uses_exceeded",
  "unavailable",
  "content_too_large",
] as const;
const ADVISOR_ERRORS = [
  "max_uses_exceeded",
  "prompt_too_long",
  "too_many_requests",
  "overloaded",
  "unavailable",
  "execution_time_exceeded",
  "model_not_found",
] as const;

function isIn<T extends string>(x: unknown, values: readonly T[]): x is T {
  return values.some((v) => v === x);
}

function isString(x: unknown): x is string {
  return typeof x === "string";
}

function isOutputs<T extends string>(x: unknown, type: T): x is AnthropicCodeExecutionOutput<T>[] {
  return Array.isArray(x) && x.every((o) => isRecord(o) && o.type === type && isString(o.file_id));
}

function isDocumentSource(x: unknown): x is AnthropicDocumentBlock["source"] {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "base64":
      return x.media_type === "application/pdf" && isString(x.data);
    case "text":
      return x.media_type === "text/plain" && isString(x.data);
    case "url":
      return isString(x.url);
    case "file":
      return isString(x.file_id);
    default:
      return false;
  }
}

function isWebFetchContent(x: unknown): x is AnthropicWebFetchToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  if (x.type === "web_fetch_tool_result_error") return isIn(x.error_code, WEB_FETCH_ERRORS);
  return (
    x.type === "web_fetch_result" &&
    isString(x.url) &&
    isRecord(x.content) &&
    x.content.type === "document" &&
    isDocumentSource(x.content.source)
  );
}

function isCodeExecutionContent(x: unknown): x is AnthropicCodeExecutionToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "code_execution_tool_result_error":
      return isIn(x.error_code, CODE_EXECUTION_ERRORS);
    case "code_execution_result":
      return isString(x.stdout) && isString(x.stderr) && typeof x.return_code === "number" && isOutputs(x.content, "code_execution_output");
    case "encrypted_code_execution_result":
      return (
        isString(x.encrypted_stdout) &&
        isString(x.stderr) &&
        typeof x.return_code === "number" &&
        isOutputs(x.content, "code_execution_output")
      );
    default:
      return false;
  }
}

function isBashContent(x: unknown): x is AnthropicBashCodeExecutionToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  if (x.type === "bash_code_execution_tool_result_error") return isIn(x.error_code, [...CODE_EXECUTION_ERRORS, "output_file_too_large"]);
  return (
    x.type === "bash_code_execution_result" &&
    isString(x.stdout) &&
    isString(x.stderr) &&
    typeof x.return_code === "number" &&
    isOutputs(x.content, "bash_code_execution_output")
  );
}

function isTextEditorContent(x: unknown): x is AnthropicTextEditorCodeExecutionToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "text_editor_code_execution_tool_result_error":
      return isIn(x.error_code, [...CODE_EXECUTION_ERRORS, "file_not_found"]);
    case "text_editor_code_execution_view_result":
      return isString(x.content) && isIn(x.file_type, ["text", "image", "pdf"]);
    case "text_editor_code_execution_create_result":
      return typeof x.is_file_update === "boolean";
    case "text_editor_code_execution_str_replace_result":
      return true;
    default:
      return false;
  }
}

function isToolSearchContent(x: unknown): x is AnthropicToolSearchToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  if (x.type === "tool_search_tool_result_error") return isIn(x.error_code, CODE_EXECUTION_ERRORS);
  return (
    x.type === "tool_search_tool_search_result" &&
    Array.isArray(x.tool_references) &&
    x.tool_references.every((r) => isRecord(r) && r.type === "tool_reference" && isString(r.tool_name))
  );
}

function isAdvisorContent(x: unknown): x is AnthropicAdvisorToolResultBlock["content"] {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "advisor_tool_result_error":
      return isIn(x.error_code, ADVISOR_ERRORS);
    case "advisor_result":
      return isString(x.text);
    case "advisor_redacted_result":
      return isString(x.encrypted_content);
    default:
      return false;
  }
}

function isMcpContent(x: unknown): x is AnthropicMcpToolResultBlock["content"] {
  return isString(x) || (Array.isArray(x) && x.every((t) => isRecord(t) && t.type === "text" && isString(t.text)));
}

/**
 * A server-tool result replayed from what the facet recorded: the native `content` it kept on
 * structuredContent, the block's other fields (providerMetadata) riding along as recorded. A
 * content the API does not take back under that block type (a shape or error code it does not
 * know) would make the whole request a 400: it goes back as that tool's `unavailable` error, as
 * an unknown web-search error code does, and is reported.
 */
function verbatimResult(
  p: PlacedBlock,
  b: Extract<Lenient.AgBlock, { type: "tool-result" }>,
  type: string,
  rest: Record<string, unknown>,
  report: Reporter,
): AnthropicVerbatimBlock | undefined {
  const content = b.structuredContent;
  const tool_use_id = b.toolCallId;
  const unavailable = (): "unavailable" => {
    report.changed(
      "converted-block",
      p,
      `The recorded ${type} content is no form Anthropic takes back: it was sent as the tool's "unavailable" error.`,
      "structuredContent",
    );
    return "unavailable";
  };
  switch (type) {
    case "web_fetch_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isWebFetchContent(content) ? content : { type: "web_fetch_tool_result_error", error_code: unavailable() },
      };
    case "code_execution_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isCodeExecutionContent(content) ? content : { type: "code_execution_tool_result_error", error_code: unavailable() },
      };
    case "bash_code_execution_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isBashContent(content) ? content : { type: "bash_code_execution_tool_result_error", error_code: unavailable() },
      };
    case "text_editor_code_execution_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isTextEditorContent(content)
          ? content
          : { type: "text_editor_code_execution_tool_result_error", error_code: unavailable() },
      };
    case "tool_search_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isToolSearchContent(content) ? content : { type: "tool_search_tool_result_error", error_code: unavailable() },
      };
    case "advisor_tool_result":
      return {
        ...rest,
        type,
        tool_use_id,
        content: isAdvisorContent(content) ? content : { type: "advisor_tool_result_error", error_code: unavailable() },
      };
    case "mcp_tool_result": {
      // MCP content is text: the native form when the facet kept one, else the result's text items.
      const items = b.content.flatMap((c) => (isKnownBlock(c) && c.type === "text" ? [{ type: "text" as const, text: c.text }] : []));
      // isError is derived from outcome (§2, §2.2): an error outcome without the flag is still an error.
      const is_error = b.outcome === "error" || b.isError === true;
      return { ...rest, type, tool_use_id, content: isMcpContent(content) ? content : items, is_error };
    }
    default:
      report.dropped("provider-executed-tool", p, `Server-tool result "${type}" has no Anthropic replay form.`);
      return undefined;
  }
}

function webSearchErrorCode(code: string): AnthropicWebSearchErrorCode {
  switch (code) {
    case "invalid_tool_input":
    case "max_uses_exceeded":
    case "too_many_requests":
    case "query_too_long":
    case "request_too_large":
      return code;
    default:
      return "unavailable";
  }
}

/** AgCitation → Anthropic citation; the web-search form needs Anthropic's own encrypted index. */
function citation(c: Lenient.AgCitation, own: boolean): AnthropicCitation[] {
  // A citation kind a later minor added (§0.2, §12) has no Anthropic form: it is not sent.
  if (!isKnownCitation(c)) return [];
  const title = c.title ?? null;
  switch (c.kind) {
    case "url":
      return own && c.encryptedIndex !== undefined
        ? [{ type: "web_search_result_location", cited_text: c.citedText, encrypted_index: c.encryptedIndex, title, url: c.url }]
        : [];
    case "char":
      return [
        {
          type: "char_location",
          cited_text: c.citedText,
          document_index: c.documentIndex,
          document_title: title,
          start_char_index: c.startCharIndex,
          end_char_index: c.endCharIndex,
        },
      ];
    case "page":
      return [
        {
          type: "page_location",
          cited_text: c.citedText,
          document_index: c.documentIndex,
          document_title: title,
          start_page_number: c.startPage,
          end_page_number: c.endPage,
        },
      ];
    case "block":
      return c.source !== undefined
        ? [
            {
              type: "search_result_location",
              cited_text: c.citedText,
              search_result_index: c.documentIndex,
              source: c.source,
              start_block_index: c.startBlockIndex,
              end_block_index: c.endBlockIndex,
              title,
            },
          ]
        : [
            {
              type: "content_block_location",
              cited_text: c.citedText,
              document_index: c.documentIndex,
              document_title: title,
              start_block_index: c.startBlockIndex,
              end_block_index: c.endBlockIndex,
            },
          ];
    case "offset":
      return [];
  }
}

/** A client tool result as a `tool_result` block (§2.1 routing). */
function toolResult(r: PlacedResult, ids: IdMapper, report: Reporter): AnthropicToolResultBlock {
  const facing = modelFacing(r, report);
  const content: Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock> = [];
  facing.content.forEach(({ block: b, index: i }) => {
    const at = { ...r, blockType: b.type, field: `content[${i}]` };
    if (b.type === "text") {
      if (b.text !== "") content.push({ type: "text", text: b.text });
      return;
    }
    if (b.type === "image" || b.type === "file" || b.type === "document") {
      const m = media({ ...at, block: b }, b.source, b.type === "document" ? b.title : undefined, report);
      if (m !== undefined) content.push(m);
      return;
    }
    const text = blockAsText(b);
    if (text !== undefined && text !== "") {
      report.changed("converted-block", r, `A ${b.type} block of the result was sent as text.`, `content[${i}]`);
      content.push({ type: "text", text });
    } else report.dropped("unsupported-block", r, `A ${b.type} block of the result has no Anthropic form.`, `content[${i}]`);
  });
  const structured = structuredAsText(facing);
  if (structured !== undefined) {
    report.changed(
      "structured-as-text",
      r,
      "Anthropic tool results have no structured slot: structuredContent was sent as JSON text.",
      "structuredContent",
    );
    content.push({ type: "text", text: structured });
  }
  if (content.length === 0 && facing.fallbackText !== undefined) content.push({ type: "text", text: facing.fallbackText });
  const block: AnthropicToolResultBlock = { type: "tool_result", tool_use_id: ids.map(r.block.toolCallId, r) };
  if (content.length > 0) block.content = content;
  if (facing.isError) block.is_error = true;
  return block;
}

/**
 * Base64 text as the UTF-8 it encodes (invalid sequences as U+FFFD), with what browsers and Node
 * both have: re-input runs in a browser too (docs/api.md), where there is no `Buffer`. Undefined
 * for data that is not base64.
 */
function base64Utf8(data: string): string | undefined {
  let binary: string;
  try {
    binary = atob(data);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
