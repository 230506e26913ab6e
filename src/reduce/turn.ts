// §5 turn family: the rows that open, close and annotate an AgTurnRecord — turn.start,
// turn.done, turn.error, turn.abort, subagent.start, subagent.done (lifecycle) and prompt.blocked,
// guardrail.result, agent.capabilities, handoff, source, display.required (records on the turn,
// never content) — plus §4's live-only lifecycle markers `error`, `step.start`, `step.done`, which
// fold to nothing (§5 table: steps have no AgReduceResult container).
//
// INV-TURN (§5.0): a turn opens idempotently on turnId and takes exactly one terminal.
// INV-OWNER (§5.0): an event's owning turn is its explicit turnId → the turn of the message its
// messageId names → the last-opened turn, which a closing subagent restores to its parent.

import type {
  AgAgentCapabilitiesEvent,
  AgDisplayRequiredEvent,
  AgGuardrailResultEvent,
  AgHandoffEvent,
  AgOutcome,
  AgPromptBlockedEvent,
  AgSafety,
  AgSourceEvent,
  AgSubagentDoneEvent,
  AgSubagentStartEvent,
  AgTurnAbortEvent,
  AgTurnDoneEvent,
  AgTurnErrorEvent,
  AgTurnStartEvent,
  AgUsage,
} from "../../generated/lenient-types.js";
import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { DEF_FIELDS, isKnownOutcome } from "../../generated/schema-facts.js";
import type { TurnState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { dropUndefined, isPlainObject, jsonEqual, mergeBags } from "./json.js";
import { ownerTurn, setMessageField } from "./ownership.js";
import { metadataTarget } from "./partition.js";

// ── INV-TURN / INV-OWNER: the turn registry ──

/** Opens (or re-opens) a turn, idempotent on turnId (§5 "Turn-open idempotency"). */
export function openTurn(state: ReduceState, turnId: string): TurnState {
  let turn = state.turns.get(turnId);
  if (turn === undefined) {
    turn = {
      turnId,
      base: { turnId },
      safety: undefined,
      handoffs: undefined,
      sourceIds: undefined,
      sources: undefined,
      displayRequired: undefined,
      guardrails: undefined,
      closed: false,
      terminated: false,
      view: undefined,
    };
    state.turns.set(turnId, turn);
    state.turnOrder.push(turn);
  }
  if (turn.closed) {
    turn.closed = false;
    turn.terminated = false;
  }
  if (!state.openTurns.includes(turn)) state.openTurns.push(turn);
  return turn;
}

/** Closes a turn: it leaves the open stack (restoring its parent as last-opened) and its partitions end. */
export function closeTurn(state: ReduceState, turn: TurnState): void {
  turn.closed = true;
  const index = state.openTurns.indexOf(turn);
  if (index >= 0) state.openTurns.splice(index, 1);
  const ofTurn = state.partitions.get(turn.turnId);
  if (ofTurn !== undefined) for (const partition of ofTurn.values()) partition.pointer = undefined;
}

/** The turn record changed: its view is rebuilt at the next read. */
export function touchTurn(turn: TurnState): void {
  turn.view = undefined;
}

// ── §5 lifecycle rows ──

/**
 * turn.start: open a top-level turn; a duplicate open merges `threadId`/`trigger` (§5 Turn-open
 * idempotency). A turn.start for a turn that already took a terminal re-opens it (a paused turn
 * resumed by a later invoke); its record is kept and the next terminal overwrites the outcome.
 */
export function foldTurnStart(state: ReduceState, event: AgTurnStartEvent): void {
  state.noteThread(event.threadId);
  const turn = openTurn(state, event.turnId);
  turn.base = dropUndefined({ ...turn.base, threadId: event.threadId, trigger: event.trigger ?? turn.base.trigger });
  touchTurn(turn);
}

/** subagent.start: open a nested turn under `parentTurnId` (§1.1); tolerate an unopened label (§8 item 16). */
export function foldSubagentStart(state: ReduceState, event: AgSubagentStartEvent): void {
  const parent = state.turns.get(event.parentTurnId);
  const turn = openTurn(state, event.turnId);
  // An unopened parentTurnId (a spawning tool-call label) is recorded verbatim, never given a turn
  // record of its own; the nested turn's threadId then falls back to the fold's root (§8 item 16).
  turn.base = dropUndefined({
    ...turn.base,
    parentTurnId: event.parentTurnId,
    threadId: turn.base.threadId ?? parent?.base.threadId,
  });
  touchTurn(turn);
}

/** subagent.done: close the nested turn; if a terminal already closed it, nothing is left to do. */
export function foldSubagentDone(state: ReduceState, event: AgSubagentDoneEvent): void {
  const turn = state.turns.get(event.turnId);
  if (turn === undefined) {
    state.fail(
      "INV-TURN",
      `subagent.done names turn "${event.turnId}", which was never opened; open nested turns with subagent.start — resync with messages.snapshot.`,
    );
    return;
  }
  if (!turn.closed) closeTurn(state, turn);
}

/** The turn a terminal closes: explicit turnId, else the last-opened turn (INV-OWNER). */
function terminalTurn(state: ReduceState, turnId: string | undefined): TurnState | undefined {
  const turn = turnId === undefined ? state.openTurns[state.openTurns.length - 1] : state.turns.get(turnId);
  const type = state.current.type;
  if (turn === undefined) {
    state.fail(
      turnId === undefined ? "INV-OWNER" : "INV-TURN",
      turnId === undefined
        ? `${type} carries no turnId and no turn is open, so there is nothing to close; send turnId — resync with messages.snapshot.`
        : `${type} names turn "${turnId}", which was never opened; every turn opens with turn.start (or subagent.start) — resync with messages.snapshot.`,
    );
    return undefined;
  }
  if (turn.terminated) {
    state.fail(
      "INV-TURN",
      `${type} for turn "${turn.turnId}", which a terminal already closed with outcome "${turn.base.outcome?.type ?? "?"}"; a turn takes exactly one of turn.done | turn.error | turn.abort (§8 item 17: an interrupted turn is never later a success) — the first terminal stands.`,
    );
    return undefined;
  }
  return turn;
}

function closeWithTerminal(state: ReduceState, turn: TurnState, outcome: AgOutcome, usage: AgUsage | undefined): void {
  // INV-DELTA: usage lands verbatim, `cumulative` included; nothing subtracts.
  turn.base = dropUndefined({ ...turn.base, outcome, usage: usage ?? turn.base.usage });
  turn.terminated = true;
  touchTurn(turn);
  closeTurn(state, turn);
}

/**
 * turn.done: record outcome, finishReason, usage, safety, taskState and (for a paused outcome) the
 * asks; REPLACE-merge `messageMetadata` onto `messageId` or the turn's open message; close the turn.
 */
export function foldTurnDone(state: ReduceState, event: AgTurnDoneEvent): void {
  const turn = terminalTurn(state, event.turnId);
  if (turn === undefined) return;
  if (event.messageMetadata !== undefined) {
    const target = event.messageId !== undefined ? state.messagesById.get(event.messageId) : metadataTarget(state, turn);
    if (target === undefined) {
      state.fail(
        "INV-OWNER",
        event.messageId !== undefined
          ? `turn.done.messageMetadata names message "${event.messageId}", which is not in the working set; the metadata was not folded — resync with messages.snapshot.`
          : `turn.done carries messageMetadata but turn "${turn.turnId}" has no message to carry it; name one with messageId — resync with messages.snapshot.`,
      );
    } else {
      const current = target.base.messageMetadata;
      // REPLACE-merge (§4 Vercel usage convention): key-by-key when both are objects, else REPLACE.
      const merged =
        isPlainObject(current) && isPlainObject(event.messageMetadata) ? mergeBags(current, event.messageMetadata) : event.messageMetadata;
      setMessageField(target, "messageMetadata", merged);
    }
  }
  const { outcome } = event;
  // `asks` mirror the latest terminal: recorded for a paused outcome, dropped otherwise (a resumed
  // turn that completes no longer waits on them). pause_turn records no asks (§5 turn.done).
  turn.base = dropUndefined({
    ...turn.base,
    finishReason: event.finishReason,
    taskState: event.taskState ?? turn.base.taskState,
    asks: isKnownOutcome(outcome) && outcome.type === "paused" ? outcome.asks : undefined,
  });
  mergeSafety(turn, event.safety);
  closeWithTerminal(state, turn, outcome, event.usage);
}

/** turn.error: terminal; outcome `{type:"error", message, code?}`; usage verbatim; no content. */
export function foldTurnError(state: ReduceState, event: AgTurnErrorEvent): void {
  const turn = terminalTurn(state, event.turnId);
  if (turn === undefined) return;
  closeWithTerminal(state, turn, dropUndefined({ type: "error", message: event.message, code: event.code }), event.usage);
}

/** turn.abort: terminal; outcome `{type:"aborted", reason?}`; taskState is never invented (§5). */
export function foldTurnAbort(state: ReduceState, event: AgTurnAbortEvent): void {
  const turn = terminalTurn(state, event.turnId);
  if (turn === undefined) return;
  closeWithTerminal(state, turn, dropUndefined({ type: "aborted", reason: event.reason }), undefined);
}

// ── §5 rows recorded on the turn (non-folding into content) ──

/**
 * The record a §5 turn-record row lands: the event's values of the record type's fields (read from
 * the generated table, so a field the schema adds to both is copied too), undefined ones left out.
 */
function recordOf<E extends object, K extends keyof E>(event: E, fields: readonly K[]): Pick<E, K> {
  const record: Partial<Pick<E, K>> = {};
  for (const k of fields) if (event[k] !== undefined) record[k] = event[k];
  // Every field the record requires is required on its event too (the compiler checks the fields
  // exist on E; the strict schema, that a required one is present), so nothing required is missing.
  return record as Pick<E, K>;
}

/** Merges safety entries into the turn's `safety[]`, skipping entries already recorded verbatim. */
export function mergeSafety(turn: TurnState, safety: AgSafety[] | undefined): void {
  if (safety === undefined) return;
  const merged = (turn.safety ??= []);
  for (const entry of safety) if (!merged.some((known) => jsonEqual(known, entry))) merged.push(entry);
  turn.view = undefined;
}

/** prompt.blocked: `promptBlocked = {reason, safety?}` and its safety merged into the turn's (§5 prompt.blocked). */
export function foldPromptBlocked(state: ReduceState, event: AgPromptBlockedEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  turn.base = { ...turn.base, promptBlocked: recordOf(event, DEF_FIELDS.AgPromptBlockedRecord) };
  mergeSafety(turn, event.safety);
  touchTurn(turn);
}

/** guardrail.result: append an evaluation record to `guardrails[]`. */
export function foldGuardrailResult(state: ReduceState, event: AgGuardrailResultEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  (turn.guardrails ??= []).push(recordOf(event, DEF_FIELDS.AgGuardrailRecord));
  touchTurn(turn);
}

/** agent.capabilities: record (REPLACE) the agent's AgCapabilities on the turn. */
export function foldAgentCapabilities(state: ReduceState, event: AgAgentCapabilitiesEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  turn.base = { ...turn.base, capabilities: event.capabilities };
  touchTurn(turn);
}

/** handoff: append the agent-to-agent edge to `handoffs[]`. */
export function foldHandoff(state: ReduceState, event: AgHandoffEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  (turn.handoffs ??= []).push(recordOf(event, DEF_FIELDS.AgHandoffRecord));
  touchTurn(turn);
}

/**
 * source: land the full record on `sources[]` and its id on `sourceIds[]` (§5 source), in arrival
 * order (which preserves groundingChunks order). A repeated sourceId REPLACEs its record in place.
 */
export function foldSource(state: ReduceState, event: AgSourceEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  const record = recordOf(event, DEF_FIELDS.AgSourceRecord);
  const sources = (turn.sources ??= []);
  const index = sources.findIndex((known) => known.sourceId === event.sourceId);
  if (index >= 0) sources[index] = record;
  else sources.push(record);
  const sourceIds = (turn.sourceIds ??= []);
  if (!sourceIds.includes(event.sourceId)) sourceIds.push(event.sourceId);
  touchTurn(turn);
}

/** display.required: append `{provider, html}` to `displayRequired[]`; never dropped (ToS, §13.3). */
export function foldDisplayRequired(state: ReduceState, event: AgDisplayRequiredEvent): void {
  const turn = ownerTurn(state, event);
  if (turn === undefined) return;
  (turn.displayRequired ??= []).push(recordOf(event, DEF_FIELDS.AgDisplayRequiredRecord));
  touchTurn(turn);
}

/** The turn family's §5 rows (the live-only `error`, `step.*` have none). */
export const TURN_FOLD: FamilyFoldHandlers<"turn", ReduceState> = {
  "turn.start": foldTurnStart,
  "turn.done": foldTurnDone,
  "turn.error": foldTurnError,
  "turn.abort": foldTurnAbort,
  "subagent.start": foldSubagentStart,
  "subagent.done": foldSubagentDone,
  "prompt.blocked": foldPromptBlocked,
  "guardrail.result": foldGuardrailResult,
  "agent.capabilities": foldAgentCapabilities,
  handoff: foldHandoff,
  source: foldSource,
  "display.required": foldDisplayRequired,
};
