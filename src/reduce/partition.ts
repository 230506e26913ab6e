// §5 "Message partitioning": the (turnId, candidateIndex) partitions, the working set of
// messages, and the message a new block attaches to. Above the block registry (removing a message
// unregisters its blocks) and below the §5 rule modules that use it (message, turn, text,
// reasoning, tool, content, snapshot) — docs/architecture.md draws the layers.
//
// - a new block attaches to the most-recently-opened message of (owning turn, candidateIndex),
//   absent candidateIndex ⇒ 0 ({@link blockTarget});
// - INV-MSG (§5.0): a sealed message, or any message of a closed turn, takes no block-creating or
//   delta event — a reduce()-error, never a silent attach (`canWrite` in ownership.ts).

import { unregisterBlock } from "./block-registry.js";
import { MessageState, type MessageBase, type Partition, type TurnState } from "./entities.js";
import type { EventEnvelope, ReduceState } from "./fold-state.js";
import { describe } from "./issues.js";
import { canWrite, ownerTurn } from "./ownership.js";

/** The (turnId, candidateIndex) partition; created on demand when `create`. */
export function findPartition(state: ReduceState, turnId: string, candidateIndex: number, create: true): Partition;
export function findPartition(state: ReduceState, turnId: string, candidateIndex: number, create: boolean): Partition | undefined;
export function findPartition(state: ReduceState, turnId: string, candidateIndex: number, create: boolean): Partition | undefined {
  let ofTurn = state.partitions.get(turnId);
  if (ofTurn === undefined) {
    if (!create) return undefined;
    state.partitions.set(turnId, (ofTurn = new Map()));
  }
  let found = ofTurn.get(candidateIndex);
  if (found === undefined && create) ofTurn.set(candidateIndex, (found = { pointer: undefined, members: [] }));
  return found;
}

function indexByTurn(byTurn: Map<string, MessageState[]>, message: MessageState): void {
  const turnId = message.base.turnId;
  if (turnId === undefined) return;
  const ofTurn = byTurn.get(turnId);
  if (ofTurn === undefined) byTurn.set(turnId, [message]);
  else ofTurn.push(message);
}

/** Records `message` in its (turnId, candidateIndex) partition; `point` makes it the partition's open message. */
export function joinPartition(state: ReduceState, message: MessageState, point: boolean): void {
  const { turnId, candidateIndex } = message.base;
  if (turnId === undefined) return;
  const partition = findPartition(state, turnId, candidateIndex ?? 0, true);
  partition.members.push(message);
  if (point) partition.pointer = message;
}

/** Appends a message to the working set (ascending opening order). */
export function addMessage(state: ReduceState, base: MessageBase, sealed: boolean, adopted: boolean): MessageState {
  const message = new MessageState(base, sealed, adopted);
  state.messages.push(message);
  state.messagesById.set(base.id, message);
  if (state.removedIds.size > 0) state.removedIds.delete(base.id);
  if (state.byTurn !== undefined) indexByTurn(state.byTurn, message);
  return message;
}

/** The messages opened under `turnId` still listed (removed ones included: callers check `present`). */
export function messagesOfTurn(state: ReduceState, turnId: string): readonly MessageState[] {
  let byTurn = state.byTurn;
  if (byTurn === undefined) {
    byTurn = state.byTurn = new Map();
    for (const message of state.messages) indexByTurn(byTurn, message);
  }
  return byTurn.get(turnId) ?? [];
}

/** Forgets the per-turn lists of `turnId` (REMOVE_ALL removed them), or of every turn. */
export function forgetTurnMessages(state: ReduceState, turnId?: string): void {
  if (turnId === undefined) state.byTurn = undefined;
  else state.byTurn?.delete(turnId);
}

/** message.end: a sealed message can never be a partition pointer again, so it leaves the members. */
export function leavePartition(state: ReduceState, message: MessageState): void {
  const { turnId, candidateIndex } = message.base;
  if (turnId === undefined) return;
  const members = findPartition(state, turnId, candidateIndex ?? 0, false)?.members;
  if (members === undefined) return;
  // Usually the last one opened; an earlier one only when messages of a partition interleave.
  const index = members.lastIndexOf(message);
  if (index === members.length - 1) members.pop();
  else if (index >= 0) members.splice(index, 1);
}

/**
 * §5 message partitioning: the message a new block attaches to. An explicit base `messageId`
 * names it; otherwise the most-recently-opened message of (owning turn, candidateIndex).
 * Reports INV-OWNER / REMOVE-NO-REOPEN / INV-MSG and returns `undefined` when there is none.
 */
export function blockTarget(
  state: ReduceState,
  event: EventEnvelope,
  candidateIndex: number | undefined,
  what: string,
  whatId?: string,
): MessageState | undefined {
  if (event.messageId !== undefined) {
    const named = state.messagesById.get(event.messageId);
    if (named === undefined) {
      state.fail(
        "INV-OWNER",
        `${event.type} ${describe(what, whatId)} names message "${event.messageId}", which is not in the working set; open it with message.start first or resync with messages.snapshot.`,
      );
      return undefined;
    }
    return canWrite(state, named, what, whatId) ? named : undefined;
  }
  const turn = ownerTurn(state, event, false);
  return turn === undefined ? undefined : partitionTarget(state, turn, candidateIndex, what, whatId);
}

/** The open message of partition (turn, candidateIndex) for a new block, or a reported error. */
export function partitionTarget(
  state: ReduceState,
  turn: TurnState,
  candidateIndex: number | undefined,
  what: string,
  whatId?: string,
): MessageState | undefined {
  const event = state.current;
  if (turn.closed) {
    state.fail(
      "INV-MSG",
      `${event.type} ${describe(what, whatId)} targets turn "${turn.turnId}", which is already closed; a closed turn takes no further content — resync with messages.snapshot.`,
    );
    return undefined;
  }
  const pointer = findPartition(state, turn.turnId, candidateIndex ?? 0, false)?.pointer;
  if (pointer === null) {
    state.fail(
      "REMOVE-NO-REOPEN",
      `${event.type} ${describe(what, whatId)} arrived for turn "${turn.turnId}" candidate ${candidateIndex ?? 0} after message.remove left that partition with no open message; a removed message is never implicitly re-opened — send message.start first, or resync with messages.snapshot.`,
    );
    return undefined;
  }
  if (pointer === undefined) {
    state.fail(
      "INV-OWNER",
      `${event.type} ${describe(what, whatId)} has no open message in turn "${turn.turnId}" candidate ${candidateIndex ?? 0}; open one with message.start first (§5 message partitioning) or resync with messages.snapshot.`,
    );
    return undefined;
  }
  return canWrite(state, pointer, what, whatId) ? pointer : undefined;
}

/**
 * "The open message of the turn" for metadata carriers (turn.done.messageMetadata,
 * message.metadata without messageId): the candidate-0 partition's current message, else the
 * most recently opened message of the turn still in the working set — of role `role` when given
 * (§5 message.metadata: "the open assistant message"). Sealing does not matter: metadata is not
 * content (INV-MSG binds blocks and deltas).
 */
export function metadataTarget(state: ReduceState, turn: TurnState, role?: MessageBase["role"]): MessageState | undefined {
  const pointer = findPartition(state, turn.turnId, 0, false)?.pointer;
  if (pointer?.present && (role === undefined || pointer.base.role === role)) return pointer;
  const ofTurn = messagesOfTurn(state, turn.turnId);
  for (let i = ofTurn.length - 1; i >= 0; i--) {
    const message = ofTurn[i];
    if (message?.present && (role === undefined || message.base.role === role)) return message;
  }
  return undefined;
}

/** Removes a message and unregisters its blocks (§5 message.remove). */
export function removeMessage(state: ReduceState, message: MessageState): void {
  message.remove();
  state.removedCount++;
  state.messagesById.delete(message.base.id);
  state.removedIds.add(message.base.id);
  message.forEachBlock((block) => unregisterBlock(state, block));
  message.releaseContent();
}

/**
 * CRITICAL #1 pointer revert: the highest-order still-present un-sealed message of the
 * partition, or none (`null`, so a later block-creating event is reported as REMOVE-NO-REOPEN).
 */
export function revertPointer(_state: ReduceState, partition: Partition): void {
  // Removed members are pruned here, where the partition is scanned anyway (keeps removal linear).
  const members = partition.members.filter((member) => member.present);
  partition.members = members;
  for (let i = members.length - 1; i >= 0; i--) {
    const candidate = members[i];
    if (candidate !== undefined && !candidate.sealed) {
      partition.pointer = candidate;
      return;
    }
  }
  partition.pointer = null;
}

/** Drops removed messages from the working list once they are the majority (amortized O(1) per removal). */
export function compactMessages(state: ReduceState): void {
  if (state.removedCount * 2 <= state.messages.length) return;
  state.messages = state.messages.filter((message) => message.present);
  state.removedCount = 0;
}
