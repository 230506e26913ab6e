// §5 text rows: text.start creates a `text` block, text.delta APPENDS, text.end seals and attaches
// the streamed-text citations (audit M22). providerMetadata merges REPLACE-by-key on every event.

import type { AgTextBlock, AgTextDeltaEvent, AgTextEndEvent, AgTextStartEvent } from "../../generated/types.js";
import { dropUndefined, mergeBags } from "./json.js";
import type { ReduceState } from "./state.js";
import { TextBuffer } from "./text-buffer.js";

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
    base: textBase(event),
    text: new TextBuffer(),
    ended: false,
    view: undefined,
  });
  state.streamBlocks.set(event.id, block);
}

function textBase(event: AgTextStartEvent): Omit<AgTextBlock, "text"> {
  const base: Omit<AgTextBlock, "text"> = { type: "text" };
  if (event.providerMetadata !== undefined) base.providerMetadata = event.providerMetadata;
  // `_meta` from the event envelope survives on the block (LangGraph node/tag attribution).
  if (event._meta !== undefined) base._meta = event._meta;
  return base;
}

/** text.delta: APPEND `delta` (INV-DELTA: blind concatenation is safe). */
export function foldTextDelta(state: ReduceState, event: AgTextDeltaEvent): void {
  const block = state.streamBlock(event.id, "text", false);
  if (block === undefined) return;
  block.text.append(event.delta);
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
  // Flatten now: the chunk list and the delta strings it holds are released at the block's end.
  block.text.toString();
  if (event.providerMetadata !== undefined || event.citations !== undefined) {
    block.base = dropUndefined({
      ...block.base,
      providerMetadata: mergeBags(block.base.providerMetadata, event.providerMetadata),
      citations: event.citations ?? block.base.citations,
    });
  }
  state.touchBlock(block);
}
