/**
 * AgMessage[] → OpenAI Chat Completions `messages`. Chat has no replay blobs: reasoning of any
 * provider is not sent (it has no input slot), provider-executed calls are left out, and client
 * results become `role:"tool"` messages right after the assistant message that called them
 * (§2.1 routing). The request types are structural; `sdk-types.test-d.ts` checks them against `openai`.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { isKnownSource } from "../../generated/schema-facts.js";
import {
  messagesOf,
  planConversation,
  type PlacedBlock,
  type PlacedResult,
  type OpenAISystemRole,
  type ReinputOptions,
  type ReinputResult,
} from "./conversation.js";
import { IdMapper } from "./ids.js";
import { Reporter } from "./report.js";
import { stringifyExact } from "../wire/exact-numbers.js";
import { blockAsText, modelFacing, structuredAsText } from "./tool-result.js";

export interface OpenAIChatTextPart {
  type: "text";
  text: string;
}
export interface OpenAIChatImagePart {
  type: "image_url";
  image_url: { url: string; detail?: "auto" | "low" | "high" };
}
export interface OpenAIChatAudioPart {
  type: "input_audio";
  input_audio: { data: string; format: "wav" | "mp3" };
}
export interface OpenAIChatFilePart {
  type: "file";
  file: { file_data?: string; file_id?: string; filename?: string };
}
export type OpenAIChatUserPart = OpenAIChatTextPart | OpenAIChatImagePart | OpenAIChatAudioPart | OpenAIChatFilePart;

export interface OpenAIChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type OpenAIChatMessage =
  | { role: "system" | "developer"; content: string }
  | { role: "user"; content: string | OpenAIChatUserPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIChatToolCall[]; refusal?: string }
  | { role: "tool"; tool_call_id: string; content: string };

/** The request fragment: spread it into `client.chat.completions.create({ model, ...request })`. */
export interface OpenAIChatRequest {
  messages: OpenAIChatMessage[];
}

export interface OpenAIChatOptions extends ReinputOptions {
  /** The role system messages are sent with (default `"system"`). */
  systemRole?: OpenAISystemRole;
}

/** Lenient.AgMessage[] (or the Lenient.AgReduceResult reduce() returns) → Chat Completions `messages`, with the report. */
export function toOpenAIChat(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: OpenAIChatOptions = {},
): ReinputResult<OpenAIChatRequest> {
  const report = new Reporter();
  // OpenAI rejects tool_call ids longer than 40 characters on Chat Completions.
  const ids = new IdMapper(
    { allowed: "A-Za-z0-9_-", maxLength: 40, describe: "Chat tool_call ids of at most 40 characters of [A-Za-z0-9_-]" },
    report,
  );
  const plan = planConversation(messagesOf(input), "openai-chat", opts, report);
  const messages: OpenAIChatMessage[] = [];
  const dropped = new Set<string>();

  for (const seg of plan) {
    switch (seg.kind) {
      case "system": {
        const text = seg.blocks.flatMap((p) => textOf(p, report)).join("\n");
        if (text !== "") messages.push({ role: opts.systemRole ?? "system", content: text });
        else report.dropped("empty-message", seg.at, `System message "${seg.at.messageId}" has no text.`);
        break;
      }
      case "user": {
        const parts = seg.blocks.flatMap((p) => userPart(p, report));
        if (parts.length === 0) {
          report.dropped("empty-message", seg.at, `Message "${seg.at.messageId}" has nothing Chat Completions can carry; it was left out.`);
          break;
        }
        const onlyText = parts.every((c): c is OpenAIChatTextPart => c.type === "text");
        messages.push({ role: "user", content: onlyText ? parts.map((c) => c.text).join("\n") : parts });
        break;
      }
      case "assistant": {
        const texts: string[] = [];
        let refusal: string | undefined;
        const calls: OpenAIChatToolCall[] = [];
        for (const p of seg.blocks) {
          const b = p.block;
          if (b.type === "tool-call") {
            if (b.providerExecuted === true) {
              dropped.add(b.toolCallId);
              report.dropped(
                "provider-executed-tool",
                p,
                `"${b.name}" ran inside the provider; Chat Completions has no form for a server-run call (its result is dropped too).`,
              );
              continue;
            }
            if (b.signature !== undefined)
              report.dropped(
                "foreign-blob",
                p,
                `A call signature of "${p.provider ?? "another provider"}" is not sent to OpenAI (§13.2).`,
                "signature",
              );
            calls.push({
              id: ids.map(b.toolCallId, p),
              type: "function",
              function: { name: b.name, arguments: typeof b.input === "string" ? b.input : stringifyExact(b.input) },
            });
          } else if (b.type === "tool-result") {
            if (!dropped.has(b.toolCallId))
              report.dropped("provider-executed-tool", p, "A server-tool result has no Chat Completions form.");
          } else if (b.type === "reasoning") {
            report.dropped(
              b.opaque !== undefined ? "foreign-blob" : "unsupported-block",
              p,
              "Chat Completions has no reasoning input; the reasoning block is not sent.",
            );
          } else if (b.type === "text" && b.providerMetadata?.refusal === true) {
            refusal = (refusal ?? "") + b.text;
          } else texts.push(...textOf(p, report));
        }
        const content = texts.join("");
        if (content === "" && calls.length === 0 && refusal === undefined) {
          report.dropped("empty-message", seg.at, `Message "${seg.at.messageId}" has nothing Chat Completions can carry; it was left out.`);
          break;
        }
        const msg: OpenAIChatMessage = { role: "assistant", content: content === "" ? null : content };
        if (calls.length > 0) msg.tool_calls = calls;
        if (refusal !== undefined) msg.refusal = refusal;
        messages.push(msg);
        break;
      }
      case "results":
        for (const r of seg.results)
          messages.push({ role: "tool", tool_call_id: ids.map(r.block.toolCallId, r), content: resultText(r, report) });
        break;
    }
  }
  return { request: { messages }, report: report.entries };
}

/** A block as text, reported when converted, dropped when it has no readable form. */
function textOf(p: PlacedBlock, report: Reporter): string[] {
  const b = p.block;
  if (b.type === "text") return b.text === "" ? [] : [b.text];
  const text = b.type === "data" || b.type === "provider-raw" || b.type === "compaction" ? undefined : blockAsText(b);
  if (text === undefined || text === "") {
    report.dropped(
      b.type === "compaction" ? "foreign-blob" : "unsupported-block",
      p,
      `Chat Completions has no form for a ${b.type} block here.`,
    );
    return [];
  }
  report.changed("converted-block", p, `A ${b.type} block was sent as text.`);
  return [text];
}

function userPart(p: PlacedBlock, report: Reporter): OpenAIChatUserPart[] {
  const b = p.block;
  if (b.type === "image" || b.type === "audio" || b.type === "file" || b.type === "document") {
    const part = mediaPart(b.source, b.type === "file" ? b.filename : undefined, b.type);
    if (part !== undefined) return [part];
    report.dropped(
      "unsupported-block",
      p,
      `Chat Completions has no input form for this ${b.type} (${b.source.type}${b.source.mediaType ? `, ${b.source.mediaType}` : ""}).`,
    );
    return [];
  }
  return textOf(p, report).map((text) => ({ type: "text", text }));
}

function mediaPart(source: Lenient.AgSource, filename: string | undefined, kind: string): OpenAIChatUserPart | undefined {
  // A source type a later minor added (§0.2, §12) has no Chat form: the caller reports the drop.
  if (!isKnownSource(source)) return undefined;
  const mediaType = source.mediaType ?? "";
  if (kind === "image" || mediaType.startsWith("image/")) {
    if (source.type === "file") return undefined;
    return { type: "image_url", image_url: { url: source.type === "url" ? source.url : `data:${mediaType};base64,${source.data}` } };
  }
  if (kind === "audio" || mediaType.startsWith("audio/")) {
    const format =
      mediaType === "audio/wav" || mediaType === "audio/x-wav"
        ? "wav"
        : mediaType === "audio/mpeg" || mediaType === "audio/mp3"
          ? "mp3"
          : undefined;
    return source.type === "base64" && format !== undefined
      ? { type: "input_audio", input_audio: { data: source.data, format } }
      : undefined;
  }
  if (source.type === "file") return { type: "file", file: { file_id: source.fileId } };
  if (source.type === "base64")
    return {
      type: "file",
      file: { file_data: `data:${mediaType || "application/octet-stream"};base64,${source.data}`, filename: filename ?? "file" },
    };
  return undefined;
}

/** A client result as the tool message's text (§2.1): content, then structuredContent as JSON. */
function resultText(r: PlacedResult, report: Reporter): string {
  const facing = modelFacing(r, report);
  const texts: string[] = [];
  facing.content.forEach(({ block: b, index: i }) => {
    const text = b.type === "text" ? b.text : b.type === "provider-raw" ? undefined : blockAsText(b);
    if (text === undefined)
      report.dropped(
        "unsupported-block",
        r,
        `A ${b.type} block of the result has no form in a Chat tool message (text only).`,
        `content[${i}]`,
      );
    else if (text !== "") {
      if (b.type !== "text") report.changed("converted-block", r, `A ${b.type} block of the result was sent as text.`, `content[${i}]`);
      texts.push(text);
    }
  });
  const structured = structuredAsText(facing);
  if (structured !== undefined) {
    report.changed(
      "structured-as-text",
      r,
      "Chat tool messages have no structured slot: structuredContent was sent as JSON text.",
      "structuredContent",
    );
    texts.push(structured);
  }
  if (texts.length === 0 && facing.fallbackText !== undefined) texts.push(facing.fallbackText);
  return texts.join("\n");
}
