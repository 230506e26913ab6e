// §5 text rows: text.start creates a `text` block, text.delta APPENDS, text.end seals and attaches
// the streamed-text citations (audit M22). providerMetadata merges REPLACE-by-key on every event.

import type { AgTextDeltaEvent, AgTextEndEvent, AgTextStartEvent } from "../../generated/types.js";
import { dropUndefined, mergeBags } from "./json.js";
import type { ReduceState } from "./state.js";

/** text.start: create an empty `text` block keyed by `id` in the partition's open message (INV-BLOCK: ids unique). */
export function foldTextStart(state: ReduceState, event: AgTextStartEvent): void {
  if (state.streamBlocks.has(event.id)) {
    state.fail(
      "INV-BLOCK",
      `text.start "${event.id}" names a block id already open in this fold; streaming ids are unique (mint a derived id such as "\${turnId}:text:\${n}") — the duplicate was not appended.`,
    );
    return;
  }
  const message = state.blockTarget(event, event.candidateIndex, `block "${event.id}"`);
  if (message === undefined) return;
  const block = state.appendBlock({
    kind: "text",
    id: event.id,
    message,
    // `_meta` from the event envelope survives on the block (LangGraph node/tag attribution).
    base: dropUndefined({ type: "text", providerMetadata: event.providerMetadata, _meta: event._meta }),
    text: "",
    ended: false,
    view: undefined,
  });
  state.streamBlocks.set(event.id, block);
}

/** text.delta: APPEND `delta` (INV-DELTA: blind concatenation is safe). */
export function foldTextDelta(state: ReduceState, event: AgTextDeltaEvent): void {
  const block = state.streamBlock(event.id, "text", false);
  if (block === undefined) return;
  block.text += event.delta;
  if (event.providerMetadata !== undefined) {
    block.base = { ...block.base, providerMetadata: mergeBags(block.base.providerMetadata, event.providerMetadata) };
  }
  state.touchBlock(block);
}

/** text.end: seal the block; merge providerMetadata; attach `citations[]` when present. */
export function foldTextEnd(state: ReduceState, event: AgTextEndEvent): void {
  const block = state.streamBlock(event.id, "text", false);
  if (block === undefined) return;
  block.ended = true;
  block.base = dropUndefined({
    ...block.base,
    providerMetadata: mergeBags(block.base.providerMetadata, event.providerMetadata),
    citations: event.citations ?? block.base.citations,
  });
  state.touchBlock(block);
}
