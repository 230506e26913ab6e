// §5 content.block (and the `data` block row): insert one whole block in seq order; a block whose
// `id` matches an earlier content.block REPLACEs it in place (reconcile-by-id); `transient:true` on
// the event, or on a `data` block, is SKIPPED. Annotations ride the block unchanged.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import type { AgBlock, AgContentBlockEvent, AgToolCallBlock, AgToolResultBlock } from "../../generated/lenient-types.js";
import { appendBlock, registerToolCall, touchBlock } from "./block-registry.js";
import { ToolCallBlockState, ToolResultBlockState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { canWrite } from "./ownership.js";
import { blockTarget } from "./partition.js";

/**
 * The reconcile key of a whole block: its `id` when it is a string (`data` blocks declare one; a
 * lenient-parsed block may carry one too). Streamed text/reasoning ids and toolCallIds live in
 * their own namespaces and are never reconciled by content.block.
 */
export function blockKey(block: AgBlock): string | undefined {
  const id: unknown = Reflect.get(block, "id");
  return typeof id === "string" ? id : undefined;
}

/** content.block: append, or REPLACE the same-id block in place; skip transient blocks. */
export function foldContentBlock(state: ReduceState, event: AgContentBlockEvent): void {
  const { block } = event;
  if (event.transient === true) return;
  if (block.type === "data" && block.transient === true) return;
  if (isKnownBlock(block) && block.type === "tool-call") {
    foldToolCallBlock(state, event, block);
    return;
  }
  if (isKnownBlock(block) && block.type === "tool-result") {
    foldToolResultBlock(state, event, block);
    return;
  }
  const key = blockKey(block);
  const existing = key === undefined ? undefined : state.keyedBlocks.get(key);
  if (existing !== undefined) {
    if (!canWrite(state, existing.message, `reconciling block "${key ?? ""}"`)) return;
    existing.block = block;
    touchBlock(existing);
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, key === undefined ? `${block.type} block` : `block "${key}"`);
  if (message === undefined) return;
  const created = appendBlock(state, { kind: "static", message, block, key, view: undefined });
  if (key !== undefined) state.keyedBlocks.set(key, created);
}

/**
 * A whole `tool-call` block: its identity is its `toolCallId`, shared with tool.start (INV-BLOCK,
 * §1.3: one call per toolCallId in a fold, whichever path it entered by). A call already in the
 * fold — from tool.start or an earlier content.block — is REPLACEd in place (§5 content.block
 * reconcile), keeping its position and any result landed for it; otherwise the block is appended
 * and registered, so a later tool.start naming the id is the INV-BLOCK error tool.start reports and
 * tool.args.* / tool.done find the call. The block is copied: the fold later writes `input` into
 * its own copy, never into the caller's event.
 */
function foldToolCallBlock(state: ReduceState, event: AgContentBlockEvent, block: AgToolCallBlock): void {
  const entry = state.tools.get(block.toolCallId);
  if (entry?.kind === "tool-call") {
    if (!canWrite(state, entry.message, "reconciling tool call", block.toolCallId)) return;
    entry.block = { ...block };
    entry.args = undefined;
    touchBlock(entry);
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, "tool call", block.toolCallId);
  if (message === undefined) return;
  const created = appendBlock(state, new ToolCallBlockState(message, { ...block }, entry));
  registerToolCall(state, block.toolCallId, created);
}

/**
 * A whole `tool-result` block: like a call, its identity is its `toolCallId` (§1.3: one result per
 * call, docs/spec-decisions.md D24). A result already in the fold — landed by tool.done, an earlier
 * content.block or a snapshot — is REPLACEd in place (§5 content.block reconcile); otherwise the
 * block is appended and registered, so a later tool.done finds it: it REPLACEs a preliminary result
 * and is the INV-BLOCK duplicate after a final one, as after a tool.done-landed result.
 */
function foldToolResultBlock(state: ReduceState, event: AgContentBlockEvent, block: AgToolResultBlock): void {
  const entry = state.tools.get(block.toolCallId);
  const existing = entry?.kind === "tool-call" ? entry.result : entry;
  if (existing !== undefined) {
    if (!canWrite(state, existing.message, "reconciling tool result", block.toolCallId)) return;
    existing.block = block;
    touchBlock(existing);
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, "tool result", block.toolCallId);
  if (message === undefined) return;
  const created = appendBlock(state, new ToolResultBlockState(message, block));
  if (entry?.kind === "tool-call") entry.result = created;
  else state.tools.set(block.toolCallId, created);
}

/** The content family's §5 rows. */
export const CONTENT_FOLD: FamilyFoldHandlers<"content", ReduceState> = {
  "content.block": foldContentBlock,
};
