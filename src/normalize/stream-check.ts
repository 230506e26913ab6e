/**
 * Structural checks of a normalized event stream against the §5.0 producer invariants (INV-SEQ,
 * INV-TURN, INV-MSG, INV-BLOCK, INV-OWNER, INV-FLUSH). Used by the normalizer tests; useful to
 * any host that wants to audit a normalizer's output without folding it.
 */
import type { AgEvent } from "../../generated/types.js";

/** One violated invariant, naming the event `seq` and the rule (STYLE habit 6). */
export interface StreamProblem {
  seq: number;
  invariant: string;
  message: string;
}

const TURN_CLOSES = new Set(["turn.done", "turn.error", "turn.abort"]);
const BLOCK_STARTS: Record<string, string> = { "text.start": "text", "reasoning.start": "reasoning", "tool.start": "tool" };

function field(ev: AgEvent, key: string): unknown {
  return (ev as unknown as Record<string, unknown>)[key];
}

/**
 * Checks one invoke's complete output (push results then flush). Returns every problem found;
 * an empty array means the stream satisfies the checked invariants.
 */
export function checkStream(events: readonly AgEvent[]): StreamProblem[] {
  const problems: StreamProblem[] = [];
  const fail = (ev: AgEvent, invariant: string, message: string): void => {
    problems.push({ seq: ev.seq, invariant, message });
  };
  const openTurns = new Set<string>();
  const closedTurns = new Map<string, string>();
  const openMessages = new Map<string, string>();
  const sealedMessages = new Set<string>();
  const blockIds = new Set<string>();
  const wholeBlockIds = new Set<string>();
  const openBlocks = new Map<string, string>();
  const assembled = new Set<string>();
  let closesStarted = false;

  events.forEach((ev, i) => {
    if (ev.seq !== i) fail(ev, "INV-SEQ", `expected seq ${i}, got ${ev.seq}`);
    const turnId = field(ev, "turnId");
    // Turn-less live events (a vendor frame, a non-terminal error) may trail the last terminal.
    const turnless = ev.type.startsWith("ext.") || (ev.type === "error" && typeof turnId !== "string");
    if (closesStarted && !TURN_CLOSES.has(ev.type) && ev.type !== "subagent.done" && ev.type !== "turn.start" && !turnless) {
      fail(ev, "INV-FLUSH", `'${ev.type}' after the stream's turn closes began`);
    }
    // subagent.done may follow the nested turn's own terminal (§5: it then has nothing left to close).
    if (typeof turnId === "string" && closedTurns.has(turnId) && ev.type !== "turn.start" && ev.type !== "subagent.done") {
      fail(ev, "INV-TURN", `'${ev.type}' for turn '${turnId}' after it closed with ${closedTurns.get(turnId)}`);
    }
    if (ev.type !== "turn.start" && !ev.type.startsWith("ext.") && ev.type !== "error" && typeof turnId !== "string") {
      fail(ev, "INV-OWNER", `'${ev.type}' carries no owning turnId`);
    }
    if (ev.type === "turn.start" || ev.type === "subagent.start") {
      const id = String(field(ev, "turnId"));
      if (openTurns.has(id) || closedTurns.has(id)) fail(ev, "INV-TURN", `turn '${id}' opened twice`);
      openTurns.add(id);
      closesStarted = false;
      return;
    }
    if (TURN_CLOSES.has(ev.type)) {
      const id = String(turnId);
      if (!openTurns.has(id)) fail(ev, "INV-TURN", `${ev.type} for turn '${id}' that is not open`);
      openTurns.delete(id);
      closedTurns.set(id, ev.type);
      for (const [mid, owner] of openMessages) {
        if (owner === id) fail(ev, "INV-MSG", `turn '${id}' closed with message '${mid}' still open`);
      }
      // Once the last open turn closes, only closes of other turns may follow.
      if (openTurns.size === 0) closesStarted = true;
      return;
    }
    if (ev.type === "subagent.done") return;
    if (typeof turnId === "string" && !openTurns.has(turnId) && !ev.type.startsWith("ext.") && ev.type !== "error") {
      fail(ev, "INV-OWNER", `'${ev.type}' names turn '${turnId}' that is not open`);
    }
    if (ev.type === "message.start") {
      const id = String(field(ev, "id"));
      if (openMessages.has(id) || sealedMessages.has(id)) fail(ev, "INV-MSG", `message '${id}' opened twice`);
      openMessages.set(id, String(turnId));
      return;
    }
    if (ev.type === "message.end") {
      const id = String(field(ev, "id"));
      if (!openMessages.has(id)) fail(ev, "INV-MSG", `message.end for '${id}' that is not open`);
      openMessages.delete(id);
      sealedMessages.add(id);
      for (const [bid, mid] of openBlocks) if (mid === id) openBlocks.delete(bid);
      return;
    }
    const messageId = field(ev, "messageId");
    const blockCreating = ev.type in BLOCK_STARTS || ev.type === "content.block";
    if (blockCreating || (ev.type.endsWith(".delta") && ev.type !== "state.delta" && !ev.type.startsWith("artifact.")) || ev.type === "tool.args.assembled") {
      if (typeof messageId !== "string" || !openMessages.has(messageId)) {
        fail(ev, "INV-MSG", `'${ev.type}' targets message '${String(messageId)}' that is not open`);
      }
    }
    if (ev.type === "tool.done" && !openTurns.has(String(turnId))) {
      fail(ev, "INV-MSG", `tool.done outside an open turn`);
    }
    const kind = BLOCK_STARTS[ev.type];
    if (kind !== undefined) {
      const id = String(field(ev, kind === "tool" ? "toolCallId" : "id"));
      if (blockIds.has(id)) fail(ev, "INV-BLOCK", `block id '${id}' started twice`);
      blockIds.add(id);
      openBlocks.set(id, String(messageId));
      return;
    }
    if (ev.type === "content.block") {
      const id = field(ev, "id");
      if (typeof id === "string") {
        // A same-id content.block reconciles/REPLACEs the whole block it names (§5.0 INV-BLOCK).
        if (blockIds.has(id) && !wholeBlockIds.has(id)) fail(ev, "INV-BLOCK", `block id '${id}' used twice`);
        blockIds.add(id);
        wholeBlockIds.add(id);
      }
      return;
    }
    const target = ev.type.startsWith("tool.args") ? field(ev, "toolCallId") : field(ev, "id");
    if (/^(text|reasoning)\.(delta|end|opaque)$|^reasoning\.opaque\.delta$|^tool\.args\./.test(ev.type)) {
      if (typeof target !== "string" || !openBlocks.has(target)) {
        fail(ev, "INV-BLOCK", `'${ev.type}' targets block '${String(target)}' that is not open`);
      }
    }
    if (ev.type === "text.end" || ev.type === "reasoning.end") openBlocks.delete(String(target));
    if (ev.type === "tool.args.assembled") {
      if (assembled.has(String(target))) fail(ev, "INV-BLOCK", `tool call '${String(target)}' assembled twice`);
      assembled.add(String(target));
      openBlocks.delete(String(target));
    }
  });
  const last = events[events.length - 1];
  if (last) {
    for (const id of openTurns) problems.push({ seq: last.seq, invariant: "INV-TURN", message: `turn '${id}' never closed` });
    for (const id of openMessages.keys()) problems.push({ seq: last.seq, invariant: "INV-MSG", message: `message '${id}' never ended` });
  }
  return problems;
}
