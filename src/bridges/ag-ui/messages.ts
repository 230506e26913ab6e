/**
 * AgMessage (§3.2) ⇄ AG-UI `Message`, for MESSAGES_SNAPSHOT (§5 `messages.snapshot`) and for the
 * history a RunAgentInput carries. One AgMessage can become several AG-UI messages (AG-UI keeps
 * reasoning and tool results in messages of their own roles); when `carry` is on, each message made
 * from an AgMessage carries that whole AgMessage under `metadata.agjson`, so a snapshot echoed back
 * (or posted as history) restores reasoning opaque blobs and every other replay-load-bearing field
 * byte-identical (§13.2).
 */
import type { AgBlock, AgMessage, AgToolCallBlock, AgToolResultBlock } from "../../../generated/types.js";
import { validateMessage } from "../../validate/index.js";
import { fromAgUiContent, toAgUiContent } from "./content.js";
import { AGJSON_METADATA_KEY, type Message, type ToolCall } from "./vocabulary.js";

function withCarry(msg: Message, original: AgMessage, carry: boolean): Message {
  if (carry) msg.metadata = { [AGJSON_METADATA_KEY]: { message: original } };
  return msg;
}

function toolCallOf(block: AgToolCallBlock): ToolCall {
  const call: ToolCall = {
    id: block.toolCallId,
    type: "function",
    function: { name: block.name, arguments: typeof block.input === "string" ? block.input : JSON.stringify(block.input ?? {}) },
  };
  // Gemini's tool-call signature is AG-UI's per-call encrypted value (§2 tool-call.signature).
  if (block.signature !== undefined) call.encryptedValue = block.signature;
  return call;
}

function toolMessageOf(id: string, block: AgToolResultBlock, original: AgMessage, carry: boolean): Message {
  const msg: Message = { id, role: "tool", toolCallId: block.toolCallId, content: toAgUiContent(block.content).content };
  if (block.outcome === "error") msg.error = block.errorText;
  return withCarry(msg, original, carry);
}

/** The AG-UI messages of AgMessages (§3.2 → AG-UI Message), in order. */
export function toAgUiMessages(messages: readonly AgMessage[], carry = true): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const text = m.content.filter((b): b is Extract<AgBlock, { type: "text" }> => b.type === "text").map((b) => b.text).join("");
    if (m.role === "user") {
      const blocks = m.content.filter((b) => b.type !== "tool-result");
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
    for (const block of m.content) {
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

/** The AgMessage a carried `metadata.agjson.message` holds, when it is one and matches `id`. */
function carriedMessage(metadata: Record<string, unknown> | undefined, id: string): AgMessage | undefined {
  const carried = metadata?.[AGJSON_METADATA_KEY];
  if (typeof carried !== "object" || carried === null || !("message" in carried)) return undefined;
  const checked = validateMessage(carried.message, { posture: "lenient" });
  return checked.ok && checked.message.id === id ? checked.message : undefined;
}

function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * AgMessages of AG-UI messages. Messages split from one carried AgMessage fold back into it; other
 * messages map field by field (reasoning → an assistant message with one reasoning block; a tool
 * message → a tool message holding one tool-result; activity → an assistant `data` block).
 */
export function fromAgUiMessages(messages: readonly Message[]): AgMessage[] {
  const out: AgMessage[] = [];
  const restored = new Set<string>();
  for (const m of messages) {
    const carried = carriedMessage(m.metadata, m.id) ?? (m.metadata !== undefined ? carriedSibling(m.metadata) : undefined);
    if (carried !== undefined) {
      if (!restored.has(carried.id)) {
        restored.add(carried.id);
        out.push(carried);
      }
      continue;
    }
    switch (m.role) {
      case "user":
        out.push({ id: m.id, role: "user", content: fromAgUiContent(m.content) });
        break;
      case "system":
      case "developer":
        out.push({ id: m.id, role: "system", content: fromAgUiContent(m.content) });
        break;
      case "assistant": {
        const content: AgBlock[] = m.content === undefined || m.content === "" ? [] : [{ type: "text", text: m.content }];
        for (const call of m.toolCalls ?? []) {
          const block: AgToolCallBlock = { type: "tool-call", toolCallId: call.id, name: call.function.name, input: parseArguments(call.function.arguments) };
          if (call.encryptedValue !== undefined) block.signature = call.encryptedValue;
          content.push(block);
        }
        out.push({ id: m.id, role: "assistant", content });
        break;
      }
      case "tool": {
        const result: AgBlock =
          m.error !== undefined
            ? { type: "tool-result", toolCallId: m.toolCallId, content: fromAgUiContent(m.content), outcome: "error", errorText: m.error, isError: true }
            : { type: "tool-result", toolCallId: m.toolCallId, content: fromAgUiContent(m.content) };
        out.push({ id: m.id, role: "tool", content: [result] });
        break;
      }
      case "reasoning": {
        const block: AgBlock = m.encryptedValue !== undefined
          ? { type: "reasoning", text: m.content, opaque: { kind: "encrypted", value: m.encryptedValue } }
          : { type: "reasoning", text: m.content };
        out.push({ id: m.id, role: "assistant", content: [block] });
        break;
      }
      case "activity":
        out.push({ id: m.id, role: "assistant", content: [{ type: "data", name: m.activityType, id: m.id, data: m.content }] });
        break;
    }
  }
  return out;
}

/** A message split off an AgMessage (reasoning, tool result) carries its parent under a different id. */
function carriedSibling(metadata: Record<string, unknown>): AgMessage | undefined {
  const carried = metadata[AGJSON_METADATA_KEY];
  if (typeof carried !== "object" || carried === null || !("message" in carried)) return undefined;
  const checked = validateMessage(carried.message, { posture: "lenient" });
  return checked.ok ? checked.message : undefined;
}
