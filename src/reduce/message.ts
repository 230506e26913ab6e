// §5 message family: message.start (opens the partition's current message), message.end (seals
// it), message.remove (structural delete; CRITICAL #1 pointer revert, CRITICAL #2 REMOVE_ALL),
// message.metadata (REPLACE-by-key merge). The partitions these rows open and close, and the
// message a block-creating row attaches to, live one layer down in partition.ts.

import type {
  AgMessageEndEvent,
  AgMessageMetadataEvent,
  AgMessageRemoveEvent,
  AgMessageStartEvent,
} from "../../generated/lenient-types.js";
import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { type MessageState, slottedBase, type MessageBase, type Partition } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { mergeBags } from "./json.js";
import { ownerTurn, setMessageField } from "./ownership.js";
import {
  addMessage,
  compactMessages,
  findPartition,
  forgetTurnMessages,
  joinPartition,
  leavePartition,
  messagesOfTurn,
  metadataTarget,
  removeMessage,
  revertPointer,
} from "./partition.js";

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
  if (
    candidateIndex === undefined &&
    extensions === undefined &&
    agentId === undefined &&
    agentName === undefined &&
    agentRole === undefined &&
    model === undefined
  ) {
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
        "REMOVE-ALL-TURN",
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
  compactMessages(state);
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
