// The working fold state of reduce() (§5). Everything here is mutable and owned by one reducer;
// `materialize.ts` turns it into an AgReduceResult without handing out any object that a later
// push could change (INV-FOLD: an earlier `result` read stays valid).
//
// Linearity: events mutate this state in place (no per-event copy of the fold). Entities keep a
// cached `view` that is dropped when they change, so reading `result` after each push rebuilds only
// what changed since the previous read.

import type {
  AgArtifact,
  AgJsonValue,
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
} from "../../generated/types.js";
import { copyWithout, hasOwn } from "./json.js";
import { IdTable } from "./id-table.js";
import { ChunkedList } from "./chunked-list.js";
import { isClosed, TextBuffer, type TextHolder } from "./text-buffer.js";

/** The rule an {@link AgReduceIssue} reports, named as the spec names it (§5.0, §5 table). */
export type AgReduceInvariant =
  | "INV-TURN" // §5.0: one open, exactly one terminal per turn
  | "INV-MSG" // §5.0: sealed message / closed turn receives a block or delta
  | "INV-BLOCK" // §5.0: duplicate streaming id, delta after a block's end, kind mismatch
  | "INV-SEQ" // §5.0: forward seq gap
  | "INV-OWNER" // §5.0: the event's owning turn, message or block cannot be resolved
  | "CRITICAL-1" // §5 message.remove: block-creating event after the pointer reverted to none
  | "CRITICAL-2" // §5 message.remove: id "*" without turnId (malformed, never folded)
  | "MEMORY-PATCH" // §5 memory.write: patch without a seeded value, or a failing RFC 6902 patch
  | "STATE-DELTA" // §5 state.delta: failing RFC 6902 patch or a patch the fold cannot apply
  | "ARTIFACT" // §5 artifact.*: delta for an unknown or sealed artifact
  | "INTERNAL"; // a defect in this reducer surfaced as an issue instead of a throw (DESIGN §5)

/** One reduce() error: what went wrong, at which event, under which rule, and the recovery. */
export interface AgReduceIssue {
  /** `seq` of the offending event. */
  seq: number;
  /** Wire `type` of the offending event. */
  type: string;
  /** The violated rule (§5.0 invariant name or §5 row). */
  invariant: AgReduceInvariant;
  /** What is wrong and what the producer or host should do. */
  message: string;
  /** Always a snapshot resync: request `messages.snapshot` (or `state.snapshot` for shared state). */
  recovery: "resync";
}

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
 * the text is a chunk list flattened once. It lives as long as the fold, so the fields most
 * streams never set wait in a side object created by the first of them, `kind` sits on the
 * prototype, the block's end is its closed text buffer, and its id is only the registry's key
 * (see {@link ReduceState.liveStreamBlock}): each field is 8 bytes on Node's 64-bit heap.
 */
export class TextBlockState implements BlockStateBase, TextHolder {
  declare readonly kind: "text";
  view: AgBlock | undefined = undefined;
  text = "";
  chunks: string[] | undefined | null = undefined;
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
 * The first opened part's text is held inline (`text`/`chunks`, closed at reasoning.end); the
 * rarely set fields and the bookkeeping of further parts wait in a side object created on first use.
 */
export class ReasoningBlockState implements BlockStateBase, TextHolder {
  declare readonly kind: "reasoning";
  view: AgBlock | undefined = undefined;
  text = "";
  chunks: string[] | undefined | null = undefined;
  /** A delta arrived: only then does the block carry `text` (a redacted/opaque-only block has none). */
  hasText = false;
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
    return (this.extra ??= { itemId: undefined, opaque: undefined, provider: undefined, providerMetadata: undefined, meta: undefined, parts: undefined });
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
 * is `{ ...fields, content }` as ever; {@link ReduceState.setMessageField} copies the base before
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
  /** Record fields; `value` is a copy-on-write document over {@link ReduceState.owned}. */
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

/** Memory key of §5 memory.write: (scope, key), an absent key being "". */
export function memoryKey(scope: string, key: string | undefined): string {
  return `${scope}\u0000${key ?? ""}`;
}

/** The event fields the fold reads for routing and issue reporting (the §4 base envelope). */
export interface EventEnvelope {
  type: string;
  seq: number;
  turnId?: string;
  messageId?: string;
}

/** The working fold state. Handlers mutate it; `materialize()` reads it. */
export class ReduceState {
  // ── sequencing & resync (INV-SEQ) ──
  lastSeq = -1;
  /**
   * Events rejected at a trust boundary since the last folded one (§10 item 20): each held a seq
   * slot, so the forward-gap test allows one more per rejection — a rejected event changes neither
   * the fold nor the resync condition.
   */
  rejectedSince = 0;
  parked = false;
  needsResync = false;
  readonly issues: AgReduceIssue[] = [];
  /** The event being folded (type and seq), for issue reporting. */
  readonly current: { type: string; seq: number } = { type: "", seq: -1 };

  // ── turns ──
  readonly turns = new Map<string, TurnState>();
  turnOrder: TurnState[] = [];
  /** Open turns in opening order; the last one is INV-OWNER's "last-opened turn". */
  openTurns: TurnState[] = [];
  /** Root threadId of the fold: the first one seen (§1.2; the fallback of §8 item 16). */
  rootThreadId: string | undefined;

  // ── messages ──
  /** Every message in opening order, removed ones included until {@link compactMessages} (callers check `present`). */
  messages = new ChunkedList<MessageState>();
  readonly messagesById = new IdTable<MessageState>();
  /** Ids removed by message.remove (a later message.end for them is a silent no-op, §8 item 19). */
  readonly removedIds = new Set<string>();
  /**
   * turnId → messages opened under it (any origin), for REMOVE_ALL and the metadata fallback
   * without a full scan. Built by the first such event (one scan of `messages`) and kept up to
   * date from then on: a stream that never needs it keeps no second list of every message.
   */
  private byTurn: Map<string, MessageState[]> | undefined = undefined;
  /** Removed messages still in `messages` (compacted away once they are the majority). */
  removedCount = 0;
  /**
   * turnId → candidateIndex → partition (pointer and members). Two lookups on existing keys, so no
   * composite key string is built per event; closing a turn ends exactly its own partitions.
   */
  readonly partitions = new Map<string, Map<number, Partition>>();

  // ── block registries (cleared by messages.snapshot: transient state) ──
  readonly streamBlocks = new IdTable<TextBlockState | ReasoningBlockState>();
  /**
   * The stream block found last, by id: deltas arrive in runs for one block, and an id compare
   * is cheaper than hashing each event's fresh id string. Reset whenever a block leaves the map.
   */
  private lastStreamId: string | undefined = undefined;
  private lastStreamBlock: TextBlockState | ReasoningBlockState | undefined = undefined;
  /**
   * toolCallId → its registered tool-call block, which also holds the id's result; or the result
   * alone when no call is registered. One entry per id: a call and its result share the key.
   */
  readonly tools = new IdTable<ToolCallBlockState | ToolResultBlockState>();
  /** The tool call found last, by id: tool.args.delta events arrive in runs for one call (as {@link lastStreamId}). */
  private lastToolId: string | undefined = undefined;
  private lastToolCall: ToolCallBlockState | undefined = undefined;
  readonly keyedBlocks = new Map<string, StaticBlockState>();
  /** Blocks appended to a message already removed (rare: see {@link unregistered}); they stay registered. */
  private readonly lateBlocks = new Set<BlockState>();
  readonly opaqueScratch = new Map<string, string>();
  /**
   * Streamed block ids and toolCallIds that a messages.snapshot cleared while open: a later delta
   * or end naming one is a pre-snapshot event and is dropped silently (§5: never re-applied).
   */
  readonly staleIds = new Set<string>();

  // ── side channels ──
  readonly artifacts = new Map<string, ArtifactState>();
  artifactOrder: ArtifactState[] = [];
  readonly memory = new Map<string, MemoryState>();
  memoryOrder: MemoryState[] = [];
  /** Shared-state working copy (§5 state.*); `undefined` until a state.snapshot or a merge delta. */
  state: AgJsonValue | undefined = undefined;
  /** Nodes of `state` and memory values that may be mutated in place; reset when a result is handed out. */
  owned = new WeakSet<object>();

  /** Records a reduce() error: the caller must resync (§5.0). */
  fail(invariant: AgReduceInvariant, message: string): void {
    this.issues.push({ seq: this.current.seq, type: this.current.type, invariant, message, recovery: "resync" });
    this.needsResync = true;
  }

  noteThread(threadId: string | undefined): void {
    if (this.rootThreadId === undefined && threadId !== undefined) this.rootThreadId = threadId;
  }

  // ── turns ──

  /** Opens (or re-opens) a turn, idempotent on turnId (§5 "Turn-open idempotency"). */
  openTurn(turnId: string): TurnState {
    let turn = this.turns.get(turnId);
    if (turn === undefined) {
      turn = {
        turnId,
        base: { turnId },
        safety: undefined,
        handoffs: undefined,
        sourceIds: undefined,
        sources: undefined,
        displayRequired: undefined,
        guardrails: undefined,
        closed: false,
        terminated: false,
        view: undefined,
      };
      this.turns.set(turnId, turn);
      this.turnOrder.push(turn);
    }
    if (turn.closed) {
      turn.closed = false;
      turn.terminated = false;
    }
    if (!this.openTurns.includes(turn)) this.openTurns.push(turn);
    return turn;
  }

  /** Closes a turn: it leaves the open stack (restoring its parent as last-opened) and its partitions end. */
  closeTurn(turn: TurnState): void {
    turn.closed = true;
    const index = this.openTurns.indexOf(turn);
    if (index >= 0) this.openTurns.splice(index, 1);
    const ofTurn = this.partitions.get(turn.turnId);
    if (ofTurn !== undefined) for (const partition of ofTurn.values()) partition.pointer = undefined;
  }

  touchTurn(turn: TurnState): void {
    turn.view = undefined;
  }

  /**
   * INV-OWNER: explicit `turnId` → owning message via `messageId` → last-opened turn.
   * Reports INV-OWNER and returns `undefined` when nothing resolves.
   */
  ownerTurn(event: EventEnvelope, useMessageId = true): TurnState | undefined {
    if (event.turnId !== undefined) {
      const turn = this.turns.get(event.turnId);
      if (turn === undefined) {
        this.fail(
          "INV-TURN",
          `${event.type} names turn "${event.turnId}", which was never opened; a producer opens every turn with turn.start (or subagent.start) before its events — resync with messages.snapshot.`,
        );
      }
      return turn;
    }
    if (useMessageId && event.messageId !== undefined) {
      const message = this.messagesById.get(event.messageId);
      const turnId = message?.base.turnId;
      const turn = turnId === undefined ? undefined : this.turns.get(turnId);
      if (turn === undefined) {
        this.fail(
          "INV-OWNER",
          `${event.type} names message "${event.messageId}", which is not in the working set or has no known turn; send turnId on the event or resync with messages.snapshot.`,
        );
      }
      return turn;
    }
    const last = this.openTurns[this.openTurns.length - 1];
    if (last === undefined) {
      this.fail(
        "INV-OWNER",
        `${event.type} has no owning turn: it carries no turnId and no turn is open; open one with turn.start first or resync with messages.snapshot.`,
      );
    }
    return last;
  }

  // ── messages ──

  /** Records `message` in its (turnId, candidateIndex) partition; `point` makes it the partition's open message. */
  joinPartition(message: MessageState, point: boolean): void {
    const { turnId, candidateIndex } = message.base;
    if (turnId === undefined) return;
    const partition = this.partition(turnId, candidateIndex ?? 0, true);
    partition.members.push(message);
    if (point) partition.pointer = message;
  }

  /** The (turnId, candidateIndex) partition; created on demand when `create`. */
  partition(turnId: string, candidateIndex: number, create: true): Partition;
  partition(turnId: string, candidateIndex: number, create: boolean): Partition | undefined;
  partition(turnId: string, candidateIndex: number, create: boolean): Partition | undefined {
    let ofTurn = this.partitions.get(turnId);
    if (ofTurn === undefined) {
      if (!create) return undefined;
      this.partitions.set(turnId, (ofTurn = new Map()));
    }
    let partition = ofTurn.get(candidateIndex);
    if (partition === undefined && create) ofTurn.set(candidateIndex, (partition = { pointer: undefined, members: [] }));
    return partition;
  }

  /** Appends a message to the working set (ascending opening order). */
  addMessage(base: MessageBase, sealed: boolean, adopted: boolean): MessageState {
    const message = new MessageState(base, sealed, adopted);
    this.messages.push(message);
    this.messagesById.set(base.id, message);
    if (this.removedIds.size > 0) this.removedIds.delete(base.id);
    if (this.byTurn !== undefined) indexByTurn(this.byTurn, message);
    return message;
  }

  /** The messages opened under `turnId` still listed (removed ones included: callers check `present`). */
  messagesOfTurn(turnId: string): readonly MessageState[] {
    let byTurn = this.byTurn;
    if (byTurn === undefined) {
      byTurn = this.byTurn = new Map();
      for (const message of this.messages) indexByTurn(byTurn, message);
    }
    return byTurn.get(turnId) ?? [];
  }

  /** Forgets the per-turn lists of `turnId` (REMOVE_ALL removed them), or of every turn. */
  forgetTurnMessages(turnId?: string): void {
    if (turnId === undefined) this.byTurn = undefined;
    else this.byTurn?.delete(turnId);
  }

  /** message.end: a sealed message can never be a partition pointer again, so it leaves the members. */
  leavePartition(message: MessageState): void {
    const { turnId, candidateIndex } = message.base;
    if (turnId === undefined) return;
    const members = this.partition(turnId, candidateIndex ?? 0, false)?.members;
    if (members === undefined) return;
    // Usually the last one opened; an earlier one only when messages of a partition interleave.
    const index = members.lastIndexOf(message);
    if (index === members.length - 1) members.pop();
    else if (index >= 0) members.splice(index, 1);
  }

  /** Sets one AgMessage field (an existing key keeps its position, a new one goes last). */
  setMessageField<K extends keyof MessageBase>(message: MessageState, key: K, value: MessageBase[K]): void {
    const base = message.base;
    // A new key must not land after the open `content` slot of a slotted base (key order).
    if (message.shared || (!hasOwn(base, key) && hasOwn(base, "content"))) {
      message.base = copyWithout(message.base, "content");
      message.shared = false;
    }
    message.base[key] = value;
    message.view = undefined;
  }

  touchBlock(block: BlockState): void {
    block.view = undefined;
    block.message.view = undefined;
  }

  /** Appends a block to a message's content (§5 block insertion order). */
  appendBlock<B extends BlockState>(block: B): B {
    const message = block.message;
    if (!message.present) this.lateBlocks.add(block);
    message.addBlock(block);
    message.view = undefined;
    return block;
  }

  isTurnClosed(turnId: string | undefined): boolean {
    return turnId !== undefined && this.turns.get(turnId)?.closed === true;
  }

  /**
   * INV-MSG: may a block-creating, delta or block-mutating event write into `message`?
   * Reports INV-MSG and returns false for a sealed message or a message of a closed turn.
   */
  canWrite(message: MessageState, what: string, whatId?: string): boolean {
    if (this.isTurnClosed(message.base.turnId)) {
      this.fail(
        "INV-MSG",
        `${this.current.type} ${describe(what, whatId)} targets message "${message.base.id}" of turn "${message.base.turnId ?? ""}", which is already closed; a closed turn takes no further content — resync with messages.snapshot.`,
      );
      return false;
    }
    if (message.sealed) {
      this.fail(
        "INV-MSG",
        `${this.current.type} ${describe(what, whatId)} targets message "${message.base.id}", which message.end already sealed; open a new message with message.start (or adopt one with tool.done.messageId) — resync with messages.snapshot.`,
      );
      return false;
    }
    return true;
  }

  /**
   * §5 message partitioning: the message a new block attaches to. An explicit base `messageId`
   * names it; otherwise the most-recently-opened message of (owning turn, candidateIndex).
   * Reports INV-OWNER / CRITICAL-1 / INV-MSG and returns `undefined` when there is none.
   */
  blockTarget(event: EventEnvelope, candidateIndex: number | undefined, what: string, whatId?: string): MessageState | undefined {
    if (event.messageId !== undefined) {
      const named = this.messagesById.get(event.messageId);
      if (named === undefined) {
        this.fail(
          "INV-OWNER",
          `${event.type} ${describe(what, whatId)} names message "${event.messageId}", which is not in the working set; open it with message.start first or resync with messages.snapshot.`,
        );
        return undefined;
      }
      return this.canWrite(named, what, whatId) ? named : undefined;
    }
    const turn = this.ownerTurn(event, false);
    return turn === undefined ? undefined : this.partitionTarget(turn, candidateIndex, what, whatId);
  }

  /** The open message of partition (turn, candidateIndex) for a new block, or a reported error. */
  partitionTarget(turn: TurnState, candidateIndex: number | undefined, what: string, whatId?: string): MessageState | undefined {
    const event = this.current;
    if (turn.closed) {
      this.fail(
        "INV-MSG",
        `${event.type} ${describe(what, whatId)} targets turn "${turn.turnId}", which is already closed; a closed turn takes no further content — resync with messages.snapshot.`,
      );
      return undefined;
    }
    const pointer = this.partition(turn.turnId, candidateIndex ?? 0, false)?.pointer;
    if (pointer === null) {
      this.fail(
        "CRITICAL-1",
        `${event.type} ${describe(what, whatId)} arrived for turn "${turn.turnId}" candidate ${candidateIndex ?? 0} after message.remove left that partition with no open message; a removed message is never implicitly re-opened — send message.start first, or resync with messages.snapshot.`,
      );
      return undefined;
    }
    if (pointer === undefined) {
      this.fail(
        "INV-OWNER",
        `${event.type} ${describe(what, whatId)} has no open message in turn "${turn.turnId}" candidate ${candidateIndex ?? 0}; open one with message.start first (§5 message partitioning) or resync with messages.snapshot.`,
      );
      return undefined;
    }
    return this.canWrite(pointer, what, whatId) ? pointer : undefined;
  }

  /** INV-OWNER resolution without reporting (for records that may exist without a turn, e.g. memory). */
  quietTurn(event: EventEnvelope): TurnState | undefined {
    if (event.turnId !== undefined) return this.turns.get(event.turnId);
    if (event.messageId !== undefined) {
      const turnId = this.messagesById.get(event.messageId)?.base.turnId;
      return turnId === undefined ? undefined : this.turns.get(turnId);
    }
    return this.openTurns[this.openTurns.length - 1];
  }

  /**
   * "The open message of the turn" for metadata carriers (turn.done.messageMetadata,
   * message.metadata without messageId): the candidate-0 partition's current message, else the
   * most recently opened message of the turn still in the working set. Sealing does not matter:
   * metadata is not content (INV-MSG binds blocks and deltas).
   */
  metadataTarget(turn: TurnState): MessageState | undefined {
    const pointer = this.partition(turn.turnId, 0, false)?.pointer;
    if (pointer && pointer.present) return pointer;
    const ofTurn = this.messagesOfTurn(turn.turnId);
    for (let i = ofTurn.length - 1; i >= 0; i--) {
      const message = ofTurn[i];
      if (message !== undefined && message.present) return message;
    }
    return undefined;
  }

  /**
   * The streamed block a delta/end/opaque event names, ready to write: it exists, has the expected
   * kind, its message is writable (INV-MSG) and — unless `afterEnd` — its `*.end` has not passed.
   * Reports INV-OWNER / INV-BLOCK / INV-MSG and returns `undefined` otherwise.
   */
  streamBlock<K extends "text" | "reasoning">(
    id: string,
    kind: K,
    afterEnd: boolean,
  ): Extract<TextBlockState | ReasoningBlockState, { kind: K }> | undefined {
    const type = this.current.type;
    let block = this.lastStreamBlock;
    if (id !== this.lastStreamId || block === undefined) {
      block = this.liveStreamBlock(id);
      if (block !== undefined) {
        this.lastStreamId = id;
        this.lastStreamBlock = block;
      }
    }
    if (block === undefined) {
      if (this.staleIds.has(id)) return undefined;
      this.fail(
        "INV-OWNER",
        `${type} names ${kind} block "${id}", which is not open; start it with ${kind}.start first (a messages.snapshot clears open blocks) — resync with messages.snapshot.`,
      );
      return undefined;
    }
    if (!isKind(block, kind)) {
      this.fail("INV-BLOCK", `${type} names block "${id}", which is a ${block.kind} block, not ${kind}; block ids are unique across kinds.`);
      return undefined;
    }
    if (!this.canWrite(block.message, "for block", id)) return undefined;
    if (block.ended && !afterEnd) {
      this.fail("INV-BLOCK", `${type} for ${kind} block "${id}" after its ${kind}.end sealed it; the event was ignored — resync with messages.snapshot.`);
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
  liveStreamBlock(id: string): TextBlockState | ReasoningBlockState | undefined {
    const block = this.streamBlocks.get(id);
    if (block === undefined || !this.unregistered(block)) return block;
    this.streamBlocks.delete(id);
    this.opaqueScratch.delete(id);
    return undefined;
  }

  /**
   * Whether message.remove unregistered `block` with its message. A block appended to a message
   * after its removal is still registered: a partition pointer can outlive its message (a snapshot
   * listing an id twice removes the first), and blocks attach to it as ever — {@link lateBlocks}.
   */
  private unregistered(block: BlockState): boolean {
    return !block.message.present && !this.lateBlocks.has(block);
  }

  /** The registered tool-call block of `toolCallId`, if any. */
  toolCall(toolCallId: string): ToolCallBlockState | undefined {
    const last = this.lastToolCall;
    if (last !== undefined && toolCallId === this.lastToolId) return last;
    const entry = this.tools.get(toolCallId);
    if (entry?.kind !== "tool-call") return undefined;
    this.lastToolId = toolCallId;
    this.lastToolCall = entry;
    return entry;
  }

  private forgetLastStream(): void {
    this.lastStreamId = undefined;
    this.lastStreamBlock = undefined;
  }

  /** Removes a message and unregisters its blocks (§5 message.remove). */
  removeMessage(message: MessageState): void {
    message.remove();
    this.removedCount++;
    this.messagesById.delete(message.base.id);
    this.removedIds.add(message.base.id);
    message.forEachBlock((block) => this.unregisterBlock(block));
  }

  private unregisterBlock(block: BlockState): void {
    switch (block.kind) {
      case "text":
      case "reasoning":
        // Its registry entry (and opaque scratch) goes at the next lookup of its id: see liveStreamBlock.
        this.forgetLastStream();
        return;
      case "tool-call": {
        const id = block.block.toolCallId;
        if (this.lastToolCall === block) this.lastToolCall = undefined;
        if (this.tools.get(id) === block) {
          // The id's result outlives its call's message.
          if (block.result !== undefined) this.tools.set(id, block.result);
          else this.tools.delete(id);
        }
        block.args = undefined;
        block.result = undefined;
        return;
      }
      case "tool-result": {
        const id = block.block.toolCallId;
        const entry = this.tools.get(id);
        if (entry === block) this.tools.delete(id);
        else if (entry?.kind === "tool-call" && entry.result === block) entry.result = undefined;
        return;
      }
      case "static":
        if (block.key !== undefined && this.keyedBlocks.get(block.key) === block) this.keyedBlocks.delete(block.key);
        return;
    }
  }

  /**
   * CRITICAL #1 pointer revert: the highest-order still-present un-sealed message of the
   * partition, or none (`null`, so a later block-creating event is reported as CRITICAL-1).
   */
  revertPointer(partition: Partition): void {
    // Removed members are pruned here, where the partition is scanned anyway (keeps removal linear).
    const members = partition.members.filter((member) => member.present);
    partition.members = members;
    for (let i = members.length - 1; i >= 0; i--) {
      const candidate = members[i];
      if (candidate !== undefined && !candidate.sealed) {
        partition.pointer = candidate;
        return;
      }
    }
    partition.pointer = null;
  }

  /** Drops removed messages from the working list once they are the majority (amortized O(1) per removal). */
  compactMessages(): void {
    if (this.removedCount * 2 <= this.messages.length) return;
    this.messages = this.messages.filter((message) => message.present);
    this.removedCount = 0;
  }

  /** Clears every transient registry (§5 messages.snapshot: no pre-snapshot delta is re-applied). */
  clearTransient(): void {
    this.streamBlocks.forEach((block, id) => {
      if (!block.ended && !this.unregistered(block)) this.staleIds.add(id);
    });
    this.tools.forEach((entry, id) => {
      if (entry.kind !== "tool-call") return;
      this.staleIds.add(id);
      entry.args = undefined;
      entry.result = undefined;
    });
    this.streamBlocks.clear();
    this.forgetLastStream();
    this.tools.clear();
    this.lastToolCall = undefined;
    this.keyedBlocks.clear();
    this.lateBlocks.clear();
    this.opaqueScratch.clear();
  }
}

function indexByTurn(byTurn: Map<string, MessageState[]>, message: MessageState): void {
  const turnId = message.base.turnId;
  if (turnId === undefined) return;
  const ofTurn = byTurn.get(turnId);
  if (ofTurn === undefined) byTurn.set(turnId, [message]);
  else ofTurn.push(message);
}

/**
 * The subject of an issue message: `what` followed by the quoted id, if any. Built only when an
 * issue is reported, so the success path formats no string.
 */
export function describe(what: string, id: string | undefined): string {
  return id === undefined ? what : `${what} "${id}"`;
}

function isKind<K extends "text" | "reasoning">(
  block: TextBlockState | ReasoningBlockState,
  kind: K,
): block is Extract<TextBlockState | ReasoningBlockState, { kind: K }> {
  return block.kind === kind;
}
