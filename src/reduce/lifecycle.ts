// §5 lifecycle rows: turn.start, turn.done, turn.error, turn.abort, subagent.start, subagent.done.
// INV-TURN (§5.0): a turn opens idempotently on turnId and takes exactly one terminal.
// INV-OWNER (§5.0): a closing subagent restores its parent as the last-opened turn.

import type {
  AgOutcome,
  AgSubagentDoneEvent,
  AgSubagentStartEvent,
  AgTurnAbortEvent,
  AgTurnDoneEvent,
  AgTurnErrorEvent,
  AgTurnStartEvent,
  AgUsage,
} from "../../generated/types.js";
import { dropUndefined, isPlainObject, mergeBags } from "./json.js";
import type { ReduceState, TurnState } from "./state.js";
import { mergeSafety } from "./turn-record.js";

/**
 * turn.start: open a top-level turn; a duplicate open merges `threadId`/`trigger` (§5 Turn-open
 * idempotency). A turn.start for a turn that already took a terminal re-opens it (a paused turn
 * resumed by a later invoke); its record is kept and the next terminal overwrites the outcome.
 */
export function foldTurnStart(state: ReduceState, event: AgTurnStartEvent): void {
  state.noteThread(event.threadId);
  const turn = state.openTurn(event.turnId);
  turn.base = dropUndefined({ ...turn.base, threadId: event.threadId, trigger: event.trigger ?? turn.base.trigger });
  state.touchTurn(turn);
}

/** subagent.start: open a nested turn under `parentTurnId` (§1.1); tolerate an unopened label (§8 item 16). */
export function foldSubagentStart(state: ReduceState, event: AgSubagentStartEvent): void {
  const parent = state.turns.get(event.parentTurnId);
  const turn = state.openTurn(event.turnId);
  // An unopened parentTurnId (a spawning tool-call label) is recorded verbatim, never given a turn
  // record of its own; the nested turn's threadId then falls back to the fold's root (§8 item 16).
  turn.base = dropUndefined({
    ...turn.base,
    parentTurnId: event.parentTurnId,
    threadId: turn.base.threadId ?? parent?.base.threadId,
  });
  state.touchTurn(turn);
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
  if (!turn.closed) state.closeTurn(turn);
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
  state.touchTurn(turn);
  state.closeTurn(turn);
}

/**
 * turn.done: record outcome, finishReason, usage, safety, taskState and (for a paused outcome) the
 * asks; REPLACE-merge `messageMetadata` onto `messageId` or the turn's open message; close the turn.
 */
export function foldTurnDone(state: ReduceState, event: AgTurnDoneEvent): void {
  const turn = terminalTurn(state, event.turnId);
  if (turn === undefined) return;
  if (event.messageMetadata !== undefined) {
    const target =
      event.messageId !== undefined ? state.messagesById.get(event.messageId) : state.metadataTarget(turn);
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
        isPlainObject(current) && isPlainObject(event.messageMetadata)
          ? mergeBags(current, event.messageMetadata)
          : event.messageMetadata;
      state.setMessageField(target, "messageMetadata", merged);
    }
  }
  const { outcome } = event;
  // `asks` mirror the latest terminal: recorded for a paused outcome, dropped otherwise (a resumed
  // turn that completes no longer waits on them). pause_turn records no asks (§5 turn.done).
  turn.base = dropUndefined({
    ...turn.base,
    finishReason: event.finishReason,
    taskState: event.taskState ?? turn.base.taskState,
    asks: outcome.type === "paused" ? outcome.asks : undefined,
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
