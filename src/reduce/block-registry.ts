// §5.0 INV-BLOCK and §5 block insertion order, shared by every family that puts blocks into a
// message (text, reasoning, tool, content, snapshot): blocks append to `message.content[]` in
// ascending seq of their creating event; streamed block ids and toolCallIds are unique within a
// fold and stay registered so that a late delta or end is still recognized (INV-MSG, INV-BLOCK);
// messages.snapshot clears every registry, so no pre-snapshot delta is re-applied (§5
// messages.snapshot "Clear ALL transient reduce() state").

import type { BlockState, ReasoningBlockState, TextBlockState, ToolCallBlockState, ToolResultBlockState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { canWrite } from "./ownership.js";
import { releaseText } from "./text-buffer.js";

/** The block changed: its view and its message's view are rebuilt at the next read. */
export function touchBlock(block: BlockState): void {
  block.view = undefined;
  block.message.view = undefined;
}

/** Appends a block to a message's content (§5 block insertion order). */
export function appendBlock<B extends BlockState>(state: ReduceState, block: B): B {
  const message = block.message;
  if (!message.present) state.lateBlocks.add(block);
  message.addBlock(block);
  message.view = undefined;
  return block;
}

/**
 * The streamed block a delta/end/opaque event names, ready to write: it exists, has the expected
 * kind, its message is writable (INV-MSG) and — unless `afterEnd` — its `*.end` has not passed.
 * Reports INV-OWNER / INV-BLOCK / INV-MSG and returns `undefined` otherwise.
 */
export function streamBlock<K extends "text" | "reasoning">(
  state: ReduceState,
  id: string,
  kind: K,
  afterEnd: boolean,
): Extract<TextBlockState | ReasoningBlockState, { kind: K }> | undefined {
  const type = state.current.type;
  let block = state.lastStreamBlock;
  if (id !== state.lastStreamId || block === undefined) {
    block = liveStreamBlock(state, id);
    if (block !== undefined) {
      state.lastStreamId = id;
      state.lastStreamBlock = block;
    }
  }
  if (block === undefined) {
    if (state.staleIds.has(id)) return undefined;
    state.fail(
      "INV-OWNER",
      `${type} names ${kind} block "${id}", which is not open; start it with ${kind}.start first (a messages.snapshot clears open blocks) — resync with messages.snapshot.`,
    );
    return undefined;
  }
  if (!isKind(block, kind)) {
    state.fail("INV-BLOCK", `${type} names block "${id}", which is a ${block.kind} block, not ${kind}; block ids are unique across kinds.`);
    return undefined;
  }
  if (!canWrite(state, block.message, "for block", id)) return undefined;
  if (block.ended && !afterEnd) {
    state.fail(
      "INV-BLOCK",
      `${type} for ${kind} block "${id}" after its ${kind}.end sealed it; the event was ignored — resync with messages.snapshot.`,
    );
    return undefined;
  }
  return block;
}

/**
 * The registered streamed block of `id`, if any. A block state keeps no id of its own (one field
 * fewer on every block the fold keeps), so message.remove cannot find its blocks' entries;
 * instead an entry that the removal unregistered is dropped here, at the next lookup of its id
 * (a removed message never returns: a later one with its id is a new MessageState).
 */
export function liveStreamBlock(state: ReduceState, id: string): TextBlockState | ReasoningBlockState | undefined {
  const block = state.streamBlocks.get(id);
  if (block === undefined || !unregistered(state, block)) return block;
  state.streamBlocks.delete(id);
  state.opaqueScratch.delete(id);
  return undefined;
}

/**
 * Whether message.remove unregistered `block` with its message. A block appended to a message
 * after its removal is still registered: a partition pointer can outlive its message (a snapshot
 * listing an id twice removes the first), and blocks attach to it as ever — {@link lateBlocks}.
 */
function unregistered(state: ReduceState, block: BlockState): boolean {
  return !block.message.present && !state.lateBlocks.has(block);
}

/**
 * Registers a new streamed block under `id` (INV-BLOCK: `id` is free). Its deltas follow it, so
 * it becomes the block found last and the first delta finds it without a registry lookup.
 */
export function registerStreamBlock(state: ReduceState, id: string, block: TextBlockState | ReasoningBlockState): void {
  state.streamBlocks.set(id, block);
  state.lastStreamId = id;
  state.lastStreamBlock = block;
}

/** Registers a new tool-call block under its `toolCallId` and makes it the call found last (its tool.args.* follow it). */
export function registerToolCall(state: ReduceState, toolCallId: string, block: ToolCallBlockState): void {
  state.tools.set(toolCallId, block);
  state.lastToolId = toolCallId;
  state.lastToolCall = block;
}

/**
 * The `tools` entry of `toolCallId`: its registered call (which holds any result), or its result
 * alone. While `lastToolCall` is set it is the entry of `lastToolId`, so no lookup is needed.
 */
export function toolEntry(state: ReduceState, toolCallId: string): ToolCallBlockState | ToolResultBlockState | undefined {
  const last = state.lastToolCall;
  if (last !== undefined && toolCallId === state.lastToolId) return last;
  return state.tools.get(toolCallId);
}

/** The registered tool-call block of `toolCallId`, if any. */
export function toolCall(state: ReduceState, toolCallId: string): ToolCallBlockState | undefined {
  const last = state.lastToolCall;
  if (last !== undefined && toolCallId === state.lastToolId) return last;
  const entry = state.tools.get(toolCallId);
  if (entry?.kind !== "tool-call") return undefined;
  state.lastToolId = toolCallId;
  state.lastToolCall = entry;
  return entry;
}

function forgetLastStream(state: ReduceState): void {
  state.lastStreamId = undefined;
  state.lastStreamBlock = undefined;
}

/** Unregisters a removed message's block (§5 message.remove removes "the blocks inside its content[]"). */
export function unregisterBlock(state: ReduceState, block: BlockState): void {
  switch (block.kind) {
    case "text":
    case "reasoning":
      // Its registry entry (and opaque scratch) goes at the next lookup of its id: see
      // liveStreamBlock. Its text goes now: nothing reads a removed block's content again.
      releaseText(block);
      block.view = undefined;
      forgetLastStream(state);
      return;
    case "tool-call": {
      const id = block.block.toolCallId;
      if (state.lastToolCall === block) state.lastToolCall = undefined;
      if (state.tools.get(id) === block) {
        // The id's result outlives its call's message.
        if (block.result !== undefined) state.tools.set(id, block.result);
        else state.tools.delete(id);
      }
      block.args = undefined;
      block.result = undefined;
      return;
    }
    case "tool-result": {
      const id = block.block.toolCallId;
      const entry = state.tools.get(id);
      if (entry === block) state.tools.delete(id);
      else if (entry?.kind === "tool-call" && entry.result === block) entry.result = undefined;
      return;
    }
    case "static":
      if (block.key !== undefined && state.keyedBlocks.get(block.key) === block) state.keyedBlocks.delete(block.key);
      return;
  }
}

/** Clears every transient registry (§5 messages.snapshot: no pre-snapshot delta is re-applied). */
export function clearTransient(state: ReduceState): void {
  state.streamBlocks.forEach((block, id) => {
    if (!block.ended && !unregistered(state, block)) state.staleIds.add(id);
  });
  state.tools.forEach((entry, id) => {
    if (entry.kind !== "tool-call") return;
    state.staleIds.add(id);
    entry.args = undefined;
    entry.result = undefined;
  });
  state.streamBlocks.clear();
  forgetLastStream(state);
  state.tools.clear();
  state.lastToolCall = undefined;
  state.keyedBlocks.clear();
  state.lateBlocks.clear();
  state.opaqueScratch.clear();
}

function isKind<K extends "text" | "reasoning">(
  block: TextBlockState | ReasoningBlockState,
  kind: K,
): block is Extract<TextBlockState | ReasoningBlockState, { kind: K }> {
  return block.kind === kind;
}
