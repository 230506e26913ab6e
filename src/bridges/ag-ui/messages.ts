/**
 * AgMessage (§3.2) ⇄ AG-UI `Message`, for MESSAGES_SNAPSHOT (§5 `messages.snapshot`) and for the
 * history a RunAgentInput carries. One AgMessage can become several AG-UI messages (AG-UI keeps
 * reasoning and tool results in messages of their own roles); when `carry` is on, each message made
 * from an AgMessage carries that whole AgMessage under `metadata.agjson`, so a snapshot echoed back
 * (or posted as history) restores reasoning opaque blobs and every other replay-load-bearing field
 * byte-identical (§13.2).
 */
import type { AgBlock, AgToolCallBlock } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import { isKnownBlock } from "../../../generated/schema-facts.js";
import { validateMessage } from "../../validate/index.js";
import { fromAgUiContent, toAgUiContent } from "./content.js";
import { AGJSON_METADATA_KEY } from "./carry.js";
import type { Message, ToolCall } from "./vocabulary.js";
import { isRecord } from "../../json-guards.js";

function withCarry(msg: Message, original: L.AgMessage, carry: boolean): Message {
  if (carry) msg.metadata = { [AGJSON_METADATA_KEY]: { message: original } };
  return msg;
}

function toolCallOf(block: L.AgToolCallBlock): ToolCall {
  const call: ToolCall = {
    id: block.toolCallId,
    type: "function",
    function: { name: block.name, arguments: typeof block.input === "string" ? block.input : JSON.stringify(block.input ?? {}) },
  };
  // Gemini's tool-call signature is AG-UI's per-call encrypted value (§2 tool-call.signature).
  if (block.signature !== undefined) call.encryptedValue = block.signature;
  return call;
}

function toolMessageOf(id: string, block: L.AgToolResultBlock, original: L.AgMessage, carry: boolean): Message {
  const msg: Message = { id, role: "tool", toolCallId: block.toolCallId, content: toAgUiContent(block.content).content };
  if (block.outcome === "error") msg.error = block.errorText;
  return withCarry(msg, original, carry);
}

/** The AG-UI messages of AgMessages (§3.2 → AG-UI Message), in order. */
export function toAgUiMessages(messages: readonly L.AgMessage[], carry = true): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    // A block of a type a later minor added (§0.2, §12) has no AG-UI slot but content parts: it
    // rides the content as text and the message whole in metadata.agjson (withCarry).
    const known = m.content.filter(isKnownBlock);
    const text = known
      .filter((b): b is Extract<L.AgKnownBlock, { type: "text" }> => b.type === "text")
      .map((b) => b.text)
      .join("");
    if (m.role === "user") {
      const blocks = m.content.filter((b) => !isKnownBlock(b) || b.type !== "tool-result");
      out.push(withCarry({ id: m.id, role: "user", content: toAgUiContent(blocks).content }, m, carry));
      continue;
    }
    if (m.role === "system") {
      out.push(withCarry({ id: m.id, role: "system", content: text }, m, carry));
      continue;
    }
    let reasoningIndex = 0;
    const calls: ToolCall[] = [];
    const results: Message[] = [];
    for (const block of known) {
      if (block.type === "reasoning") {
        const r: Message = { id: `${m.id}:reasoning:${reasoningIndex++}`, role: "reasoning", content: block.text ?? "" };
        if (block.opaque !== undefined) r.encryptedValue = block.opaque.value;
        out.push(withCarry(r, m, carry));
      } else if (block.type === "tool-call") {
        calls.push(toolCallOf(block));
      } else if (block.type === "tool-result") {
        const id = m.role === "tool" && m.content.length === 1 ? m.id : `${m.id}:result:${block.toolCallId}`;
        results.push(toolMessageOf(id, block, m, carry));
      }
    }
    if (m.role === "assistant" && (text !== "" || calls.length > 0 || results.length === 0)) {
      const a: Message = { id: m.id, role: "assistant" };
      if (text !== "" || calls.length === 0) a.content = text;
      if (calls.length > 0) a.toolCalls = calls;
      out.push(withCarry(a, m, carry));
    }
    out.push(...results);
  }
  return out;
}

/**
 * The AgMessage a carried `metadata.agjson.message` holds (a message split off one carries its
 * parent). `parsed`: the messages were parsed from text (depth capped) by the caller, so the carried
 * message is judged as the JSON value it is — `1e400` in its metadata is the Infinity `JSON.parse`
 * makes of valid JSON (§13.2), not a hand-made non-number — and only its schema is checked.
 */
function carriedMessage(metadata: unknown, parsed: boolean): L.AgMessage | undefined {
  if (!isRecord(metadata)) return undefined;
  const carried = metadata[AGJSON_METADATA_KEY];
  if (!isRecord(carried) || !("message" in carried)) return undefined;
  const checked = validateMessage(carried.message, { posture: "lenient", parsed });
  return checked.ok ? checked.message : undefined;
}

function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function text(x: unknown): string {
  return typeof x === "string" ? x : "";
}

/**
 * AgMessages of AG-UI messages, read structurally (they may come from an untrusted client). Messages
 * split from one carried AgMessage fold back into it; others map field by field: reasoning → an
 * assistant message with one reasoning block, a tool message → a tool message holding one
 * tool-result, activity → an assistant `data` block, developer → system (§3 AgRole). A message with
 * no string `id` or a role AG-UI 1.0 does not define is skipped and named in `skipped`. With
 * `carry: false` a carried `metadata.agjson.message` is ignored and every message maps field by
 * field (the default-deny reading of a client's RunAgentInput, docs/bridges/ag-ui.md "Input").
 * `parsed: true` says the messages are fresh from `JSON.parse` of depth-capped text (never set it
 * for objects of unknown origin): a carried message is then not walked as a hand-made object.
 */
export function fromAgUiMessages(
  messages: readonly unknown[],
  skipped: string[] = [],
  opts: { carry?: boolean; parsed?: boolean } = {},
): L.AgMessage[] {
  const honorCarry = opts.carry !== false;
  const parsed = opts.parsed === true;
  const out: L.AgMessage[] = [];
  const restored = new Set<string>();
  messages.forEach((m, index) => {
    if (!isRecord(m) || typeof m.id !== "string") {
      skipped.push(`/messages/${index}: not a message with a string id`);
      return;
    }
    const carried = honorCarry ? carriedMessage(m.metadata, parsed) : undefined;
    if (carried !== undefined) {
      if (!restored.has(carried.id)) {
        restored.add(carried.id);
        out.push(carried);
      }
      return;
    }
    const id = m.id;
    switch (m.role) {
      case "user":
        out.push({ id, role: "user", content: fromAgUiContent(m.content) });
        return;
      case "system":
      case "developer":
        out.push({ id, role: "system", content: fromAgUiContent(m.content) });
        return;
      case "assistant": {
        const content: AgBlock[] = text(m.content) === "" ? [] : [{ type: "text", text: text(m.content) }];
        for (const call of Array.isArray(m.toolCalls) ? m.toolCalls : []) {
          if (!isRecord(call) || typeof call.id !== "string" || !isRecord(call.function) || typeof call.function.name !== "string")
            continue;
          const block: AgToolCallBlock = {
            type: "tool-call",
            toolCallId: call.id,
            name: call.function.name,
            input: parseArguments(text(call.function.arguments)),
          };
          if (typeof call.encryptedValue === "string") block.signature = call.encryptedValue;
          content.push(block);
        }
        out.push({ id, role: "assistant", content });
        return;
      }
      case "tool": {
        const toolCallId = text(m.toolCallId);
        const result: AgBlock =
          typeof m.error === "string"
            ? { type: "tool-result", toolCallId, content: fromAgUiContent(m.content), outcome: "error", errorText: m.error, isError: true }
            : { type: "tool-result", toolCallId, content: fromAgUiContent(m.content) };
        out.push({ id, role: "tool", content: [result] });
        return;
      }
      case "reasoning": {
        const block: AgBlock =
          typeof m.encryptedValue === "string"
            ? { type: "reasoning", text: text(m.content), opaque: { kind: "encrypted", value: m.encryptedValue } }
            : { type: "reasoning", text: text(m.content) };
        out.push({ id, role: "assistant", content: [block] });
        return;
      }
      case "activity":
        out.push({ id, role: "assistant", content: [{ type: "data", name: text(m.activityType), id, data: m.content ?? null }] });
        return;
      default:
        skipped.push(`/messages/${index}: role ${JSON.stringify(m.role)} is not an AG-UI 1.0 role`);
    }
  });
  return out;
}
