// How the fold holds its entities in memory: messages, the blocks inside them, turn records,
// artifacts, memory records and message partitions. These are layouts, not rules — the §5 rules
// that create and change them live in the family modules (turn.ts, message.ts, text.ts, …).
//
// A fold of millions of events keeps one of these per message and per block for its whole life,
// so they are laid out for size (every field is 8 bytes on Node's 64-bit heap, after a 24-byte
// header; docs/reduce.md has the measurements): a block's `kind` sits on its class prototype, the
// fields few streams set wait in a side object created by the first of them, a message's flags
// share one field. Entities keep a cached `view` that is dropped when they change, so reading
// `result` after each push rebuilds only what changed since the previous read (materialize.ts).

import type {
  AgArtifact,
  AgBlock,
  AgDisplayRequiredRecord,
  AgGuardrailRecord,
  AgHandoffRecord,
  AgMemoryRecord,
  AgMessage,
  AgReasoningBlock,
  AgSafety,
  AgSourceRecord,
  AgTextBlock,
  AgToolCallBlock,
  AgToolResultBlock,
  AgTurnRecord,
} from "../../generated/lenient-types.js";
import { hasDelta, isClosed, TextBuffer, type TextHolder, type TextState } from "./text-buffer.js";

/** A string-keyed bag of opaque values (providerMetadata, toolMetadata, _meta, metadata). */
export type Bag = Record<string, unknown>;

interface BlockStateBase {
  /** Message that holds the block (its position in `content` never changes, §5 block insertion order). */
  readonly message: MessageState;
  /** Materialized block, dropped whenever the block changes. */
  view: AgBlock | undefined;
}

/** The AgTextBlock fields few streams set, held apart so a plain text block does not carry them. */
interface TextExtra {
  providerMetadata: AgTextBlock["providerMetadata"];
  /** The event envelope's `_meta`, carried onto the block. */
  meta: AgTextBlock["_meta"];
  citations: AgTextBlock["citations"];
}

/**
 * A streamed `text` block (text.start/delta/end). One object per block (no separate base object);
 * the text is a chunk list flattened once, in one field (text-buffer.ts). It lives as long as the
 * fold, so the fields most streams never set wait in a side object created by the first of them,
 * `kind` sits on the prototype, the block's end is its closed text, and its id is only the
 * registry's key (see `liveStreamBlock` in block-registry.ts): each field is 8 bytes on Node's
 * 64-bit heap.
 */
export class TextBlockState implements BlockStateBase, TextHolder {
  declare readonly kind: "text";
  view: AgBlock | undefined = undefined;
  /** The text, as text-buffer.ts keeps it: a chunk list while the block streams, a string once it ended. */
  text: TextState = undefined;
  private extra: TextExtra | undefined = undefined;

  constructor(
    readonly message: MessageState,
    providerMetadata: AgTextBlock["providerMetadata"],
    meta: AgTextBlock["_meta"],
  ) {
    if (providerMetadata !== undefined || meta !== undefined) this.extra = { providerMetadata, meta, citations: undefined };
  }

  /** text.end seen: further deltas or a second end are INV-BLOCK errors. */
  get ended(): boolean {
    return isClosed(this);
  }

  get providerMetadata(): AgTextBlock["providerMetadata"] {
    return this.extra?.providerMetadata;
  }
  set providerMetadata(value: AgTextBlock["providerMetadata"]) {
    if (value !== undefined || this.extra !== undefined) this.textExtra().providerMetadata = value;
  }
  get meta(): AgTextBlock["_meta"] {
    return this.extra?.meta;
  }
  get citations(): AgTextBlock["citations"] {
    return this.extra?.citations;
  }
  set citations(value: AgTextBlock["citations"]) {
    if (value !== undefined || this.extra !== undefined) this.textExtra().citations = value;
  }

  private textExtra(): TextExtra {
    return (this.extra ??= { providerMetadata: undefined, meta: undefined, citations: undefined });
  }
}
Object.defineProperty(TextBlockState.prototype, "kind", { value: "text" });

/** Summary-part bookkeeping of a reasoning block that opened a part other than 0 (§5 reasoning.start partIndex). */
interface ReasoningParts {
  /** partIndex of the inline (first opened) part. */
  firstPart: number;
  /** partIndex → accumulated text for every other opened part; `undefined` while there is one part. */
  moreParts: Map<number, TextBuffer> | undefined;
  /** Part that a delta without `partIndex` appends to: the last part opened. */
  currentPart: number;
}

/** The AgReasoningBlock fields few streams set, and the rare summary-part bookkeeping (see {@link TextBlockState}). */
interface ReasoningExtra {
  itemId: string | undefined;
  opaque: AgReasoningBlock["opaque"];
  provider: string | undefined;
  providerMetadata: AgReasoningBlock["providerMetadata"];
  meta: AgReasoningBlock["_meta"];
  parts: ReasoningParts | undefined;
}

/**
 * A streamed `reasoning` block: text is the in-order concatenation of its parts (§5 reasoning.delta).
 * The first opened part's text is held inline (`text`, closed at reasoning.end); the
 * rarely set fields and the bookkeeping of further parts wait in a side object created on first use.
 */
export class ReasoningBlockState implements BlockStateBase, TextHolder {
  declare readonly kind: "reasoning";
  view: AgBlock | undefined = undefined;
  /** The first opened part's text (text-buffer.ts): a chunk list while it streams, a string once the block ended. */
  text: TextState = undefined;
  private extra: ReasoningExtra | undefined = undefined;

  constructor(
    readonly message: MessageState,
    firstPart: number,
    itemId: string | undefined,
    providerMetadata: AgReasoningBlock["providerMetadata"],
    meta: AgReasoningBlock["_meta"],
  ) {
    const parts = firstPart === 0 ? undefined : { firstPart, moreParts: undefined, currentPart: firstPart };
    if (itemId !== undefined || providerMetadata !== undefined || meta !== undefined || parts !== undefined) {
      this.extra = { itemId, opaque: undefined, provider: undefined, providerMetadata, meta, parts };
    }
  }

  /** reasoning.end seen: further deltas or a second end are INV-BLOCK errors. */
  get ended(): boolean {
    return isClosed(this);
  }

  /** A delta arrived, to any part: only then does the block carry `text` (a redacted/opaque-only block has none). */
  get hasText(): boolean {
    if (hasDelta(this)) return true;
    const more = this.moreParts;
    if (more !== undefined) for (const part of more.values()) if (hasDelta(part)) return true;
    return false;
  }

  get itemId(): string | undefined {
    return this.extra?.itemId;
  }
  set itemId(value: string | undefined) {
    if (value !== undefined || this.extra !== undefined) this.reasoningExtra().itemId = value;
  }
  get opaque(): AgReasoningBlock["opaque"] {
    return this.extra?.opaque;
  }
  set opaque(value: AgReasoningBlock["opaque"]) {
    if (value !== undefined || this.extra !== undefined) this.reasoningExtra().opaque = value;
  }
  get provider(): string | undefined {
    return this.extra?.provider;
  }
  set provider(value: string | undefined) {
    if (value !== undefined || this.extra !== undefined) this.reasoningExtra().provider = value;
  }
  get providerMetadata(): AgReasoningBlock["providerMetadata"] {
    return this.extra?.providerMetadata;
  }
  set providerMetadata(value: AgReasoningBlock["providerMetadata"]) {
    if (value !== undefined || this.extra !== undefined) this.reasoningExtra().providerMetadata = value;
  }
  get meta(): AgReasoningBlock["_meta"] {
    return this.extra?.meta;
  }
  set meta(value: AgReasoningBlock["_meta"]) {
    if (value !== undefined || this.extra !== undefined) this.reasoningExtra().meta = value;
  }

  /** partIndex of the inline (first opened) part. */
  get firstPart(): number {
    return this.extra?.parts?.firstPart ?? 0;
  }
  /** partIndex → text of every other opened part; `undefined` while there is one part. */
  get moreParts(): Map<number, TextBuffer> | undefined {
    return this.extra?.parts?.moreParts;
  }
  /** Part that a delta without `partIndex` appends to: the last part opened. */
  get currentPart(): number {
    return this.extra?.parts?.currentPart ?? 0;
  }

  /** Opens summary part `partIndex` (a new TextBuffer) and makes it the current part. */
  openPart(partIndex: number): TextBuffer {
    const extra = this.reasoningExtra();
    const parts = (extra.parts ??= { firstPart: 0, moreParts: undefined, currentPart: 0 });
    const buffer = new TextBuffer();
    (parts.moreParts ??= new Map()).set(partIndex, buffer);
    parts.currentPart = partIndex;
    return buffer;
  }

  private reasoningExtra(): ReasoningExtra {
    return (this.extra ??= {
      itemId: undefined,
      opaque: undefined,
      provider: undefined,
      providerMetadata: undefined,
      meta: undefined,
      parts: undefined,
    });
  }
}
Object.defineProperty(ReasoningBlockState.prototype, "kind", { value: "reasoning" });

/** A `tool-call` block opened by tool.start; `input` is `{}` until tool.args.assembled. `kind` is on the prototype. */
export class ToolCallBlockState implements BlockStateBase {
  declare readonly kind: "tool-call";
  view: AgBlock | undefined = undefined;
  /** Raw tool.args.delta fragments (scratch: never part of the result); dropped at tool.args.assembled. */
  args: string[] | undefined = undefined;

  constructor(
    readonly message: MessageState,
    /** The current block; mutated in place until a result read hands it out (`view === block`), copied after. */
    public block: AgToolCallBlock,
    /** The result landed for this toolCallId while the call is registered (both share one `tools` entry). */
    public result: ToolResultBlockState | undefined,
  ) {}
}
Object.defineProperty(ToolCallBlockState.prototype, "kind", { value: "tool-call" });

/** A `tool-result` landed by tool.done; `preliminary` mirrors the latest `more` (§2.2). `kind` is on the prototype. */
export class ToolResultBlockState implements BlockStateBase {
  declare readonly kind: "tool-result";

  constructor(
    readonly message: MessageState,
    /** Replaced wholesale by a later tool.done (§2.2), never written in place: it is the view itself. */
    public block: AgToolResultBlock,
  ) {}

  /** Always `block` (no field of its own: one fewer per result, and nothing to invalidate). */
  get view(): AgBlock | undefined {
    return this.block;
  }
  set view(_dropped: AgBlock | undefined) {
    // A change replaces `block`, which is the view; touchBlock's reset has nothing to drop.
  }
}
Object.defineProperty(ToolResultBlockState.prototype, "kind", { value: "tool-result" });

/** A block delivered whole (content.block, messages.snapshot); `key` is its reconcile id, if any. */
export interface StaticBlockState extends BlockStateBase {
  readonly kind: "static";
  block: AgBlock;
  readonly key: string | undefined;
}

/** Any block held in a message. */
export type BlockState = TextBlockState | ReasoningBlockState | ToolCallBlockState | ToolResultBlockState | StaticBlockState;

const SHARED = 1;
const SEALED = 2;
const PRESENT = 4;
const ADOPTED = 8;
const VIEWED = 16;

/**
 * A message of the working set (§3.2, §5 message.*). One is kept per message for the whole fold,
 * so its flags share one field and its cached view is one of them (a field is 8 bytes on Node's
 * 64-bit heap).
 */
export class MessageState {
  /**
   * Every AgMessage field except `content`. Owned by the fold and written in place until a result
   * read hands it out as the message itself (`shared`, with `content` added last); written on a
   * copy after that, so a result already read never changes.
   */
  base: MessageBase;
  private flags: number;
  // The blocks in order (§5 block insertion order): the first two in fields, the third in `rest`,
  // which becomes a list when a fourth arrives. Most messages hold one to three blocks, and an
  // array of its own would cost each message another 48 bytes besides its slots.
  private block0: BlockState | undefined = undefined;
  private block1: BlockState | undefined = undefined;
  private rest: BlockState | BlockState[] | undefined = undefined;

  constructor(base: MessageBase, sealed: boolean, adopted: boolean) {
    this.base = base;
    this.flags = PRESENT | (sealed ? SEALED : 0) | (adopted ? ADOPTED : 0);
  }

  /**
   * The AgMessage the last result read handed out, while nothing changed since. A read makes that
   * message the `base` itself, so a flag stands for the view and `base` is returned.
   */
  get view(): AgMessage | undefined {
    // `base` is the handed-out AgMessage (content included) whenever VIEWED is set; the field is
    // typed for its other life, as the content-less fold base.
    return (this.flags & VIEWED) !== 0 ? (this.base as AgMessage) : undefined;
  }
  /** Drops the view (`undefined`), or records `view` — which becomes `base` — as the current one. */
  set view(view: AgMessage | undefined) {
    if (view === undefined) {
      this.flags &= ~VIEWED;
    } else {
      this.base = view;
      this.flags |= VIEWED;
    }
  }

  /** `base` is the AgMessage a result read handed out: never written again. */
  get shared(): boolean {
    return (this.flags & SHARED) !== 0;
  }
  set shared(value: boolean) {
    this.flags = value ? this.flags | SHARED : this.flags & ~SHARED;
  }

  /** message.end seen (or adopted by tool.done): no block-creating or delta event may target it. */
  get sealed(): boolean {
    return (this.flags & SEALED) !== 0;
  }
  set sealed(value: boolean) {
    this.flags = value ? this.flags | SEALED : this.flags & ~SEALED;
  }

  /** Still in the working set (message.remove and messages.snapshot clear it). */
  get present(): boolean {
    return (this.flags & PRESENT) !== 0;
  }

  /** Created by tool.done adoption (§5 tool.done, §8 item 15) rather than message.start. */
  get adopted(): boolean {
    return (this.flags & ADOPTED) !== 0;
  }

  /** Takes the message out of the working set (message.remove, messages.snapshot). */
  remove(): void {
    this.flags &= ~PRESENT;
  }

  /**
   * Lets go of what a removed message held (§5 message.remove): its blocks and, when a result read
   * made the handed-out AgMessage its base, that message's content. Its block ids may stay in the
   * registries until next looked up (`liveStreamBlock`), and each entry leads here: without this, a
   * stream that removes what it streamed would keep all of it for the whole fold.
   */
  releaseContent(): void {
    if ((this.flags & VIEWED) !== 0) {
      const { content: _content, ...base } = this.base as AgMessage;
      this.base = base;
      this.flags &= ~(VIEWED | SHARED);
    }
    this.block0 = undefined;
    this.block1 = undefined;
    this.rest = undefined;
  }

  /** Appends a block (§5 block insertion order). */
  addBlock(block: BlockState): void {
    const rest = this.rest;
    if (this.block0 === undefined) this.block0 = block;
    else if (this.block1 === undefined) this.block1 = block;
    else if (rest === undefined) this.rest = block;
    else if (!Array.isArray(rest)) this.rest = [rest, block];
    // Exact-size while short (a pushed-to array carries 16 spare slots); push beyond.
    else if (rest.length < 6) this.rest = rest.concat(block);
    else rest.push(block);
  }

  /** `fn` of every block, in order, as an exact-size array. */
  mapBlocks<T>(fn: (block: BlockState) => T): T[] {
    const { block0, block1, rest } = this;
    if (block0 === undefined) return [];
    if (block1 === undefined) return [fn(block0)];
    if (rest === undefined) return [fn(block0), fn(block1)];
    if (!Array.isArray(rest)) return [fn(block0), fn(block1), fn(rest)];
    return [fn(block0), fn(block1)].concat(rest.map(fn));
  }

  /** Calls `fn` on every block, in order. */
  forEachBlock(fn: (block: BlockState) => void): void {
    const rest = this.rest;
    if (this.block0 !== undefined) fn(this.block0);
    if (this.block1 !== undefined) fn(this.block1);
    if (rest === undefined) return;
    if (Array.isArray(rest)) for (const block of rest) fn(block);
    else fn(rest);
  }
}

/** The AgMessage fields a message state carries besides its content. */
export type MessageBase = Omit<AgMessage, "content">;

/**
 * The base of a message that has only the four fields every message.start (or adoption) sets,
 * with a `content` slot held open as its last key: the first result read fills the slot in place,
 * where adding the key would give every message a separate 40-byte property store. The key order
 * is `{ ...fields, content }` as ever; `setMessageField` (message.ts) copies the base before
 * adding a field after the slot.
 */
export function slottedBase(id: string, role: AgMessage["role"], turnId: string, threadId: string | undefined): MessageBase {
  const base = { id, role, turnId, threadId, content: undefined };
  return base;
}

/** A turn record plus its open/closed status (§5 turn.*, subagent.*). */
export interface TurnState {
  readonly turnId: string;
  /** Record fields except the appendable arrays below; replaced (never mutated) on change. */
  base: Omit<AgTurnRecord, "threadId" | "safety" | "handoffs" | "sourceIds" | "sources" | "displayRequired" | "guardrails"> & {
    threadId?: string;
  };
  safety: AgSafety[] | undefined;
  handoffs: AgHandoffRecord[] | undefined;
  sourceIds: string[] | undefined;
  sources: AgSourceRecord[] | undefined;
  displayRequired: AgDisplayRequiredRecord[] | undefined;
  guardrails: AgGuardrailRecord[] | undefined;
  /** No block, delta or new message may attach to a closed turn (INV-MSG). */
  closed: boolean;
  /** A terminal (turn.done/error/abort) was folded; a second one is an INV-TURN error. */
  terminated: boolean;
  view: AgTurnRecord | undefined;
}

/** One part of an artifact; `text` accumulates `append:true` text deltas onto a text part. */
export interface ArtifactPart {
  block: AgBlock;
  text: string | undefined;
}

/** An A2A artifact in the side-channel (§2 AgArtifact, §5 artifact.*). */
export interface ArtifactState {
  base: Omit<AgArtifact, "parts">;
  readonly parts: ArtifactPart[];
  sealed: boolean;
  view: AgArtifact | undefined;
}

/** A memory record keyed by (scope, key) (§2 AgMemoryRecord, §5 memory.write). */
export interface MemoryState {
  /** Record fields; `value` is a copy-on-write document over the fold state's `owned` set. */
  record: AgMemoryRecord;
  present: boolean;
}

/** One (turnId, candidateIndex) partition of §5 message partitioning. */
export interface Partition {
  /** Most-recently-opened message; `null` once CRITICAL #1 reverted it to none; `undefined` when there is none. */
  pointer: MessageState | null | undefined;
  /**
   * The partition's un-sealed messages, in opening order: the only candidates of a CRITICAL #1
   * revert (nothing un-seals a message), so message.end drops its message and the list stays as
   * short as the number of open messages instead of growing with the stream.
   */
  members: MessageState[];
}
