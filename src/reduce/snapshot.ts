// §5 messages.snapshot: the full-state resync (A12).
// - messages: REPLACE the working set.
// - turns / artifacts: REPLACE per container, only when the snapshot carries it (an omitted
//   container is preserved).
// - memory: when present, REPLACE only scope="thread" records; agent/user/skill records are a
//   separate, cross-thread axis a per-thread snapshot has no authority over (CRITICAL #3) — the
//   snapshot's own non-thread records are therefore not applied either.
// - transient state: every open block registry and scratch buffer is cleared, so no pre-snapshot
//   delta can be re-applied; the reducer un-parks and the resync condition ends (INV-SEQ).
//
// Restored entities are live again: a snapshot message is un-sealed (a later message.end seals
// it), and each (turnId, candidateIndex) partition points at its last snapshot message that is not
// a tool message when the turn is open (D25); a restored tool call or result is registered under its toolCallId (INV-BLOCK). A
// restored turn is closed iff its record carries an outcome.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import type { AgBlock, AgMessagesSnapshotEvent, AgTurnRecord } from "../../generated/lenient-types.js";
import { appendBlock, clearTransient } from "./block-registry.js";
import { blockKey } from "./content.js";
import { ToolCallBlockState, ToolResultBlockState, type MessageState, type StaticBlockState, type TurnState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { landMemory } from "./memory.js";
import { createAppendList } from "./storage/index.js";
import { addMessage, compactMessages, forgetTurnMessages, joinPartition, removeMessage } from "./partition.js";

function restoreTurn(record: AgTurnRecord): TurnState {
  const { safety, handoffs, sourceIds, sources, displayRequired, guardrails, ...base } = record;
  const closed = record.outcome !== undefined;
  return {
    turnId: record.turnId,
    base,
    safety: safety?.slice(),
    handoffs: handoffs?.slice(),
    sourceIds: sourceIds?.slice(),
    sources: sources?.slice(),
    displayRequired: displayRequired?.slice(),
    guardrails: guardrails?.slice(),
    closed,
    terminated: closed,
    view: undefined,
  };
}

/**
 * Appends one snapshot block to its restored message. A tool call or result keeps its toolCallId
 * identity in the fold, as it has when streamed (§5.0 INV-BLOCK; §1.3 one call per toolCallId,
 * docs/spec-decisions.md D1): a later tool.start naming a restored call is the INV-BLOCK duplicate,
 * a content.block tool-call REPLACEs it in place, tool.args.assembled sets its input (from a fresh
 * scratch: the pre-snapshot one is cleared), and a tool.done REPLACEs a restored preliminary result
 * (§5 tool.done) — never a second call or result for one toolCallId.
 */
function restoreBlock(state: ReduceState, message: MessageState, block: AgBlock): void {
  if (isKnownBlock(block) && (block.type === "tool-call" || block.type === "tool-result")) {
    const entry = state.tools.get(block.toolCallId);
    const call = entry?.kind === "tool-call" ? entry : undefined;
    const result = entry?.kind === "tool-result" ? entry : undefined;
    // A snapshot holding one toolCallId twice (refused by validation: tool-call-id-unique) keeps
    // the first in the registry; the repeat is restored as it stands.
    if (block.type === "tool-call" && call === undefined) {
      // The fold writes `input` into its own copy of the call, never into the snapshot event.
      const restored = appendBlock(state, new ToolCallBlockState(message, { ...block }, result));
      state.tools.set(block.toolCallId, restored);
      state.staleIds.delete(block.toolCallId);
      return;
    }
    if (block.type === "tool-result" && (call === undefined ? result === undefined : call.result === undefined)) {
      const restored = appendBlock(state, new ToolResultBlockState(message, block));
      if (call !== undefined) call.result = restored;
      else state.tools.set(block.toolCallId, restored);
      return;
    }
  }
  const key = blockKey(block);
  const restored: StaticBlockState = appendBlock(state, { kind: "static", message, block, key, view: undefined });
  if (key !== undefined) state.keyedBlocks.set(key, restored);
}

/** messages.snapshot: REPLACE messages (+ turns/artifacts per container, thread memory) and clear transient state. */
export function foldMessagesSnapshot(state: ReduceState, event: AgMessagesSnapshotEvent): void {
  clearTransient(state);
  state.parked = false;
  state.needsResync = false;

  if (event.turns !== undefined) {
    state.turns.clear();
    state.lastTurn = undefined;
    state.turnOrder = [];
    state.openTurns = [];
    for (const record of event.turns) {
      state.noteThread(record.threadId);
      const turn = restoreTurn(record);
      const previous = state.turns.get(turn.turnId);
      if (previous !== undefined) {
        // Refused by producer-strict validation (turn-record-unique); the consumer posture keeps the later record (D21).
        state.turnOrder.splice(state.turnOrder.indexOf(previous), 1);
        state.keptLast(
          `messages.snapshot holds two turn records for turn "${turn.turnId}"; the later one was kept (a turnId names one turn, §1.3).`,
        );
      }
      state.turns.set(turn.turnId, turn);
      state.turnOrder.push(turn);
    }
    for (const turn of state.turnOrder) if (!turn.closed) state.openTurns.push(turn);
  }

  for (const message of state.messages) if (message.present) removeMessage(state, message);
  state.messages = createAppendList();
  state.removedCount = 0;
  forgetTurnMessages(state);
  state.partitions.clear();
  for (const snapshotMessage of event.messages) {
    const { content, ...base } = snapshotMessage;
    state.noteThread(base.threadId);
    // A snapshot repeating a message id keeps the later entry, and says so (refused by producer-strict
    // validation: message-id-unique, D21).
    const duplicate = state.messagesById.get(base.id);
    if (duplicate !== undefined) {
      removeMessage(state, duplicate);
      state.keptLast(
        `messages.snapshot holds two messages with id "${base.id}"; the later one was kept (a message id names one message, §1.3).`,
      );
    }
    const message = addMessage(state, base, false, false);
    for (const block of content) restoreBlock(state, message, block);
    // The pointer goes to the open turn's last restored message that is not a tool message: a
    // role:"tool" message holds adopted results and never becomes a partition's open message, as
    // when streamed (§5 tool.done, §8 item 15; docs/spec-decisions.md D25).
    joinPartition(state, message, base.role !== "tool" && base.turnId !== undefined && state.turns.get(base.turnId)?.closed === false);
  }
  compactMessages(state);

  if (event.artifacts !== undefined) {
    state.artifacts.clear();
    state.artifactOrder = [];
    for (const { parts, ...base } of event.artifacts) {
      state.noteThread(base.threadId);
      const previous = state.artifacts.get(base.artifactId);
      if (previous !== undefined) state.artifactOrder.splice(state.artifactOrder.indexOf(previous), 1);
      const artifact = { base, parts: parts.map((block) => ({ block, text: undefined })), sealed: false, view: undefined };
      state.artifacts.set(base.artifactId, artifact);
      state.artifactOrder.push(artifact);
    }
  }

  if (event.memory !== undefined) {
    for (const [key, entry] of state.memory) {
      if (entry.record.scope === "thread") {
        entry.present = false;
        state.memory.delete(key);
      }
    }
    state.memoryOrder = state.memoryOrder.filter((entry) => entry.present);
    for (const record of event.memory) {
      if (record.scope !== "thread") continue;
      const { key, ...rest } = record;
      landMemory(state, key === undefined || key === "" ? rest : record);
    }
  }
}

/** The snapshot family's §5 rows. */
export const SNAPSHOT_FOLD: FamilyFoldHandlers<"snapshot", ReduceState> = {
  "messages.snapshot": foldMessagesSnapshot,
};
