// §5 message family: message.start (opens the partition's current message), message.end (seals
// it), message.remove (structural delete; CRITICAL #1 pointer revert, CRITICAL #2 REMOVE_ALL),
// message.metadata (REPLACE-by-key merge) — and the rules every block-creating row relies on:
//
// - §5 "Message partitioning": a new block attaches to the most-recently-opened message of
//   (owning turn, candidateIndex), absent candidateIndex ⇒ 0 ({@link blockTarget});
// - INV-MSG (§5.0): a sealed message, or any message of a closed turn, takes no block-creating or
//   delta event — a reduce()-error, never a silent attach ({@link canWrite}).

import type {
  AgMessageEndEvent,
  AgMessageMetadataEvent,
  AgMessageRemoveEvent,
  AgMessageStartEvent,
} from "../../generated/lenient-types.js";
import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { unregisterBlock } from "./block-registry.js";
import { MessageState, slottedBase, type MessageBase, type Partition, type TurnState } from "./entities.js";
import type { EventEnvelope, ReduceState } from "./fold-state.js";
import { describe } from "./issues.js";
import { copyWithout, hasOwn, mergeBags } from "./json.js";
import { isTurnClosed, ownerTurn } from "./turn.js";

// ── §5 message partitioning and INV-MSG ──

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

/**
 * §5 message partitioning: the message a new block attaches to. An explicit base `messageId`
 * names it; otherwise the most-recently-opened message of (owning turn, candidateIndex).
 * Reports INV-OWNER / CRITICAL-1 / INV-MSG and returns `undefined` when there is none.
 */
export function blockTarget(state: ReduceState, event: EventEnvelope, candidateIndex: number | undefined, what: string, whatId?: string): MessageState | undefined {
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
export function partitionTarget(state: ReduceState, turn: TurnState, candidateIndex: number | undefined, what: string, whatId?: string): MessageState | undefined {
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
      "CRITICAL-1",
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
  if (pointer && pointer.present && (role === undefined || pointer.base.role === role)) return pointer;
  const ofTurn = messagesOfTurn(state, turn.turnId);
  for (let i = ofTurn.length - 1; i >= 0; i--) {
    const message = ofTurn[i];
    if (message !== undefined && message.present && (role === undefined || message.base.role === role)) return message;
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
 * partition, or none (`null`, so a later block-creating event is reported as CRITICAL-1).
 */
export function revertPointer(state: ReduceState, partition: Partition): void {
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

// ── §5 message rows ──

/**
 * message.start: open an AgMessage under its turn; it becomes the most-recently-opened message of
 * its (turnId, candidateIndex) partition. `stepId` rides the wire only (steps do not fold).
 */
export function foldMessageStart(state: ReduceState, event: AgMessageStartEvent): void {
  state.noteThread(event.threadId);
  const turn = state.turns.get(event.turnId);
  if (turn === undefined) {
    state.fail(
      "INV-TURN",
      `message.start "${event.id}" names turn "${event.turnId}", which was never opened; a producer opens the turn with turn.start (or subagent.start) first — resync with messages.snapshot.`,
    );
    return;
  }
  if (turn.closed) {
    state.fail(
      "INV-MSG",
      `message.start "${event.id}" targets turn "${event.turnId}", which is already closed; a closed turn takes no new messages — resync with messages.snapshot.`,
    );
    return;
  }
  if (state.messagesById.has(event.id)) {
    state.fail(
      "INV-MSG",
      `message.start "${event.id}" repeats the id of a message already in the working set; message ids are unique — mint a new id, or resync with messages.snapshot.`,
    );
    return;
  }
  const message = addMessage(state, messageStartBase(event), false, false);
  joinPartition(state, message, true);
}

function messageStartBase(event: AgMessageStartEvent): MessageBase {
  const { candidateIndex, extensions, agentId, agentName, agentRole, model } = event;
  if (candidateIndex === undefined && extensions === undefined && agentId === undefined && agentName === undefined && agentRole === undefined && model === undefined) {
    return slottedBase(event.id, event.role, event.turnId, event.threadId);
  }
  const base: MessageBase = { id: event.id, role: event.role, turnId: event.turnId, threadId: event.threadId };
  if (candidateIndex !== undefined) base.candidateIndex = candidateIndex;
  if (extensions !== undefined) base.extensions = extensions;
  if (agentId !== undefined) base.agentId = agentId;
  if (agentName !== undefined) base.agentName = agentName;
  if (agentRole !== undefined) base.agentRole = agentRole;
  if (model !== undefined) base.model = model;
  return base;
}

/** message.end: seal the message (no further blocks attach) and land its usage verbatim (INV-DELTA). */
export function foldMessageEnd(state: ReduceState, event: AgMessageEndEvent): void {
  const message = state.messagesById.get(event.id);
  if (message === undefined) {
    // A message retracted before its end (§8 item 19 "evict on arrival") ends silently.
    if (state.removedIds.has(event.id)) return;
    state.fail(
      "INV-MSG",
      `message.end names message "${event.id}", which was never opened; pair every message.end with a message.start — resync with messages.snapshot.`,
    );
    return;
  }
  if (message.sealed && !message.adopted) {
    state.fail(
      "INV-MSG",
      `message.end for message "${event.id}", which is already sealed; every message.start pairs with exactly one message.end — the second end was ignored.`,
    );
    return;
  }
  if (!message.adopted) leavePartition(state, message);
  message.sealed = true;
  if (event.usage !== undefined) {
    setMessageField(message, "usage", event.usage);
  }
}

/**
 * message.remove: delete the message and its blocks (no cascade to adopted tool messages). The
 * partition pointer, if it named the removed message, reverts to the highest still-present
 * un-sealed message of the partition, or to none (CRITICAL #1). `id:"*"` removes every message of
 * exactly `turnId`; zero matches is a no-op; without turnId it is malformed (CRITICAL #2).
 * An unknown or already-removed id is an idempotent no-op (§8 item 19).
 */
export function foldMessageRemove(state: ReduceState, event: AgMessageRemoveEvent): void {
  if (event.id === "*") {
    const { turnId } = event;
    if (turnId === undefined) {
      state.fail(
        "CRITICAL-2",
        'message.remove with id "*" (REMOVE_ALL) carries no turnId; it is malformed and was not folded — validate events before folding (§5, CRITICAL #2).',
      );
      return;
    }
    const touched = new Set<Partition>();
    for (const message of messagesOfTurn(state, turnId)) {
      if (message.present) {
        removeMessage(state, message);
        const partition = findPartition(state, turnId, message.base.candidateIndex ?? 0, false);
        if (partition !== undefined) touched.add(partition);
      }
    }
    forgetTurnMessages(state, turnId);
    for (const partition of touched) if (partition.pointer !== undefined) revertPointer(state, partition);
  } else {
    const message = state.messagesById.get(event.id);
    if (message === undefined) return;
    removeMessage(state, message);
    revertIfPointer(state, message);
  }
  compactMessages(state, );
}

function revertIfPointer(state: ReduceState, message: MessageState): void {
  const { turnId, candidateIndex } = message.base;
  if (turnId === undefined) return;
  const partition = findPartition(state, turnId, candidateIndex ?? 0, false);
  if (partition !== undefined && partition.pointer === message) revertPointer(state, partition);
}

/** message.metadata: REPLACE-by-key merge into `metadata` of `messageId`, else the turn's open assistant message. */
export function foldMessageMetadata(state: ReduceState, event: AgMessageMetadataEvent): void {
  let target: MessageState | undefined;
  if (event.messageId !== undefined) {
    target = state.messagesById.get(event.messageId);
    if (target === undefined) {
      state.fail(
        "INV-OWNER",
        `message.metadata names message "${event.messageId}", which is not in the working set; the metadata was not folded — resync with messages.snapshot.`,
      );
      return;
    }
  } else {
    const turn = ownerTurn(state, event, false);
    if (turn === undefined) return;
    // §5 message.metadata: without messageId the target is the open ASSISTANT message — never a
    // user or tool message that happens to be the partition's latest.
    target = metadataTarget(state, turn, "assistant");
    if (target === undefined) {
      state.fail(
        "INV-OWNER",
        `message.metadata carries no messageId and turn "${turn.turnId}" has no open assistant message; name the message with messageId — resync with messages.snapshot.`,
      );
      return;
    }
  }
  setMessageField(target, "metadata", mergeBags(target.base.metadata, event.metadata));
}

/** The message family's §5 rows. */
export const MESSAGE_FOLD: FamilyFoldHandlers<"message", ReduceState> = {
  "message.start": foldMessageStart,
  "message.end": foldMessageEnd,
  "message.remove": foldMessageRemove,
  "message.metadata": foldMessageMetadata,
};
