// Builds an AgReduceResult from the working state (§2 AgReduceResult). Views are cached per entity
// and dropped when the entity changes, so a read after every push costs what changed, not the fold.
// No returned object is ever mutated afterwards: shared-state and memory values are copy-on-write
// (the owned set is reset here), everything else is rebuilt when it changes.

import type {
  AgArtifact,
  AgBlock,
  AgMemoryRecord,
  AgMessage,
  AgReasoningBlock,
  AgReduceResult,
  AgTextBlock,
  AgTurnRecord,
} from "../../generated/lenient-types.js";
import { copyWithout, withKey } from "./json.js";
import { flattenText } from "./text-buffer.js";
import type { ArtifactState, BlockState, MessageState, ReasoningBlockState, TextBlockState, TurnState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";

function blockView(block: BlockState): AgBlock {
  if (block.view !== undefined) return block.view;
  let view: AgBlock;
  switch (block.kind) {
    case "text":
      view = textView(block);
      break;
    case "reasoning":
      view = reasoningView(block);
      break;
    case "tool-call":
    case "tool-result":
    case "static":
      view = block.block;
      break;
  }
  block.view = view;
  return view;
}

function textView(block: TextBlockState): AgTextBlock {
  const view: AgTextBlock = { type: "text", text: "" };
  if (block.providerMetadata !== undefined) view.providerMetadata = block.providerMetadata;
  if (block.meta !== undefined) view._meta = block.meta;
  if (block.citations !== undefined) view.citations = block.citations;
  view.text = flattenText(block);
  return view;
}

function reasoningView(block: ReasoningBlockState): AgReasoningBlock {
  const { itemId, opaque, provider, providerMetadata, meta } = block;
  if (itemId === undefined && opaque === undefined && provider === undefined && providerMetadata === undefined && meta === undefined) {
    // One literal holds `text` in-object; adding it to `{ type }` would allocate a property store.
    return block.hasText ? { type: "reasoning", text: joinParts(block) } : { type: "reasoning" };
  }
  const view: AgReasoningBlock = { type: "reasoning" };
  if (block.itemId !== undefined) view.itemId = block.itemId;
  if (block.opaque !== undefined) view.opaque = block.opaque;
  if (block.provider !== undefined) view.provider = block.provider;
  if (block.providerMetadata !== undefined) view.providerMetadata = block.providerMetadata;
  if (block.meta !== undefined) view._meta = block.meta;
  if (block.hasText) view.text = joinParts(block);
  return view;
}

/** §5 reasoning.delta: `text` is the in-order (ascending partIndex) concatenation of the parts. */
function joinParts(block: ReasoningBlockState): string {
  const more = block.moreParts;
  if (more === undefined) return flattenText(block);
  const indices = [block.firstPart, ...more.keys()].sort((a, b) => a - b);
  let text = "";
  for (const index of indices) {
    const holder = index === block.firstPart ? block : more.get(index);
    if (holder !== undefined) text += flattenText(holder);
  }
  return text;
}

/**
 * The message as a result holds it. The first read turns the fold's own `base` into the message
 * (content added last, as the key order of `{ ...base, content }`); a later read after a change
 * builds a fresh copy, so what an earlier read handed out never changes.
 */
function messageView(message: MessageState): AgMessage {
  if (message.view !== undefined) return message.view;
  const content = message.mapBlocks(blockView);
  const view = withKey(message.shared ? copyWithout(message.base, "content") : message.base, "content", content);
  message.base = view;
  message.shared = true;
  return (message.view = view);
}

function turnView(turn: TurnState, rootThreadId: string | undefined): AgTurnRecord {
  if (turn.view !== undefined) return turn.view;
  const view: AgTurnRecord = { ...turn.base, threadId: turn.base.threadId ?? rootThreadId ?? "" };
  if (turn.safety !== undefined) view.safety = turn.safety.slice();
  if (turn.handoffs !== undefined) view.handoffs = turn.handoffs.slice();
  if (turn.sourceIds !== undefined) view.sourceIds = turn.sourceIds.slice();
  if (turn.sources !== undefined) view.sources = turn.sources.slice();
  if (turn.displayRequired !== undefined) view.displayRequired = turn.displayRequired.slice();
  if (turn.guardrails !== undefined) view.guardrails = turn.guardrails.slice();
  // A turn without its own threadId inherits the fold's root later (§8 item 16), so only cache
  // a view whose threadId is final.
  if (turn.base.threadId !== undefined) turn.view = view;
  return view;
}

function artifactView(artifact: ArtifactState): AgArtifact {
  if (artifact.view === undefined) {
    artifact.view = {
      ...artifact.base,
      parts: artifact.parts.map((part) =>
        part.text === undefined || part.block.type !== "text" ? part.block : { ...part.block, text: part.text },
      ),
    };
  }
  return artifact.view;
}

/** The AgReduceResult of the fold so far (§2). Safe to keep: later pushes never change it. */
export function materialize(state: ReduceState): AgReduceResult {
  // Sized up front: growing a list of every message by push copies it several times.
  const messages = new Array<AgMessage>(state.messages.length - state.removedCount);
  let count = 0;
  state.messages.forEach((message) => {
    if (message.present) messages[count++] = messageView(message);
  });
  messages.length = count;
  const memory: AgMemoryRecord[] = [];
  for (const entry of state.memoryOrder) if (entry.present) memory.push({ ...entry.record });
  const result: AgReduceResult = {
    messages,
    artifacts: state.artifactOrder.map(artifactView),
    memory,
    turns: state.turnOrder.map((turn) => turnView(turn, state.rootThreadId)),
  };
  if (state.state !== undefined) result.state = state.state;
  // Values handed out above must not be patched in place by a later state.delta / memory patch.
  state.owned = new WeakSet();
  return result;
}
