// §5 text rows: text.start creates a `text` block, text.delta APPENDS, text.end seals and attaches
// the streamed-text citations (§5 text.end: the streamed-text citation carrier). providerMetadata merges REPLACE-by-key on every event.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type { AgTextDeltaEvent, AgTextEndEvent, AgTextStartEvent } from "../../generated/lenient-types.js";
import { appendBlock, liveStreamBlock, registerStreamBlock, streamBlock, touchBlock } from "./block-registry.js";
import { TextBlockState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { mergeBags } from "./json.js";
import { appendText, closeText } from "./text-buffer.js";
import { blockTarget } from "./partition.js";

/** text.start: create an empty `text` block keyed by `id` in the partition's open message (INV-BLOCK: ids unique). */
export function foldTextStart(state: ReduceState, event: AgTextStartEvent): void {
  if (liveStreamBlock(state, event.id) !== undefined) {
    state.fail(
      "INV-BLOCK",
      `text.start "${event.id}" names a block id already open in this fold; streaming ids are unique (mint a derived id such as "\${turnId}:text:\${n}") — the duplicate was not appended.`,
    );
    return;
  }
  const message = blockTarget(state, event, event.candidateIndex, "block", event.id);
  if (message === undefined) return;
  // `_meta` from the event envelope survives on the block (LangGraph node/tag attribution).
  const block = appendBlock(state, new TextBlockState(message, event.providerMetadata, event._meta));
  registerStreamBlock(state, event.id, block);
}

/** text.delta: APPEND `delta` (INV-DELTA: blind concatenation is safe). */
export function foldTextDelta(state: ReduceState, event: AgTextDeltaEvent): void {
  const block = streamBlock(state, event.id, "text", false);
  if (block === undefined) return;
  appendText(block, event.delta);
  if (event.providerMetadata !== undefined) block.providerMetadata = mergeBags(block.providerMetadata, event.providerMetadata);
  touchBlock(block);
}

/** text.end: seal the block; merge providerMetadata; attach `citations[]` when present. */
export function foldTextEnd(state: ReduceState, event: AgTextEndEvent): void {
  const block = streamBlock(state, event.id, "text", false);
  if (block === undefined) return;
  // Flatten now: the chunk list and the delta strings it holds are released at the block's end.
  closeText(block);
  if (event.providerMetadata !== undefined) block.providerMetadata = mergeBags(block.providerMetadata, event.providerMetadata);
  if (event.citations !== undefined) block.citations = event.citations;
  touchBlock(block);
}

/** The text family's §5 rows. */
export const TEXT_FOLD: FamilyFoldHandlers<"text", ReduceState> = {
  "text.start": foldTextStart,
  "text.delta": foldTextDelta,
  "text.end": foldTextEnd,
};
