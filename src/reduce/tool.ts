// §5 tool rows: tool.start creates a `tool-call` block, tool.args.delta APPENDS to a scratch
// buffer that never becomes the input, tool.args.assembled is AUTHORITATIVE for `input`, tool.done
// lands a `tool-result` block — into the partition's open message, or into a message that adopts
// `tool.done.messageId` as its own id (§8 item 15). `more:true` keeps the result open (preliminary);
// a later tool.done for the same toolCallId REPLACEs it wholesale (§2.2).

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type {
  AgToolArgsAssembledEvent,
  AgToolCallBlock,
  AgToolArgsDeltaEvent,
  AgToolDoneEvent,
  AgToolResultBlock,
  AgToolStartEvent,
} from "../../generated/lenient-types.js";
import { appendBlock, registerToolCall, toolCall, toolEntry, touchBlock } from "./block-registry.js";
import { slottedBase, ToolCallBlockState, ToolResultBlockState, type MessageBase, type MessageState, type TurnState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { describe } from "./issues.js";
import { mergeBags } from "./json.js";
import { canWrite, isTurnClosed, ownerTurn } from "./ownership.js";
import { addMessage, blockTarget, partitionTarget } from "./partition.js";

/** tool.start: create a `tool-call` block keyed by `toolCallId`; `input` is `{}` until assembled. */
export function foldToolStart(state: ReduceState, event: AgToolStartEvent): void {
  const entry = state.tools.get(event.toolCallId);
  if (entry?.kind === "tool-call") {
    state.fail(
      "INV-BLOCK",
      `tool.start "${event.toolCallId}" repeats a toolCallId already open in this fold; toolCallIds are unique — the duplicate call was not appended.`,
    );
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, "tool call", event.toolCallId);
  if (message === undefined) return;
  // A result that landed before its call (or after an earlier call's message was removed) moves onto the call.
  const block = appendBlock(state, new ToolCallBlockState(message, toolCallBlock(event), entry));
  registerToolCall(state, event.toolCallId, block);
}

/** The tool-call block of a tool.start: name, flags, title, toolMetadata, uiVisibility, itemId, providerMetadata. */
function toolCallBlock(event: AgToolStartEvent): AgToolCallBlock {
  const block: AgToolCallBlock = { type: "tool-call", toolCallId: event.toolCallId, name: event.name, input: {} };
  if (event.serverName !== undefined) block.serverName = event.serverName;
  if (event.providerExecuted !== undefined) block.providerExecuted = event.providerExecuted;
  if (event.title !== undefined) block.title = event.title;
  if (event.toolMetadata !== undefined) block.toolMetadata = event.toolMetadata;
  if (event.uiVisibility !== undefined) block.uiVisibility = event.uiVisibility;
  if (event.itemId !== undefined) block.itemId = event.itemId;
  if (event.providerMetadata !== undefined) block.providerMetadata = event.providerMetadata;
  return block;
}

function openToolCall(state: ReduceState, toolCallId: string): ToolCallBlockState | undefined {
  const block = toolCall(state, toolCallId);
  if (block === undefined) {
    if (state.staleIds.has(toolCallId)) return undefined;
    state.fail(
      "INV-OWNER",
      `${state.current.type} names tool call "${toolCallId}", which is not open; start it with tool.start first (a messages.snapshot clears open calls) — resync with messages.snapshot.`,
    );
    return undefined;
  }
  return canWrite(state, block.message, "for tool call", toolCallId) ? block : undefined;
}

/** tool.args.delta: APPEND the raw partial-JSON fragment to the call's scratch buffer. */
export function foldToolArgsDelta(state: ReduceState, event: AgToolArgsDeltaEvent): void {
  const call = openToolCall(state, event.toolCallId);
  if (call === undefined) return;
  if (call.args === undefined) call.args = [event.delta];
  else call.args.push(event.delta);
}

/** tool.args.assembled: set `input` (authoritative), `signature`, `title`; merge toolMetadata/providerMetadata. */
export function foldToolArgsAssembled(state: ReduceState, event: AgToolArgsAssembledEvent): void {
  const call = openToolCall(state, event.toolCallId);
  if (call === undefined) return;
  call.args = undefined;
  // Copy-on-write: the block is copied only when a result read has already handed it out.
  const block: AgToolCallBlock = call.view === call.block ? { ...call.block } : call.block;
  block.input = event.input;
  if (event.signature !== undefined) block.signature = event.signature;
  if (event.title !== undefined) block.title = event.title;
  if (event.toolMetadata !== undefined) block.toolMetadata = mergeBags(call.block.toolMetadata, event.toolMetadata);
  if (event.providerMetadata !== undefined) block.providerMetadata = mergeBags(call.block.providerMetadata, event.providerMetadata);
  call.block = block;
  touchBlock(call);
}

/** The tool-result block a tool.done lands: the shared-core fields (§2.2) plus `preliminary` iff `more`. */
function resultBlock(event: AgToolDoneEvent): AgToolResultBlock {
  // errorText iff outcome "error" (§2): narrowing on outcome keeps the generated refinement intact.
  // One literal per outcome shape, so the common block keeps every field in-object.
  const block: AgToolResultBlock =
    event.outcome === "error"
      ? { type: "tool-result", toolCallId: event.toolCallId, content: event.content, outcome: "error", errorText: event.errorText }
      : event.outcome !== undefined
        ? { type: "tool-result", toolCallId: event.toolCallId, content: event.content, outcome: event.outcome }
        : { type: "tool-result", toolCallId: event.toolCallId, content: event.content };
  if (event.isError !== undefined) block.isError = event.isError;
  if (event.structuredContent !== undefined) block.structuredContent = event.structuredContent;
  if (event.uiData !== undefined) block.uiData = event.uiData;
  if (event.sideData !== undefined) block.sideData = event.sideData;
  if (event.errorCode !== undefined) block.errorCode = event.errorCode;
  if (event.providerMetadata !== undefined) block.providerMetadata = event.providerMetadata;
  if (event.toolMetadata !== undefined) block.toolMetadata = event.toolMetadata;
  if (event.dynamic !== undefined) block.dynamic = event.dynamic;
  if (event.pendingInput !== undefined) block.pendingInput = event.pendingInput;
  // §2.2: `preliminary` mirrors the latest `more`; there is no preliminary-without-more state.
  if (event.more === true) block.preliminary = true;
  return block;
}

/**
 * The owning turn of a tool.done: explicit turnId, else the turn of the message it adopts (when
 * that message exists), else the turn of its tool call, else the last-opened turn (INV-OWNER; the
 * call link keeps a subagent's result in the subagent even after the parent resumed).
 */
function toolDoneTurn(
  state: ReduceState,
  event: AgToolDoneEvent,
  adopted: MessageState | undefined,
  call: ToolCallBlockState | undefined,
): TurnState | undefined {
  if (event.turnId === undefined) {
    const linkedTurnId = adopted?.base.turnId ?? call?.message.base.turnId;
    const linked = linkedTurnId === undefined ? undefined : state.turns.get(linkedTurnId);
    if (linked !== undefined) return linked;
  }
  return ownerTurn(state, event, false);
}

/** tool.done: land (or, while preliminary, REPLACE) the `tool-result` block for `toolCallId`. */
export function foldToolDone(state: ReduceState, event: AgToolDoneEvent): void {
  const entry = toolEntry(state, event.toolCallId);
  let call: ToolCallBlockState | undefined;
  let existing: ToolResultBlockState | undefined;
  if (entry?.kind === "tool-call") {
    call = entry;
    existing = entry.result;
  } else {
    existing = entry;
  }
  if (existing !== undefined) {
    if (existing.block.preliminary !== true) {
      state.fail(
        "INV-BLOCK",
        `tool.done for "${event.toolCallId}" after its final result already landed; only a preliminary result (more:true) is replaced — the duplicate was ignored.`,
      );
      return;
    }
    if (isTurnClosed(state, existing.message.base.turnId)) {
      state.fail(
        "INV-MSG",
        `tool.done for "${event.toolCallId}" targets a result of turn "${existing.message.base.turnId ?? ""}", which is already closed; a closed turn's result is never mutated — resync with messages.snapshot.`,
      );
      return;
    }
    // Merge = REPLACE wholesale, in place (position unchanged).
    existing.block = resultBlock(event);
    touchBlock(existing);
    return;
  }
  const named = event.messageId === undefined ? undefined : state.messagesById.get(event.messageId);
  const turn = toolDoneTurn(state, event, named, call);
  if (turn === undefined) return;
  const message =
    event.messageId === undefined
      ? partitionTarget(state, turn, event.candidateIndex, "result", event.toolCallId)
      : adoptionTarget(state, turn, event.messageId, named, event.candidateIndex);
  if (message === undefined) return;
  const block = appendBlock(state, new ToolResultBlockState(message, resultBlock(event)));
  if (call !== undefined) call.result = block;
  else state.tools.set(event.toolCallId, block);
}

/**
 * The message a tool.done with `messageId` lands in: that message if it exists (an open
 * message.start message, or an earlier adopted one), else a new `role:"tool"` message that adopts
 * the id (§5 tool.done, §8 item 15). Adopted messages never become a partition's open message.
 */
function adoptionTarget(
  state: ReduceState,
  turn: TurnState,
  messageId: string,
  named: MessageState | undefined,
  candidateIndex: number | undefined,
): MessageState | undefined {
  const what = "result adopting message";
  if (named !== undefined) {
    if (!named.adopted) return canWrite(state, named, what, messageId) ? named : undefined;
    if (isTurnClosed(state, named.base.turnId)) {
      state.fail(
        "INV-MSG",
        `tool.done ${describe(what, messageId)} of turn "${named.base.turnId ?? ""}", which is already closed — resync with messages.snapshot.`,
      );
      return undefined;
    }
    return named;
  }
  if (turn.closed) {
    state.fail(
      "INV-MSG",
      `tool.done ${describe(what, messageId)} in turn "${turn.turnId}", which is already closed; a producer lands results before the turn's terminal (§8 item 14) — resync with messages.snapshot.`,
    );
    return undefined;
  }
  const threadId = turn.base.threadId ?? state.rootThreadId;
  if (threadId !== undefined && candidateIndex === undefined)
    return addMessage(state, slottedBase(messageId, "tool", turn.turnId, threadId), true, true);
  const base: MessageBase =
    threadId === undefined
      ? { id: messageId, role: "tool", turnId: turn.turnId }
      : { id: messageId, role: "tool", turnId: turn.turnId, threadId };
  if (candidateIndex !== undefined) base.candidateIndex = candidateIndex;
  return addMessage(state, base, true, true);
}

/** The tool family's §5 rows. */
export const TOOL_FOLD: FamilyFoldHandlers<"tool", ReduceState> = {
  "tool.start": foldToolStart,
  "tool.args.delta": foldToolArgsDelta,
  "tool.args.assembled": foldToolArgsAssembled,
  "tool.done": foldToolDone,
};
