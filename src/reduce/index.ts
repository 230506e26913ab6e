// reduce(): the normative §5 fold, stream → AgReduceResult (DESIGN §5).
//
//   reduce(events)   → { result, needsResync, errors }     (batch / history)
//   createReducer()  → { push(e), result, needsResync, errors }   (incremental / live)
//
// Both surfaces run the same fold, so they give structurally identical results (INV-FOLD).
// Events are expected to be validated (lenient posture) already; across a trust boundary the
// caller validates first (§5 Trust boundary). Validated input never makes the fold throw: a
// violated invariant becomes an AgReduceIssue and `needsResync`.

import type { AgLenientEvent as AgEvent, AgReduceResult } from "../../generated/types.js";
import { dispatch } from "./dispatch.js";
import { FOLD_HANDLERS, RESYNC_EVENT_TYPES } from "./handlers.js";
import { materialize } from "./materialize.js";
import { ReduceState, type AgReduceIssue } from "./state.js";

export type { AgReduceInvariant, AgReduceIssue } from "./state.js";
export { applyJsonPatch, parseJsonPointer, type JsonPatchResult } from "./json-patch.js";
export { jsonEqual } from "./json.js";

/** What reduce() returns: the folded result, the resync condition (INV-SEQ) and every fold error. */
export interface AgReduceOutput {
  result: AgReduceResult;
  /** True while a snapshot resync is outstanding (forward seq gap or a reduce() error). */
  needsResync: boolean;
  errors: AgReduceIssue[];
}

/** An incremental (live) reducer: push events one at a time, read the result at any point. */
export interface AgReducer {
  /** Folds one event. Never throws on a validated event. */
  push(event: AgEvent): void;
  /** The result so far. A returned result is never changed by later pushes. */
  readonly result: AgReduceResult;
  /** True while a snapshot resync is outstanding (INV-SEQ; any AgReduceIssue also sets it). */
  readonly needsResync: boolean;
  /** Every fold error so far, in event order. */
  readonly errors: AgReduceIssue[];
  /**
   * Notes one event rejected before folding (a failed validation at a trust boundary, §5): it
   * folds nothing, but its seq slot counts as used, so the next valid event is not taken for a
   * forward gap. The fold and the resync condition stay exactly as they were (§10 item 20).
   */
  noteRejected(): void;
}

/**
 * Folds one event: INV-SEQ first (every event, folding or not, advances `seq`), then — unless the
 * reducer is parked after a forward gap — the event's §5 row.
 */
function foldEvent(state: ReduceState, event: AgEvent): void {
  const seq = typeof event.seq === "number" ? event.seq : -1;
  // The event being folded, for issue reports; kept on the state to avoid a per-event allocation.
  state.current.type = event.type;
  state.current.seq = seq;
  if (seq >= 0) {
    const expected = state.lastSeq + 1 + state.rejectedSince;
    if (seq > expected && !state.parked) {
      state.fail(
        "INV-SEQ",
        `seq jumped forward from ${state.lastSeq} to ${seq}: ${seq - expected} event(s) are missing${state.rejectedSince > 0 ? ` (besides ${state.rejectedSince} rejected at the trust boundary)` : ""}, so the fold parks and ignores events until messages.snapshot or state.snapshot — request a snapshot resync.`,
      );
      state.parked = true;
    }
    state.rejectedSince = 0;
    // A backward jump is a new invoke's 0-restart: the high-water mark moves down (INV-SEQ).
    state.lastSeq = seq;
  }
  if (state.parked && !RESYNC_EVENT_TYPES.has(event.type)) return;
  try {
    dispatch(FOLD_HANDLERS, state, event);
  } catch (error) {
    state.fail(
      "INTERNAL",
      `folding ${event.type} threw ${error instanceof Error ? error.message : String(error)}; this is a reducer defect — please report it with the event stream, and resync with messages.snapshot.`,
    );
  }
}

/** Creates an incremental reducer (the live surface of §5; INV-FOLD-identical to {@link reduce}). */
export function createReducer(): AgReducer {
  const state = new ReduceState();
  let cached: AgReduceResult | undefined;
  return {
    push(event: AgEvent): void {
      cached = undefined;
      foldEvent(state, event);
    },
    get result(): AgReduceResult {
      return (cached ??= materialize(state));
    },
    get needsResync(): boolean {
      return state.needsResync;
    },
    get errors(): AgReduceIssue[] {
      return state.issues.slice();
    },
    noteRejected(): void {
      state.rejectedSince++;
    },
  };
}

/** Folds a whole stream (the batch surface of §5). */
export function reduce(events: Iterable<AgEvent>): AgReduceOutput {
  const reducer = createReducer();
  for (const event of events) reducer.push(event);
  return { result: reducer.result, needsResync: reducer.needsResync, errors: reducer.errors };
}
