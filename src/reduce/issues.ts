// The errors of a fold (§5.0: "a reduce()-error → snapshot-resync"). Each names the event, the
// rule it broke and the recovery. They are kept in a bounded log: a long stream of bad events
// must not make the fold's memory grow with it (docs/reduce.md "Limits"), so the first `maxErrors` are
// kept whole and the rest only counted, per rule.

/** The rule an {@link AgReduceIssue} reports, named as the spec names it (§5.0, §5 table). */
export type AgReduceInvariant =
  | "INV-TURN" // §5.0: one open, exactly one terminal per turn
  | "INV-MSG" // §5.0: sealed message / closed turn receives a block or delta
  | "INV-BLOCK" // §5.0: duplicate streaming id, delta after a block's end, kind mismatch
  | "INV-SEQ" // §5.0: forward seq gap
  | "INV-OWNER" // §5.0: the event's owning turn, message or block cannot be resolved
  | "REMOVE-NO-REOPEN" // §5 message.remove (the spec's CRITICAL #1): a block-creating event after the pointer reverted to none; a removed message is never re-opened
  | "REMOVE-ALL-TURN" // §5 message.remove (the spec's CRITICAL #2): id "*" without turnId (malformed, never folded)
  | "MEMORY-PATCH" // §5 memory.write: patch without a seeded value, or a failing RFC 6902 patch
  | "STATE-DELTA" // §5 state.delta: failing RFC 6902 patch or a patch the fold cannot apply
  | "ARTIFACT" // §5 artifact.*: delta for an unknown or sealed artifact
  | "CAP" // §13, §10 item 20: an event nested past the depth cap, refused whole (recovery "reject")
  | "SNAPSHOT" // §5 messages.snapshot, §1.3: a repeated message id or turnId, the later entry kept (recovery "kept-last", D21)
  | "INTERNAL"; // a defect in this reducer surfaced as an issue instead of a throw (docs/reduce.md: reduce() of validated events never throws)

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
  /**
   * `resync`: request `messages.snapshot` (or `state.snapshot` for shared state); `needsResync` is
   * set. `reject`: the event was refused whole before folding (a `CAP` issue) — the fold and the
   * resync condition are as if it never arrived, only its seq slot counts as used (§10 item 20).
   * `kept-last`: the event was folded, keeping the later of two entries that share an id (a
   * `SNAPSHOT` issue); nothing to resync — the snapshot is the resync (docs/spec-decisions.md D21).
   */
  recovery: "resync" | "reject" | "kept-last";
}

/** The errors past the kept ones: how many, per rule. */
export interface AgOmittedIssues {
  /** Errors not kept in `errors`. */
  count: number;
  /** The same, per rule. */
  byInvariant: Partial<Record<AgReduceInvariant, number>>;
}

/** Errors kept whole by default; the rest are counted (see {@link AgOmittedIssues}). */
export const DEFAULT_MAX_ERRORS = 1000;

/** The fold's bounded error log: the first `max` issues in full, then a count per rule. */
export class IssueLog {
  readonly kept: AgReduceIssue[] = [];
  private omittedCount = 0;
  private readonly omittedBy: Partial<Record<AgReduceInvariant, number>> = {};

  constructor(private readonly max: number) {}

  record(issue: AgReduceIssue): void {
    if (this.kept.length < this.max) {
      this.kept.push(issue);
      return;
    }
    this.omittedCount++;
    this.omittedBy[issue.invariant] = (this.omittedBy[issue.invariant] ?? 0) + 1;
  }

  /** The issues past the kept ones; `undefined` while none was omitted. */
  omitted(): AgOmittedIssues | undefined {
    return this.omittedCount === 0 ? undefined : { count: this.omittedCount, byInvariant: { ...this.omittedBy } };
  }
}

/**
 * The subject of an issue message: `what` followed by the quoted id, if any. Built only when an
 * issue is reported, so the success path formats no string.
 */
export function describe(what: string, id: string | undefined): string {
  return id === undefined ? what : `${what} "${id}"`;
}
