// The working state of one reduce() fold (§5): sequencing, the turn, message and block
// registries, and the side channels. It is data: the §5 rules that read and change it are the
// family modules' functions (turn.ts, message.ts, block-registry.ts, text.ts, …), and
// `materialize.ts` turns it into an AgReduceResult without handing out any object that a later
// push could change (INV-FOLD: an earlier `result` read stays valid).
//
// Linearity: events mutate this state in place (no per-event copy of the fold).

import type { AgJsonValue } from "../../generated/lenient-types.js";
import type {
  ArtifactState,
  BlockState,
  MemoryState,
  MessageState,
  Partition,
  ReasoningBlockState,
  StaticBlockState,
  TextBlockState,
  ToolCallBlockState,
  ToolResultBlockState,
  TurnState,
} from "./entities.js";
import { IssueLog, type AgReduceInvariant } from "./issues.js";
import { createAppendList, createIdRegistry, type AppendList, type IdRegistry } from "./storage/index.js";

/** The event fields the fold reads for routing and issue reporting (the §4 base envelope). */
export interface EventEnvelope {
  type: string;
  seq: number;
  turnId?: string;
  messageId?: string;
}

/** The working fold state. Handlers mutate it; `materialize()` reads it. */
export class ReduceState {
  // ── sequencing & resync (INV-SEQ, index.ts) ──
  lastSeq = -1;
  /**
   * Events rejected since the last folded one — at a trust boundary, or by the depth cap
   * (§10 item 20): each held a seq slot, so the forward-gap test allows one more per rejection — a
   * rejected event changes neither the fold nor the resync condition.
   */
  rejectedSince = 0;
  parked = false;
  needsResync = false;
  /** The fold's errors, bounded (issues.ts). */
  readonly issues: IssueLog;
  /** The event being folded (type and seq), for issue reporting. */
  readonly current: { type: string; seq: number } = { type: "", seq: -1 };

  // ── turns (turn.ts) ──
  readonly turns = new Map<string, TurnState>();
  turnOrder: TurnState[] = [];
  /** Open turns in opening order; the last one is INV-OWNER's "last-opened turn". */
  openTurns: TurnState[] = [];
  /** The turn `isTurnClosed` found last (a turn state is replaced only by messages.snapshot, which resets this). */
  lastTurn: TurnState | undefined = undefined;
  /** Root threadId of the fold: the first one seen (§1.2; the fallback of §8 item 16). */
  rootThreadId: string | undefined;

  // ── messages (message.ts) ──
  /** Every message in opening order, removed ones included until `compactMessages` (callers check `present`). */
  messages: AppendList<MessageState> = createAppendList();
  readonly messagesById: IdRegistry<MessageState> = createIdRegistry();
  /** Ids removed by message.remove (a later message.end for them is a silent no-op, §8 item 19). */
  readonly removedIds = new Set<string>();
  /**
   * turnId → messages opened under it (any origin), for REMOVE_ALL and the metadata fallback
   * without a full scan. Built by the first such event (one scan of `messages`) and kept up to
   * date from then on: a stream that never needs it keeps no second list of every message.
   */
  byTurn: Map<string, MessageState[]> | undefined = undefined;
  /** Removed messages still in `messages` (compacted away once they are the majority). */
  removedCount = 0;
  /**
   * turnId → candidateIndex → partition (pointer and members). Two lookups on existing keys, so no
   * composite key string is built per event; closing a turn ends exactly its own partitions.
   */
  readonly partitions = new Map<string, Map<number, Partition>>();

  // ── block registries (block-registry.ts; cleared by messages.snapshot: transient state) ──
  readonly streamBlocks: IdRegistry<TextBlockState | ReasoningBlockState> = createIdRegistry();
  /**
   * The stream block found last, by id: deltas arrive in runs for one block, and an id compare
   * is cheaper than hashing each event's fresh id string. Reset whenever a block leaves the map.
   */
  lastStreamId: string | undefined = undefined;
  lastStreamBlock: TextBlockState | ReasoningBlockState | undefined = undefined;
  /**
   * toolCallId → its registered tool-call block, which also holds the id's result; or the result
   * alone when no call is registered. One entry per id: a call and its result share the key.
   */
  readonly tools: IdRegistry<ToolCallBlockState | ToolResultBlockState> = createIdRegistry();
  /** The tool call found last, by id: tool.args.delta events arrive in runs for one call (as `lastStreamId`). */
  lastToolId: string | undefined = undefined;
  lastToolCall: ToolCallBlockState | undefined = undefined;
  readonly keyedBlocks = new Map<string, StaticBlockState>();
  /** Blocks appended to a message already removed (rare: see `unregistered` in block-registry.ts); they stay registered. */
  readonly lateBlocks = new Set<BlockState>();
  readonly opaqueScratch = new Map<string, string>();
  /**
   * Streamed block ids and toolCallIds that a messages.snapshot cleared while open: a later delta
   * or end naming one is a pre-snapshot event and is dropped silently (§5: never re-applied).
   */
  readonly staleIds = new Set<string>();

  // ── side channels (artifact.ts, memory.ts, state.ts) ──
  readonly artifacts = new Map<string, ArtifactState>();
  artifactOrder: ArtifactState[] = [];
  readonly memory = new Map<string, MemoryState>();
  memoryOrder: MemoryState[] = [];
  /** Shared-state working copy (§5 state.*); `undefined` until a state.snapshot or a merge delta. */
  state: AgJsonValue | undefined = undefined;
  /** Nodes of `state` and memory values that may be mutated in place; reset when a result is handed out. */
  owned = new WeakSet<object>();

  constructor(maxErrors: number) {
    this.issues = new IssueLog(maxErrors);
  }

  /** Records a reduce() error: the caller must resync (§5.0). */
  fail(invariant: AgReduceInvariant, message: string): void {
    this.issues.record({ seq: this.current.seq, type: this.current.type, invariant, message, recovery: "resync" });
    this.needsResync = true;
  }

  /** Records what the fold kept of a snapshot repeating an id (D21): reported, nothing to resync. */
  keptLast(message: string): void {
    this.issues.record({ seq: this.current.seq, type: this.current.type, invariant: "SNAPSHOT", message, recovery: "kept-last" });
  }

  /** The fold's root threadId is the first one seen (§1.2). */
  noteThread(threadId: string | undefined): void {
    if (this.rootThreadId === undefined && threadId !== undefined) this.rootThreadId = threadId;
  }
}
