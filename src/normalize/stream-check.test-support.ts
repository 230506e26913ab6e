/**
 * Structural checks of a normalized event stream against the §5.0 producer invariants (INV-SEQ,
 * INV-TURN, INV-MSG, INV-BLOCK, INV-OWNER, INV-FLUSH). Used by the normalizer tests; useful to
 * any host that wants to audit a normalizer's output without folding it.
 */
import { EXT_EVENT_TYPE } from "../../generated/fold-scaffold.js";
import { BLOCK_KEY_FIELD, EVENT_TYPES_BY_FOLD } from "../../generated/schema-facts.js";
// A checker of recorded streams as well as produced ones: it reads consumer-lenient events.
import type { AgLenientEvent } from "../../generated/types.js";

/** One violated invariant, naming the event `seq` and the rule (the §5.0 invariant). */
export interface StreamProblem {
  seq: number;
  invariant: string;
  message: string;
}

// The event sets below are the §5 fold kinds of generated/schema-facts.ts, so a type the schema
// adds to a kind is checked here without an edit.
const setOf = (...kinds: (keyof typeof EVENT_TYPES_BY_FOLD)[]): ReadonlySet<string> =>
  new Set(kinds.flatMap((k) => EVENT_TYPES_BY_FOLD[k]));
/** Events that open a turn (turn.start, and subagent.start's nested turn). */
const TURN_OPENS = setOf("turn-open");
/**
 * Events that close the turn they name. subagent.done closes its nested turn too, but may follow
 * that turn's own terminal (§5: it then has nothing left to close), so it is handled on its own.
 */
const TURN_CLOSES: ReadonlySet<string> = new Set(EVENT_TYPES_BY_FOLD["turn-close"].filter((t) => t !== "subagent.done"));
/** Block-creating and delta events: each targets an open message (INV-MSG). */
const MESSAGE_TARGETING = setOf("block-create", "block-insert", "block-append", "block-replace", "scratch-append");
/** Events that continue, replace or seal a streaming block: each targets an open block (INV-BLOCK). */
const BLOCK_TARGETING = setOf("block-append", "block-seal", "block-replace", "scratch-append");
const BLOCK_CREATES = setOf("block-create");
const BLOCK_SEALS = setOf("block-seal");

/** The id of the block an event names: `toolCallId` on the tool events, else the envelope `id`. */
function blockKey(ev: AgLenientEvent): unknown {
  if (BLOCK_KEY_FIELD[ev.type] === "toolCallId") return "toolCallId" in ev ? ev.toolCallId : undefined;
  return ev.id;
}

/**
 * Checks one invoke's complete output (push results then flush). Returns every problem found;
 * an empty array means the stream satisfies the checked invariants.
 */
export function checkStream(events: readonly AgLenientEvent[]): StreamProblem[] {
  const problems: StreamProblem[] = [];
  const fail = (ev: AgLenientEvent, invariant: string, message: string): void => {
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
    const turnId = ev.turnId;
    const isExt = EXT_EVENT_TYPE.test(ev.type);
    // Turn-less live events (a vendor frame, a non-terminal error) may trail the last terminal.
    const turnless = isExt || (ev.type === "error" && typeof turnId !== "string");
    if (closesStarted && !TURN_CLOSES.has(ev.type) && ev.type !== "subagent.done" && ev.type !== "turn.start" && !turnless) {
      fail(ev, "INV-FLUSH", `'${ev.type}' after the stream's turn closes began`);
    }
    // subagent.done may follow the nested turn's own terminal (§5: it then has nothing left to close).
    if (typeof turnId === "string" && closedTurns.has(turnId) && ev.type !== "turn.start" && ev.type !== "subagent.done") {
      fail(ev, "INV-TURN", `'${ev.type}' for turn '${turnId}' after it closed with ${closedTurns.get(turnId)}`);
    }
    if (ev.type !== "turn.start" && !isExt && ev.type !== "error" && typeof turnId !== "string") {
      fail(ev, "INV-OWNER", `'${ev.type}' carries no owning turnId`);
    }
    if (TURN_OPENS.has(ev.type)) {
      const id = String(turnId);
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
    if (typeof turnId === "string" && !openTurns.has(turnId) && !isExt && ev.type !== "error") {
      fail(ev, "INV-OWNER", `'${ev.type}' names turn '${turnId}' that is not open`);
    }
    if (ev.type === "message.start") {
      const id = String(ev.id);
      if (openMessages.has(id) || sealedMessages.has(id)) fail(ev, "INV-MSG", `message '${id}' opened twice`);
      openMessages.set(id, String(turnId));
      return;
    }
    if (ev.type === "message.end") {
      const id = String(ev.id);
      if (!openMessages.has(id)) fail(ev, "INV-MSG", `message.end for '${id}' that is not open`);
      openMessages.delete(id);
      sealedMessages.add(id);
      for (const [bid, mid] of openBlocks) if (mid === id) openBlocks.delete(bid);
      return;
    }
    const messageId = ev.messageId;
    if (MESSAGE_TARGETING.has(ev.type)) {
      if (typeof messageId !== "string" || !openMessages.has(messageId)) {
        fail(ev, "INV-MSG", `'${ev.type}' targets message '${String(messageId)}' that is not open`);
      }
    }
    if (ev.type === "tool.done" && !openTurns.has(String(turnId))) {
      fail(ev, "INV-MSG", `tool.done outside an open turn`);
    }
    if (BLOCK_CREATES.has(ev.type)) {
      const id = String(blockKey(ev));
      if (blockIds.has(id)) fail(ev, "INV-BLOCK", `block id '${id}' started twice`);
      blockIds.add(id);
      openBlocks.set(id, String(messageId));
      return;
    }
    if (ev.type === "content.block") {
      const id = ev.id;
      if (typeof id === "string") {
        // A same-id content.block reconciles/REPLACEs the whole block it names (§5.0 INV-BLOCK).
        if (blockIds.has(id) && !wholeBlockIds.has(id)) fail(ev, "INV-BLOCK", `block id '${id}' used twice`);
        blockIds.add(id);
        wholeBlockIds.add(id);
      }
      return;
    }
    const target = blockKey(ev);
    if (BLOCK_TARGETING.has(ev.type)) {
      if (typeof target !== "string" || !openBlocks.has(target)) {
        fail(ev, "INV-BLOCK", `'${ev.type}' targets block '${String(target)}' that is not open`);
      }
    }
    if (BLOCK_SEALS.has(ev.type)) openBlocks.delete(String(target));
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
