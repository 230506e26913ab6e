/**
 * What a re-input changed on its way to the provider, and the typed error it raises when the
 * message list cannot become a request the target accepts. Entries never carry a
 * replay blob's value: blobs are provider-bound secrets that SHOULD NOT be logged (§13.2).
 */

/** The four request targets (docs/reinput.md); `REINPUT_BY_TARGET` (index.ts) must implement each. */
export const REINPUT_TARGETS = ["anthropic", "openai-responses", "openai-chat", "gemini"] as const;
export type ReinputTarget = (typeof REINPUT_TARGETS)[number];

/** Why an entry was written. */
export type ReinputReason =
  /** A replay blob (signature, encrypted content, item id) of another provider: never sent (§13.2). */
  | "foreign-blob"
  /** A reasoning block without a replay blob the target can verify: the target would reject or ignore it. */
  | "reasoning-without-blob"
  /** A block kind the target has no input form for. */
  | "unsupported-block"
  /** A block converted to a nearer form the target accepts (e.g. code-result → text). */
  | "converted-block"
  /** A tool-result channel that never reaches the model: uiData, sideData (§2.1). */
  | "model-hidden-channel"
  /** structuredContent sent as JSON text where the target has no structured slot (§2.1). */
  | "structured-as-text"
  /** An MCP continuation (pendingInput.requestState) addressed to the MCP server, not the model (§3.1). */
  | "server-continuation"
  /** A call (and its result) the provider ran itself, which the target cannot replay. */
  | "provider-executed-tool"
  /** A tool-call id the target would reject, mapped on the call and its result alike. */
  | "id-remapped"
  /** A system message moved to the target's system slot. */
  | "system-hoisted"
  /** A role the target has no slot for, sent under another role. */
  | "role-changed"
  /** A client call with no result: a synthetic error result was added (repair mode). */
  | "unanswered-call"
  /** A result whose call is not in the conversation: dropped (repair mode). */
  | "orphan-result"
  /** A second result for an already answered call: dropped (repair mode). */
  | "duplicate-result"
  /** Results moved after their calls, in call order (§8 item 7). */
  | "results-reordered"
  /** A message left with nothing the target can carry. */
  | "empty-message"
  /**
   * A number kept as its text (§13.2) in a field the target types as a number (an exit code, a
   * timeout): sent as its nearest double. Everywhere else an opaque number keeps its text.
   */
  | "number-as-double";

/** One thing a re-input dropped, changed or repaired. */
export interface ReinputReportEntry {
  action: "dropped" | "changed" | "repaired";
  reason: ReinputReason;
  /** `id` of the AgMessage the entry is about. */
  messageId: string;
  /** Position of that message in the input list. */
  messageIndex: number;
  /** Position of the block in the message's `content`, when the entry is about one block. */
  blockIndex?: number;
  /** The block's `type`, when the entry is about one block. */
  blockType?: string;
  /** The field concerned (e.g. `uiData`, `opaque`, `toolCallId`). */
  field?: string;
  /** What happened, in words. */
  detail: string;
}

/** Codes of the typed error raised for a message list the target cannot accept. */
export type ReinputErrorCode = "unanswered-call" | "orphan-result" | "duplicate-result" | "invalid-input";

/** A message list the target cannot accept: names the message and what to do. */
export class ReinputError extends Error {
  override readonly name = "ReinputError";
  constructor(
    readonly code: ReinputErrorCode,
    readonly target: ReinputTarget,
    readonly messageId: string,
    readonly messageIndex: number,
    message: string,
    readonly blockIndex?: number,
  ) {
    super(message);
  }
}

/** Where a block sits in the input, for report entries and errors. */
export interface BlockLocation {
  messageId: string;
  messageIndex: number;
  blockIndex?: number;
  blockType?: string;
}

/** Collects report entries for one conversion. */
export class Reporter {
  readonly entries: ReinputReportEntry[] = [];

  add(action: ReinputReportEntry["action"], reason: ReinputReason, at: BlockLocation, detail: string, field?: string): void {
    const entry: ReinputReportEntry = { action, reason, messageId: at.messageId, messageIndex: at.messageIndex, detail };
    if (at.blockIndex !== undefined) entry.blockIndex = at.blockIndex;
    if (at.blockType !== undefined) entry.blockType = at.blockType;
    if (field !== undefined) entry.field = field;
    this.entries.push(entry);
  }

  dropped(reason: ReinputReason, at: BlockLocation, detail: string, field?: string): void {
    this.add("dropped", reason, at, detail, field);
  }

  changed(reason: ReinputReason, at: BlockLocation, detail: string, field?: string): void {
    this.add("changed", reason, at, detail, field);
  }
}
