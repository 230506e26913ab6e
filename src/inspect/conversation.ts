/**
 * The fold (`reduce()`, §5) as the Conversation region shows it: each message's blocks reduced to
 * text — text with its citations, reasoning, tool calls with their input, result and outcome
 * (§2: a `tool-result` block answers the `tool-call` of the same `toolCallId`) — and each turn's
 * outcome, usage, cost and open HITL asks (§3.1). Every string is cut (json-view.ts): the page shows
 * stream content as text and never holds a value whole.
 */
import type { Lenient } from "../validate/index.js";
import { cut, shortJson } from "./json-view.js";
import type { ConversationMessage, ConversationPart, ConversationTurn, FoldAnswer } from "./protocol.js";
import { isRecord } from "../json-guards.js";

/** Messages of a fold sent to the page: the last ones, where the selected event landed. */
export const MESSAGES_SHOWN = 200;

function str(x: unknown): string | undefined {
  return typeof x === "string" ? x : undefined;
}

/** The text a block list carries (a tool result's `content`), other blocks as compact JSON. */
function textOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return "";
  return cut(blocks.map((b) => (isRecord(b) && b.type === "text" && typeof b.text === "string" ? b.text : shortJson(b))).join("\n"));
}

/** A citation's label and where it points, as text (a `javascript:` URL is only ever shown). */
function citationOf(c: unknown): { label: string; target: string } {
  if (!isRecord(c)) return { label: shortJson(c, 200), target: "" };
  const label = cut(str(c.citedText) ?? str(c.title) ?? str(c.kind) ?? "citation", 200);
  const target = cut(
    str(c.url) ??
      str(c.documentTitle) ??
      str(c.fileId) ??
      (typeof c.documentIndex === "number" ? `document ${c.documentIndex}` : shortJson(c, 300)),
    500,
  );
  return { label, target };
}

function partOf(block: unknown, results: Map<string, { outcome: string; text: string }>): ConversationPart {
  if (!isRecord(block)) return { kind: "other", type: typeof block, json: shortJson(block) };
  const type = str(block.type) ?? "(no type)";
  if (type === "text" && typeof block.text === "string") {
    const citations = Array.isArray(block.citations) ? block.citations.map(citationOf) : [];
    return { kind: "text", text: cut(block.text, 100_000), ...(citations.length > 0 ? { citations } : {}) };
  }
  if (type === "reasoning")
    return { kind: "reasoning", text: cut(str(block.text) ?? (block.opaque !== undefined ? "(opaque reasoning)" : ""), 50_000) };
  if (type === "tool-call") {
    const id = str(block.toolCallId) ?? "";
    const result = results.get(id);
    return { kind: "tool-call", id, name: cut(str(block.name) ?? "", 200), input: shortJson(block.input), ...(result ? { result } : {}) };
  }
  if (type === "tool-result") return { kind: "tool-result", id: str(block.toolCallId) ?? "", ...resultOf(block) };
  return { kind: "other", type: cut(type, 200), json: shortJson(block) };
}

function resultOf(block: Record<string, unknown>): { outcome: string; text: string } {
  const outcome = str(block.outcome) ?? (block.isError === true ? "error" : "ok");
  const text =
    typeof block.errorText === "string"
      ? cut(block.errorText)
      : textOf(block.content) || (block.structuredContent !== undefined ? shortJson(block.structuredContent) : "");
  return { outcome, text };
}

/** The Conversation region's view of a fold after event `at`. */
export function conversationOf(result: Lenient.AgReduceResult, at: number, needsResync: boolean, foldErrors: number): FoldAnswer {
  const all = result.messages;
  const shown = all.slice(Math.max(0, all.length - MESSAGES_SHOWN));
  // A result is shown inside its call; a result whose call is not shown keeps its own row.
  const results = new Map<string, { outcome: string; text: string }>();
  const calls = new Set<string>();
  for (const m of shown) {
    for (const b of m.content as unknown[]) {
      if (isRecord(b) && b.type === "tool-result" && typeof b.toolCallId === "string") results.set(b.toolCallId, resultOf(b));
      if (isRecord(b) && b.type === "tool-call" && typeof b.toolCallId === "string") calls.add(b.toolCallId);
    }
  }
  const messages: ConversationMessage[] = [];
  for (const m of shown) {
    const parts = (m.content as unknown[])
      .filter((b) => !(isRecord(b) && b.type === "tool-result" && typeof b.toolCallId === "string" && calls.has(b.toolCallId)))
      .map((b) => partOf(b, results));
    if (parts.length === 0) continue;
    messages.push({
      id: cut(m.id, 200),
      role: cut(String(m.role), 100),
      ...(m.turnId !== undefined ? { turn: cut(m.turnId, 200) } : {}),
      ...(m.agentName !== undefined || m.agentId !== undefined ? { agent: cut(m.agentName ?? m.agentId ?? "", 200) } : {}),
      parts,
    });
  }
  const turns: ConversationTurn[] = result.turns.slice(-MESSAGES_SHOWN).map((t) => {
    const record: Record<string, unknown> = { ...t };
    const usage = isRecord(record.usage) ? record.usage : undefined;
    const cost = usage !== undefined && typeof usage.costUsd === "number" ? `$${usage.costUsd}` : undefined;
    return {
      turn: cut(t.turnId, 200),
      ...(t.outcome !== undefined
        ? { outcome: isRecord(t.outcome) && typeof t.outcome.type === "string" ? cut(t.outcome.type, 100) : shortJson(t.outcome, 300) }
        : {}),
      ...(t.finishReason !== undefined ? { finishReason: cut(String(t.finishReason), 100) } : {}),
      ...(usage !== undefined ? { usage: shortJson(usage, 1000) } : {}),
      ...(cost !== undefined ? { cost } : {}),
      asks: (t.asks ?? []).map((a) => shortJson(a, 1000)),
    };
  });
  return {
    at,
    needsResync,
    messagesTotal: all.length,
    messagesShown: shown.length,
    messages,
    turns,
    artifacts: result.artifacts
      .slice(-50)
      .map((a) => ({ id: cut(a.artifactId, 200), ...(a.name !== undefined ? { name: cut(a.name, 200) } : {}), text: textOf(a.parts) })),
    ...(result.state !== undefined ? { state: shortJson(result.state, 20_000) } : {}),
    foldErrors,
  };
}
