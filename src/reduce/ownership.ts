// The lookups every §5 rule module shares, at the bottom of src/reduce/'s layers
// (docs/architecture.md): which turn owns an event (INV-OWNER), whether a turn is closed and a
// message writable (INV-MSG), and the one setter of an AgMessage field. They read the fold state
// only, so the block registry, the partitions and the rule modules all import them and none of
// them imports back.

import type { MessageBase, MessageState, TurnState } from "./entities.js";
import type { EventEnvelope, ReduceState } from "./fold-state.js";
import { describe } from "./issues.js";
import { copyWithout, hasOwn } from "./json.js";

// ── INV-OWNER: the owning turn ──

/** Whether `turnId` names a closed turn (INV-MSG: a closed turn takes no further content). */
export function isTurnClosed(state: ReduceState, turnId: string | undefined): boolean {
  if (turnId === undefined) return false;
  // Every delta asks this of its block's turn: the turn found last answers a run of them without a lookup.
  let turn = state.lastTurn;
  if (turn === undefined || turn.turnId !== turnId) {
    turn = state.turns.get(turnId);
    if (turn === undefined) return false;
    state.lastTurn = turn;
  }
  return turn.closed;
}

/**
 * INV-OWNER: explicit `turnId` → owning message via `messageId` → last-opened turn.
 * Reports INV-OWNER and returns `undefined` when nothing resolves.
 */
export function ownerTurn(state: ReduceState, event: EventEnvelope, useMessageId = true): TurnState | undefined {
  if (event.turnId !== undefined) {
    const turn = state.turns.get(event.turnId);
    if (turn === undefined) {
      state.fail(
        "INV-TURN",
        `${event.type} names turn "${event.turnId}", which was never opened; a producer opens every turn with turn.start (or subagent.start) before its events — resync with messages.snapshot.`,
      );
    }
    return turn;
  }
  if (useMessageId && event.messageId !== undefined) {
    const message = state.messagesById.get(event.messageId);
    const turnId = message?.base.turnId;
    const turn = turnId === undefined ? undefined : state.turns.get(turnId);
    if (turn === undefined) {
      state.fail(
        "INV-OWNER",
        `${event.type} names message "${event.messageId}", which is not in the working set or has no known turn; send turnId on the event or resync with messages.snapshot.`,
      );
    }
    return turn;
  }
  const last = state.openTurns[state.openTurns.length - 1];
  if (last === undefined) {
    state.fail(
      "INV-OWNER",
      `${event.type} has no owning turn: it carries no turnId and no turn is open; open one with turn.start first or resync with messages.snapshot.`,
    );
  }
  return last;
}

/** INV-OWNER resolution without reporting (for records that may exist without a turn, e.g. memory). */
export function quietTurn(state: ReduceState, event: EventEnvelope): TurnState | undefined {
  if (event.turnId !== undefined) return state.turns.get(event.turnId);
  if (event.messageId !== undefined) {
    const turnId = state.messagesById.get(event.messageId)?.base.turnId;
    return turnId === undefined ? undefined : state.turns.get(turnId);
  }
  return state.openTurns[state.openTurns.length - 1];
}

// ── INV-MSG: may an event write into a message ──

/**
 * INV-MSG: may a block-creating, delta or block-mutating event write into `message`?
 * Reports INV-MSG and returns false for a sealed message or a message of a closed turn.
 */
export function canWrite(state: ReduceState, message: MessageState, what: string, whatId?: string): boolean {
  if (isTurnClosed(state, message.base.turnId)) {
    state.fail(
      "INV-MSG",
      `${state.current.type} ${describe(what, whatId)} targets message "${message.base.id}" of turn "${message.base.turnId ?? ""}", which is already closed; a closed turn takes no further content — resync with messages.snapshot.`,
    );
    return false;
  }
  if (message.sealed) {
    state.fail(
      "INV-MSG",
      `${state.current.type} ${describe(what, whatId)} targets message "${message.base.id}", which message.end already sealed; open a new message with message.start (or adopt one with tool.done.messageId) — resync with messages.snapshot.`,
    );
    return false;
  }
  return true;
}

/** Sets one AgMessage field (an existing key keeps its position, a new one goes last). */
export function setMessageField<K extends keyof MessageBase>(message: MessageState, key: K, value: MessageBase[K]): void {
  const base = message.base;
  // A new key must not land after the open `content` slot of a slotted base (key order).
  if (message.shared || (!hasOwn(base, key) && hasOwn(base, "content"))) {
    message.base = copyWithout(message.base, "content");
    message.shared = false;
  }
  message.base[key] = value;
  message.view = undefined;
}
