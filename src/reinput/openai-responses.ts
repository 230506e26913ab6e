/**
 * AgMessage[] → OpenAI Responses `input` items, stateless (no `previous_response_id`): every item
 * the model produced goes back with its own id, in its original order — `rs_` reasoning items
 * with their `encrypted_content`, interleaved with the `fc_` calls and `msg_` messages (§10 item
 * 4, §13.2). The request types are structural; `sdk-types.test-d.ts` checks them against `openai`.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { isKnownBlock, isKnownCitation, isKnownSource } from "../../generated/schema-facts.js";
import {
  messagesOf,
  ownsBlobs,
  planConversation,
  type PlacedBlock,
  type PlacedResult,
  type OpenAISystemRole,
  type ReinputOptions,
  type ReinputResult,
} from "./conversation.js";
import { IdMapper } from "./ids.js";
import { Reporter, type BlockLocation } from "./report.js";
import { targetNumber } from "./opaque-json.js";
import { stringifyExact } from "../wire/exact-numbers.js";
import { blockAsText, modelFacing, structuredAsText } from "./tool-result.js";
import { isRecord } from "../json-guards.js";

export interface OpenAIInputText {
  type: "input_text";
  text: string;
}
export interface OpenAIInputImage {
  type: "input_image";
  detail: "auto" | "low" | "high";
  image_url?: string;
  file_id?: string;
}
export interface OpenAIInputFile {
  type: "input_file";
  file_data?: string;
  file_id?: string;
  file_url?: string;
  filename?: string;
}
export type OpenAIInputContent = OpenAIInputText | OpenAIInputImage | OpenAIInputFile;

/** A user, system or developer message, or an assistant message with no item id of its own. */
export interface OpenAIEasyMessage {
  type: "message";
  role: "user" | "assistant" | "system" | "developer";
  content: string | OpenAIInputContent[];
}

export interface OpenAIUrlCitation {
  type: "url_citation";
  url: string;
  title: string;
  start_index: number;
  end_index: number;
}

/** An assistant message item the model produced, replayed under its `msg_` id. */
export interface OpenAIOutputMessage {
  type: "message";
  id: string;
  role: "assistant";
  status: "completed";
  content: Array<{ type: "output_text"; text: string; annotations: OpenAIUrlCitation[] } | { type: "refusal"; refusal: string }>;
  phase?: "commentary" | "final_answer";
}

export interface OpenAIReasoningItem {
  type: "reasoning";
  id: string;
  summary: Array<{ type: "summary_text"; text: string }>;
  encrypted_content?: string;
}

export interface OpenAIFunctionCall {
  type: "function_call";
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  /** A programmatic call's program (`{type:"program", caller_id}`), echoed from `providerMetadata.caller`. */
  caller?: { type: "direct" } | { type: "program"; caller_id: string };
}

export interface OpenAICustomToolCall {
  type: "custom_tool_call";
  call_id: string;
  name: string;
  input: string;
  id?: string;
}

export interface OpenAILocalShellCall {
  type: "local_shell_call";
  id: string;
  call_id: string;
  status: "completed";
  action: { type: "exec"; command: string[]; env: Record<string, string> };
}

export interface OpenAIApplyPatchCall {
  type: "apply_patch_call";
  call_id: string;
  status: "completed";
  operation:
    | { type: "create_file"; path: string; diff: string }
    | { type: "update_file"; path: string; diff: string }
    | { type: "delete_file"; path: string };
  id?: string;
}

/** A tool search: the client's (answered by a `tool_search_output` it sends) or the server's (`call_id` null). */
export interface OpenAIToolSearchCall {
  type: "tool_search_call";
  call_id: string | null;
  arguments: unknown;
  execution: "client" | "server";
  status: "completed";
  id?: string;
}

/** A function tool as a tool search loaded it (the API's `FunctionTool`; its other fields ride along as recorded). */
export interface OpenAIFunctionTool {
  type: "function";
  name: string;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}

/** A free-form (custom) tool as a tool search loaded it. */
export interface OpenAICustomTool {
  type: "custom";
  name: string;
}

/** A namespace of function and custom tools as a tool search loaded it. */
export interface OpenAINamespaceTool {
  type: "namespace";
  name: string;
  description: string;
  tools: Array<{ type: "function"; name: string } | OpenAICustomTool>;
}

/** A tool of a tool-search listing: the kinds a search loads (deferred function, custom and namespace tools). */
export type OpenAIToolSearchTool = OpenAIFunctionTool | OpenAICustomTool | OpenAINamespaceTool;

export interface OpenAIToolSearchOutput {
  type: "tool_search_output";
  call_id: string | null;
  execution: "client" | "server";
  status: "completed";
  id?: string;
  tools: OpenAIToolSearchTool[];
}

export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string | OpenAIInputContent[];
  status?: "in_progress" | "completed" | "incomplete";
}

export interface OpenAICustomToolCallOutput {
  type: "custom_tool_call_output";
  call_id: string;
  output: string | OpenAIInputContent[];
}

export interface OpenAILocalShellCallOutput {
  type: "local_shell_call_output";
  /** The call's id (the SDK names it `id`). */
  id: string;
  output: string;
}

export interface OpenAIApplyPatchCallOutput {
  type: "apply_patch_call_output";
  call_id: string;
  status: "completed" | "failed";
  output?: string;
}

/** A shell command call: run by the client (`environment.type` "local") or in a hosted container. */
export interface OpenAIShellCall {
  type: "shell_call";
  call_id: string;
  action: { commands: string[]; max_output_length?: number | null; timeout_ms?: number | null };
  status: "completed";
  id?: string;
  environment?: { type: "local" } | { type: "container_reference"; container_id: string };
}

export interface OpenAIShellCallOutputContent {
  stdout: string;
  stderr: string;
  outcome: { type: "timeout" } | { type: "exit"; exit_code: number };
}

export interface OpenAIShellCallOutput {
  type: "shell_call_output";
  call_id: string;
  output: OpenAIShellCallOutputContent[];
  id?: string;
  status?: "in_progress" | "completed" | "incomplete";
  max_output_length?: number;
}

/** A program the model wrote for programmatic tool calling (run by OpenAI); `fingerprint` is its replay blob. */
export interface OpenAIProgram {
  type: "program";
  id: string;
  call_id: string;
  code: string;
  fingerprint: string;
}

export interface OpenAIProgramOutput {
  type: "program_output";
  id: string;
  call_id: string;
  result: string;
  status: "completed" | "incomplete";
}

export interface OpenAICompactionItem {
  type: "compaction";
  encrypted_content: string;
}

/** What a web search did, as the API takes it back (search, open_page or find_in_page). */
export type OpenAIWebSearchAction =
  | { type: "search"; queries?: string[]; query?: string; sources?: Array<{ type: "url"; url: string }> }
  | { type: "open_page"; url?: string | null }
  | { type: "find_in_page"; pattern: string; url: string };

/** The status a web or file search item is recorded with. */
export type OpenAISearchStatus = "in_progress" | "searching" | "completed" | "failed" | "incomplete";

export interface OpenAIWebSearchCall {
  type: "web_search_call";
  id: string;
  status: OpenAISearchStatus;
  action: OpenAIWebSearchAction;
}

export interface OpenAIFileSearchCall {
  type: "file_search_call";
  id: string;
  status: OpenAISearchStatus;
  queries: string[];
}

export interface OpenAICodeInterpreterCall {
  type: "code_interpreter_call";
  id: string;
  status: "in_progress" | "completed" | "incomplete" | "interpreting" | "failed";
  code: string | null;
  container_id: string;
  outputs: Array<{ type: "logs"; logs: string } | { type: "image"; url: string }> | null;
}

/** An image generation; the call's recorded options (size, quality, …) ride along as recorded. */
export interface OpenAIImageGenerationCall {
  type: "image_generation_call";
  id: string;
  status: "in_progress" | "completed" | "generating" | "failed";
  result: string | null;
}

/** Why a remote MCP call failed, as the API reports it. */
export type OpenAIMcpCallError =
  | { type: "mcp_protocol_error"; code: number; message: string }
  | { type: "mcp_tool_execution_error"; content: unknown }
  | { type: "http_error"; code: number; message: string };

export interface OpenAIMcpCall {
  type: "mcp_call";
  id: string;
  status: "in_progress" | "completed" | "incomplete" | "calling" | "failed";
  name: string;
  server_label: string;
  /** The call's arguments as JSON text. */
  arguments: string;
  output: string;
  error?: OpenAIMcpCallError;
}

/** A remote MCP server's tool listing, replayed as recorded (its other fields ride along). */
export interface OpenAIMcpListTools {
  type: "mcp_list_tools";
  id: string;
  server_label: string;
  tools: Array<{ name: string; input_schema: unknown }>;
}

/**
 * A hosted-tool item the provider ran, rebuilt from the call (its `input`) and the result the
 * facet recorded, under its own item id: web search, file search, code interpreter, image
 * generation, remote MCP call and tool listing.
 */
export type OpenAIHostedItem =
  | OpenAIWebSearchCall
  | OpenAIFileSearchCall
  | OpenAICodeInterpreterCall
  | OpenAIImageGenerationCall
  | OpenAIMcpCall
  | OpenAIMcpListTools;

export type OpenAIResponsesInputItem =
  | OpenAIEasyMessage
  | OpenAIOutputMessage
  | OpenAIReasoningItem
  | OpenAIFunctionCall
  | OpenAICustomToolCall
  | OpenAILocalShellCall
  | OpenAIApplyPatchCall
  | OpenAIToolSearchCall
  | OpenAIToolSearchOutput
  | OpenAIShellCall
  | OpenAIShellCallOutput
  | OpenAIProgram
  | OpenAIProgramOutput
  | OpenAIFunctionCallOutput
  | OpenAICustomToolCallOutput
  | OpenAILocalShellCallOutput
  | OpenAIApplyPatchCallOutput
  | OpenAICompactionItem
  | OpenAIHostedItem;

/** The request fragment: spread it into `client.responses.create({ model, ...request })`. */
export interface OpenAIResponsesRequest {
  input: OpenAIResponsesInputItem[];
}

export interface OpenAIResponsesOptions extends ReinputOptions {
  /** The role system messages are sent with (default `"system"`; reasoning models read either). */
  systemRole?: OpenAISystemRole;
}

/** The client call kinds the Responses API distinguishes, by the item id the model gave the call. */
type CallKind = "function" | "custom" | "local_shell" | "shell" | "apply_patch" | "tool_search";

function callKind(call: Lenient.AgToolCallBlock, own: boolean): CallKind {
  const id = own ? (call.itemId ?? "") : "";
  if (id.startsWith("ctc_")) return "custom";
  if (id.startsWith("lsh_")) return "local_shell";
  if (id.startsWith("sh_")) return "shell";
  if (id.startsWith("apc_")) return "apply_patch";
  if (id.startsWith("tsc_")) return "tool_search";
  return "function";
}

/** Lenient.AgMessage[] (or the Lenient.AgReduceResult reduce() returns) → Responses `input` items, with the report. */
export function toOpenAIResponses(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: OpenAIResponsesOptions = {},
): ReinputResult<OpenAIResponsesRequest> {
  const report = new Reporter();
  const ids = new IdMapper(
    { allowed: "A-Za-z0-9_-", maxLength: 64, describe: "call ids of at most 64 characters of [A-Za-z0-9_-]" },
    report,
  );
  const plan = planConversation(messagesOf(input), "openai-responses", opts, report);
  const items: OpenAIResponsesInputItem[] = [];
  const kinds = new Map<string, CallKind>();
  /** Hosted calls left out: their outputs, wherever they sit, are left out too. */
  const droppedCalls = new Set<string>();

  for (const seg of plan) {
    switch (seg.kind) {
      case "system":
      case "user": {
        const content = seg.blocks.flatMap((p) => userContent(p, seg.kind === "system", report));
        if (content.length === 0) {
          report.dropped(
            "empty-message",
            seg.at,
            `Message "${seg.at.messageId}" has nothing the Responses API can carry; it was left out.`,
          );
          break;
        }
        const role = seg.kind === "system" ? (opts.systemRole ?? "system") : "user";
        const onlyText = content.every((c): c is OpenAIInputText => c.type === "input_text");
        items.push({ type: "message", role, content: onlyText ? content.map((c) => c.text).join("\n") : content });
        break;
      }
      case "assistant":
        assistantItems(seg.blocks, items, ids, kinds, droppedCalls, report);
        break;
      case "results":
        for (const r of seg.results) items.push(resultItem(r, ids, kinds.get(r.call.block.toolCallId) ?? "function", report));
        break;
    }
  }
  return { request: { input: items }, report: report.entries };
}

/** A user-side block as Responses input content (system messages take text only). */
function userContent(p: PlacedBlock, textOnly: boolean, report: Reporter): OpenAIInputContent[] {
  const b = p.block;
  if (b.type === "text") return b.text === "" ? [] : [{ type: "input_text", text: b.text }];
  if (!textOnly && (b.type === "image" || b.type === "file" || b.type === "document")) {
    const c = mediaContent(b.source, b.type === "file" ? b.filename : b.type === "document" ? b.title : undefined, b.type === "image");
    if (c !== undefined) return [c];
    report.dropped("unsupported-block", p, `The Responses API has no input form for this ${b.type}.`);
    return [];
  }
  const text = b.type === "data" || b.type === "provider-raw" || b.type === "reasoning" ? undefined : blockAsText(b);
  if (text === undefined || text === "") {
    report.dropped(
      "unsupported-block",
      p,
      `The Responses API has no input form for a ${b.type} block${textOnly ? " in a system message" : ""}.`,
    );
    return [];
  }
  report.changed("converted-block", p, `A ${b.type} block was sent as text.`);
  return [{ type: "input_text", text }];
}

/** An AgSource as input_image / input_file content. */
function mediaContent(source: Lenient.AgSource, filename: string | undefined, image: boolean): OpenAIInputContent | undefined {
  // A source type a later minor added (§0.2, §12) has no Responses form: the caller reports the drop.
  if (!isKnownSource(source)) return undefined;
  const mediaType = source.mediaType ?? "";
  if (image || mediaType.startsWith("image/")) {
    if (source.type === "file") return { type: "input_image", detail: "auto", file_id: source.fileId };
    return {
      type: "input_image",
      detail: "auto",
      image_url: source.type === "url" ? source.url : `data:${mediaType};base64,${source.data}`,
    };
  }
  if (mediaType.startsWith("audio/") || mediaType.startsWith("video/")) return undefined;
  if (source.type === "file") return { type: "input_file", file_id: source.fileId };
  if (source.type === "url") return { type: "input_file", file_url: source.url };
  return {
    type: "input_file",
    file_data: `data:${mediaType || "application/octet-stream"};base64,${source.data}`,
    filename: filename ?? "file",
  };
}

/** One assistant turn as output items, each under the id the model gave it. */
function assistantItems(
  blocks: PlacedBlock[],
  items: OpenAIResponsesInputItem[],
  ids: IdMapper,
  kinds: Map<string, CallKind>,
  droppedCalls: Set<string>,
  report: Reporter,
): void {
  const results = new Map<string, PlacedBlock<Lenient.AgToolResultBlock>>();
  for (const p of blocks) if (p.block.type === "tool-result") results.set(p.block.toolCallId, { ...p, block: p.block });
  const consumed = new Set<string>();
  let message: OpenAIOutputMessage | undefined;

  for (const p of blocks) {
    const b = p.block;
    const own = ownsBlobs(p.provider, "openai");
    if (b.type !== "text") message = undefined;
    switch (b.type) {
      case "text": {
        const itemId = own ? stringField(b.providerMetadata?.itemId) : undefined;
        const refusal = b.providerMetadata?.refusal === true;
        if (itemId === undefined) {
          message = undefined;
          if (b.text !== "") items.push({ type: "message", role: "assistant", content: b.text });
          break;
        }
        // Parts of one message item (content_index > 0 carry "<id>:<n>" block ids) share its item.
        if (message === undefined || message.id !== itemId) {
          message = { type: "message", id: itemId, role: "assistant", status: "completed", content: [] };
          const phase = b.providerMetadata?.phase;
          if (phase === "commentary" || phase === "final_answer") message.phase = phase;
          items.push(message);
        }
        message.content.push(
          refusal ? { type: "refusal", refusal: b.text } : { type: "output_text", text: b.text, annotations: urlCitations(b) },
        );
        break;
      }
      case "reasoning": {
        if (!own) {
          report.dropped(
            b.opaque !== undefined || b.itemId !== undefined ? "foreign-blob" : "reasoning-without-blob",
            p,
            `Reasoning of "${p.provider}" is not sent to OpenAI (§13.2).`,
            "opaque",
          );
          break;
        }
        const id = b.itemId ?? stringField(b.providerMetadata?.itemId);
        if (id === undefined) {
          report.dropped("reasoning-without-blob", p, "A reasoning item is replayed by its rs_ id; this block has none.");
          break;
        }
        const item: OpenAIReasoningItem = {
          type: "reasoning",
          id,
          summary: b.text !== undefined && b.text !== "" ? [{ type: "summary_text", text: b.text }] : [],
        };
        if (b.opaque !== undefined && b.opaque.kind !== "signature" && b.opaque.kind !== "redacted")
          item.encrypted_content = b.opaque.value;
        items.push(item);
        break;
      }
      case "tool-call": {
        if (b.providerExecuted === true && own) {
          // A hosted shell call, a program and a server tool search are items of their own, and so
          // are their outputs: each goes back where it sits (§10 round trip).
          const separate = separateCallItem(p, b, ids, report);
          if (separate === "dropped") {
            droppedCalls.add(b.toolCallId);
            break;
          }
          if (separate !== undefined) {
            items.push(separate);
            break;
          }
        }
        if (b.providerExecuted === true) {
          const result = results.get(b.toolCallId);
          if (result) consumed.add(b.toolCallId);
          const hosted = own ? hostedItem(b, result?.block) : undefined;
          if (hosted === undefined)
            report.dropped(
              "provider-executed-tool",
              p,
              `"${b.name}" ran inside ${own ? "the provider" : `"${p.provider}"`} and has no Responses replay form here (its result is dropped too).`,
            );
          else if (typeof hosted === "string")
            report.dropped(
              "provider-executed-tool",
              p,
              `"${b.name}" ran inside the provider, but ${hosted}: the item was left out (its result too).`,
            );
          else items.push(hosted);
          break;
        }
        // Only Gemini signs calls; Responses has no slot for it (§13.2: never sent elsewhere).
        if (b.signature !== undefined)
          report.dropped(
            "foreign-blob",
            p,
            `A call signature of "${p.provider ?? "another provider"}" is not sent to OpenAI (§13.2).`,
            "signature",
          );
        const kind = callKind(b, own);
        kinds.set(b.toolCallId, kind);
        items.push(callItem(p, b, kind, own, ids, report));
        break;
      }
      case "tool-result": {
        if (consumed.has(b.toolCallId)) break;
        const output = own && !droppedCalls.has(b.toolCallId) ? separateOutputItem(p, { ...p, block: b }, ids, report) : undefined;
        if (output !== undefined) items.push(output);
        else report.dropped("provider-executed-tool", p, "A server-tool result whose call is not in the same turn is not sent.");
        break;
      }
      case "data": {
        const data = b.data;
        if (
          own &&
          b.name === "mcp_list_tools" &&
          isRecord(data) &&
          data.type === "mcp_list_tools" &&
          typeof data.id === "string" &&
          isMcpListTools(data)
        ) {
          items.push({ ...data, type: "mcp_list_tools", id: data.id });
        } else report.dropped("unsupported-block", p, `A data block "${b.name}" has no Responses input form.`);
        break;
      }
      case "compaction": {
        if (own && b.opaque !== undefined && b.provider !== "anthropic") {
          items.push({ type: "compaction", encrypted_content: b.opaque.value });
        } else if (b.text !== undefined && b.text !== "") {
          report.changed("converted-block", p, "A compaction summary of another provider was sent as text.");
          items.push({ type: "message", role: "assistant", content: b.text });
        } else report.dropped("foreign-blob", p, `A compaction blob of "${p.provider}" is not sent to OpenAI (§13.2).`, "opaque");
        break;
      }
      default: {
        const text = b.type === "provider-raw" ? undefined : blockAsText(b);
        if (text !== undefined && text !== "") {
          report.changed("converted-block", p, `A ${b.type} block was sent as assistant text.`);
          items.push({ type: "message", role: "assistant", content: text });
        } else report.dropped("unsupported-block", p, `The Responses API has no assistant input form for a ${b.type} block.`);
      }
    }
  }
}

function stringField(x: unknown): string | undefined {
  return typeof x === "string" ? x : undefined;
}

function urlCitations(b: Extract<Lenient.AgBlock, { type: "text" }>): OpenAIUrlCitation[] {
  const out: OpenAIUrlCitation[] = [];
  for (const c of b.citations ?? []) {
    if (isKnownCitation(c) && c.kind === "url" && c.startIndex !== undefined && c.endIndex !== undefined && c.indexFrame === "response") {
      out.push({ type: "url_citation", url: c.url, title: c.title ?? "", start_index: c.startIndex, end_index: c.endIndex });
    }
  }
  return out;
}

/** A client call item of its kind; its own item id rides along when the call is OpenAI's. */
function callItem(
  p: PlacedBlock,
  b: Lenient.AgToolCallBlock,
  kind: CallKind,
  own: boolean,
  ids: IdMapper,
  report: Reporter,
): OpenAIResponsesInputItem {
  const callId = ids.map(b.toolCallId, p);
  const itemId = own ? b.itemId : undefined;
  const input = b.input;
  if (kind === "custom" && typeof input === "string")
    return { type: "custom_tool_call", call_id: callId, name: b.name, input, ...(itemId !== undefined ? { id: itemId } : {}) };
  if (kind === "local_shell" && itemId !== undefined && isRecord(input) && Array.isArray(input.command)) {
    const env: Record<string, string> = {};
    if (isRecord(input.env)) for (const [k, v] of Object.entries(input.env)) if (typeof v === "string") env[k] = v;
    return {
      type: "local_shell_call",
      id: itemId,
      call_id: callId,
      status: "completed",
      action: { ...input, type: "exec", command: input.command.map(String), env },
    };
  }
  if (kind === "apply_patch" && isRecord(input) && typeof input.path === "string") {
    const path = input.path;
    const diff = typeof input.diff === "string" ? input.diff : "";
    const operation: OpenAIApplyPatchCall["operation"] =
      input.type === "delete_file"
        ? { type: "delete_file", path }
        : input.type === "update_file"
          ? { type: "update_file", path, diff }
          : { type: "create_file", path, diff };
    return { type: "apply_patch_call", call_id: callId, status: "completed", operation, ...(itemId !== undefined ? { id: itemId } : {}) };
  }
  if (kind === "shell" && isRecord(input) && Array.isArray(input.commands)) {
    const env = shellEnvironment(b.providerMetadata?.environment);
    return {
      type: "shell_call",
      call_id: callId,
      action: shellAction(input, p, report),
      status: "completed",
      ...(itemId !== undefined ? { id: itemId } : {}),
      ...(env !== undefined ? { environment: env } : {}),
    };
  }
  if (kind === "tool_search")
    return {
      type: "tool_search_call",
      call_id: callId,
      arguments: input,
      execution: "client",
      status: "completed",
      ...(itemId !== undefined ? { id: itemId } : {}),
    };
  let args: string;
  if (typeof input === "string") {
    args = input;
    report.changed("converted-block", p, "The call's input is raw text (not JSON); it is sent as the arguments string verbatim.", "input");
  } else args = stringifyExact(input);
  const caller = own ? callerOf(b.providerMetadata?.caller, ids, p) : undefined;
  return {
    type: "function_call",
    call_id: callId,
    name: b.name,
    arguments: args,
    ...(itemId?.startsWith("fc_") ? { id: itemId } : {}),
    ...(caller !== undefined ? { caller } : {}),
  };
}

/** The `caller` the facet kept on a call's providerMetadata, its program id mapped like every call id. */
function callerOf(x: unknown, ids: IdMapper, p: PlacedBlock): OpenAIFunctionCall["caller"] {
  if (!isRecord(x)) return undefined;
  if (x.type === "direct") return { type: "direct" };
  if (x.type === "program" && typeof x.caller_id === "string") return { type: "program", caller_id: ids.map(x.caller_id, p) };
  return undefined;
}

/** A shell call's `action` from the call's input (`commands` and the two optional limits). */
function shellAction(input: Record<string, unknown>, at: BlockLocation, report: Reporter): OpenAIShellCall["action"] {
  const action: OpenAIShellCall["action"] = { commands: Array.isArray(input.commands) ? input.commands.map(String) : [] };
  for (const k of ["max_output_length", "timeout_ms"] as const) {
    const v = input[k];
    if (v === null) action[k] = null;
    else {
      const n = targetNumber(v, numberAsDouble(report, at, `input.${k}`));
      if (n !== undefined) action[k] = n;
    }
  }
  return action;
}

/** Reports a kept number text sent as its double where the Responses API types a number (§13.2). */
function numberAsDouble(report: Reporter, at: BlockLocation, field: string): () => void {
  return () =>
    report.changed(
      "number-as-double",
      at,
      `The Responses API types ${field} as a number: a number a double cannot hold was sent as its nearest double.`,
      field,
    );
}

/** The environment the facet kept on a shell call's providerMetadata, when it is one the API accepts. */
function shellEnvironment(x: unknown): OpenAIShellCall["environment"] {
  if (!isRecord(x)) return undefined;
  if (x.type === "local") return { ...x, type: "local" };
  if (x.type === "container_reference" && typeof x.container_id === "string")
    return { type: "container_reference", container_id: x.container_id };
  return undefined;
}

/** Which separately-itemed hosted call a provider-executed call is: by the id the model gave it, else its name. */
function separateKind(b: Lenient.AgToolCallBlock): "shell" | "program" | "tool_search" | undefined {
  const id = b.itemId ?? "";
  if (id.startsWith("sh_") || (id === "" && b.name === "shell")) return "shell";
  if (id.startsWith("cm_") || (id === "" && b.name === "program")) return "program";
  if (id.startsWith("tsc_") || (id === "" && b.name === "tool_search")) return "tool_search";
  return undefined;
}

/**
 * A hosted shell call, a program or a server tool search as its own input item (its output is a
 * separate item, replayed where its result sits); "dropped" when a field the API requires is gone.
 */
function separateCallItem(
  p: PlacedBlock,
  b: Lenient.AgToolCallBlock,
  ids: IdMapper,
  report: Reporter,
): OpenAIShellCall | OpenAIProgram | OpenAIToolSearchCall | "dropped" | undefined {
  const kind = separateKind(b);
  if (kind === undefined) return undefined;
  const input = isRecord(b.input) ? b.input : {};
  const itemId = b.itemId;
  switch (kind) {
    case "shell": {
      const env = shellEnvironment(b.providerMetadata?.environment);
      return {
        type: "shell_call",
        call_id: ids.map(b.toolCallId, p),
        action: shellAction(input, p, report),
        status: "completed",
        ...(itemId !== undefined ? { id: itemId } : {}),
        ...(env !== undefined ? { environment: env } : {}),
      };
    }
    case "program": {
      const fingerprint = stringField(b.providerMetadata?.fingerprint);
      if (itemId === undefined || fingerprint === undefined) {
        report.dropped(
          "provider-executed-tool",
          p,
          "A program is replayed with its cm_ id and fingerprint; this call lacks one (its output is dropped too).",
        );
        return "dropped";
      }
      return {
        type: "program",
        id: itemId,
        call_id: ids.map(b.toolCallId, p),
        code: typeof input.code === "string" ? input.code : "",
        fingerprint,
      };
    }
    case "tool_search":
      // A server search the wire gave no call_id is correlated by its item id (§8 item 20): sent back with call_id null.
      return {
        type: "tool_search_call",
        call_id: b.toolCallId === itemId ? null : ids.map(b.toolCallId, p),
        arguments: b.input,
        execution: "server",
        status: "completed",
        ...(itemId !== undefined ? { id: itemId } : {}),
      };
  }
}

/** The output item of a hosted shell call, a program or a server tool search, from its result. */
function separateOutputItem(
  p: PlacedBlock,
  r: PlacedBlock<Lenient.AgToolResultBlock>,
  ids: IdMapper,
  report: Reporter,
): OpenAIShellCallOutput | OpenAIProgramOutput | OpenAIToolSearchOutput | undefined {
  const meta = r.block.providerMetadata;
  const type = meta?.type;
  const itemId = stringField(meta?.itemId);
  const status = meta?.status === "incomplete" || meta?.status === "in_progress" ? meta.status : "completed";
  switch (type) {
    case "shell_call_output": {
      const out: OpenAIShellCallOutput = {
        type,
        call_id: ids.map(r.block.toolCallId, p),
        output: shellOutput(r.block, numberAsDouble(report, r, "output exit_code")),
        status,
        ...(itemId !== undefined ? { id: itemId } : {}),
      };
      const max = targetNumber(meta?.max_output_length, numberAsDouble(report, r, "providerMetadata.max_output_length"));
      if (max !== undefined) out.max_output_length = max;
      return out;
    }
    case "program_output": {
      if (itemId === undefined) {
        report.dropped("provider-executed-tool", p, "A program output is replayed with its cmo_ id; this result has none.");
        return undefined;
      }
      const text = r.block.content.map((c) => (c.type === "text" ? c.text : c.type === "data" ? stringifyExact(c.data) : "")).join("");
      return {
        type,
        id: itemId,
        call_id: ids.map(r.block.toolCallId, p),
        result: text,
        status: status === "incomplete" ? "incomplete" : "completed",
      };
    }
    case "tool_search_output": {
      const listing = r.block.content.find((c) => c.type === "data" && c.name === "tools");
      const tools = listing?.type === "data" ? toolListing(listing.data, r, report) : [];
      const server = meta?.execution !== "client";
      // The call's item id stands in for a call_id the server never gave (the facet pairs them, §8 item 20).
      const nullCallId = server && r.block.toolCallId.startsWith("tsc_");
      return {
        type,
        call_id: nullCallId ? null : ids.map(r.block.toolCallId, p),
        execution: server ? "server" : "client",
        status: "completed",
        tools,
        ...(itemId !== undefined ? { id: itemId } : {}),
      };
    }
    default:
      return undefined;
  }
}

/** A shell result as per-command output: verbatim when the facet kept it, else rebuilt from its blocks. */
function shellOutput(block: Lenient.AgToolResultBlock, onDouble: () => void): OpenAIShellCallOutputContent[] {
  // The wire's own output (Responses facet), else the structured result a framework fed the model
  // (@openai/agents writes `exitCode`): per command, stdout and stderr apart, the exit code exact.
  for (const kept of [block.providerMetadata?.output, block.structuredContent]) {
    // Exit codes read as doubles are reported only for the output that is sent.
    let doubled = 0;
    const wire = Array.isArray(kept) ? kept.map((x) => wireShellOutput(x, () => doubled++)) : undefined;
    if (wire?.every((w) => w !== undefined)) {
      for (; doubled > 0; doubled--) onDouble();
      return wire as OpenAIShellCallOutputContent[];
    }
  }
  const failed = block.outcome === "error" || block.outcome === "denied" || Boolean(block.isError);
  return block.content.flatMap((c): OpenAIShellCallOutputContent[] => {
    if (!isKnownBlock(c)) return [];
    if (c.type === "code-result") {
      const outcome: OpenAIShellCallOutputContent["outcome"] =
        c.outcome === "deadline_exceeded" ? { type: "timeout" } : { type: "exit", exit_code: c.outcome === "failed" ? 1 : 0 };
      return [{ stdout: c.output, stderr: "", outcome }];
    }
    const text = c.type === "text" ? c.text : blockAsText(c);
    return text === undefined ? [] : [{ stdout: text, stderr: "", outcome: { type: "exit", exit_code: failed ? 1 : 0 } }];
  });
}

/** One command's output in the wire form (`exit_code`), from the wire form or the @openai/agents one (`exitCode`). */
function wireShellOutput(x: unknown, onDouble: () => void): OpenAIShellCallOutputContent | undefined {
  if (!isRecord(x) || typeof x.stdout !== "string" || typeof x.stderr !== "string" || !isRecord(x.outcome)) return undefined;
  if (x.outcome.type === "timeout") return { stdout: x.stdout, stderr: x.stderr, outcome: { type: "timeout" } };
  const code = x.outcome.type === "exit" ? targetNumber(x.outcome.exit_code ?? x.outcome.exitCode, onDouble) : undefined;
  return code !== undefined ? { stdout: x.stdout, stderr: x.stderr, outcome: { type: "exit", exit_code: code } } : undefined;
}

function isStringArray(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((v) => typeof v === "string");
}

/** `x` when it is one of `allowed`, else `fallback`: a recorded status outside the item's set is not sent as it is. */
function oneOf<T extends string>(x: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === x) ?? fallback;
}

/**
 * A recorded web search action the API accepts back (the openai SDK's
 * `ResponseFunctionWebSearch["action"]`), checked field by field and kept as recorded.
 */
function isWebSearchAction(x: unknown): x is OpenAIWebSearchAction {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case "search":
      return (
        (x.queries === undefined || isStringArray(x.queries)) &&
        (x.query === undefined || typeof x.query === "string") &&
        (x.sources === undefined ||
          (Array.isArray(x.sources) && x.sources.every((s) => isRecord(s) && s.type === "url" && typeof s.url === "string")))
      );
    case "open_page":
      return x.url === undefined || x.url === null || typeof x.url === "string";
    case "find_in_page":
      return typeof x.pattern === "string" && typeof x.url === "string";
    default:
      return false;
  }
}

/**
 * A recorded web_search_call's action in a form the API accepts: the action as recorded, or the
 * search its bare `queries` stand for (the facet keeps `{queries}` when the item had no action).
 * Undefined when it recorded none: an action is required, and an invented one would misstate
 * what the provider did.
 */
function webSearchAction(input: unknown): OpenAIWebSearchAction | undefined {
  if (!isRecord(input)) return undefined;
  if (isWebSearchAction(input)) return input;
  if (input.type === undefined && isStringArray(input.queries)) return { type: "search", queries: input.queries };
  return undefined;
}

const SEARCH_STATUSES = ["in_progress", "searching", "completed", "failed", "incomplete"] as const;

/**
 * A recorded MCP call error as the API's error object. The facet keeps a non-string `error` as
 * its JSON text (`errorText`); that object goes back when it is one the API reports, any other
 * error text as a tool-execution error carrying it.
 */
function mcpCallError(errorText: string | undefined): OpenAIMcpCallError {
  let parsed: unknown;
  try {
    parsed = errorText === undefined ? undefined : JSON.parse(errorText);
  } catch {
    parsed = undefined;
  }
  if (isRecord(parsed)) {
    const { type, code, message } = parsed;
    if ((type === "mcp_protocol_error" || type === "http_error") && typeof code === "number" && typeof message === "string")
      return { ...parsed, type, code, message };
    if (type === "mcp_tool_execution_error") return { ...parsed, type, content: parsed.content };
  }
  return { type: "mcp_tool_execution_error", content: errorText ?? "" };
}

/** A recorded MCP tool listing the API accepts back: server label and named tools, kept as recorded. */
function isMcpListTools(x: Record<string, unknown>): x is Record<string, unknown> & Omit<OpenAIMcpListTools, "id" | "type"> {
  return (
    typeof x.server_label === "string" &&
    Array.isArray(x.tools) &&
    x.tools.every((t) => isRecord(t) && typeof t.name === "string" && "input_schema" in t)
  );
}

/** A loaded tool of a tool-search listing the API accepts back, checked by kind and kept as recorded. */
function isToolSearchTool(x: unknown): x is OpenAIToolSearchTool {
  if (!isRecord(x) || typeof x.name !== "string") return false;
  switch (x.type) {
    case "function":
      return (x.parameters === null || isRecord(x.parameters)) && (x.strict === null || typeof x.strict === "boolean");
    case "custom":
      return true;
    case "namespace":
      return (
        typeof x.description === "string" &&
        Array.isArray(x.tools) &&
        x.tools.every((t) => isRecord(t) && (t.type === "function" || t.type === "custom") && typeof t.name === "string")
      );
    default:
      return false;
  }
}

/**
 * The tools of a recorded tool-search listing (a `tools` data block, §8 item 20). A tool of a
 * kind a search does not load, or missing a field the API requires, would make the request a
 * 400: it is left out and reported.
 */
function toolListing(data: unknown, at: BlockLocation, report: Reporter): OpenAIToolSearchTool[] {
  if (!Array.isArray(data)) return [];
  const tools: OpenAIToolSearchTool[] = [];
  data.forEach((t: unknown, i) => {
    if (isToolSearchTool(t)) tools.push(t);
    else
      report.dropped(
        "unsupported-block",
        at,
        "A tool of the search listing is no function, custom or namespace tool with the fields the Responses API requires; it was left out.",
        `tools[${i}]`,
      );
  });
  return tools;
}

/**
 * A hosted call and its recorded result as the item the provider produced; a string says why the
 * recorded call cannot be sent back; undefined when it is no hosted item of this API.
 */
function hostedItem(call: Lenient.AgToolCallBlock, result: Lenient.AgToolResultBlock | undefined): OpenAIHostedItem | string | undefined {
  const id = call.itemId;
  const type = result?.providerMetadata?.type;
  if (id === undefined || typeof type !== "string") return undefined;
  const status = result?.providerMetadata?.status;
  const input = isRecord(call.input) ? call.input : {};
  switch (type) {
    case "web_search_call": {
      const action = webSearchAction(call.input);
      return action === undefined
        ? "its recorded web_search_call has no action the API accepts (search, open_page or find_in_page)"
        : { type, id, status: oneOf(status, SEARCH_STATUSES, "completed"), action };
    }
    case "file_search_call":
      return {
        type,
        id,
        status: oneOf(status, SEARCH_STATUSES, "completed"),
        queries: Array.isArray(input.queries) ? input.queries.filter((q: unknown) => typeof q === "string") : [],
      };
    case "code_interpreter_call": {
      const outputs = (result?.content ?? []).flatMap((c): OpenAICodeInterpreterCall["outputs"] & object =>
        !isKnownBlock(c)
          ? []
          : c.type === "code-result"
            ? [{ type: "logs", logs: c.output }]
            : c.type === "image" && isKnownSource(c.source) && c.source.type === "url"
              ? [{ type: "image", url: c.source.url }]
              : [],
      );
      return {
        type,
        id,
        status: oneOf(status, ["in_progress", "completed", "incomplete", "interpreting", "failed"], "completed"),
        code: typeof input.code === "string" ? input.code : null,
        container_id: typeof input.container_id === "string" ? input.container_id : "",
        outputs,
      };
    }
    case "image_generation_call": {
      const image = result?.content.find((c) => c.type === "image");
      const data =
        image !== undefined &&
        isKnownBlock(image) &&
        image.type === "image" &&
        isKnownSource(image.source) &&
        image.source.type === "base64"
          ? image.source.data
          : null;
      return {
        ...input,
        type,
        id,
        status: oneOf(status, ["in_progress", "completed", "generating", "failed"], "completed"),
        result: data,
      };
    }
    case "mcp_call": {
      const text = (result?.content ?? []).map((c) => (isKnownBlock(c) && c.type === "text" ? c.text : "")).join("");
      const item: OpenAIMcpCall = {
        type,
        id,
        status: oneOf(status, ["in_progress", "completed", "incomplete", "calling", "failed"], "completed"),
        name: call.name,
        server_label: call.serverName ?? "",
        arguments: stringifyExact(call.input),
        output: text,
      };
      if (result?.outcome === "error") item.error = mcpCallError(result.errorText);
      return item;
    }
    default:
      return undefined;
  }
}

/** A client result as the output item its call kind expects (§2.1 routing). */
function resultItem(r: PlacedResult, ids: IdMapper, kind: CallKind, report: Reporter): OpenAIResponsesInputItem {
  const callId = ids.map(r.block.toolCallId, r);
  const facing = modelFacing(r, report);
  const parts: OpenAIInputContent[] = [];
  facing.content.forEach(({ block: b, index: i }) => {
    if (b.type === "text") {
      if (b.text !== "") parts.push({ type: "input_text", text: b.text });
      return;
    }
    if (b.type === "image" || b.type === "file" || b.type === "document") {
      const c = mediaContent(b.source, b.type === "file" ? b.filename : undefined, b.type === "image");
      if (c !== undefined) parts.push(c);
      else report.dropped("unsupported-block", r, `A ${b.type} of the result has no Responses form.`, `content[${i}]`);
      return;
    }
    const text = blockAsText(b);
    if (text !== undefined && text !== "") {
      report.changed("converted-block", r, `A ${b.type} block of the result was sent as text.`, `content[${i}]`);
      parts.push({ type: "input_text", text });
    } else report.dropped("unsupported-block", r, `A ${b.type} block of the result has no Responses form.`, `content[${i}]`);
  });
  const structured = structuredAsText(facing);
  if (structured !== undefined) {
    report.changed(
      "structured-as-text",
      r,
      "Responses tool outputs have no structured slot: structuredContent was sent as JSON text.",
      "structuredContent",
    );
    parts.push({ type: "input_text", text: structured });
  }
  if (parts.length === 0 && facing.fallbackText !== undefined) parts.push({ type: "input_text", text: facing.fallbackText });
  const textOnly = parts.every((c): c is OpenAIInputText => c.type === "input_text");
  const text = textOnly ? parts.map((c) => c.text).join("\n") : undefined;
  if (!textOnly && (kind === "local_shell" || kind === "apply_patch"))
    report.dropped("unsupported-block", r, `A ${kind} output carries text only; its media parts were left out.`);
  const plain = text ?? parts.flatMap((c) => (c.type === "input_text" ? [c.text] : [])).join("\n");
  switch (kind) {
    case "tool_search": {
      // The listing rides a `tools` data block (§8 item 20); kept even when empty.
      const listing = facing.content.find(({ block: c }) => c.type === "data" && c.name === "tools")?.block;
      const tools = listing?.type === "data" ? toolListing(listing.data, r, report) : [];
      return { type: "tool_search_output", call_id: callId, execution: "client", status: "completed", tools };
    }
    case "local_shell":
      return { type: "local_shell_call_output", id: callId, output: plain };
    case "shell":
      return { type: "shell_call_output", call_id: callId, output: shellOutput(r.block, numberAsDouble(report, r, "output exit_code")) };
    case "apply_patch":
      return {
        type: "apply_patch_call_output",
        call_id: callId,
        status: facing.isError ? "failed" : "completed",
        ...(plain !== "" ? { output: plain } : {}),
      };
    case "custom":
      return { type: "custom_tool_call_output", call_id: callId, output: text ?? parts };
    default: {
      const out: OpenAIFunctionCallOutput = { type: "function_call_output", call_id: callId, output: text ?? parts };
      // The item status an OpenAI Agents result kept (D17): the input item accepts it as it came.
      const status = r.block.providerMetadata?.type === "function_call_result" ? r.block.providerMetadata.status : undefined;
      if (status === "in_progress" || status === "completed" || status === "incomplete") out.status = status;
      return out;
    }
  }
}
