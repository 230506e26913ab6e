// §5 reasoning rows: reasoning.start/delta/end build one `reasoning` block whose text is the
// in-order concatenation of its summary parts; reasoning.opaque REPLACEs the replay-load-bearing
// `opaque` carrier; reasoning.opaque.delta APPENDS to a per-id scratch buffer that never reaches the
// result (the following reasoning.opaque carries the assembled, authoritative value).

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type {
  AgReasoningDeltaEvent,
  AgReasoningEndEvent,
  AgReasoningOpaqueDeltaEvent,
  AgReasoningOpaqueEvent,
  AgReasoningStartEvent,
} from "../../generated/lenient-types.js";
import { appendBlock, liveStreamBlock, registerStreamBlock, streamBlock, touchBlock } from "./block-registry.js";
import { ReasoningBlockState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { dropUndefined, mergeBags } from "./json.js";
import { appendText, closeText, flattenText, type TextHolder } from "./text-buffer.js";
import { blockTarget } from "./partition.js";

/**
 * reasoning.start: create a `reasoning` block keyed by `id`. A reasoning.start repeating an open
 * block's id with a `partIndex` the block has not opened yet opens that summary part (§5 "partIndex
 * opens a new summary part"); any other repeated id is an INV-BLOCK duplicate.
 */
export function foldReasoningStart(state: ReduceState, event: AgReasoningStartEvent): void {
  const existing = liveStreamBlock(state, event.id);
  if (existing !== undefined) {
    const opensPart = existing.kind === "reasoning" && event.partIndex !== undefined && !hasPart(existing, event.partIndex);
    if (!opensPart) {
      state.fail(
        "INV-BLOCK",
        `reasoning.start "${event.id}" names a block id already open in this fold (and opens no new partIndex); streaming ids are unique — the duplicate was not appended.`,
      );
      return;
    }
    const block = streamBlock(state, event.id, "reasoning", false);
    if (block === undefined || event.partIndex === undefined) return;
    block.openPart(event.partIndex);
    if (event.itemId !== undefined) block.itemId = event.itemId;
    block.providerMetadata = mergeBags(block.providerMetadata, event.providerMetadata);
    block.meta = mergeBags(block.meta, event._meta);
    touchBlock(block);
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, "block", event.id);
  if (message === undefined) return;
  const part = event.partIndex ?? 0;
  const block = appendBlock(state, new ReasoningBlockState(message, part, event.itemId, event.providerMetadata, event._meta));
  registerStreamBlock(state, event.id, block);
}

function hasPart(block: ReasoningBlockState, partIndex: number): boolean {
  return partIndex === block.firstPart || block.moreParts?.has(partIndex) === true;
}

/** reasoning.delta: APPEND to the part named by `partIndex` (else the last opened part). */
export function foldReasoningDelta(state: ReduceState, event: AgReasoningDeltaEvent): void {
  const block = streamBlock(state, event.id, "reasoning", false);
  if (block === undefined) return;
  const part = event.partIndex ?? block.currentPart;
  let holder: TextHolder | undefined = part === block.firstPart ? block : block.moreParts?.get(part);
  if (holder === undefined) holder = block.openPart(part);
  appendText(holder, event.delta);
  if (event.providerMetadata !== undefined) block.providerMetadata = mergeBags(block.providerMetadata, event.providerMetadata);
  touchBlock(block);
}

/** reasoning.end: seal the block; record `provider`; merge providerMetadata. */
export function foldReasoningEnd(state: ReduceState, event: AgReasoningEndEvent): void {
  const block = streamBlock(state, event.id, "reasoning", false);
  if (block === undefined) return;
  // Flatten now: the chunk lists and the delta strings they hold are released at the block's end.
  closeText(block);
  if (block.moreParts !== undefined) for (const part of block.moreParts.values()) flattenText(part);
  if (event.provider !== undefined) block.provider = event.provider;
  block.providerMetadata = mergeBags(block.providerMetadata, event.providerMetadata);
  touchBlock(block);
}

/**
 * reasoning.opaque: REPLACE `opaque = {kind, value, provider?}` and set `itemId` (replay-load-bearing,
 * §13.2: byte-identical). Allowed after reasoning.end — a signature may trail the visible text.
 */
export function foldReasoningOpaque(state: ReduceState, event: AgReasoningOpaqueEvent): void {
  const block = streamBlock(state, event.id, "reasoning", true);
  if (block === undefined) return;
  state.opaqueScratch.delete(event.id);
  block.opaque = dropUndefined({ kind: event.kind, value: event.value, provider: event.provider });
  if (event.itemId !== undefined) block.itemId = event.itemId;
  touchBlock(block);
}

/** reasoning.opaque.delta: APPEND to the per-id signature scratch (transient; cleared by snapshot). */
export function foldReasoningOpaqueDelta(state: ReduceState, event: AgReasoningOpaqueDeltaEvent): void {
  const block = streamBlock(state, event.id, "reasoning", true);
  if (block === undefined) return;
  state.opaqueScratch.set(event.id, (state.opaqueScratch.get(event.id) ?? "") + event.delta);
}

/** The reasoning family's §5 rows. */
export const REASONING_FOLD: FamilyFoldHandlers<"reasoning", ReduceState> = {
  "reasoning.start": foldReasoningStart,
  "reasoning.delta": foldReasoningDelta,
  "reasoning.end": foldReasoningEnd,
  "reasoning.opaque": foldReasoningOpaque,
  "reasoning.opaque.delta": foldReasoningOpaqueDelta,
};
