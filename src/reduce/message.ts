// §5 message rows: message.start (partition opener), message.end (seal), message.remove
// (structural delete + CRITICAL #1 pointer revert, CRITICAL #2 REMOVE_ALL), message.metadata.

import type {
  AgMessageEndEvent,
  AgMessageMetadataEvent,
  AgMessageRemoveEvent,
  AgMessageStartEvent,
} from "../../generated/types.js";
import { mergeBags } from "./json.js";
import { slottedBase, type MessageBase, type MessageState, type Partition, type ReduceState } from "./state.js";

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
  const message = state.addMessage(messageStartBase(event), false, false);
  state.joinPartition(message, true);
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
  if (!message.adopted) state.leavePartition(message);
  message.sealed = true;
  if (event.usage !== undefined) {
    state.setMessageField(message, "usage", event.usage);
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
    for (const message of state.messagesOfTurn(turnId)) {
      if (message.present) {
        state.removeMessage(message);
        const partition = state.partition(turnId, message.base.candidateIndex ?? 0, false);
        if (partition !== undefined) touched.add(partition);
      }
    }
    state.forgetTurnMessages(turnId);
    for (const partition of touched) if (partition.pointer !== undefined) state.revertPointer(partition);
  } else {
    const message = state.messagesById.get(event.id);
    if (message === undefined) return;
    state.removeMessage(message);
    revertIfPointer(state, message);
  }
  state.compactMessages();
}

function revertIfPointer(state: ReduceState, message: MessageState): void {
  const { turnId, candidateIndex } = message.base;
  if (turnId === undefined) return;
  const partition = state.partition(turnId, candidateIndex ?? 0, false);
  if (partition !== undefined && partition.pointer === message) state.revertPointer(partition);
}

/** message.metadata: REPLACE-by-key merge into `metadata` of `messageId`, else the turn's open message. */
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
    const turn = state.ownerTurn(event, false);
    if (turn === undefined) return;
    target = state.metadataTarget(turn);
    if (target === undefined) {
      state.fail(
        "INV-OWNER",
        `message.metadata carries no messageId and turn "${turn.turnId}" has no open message; name the message with messageId — resync with messages.snapshot.`,
      );
      return;
    }
  }
  state.setMessageField(target, "metadata", mergeBags(target.base.metadata, event.metadata));
}
