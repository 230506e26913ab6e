// reduce(): the normative §5 fold, stream → AgReduceResult (docs/reduce.md).
//
//   reduce(events)   → { result, needsResync, errors }     (batch / history)
//   createReducer()  → { push(e), result, needsResync, errors }   (incremental / live)
//
// Both surfaces run the same fold, so they give structurally identical results (INV-FOLD).
// Events are expected to be validated (lenient posture) already; across a trust boundary the
// caller validates first (§5 Trust boundary). Validated input never makes the fold throw: a
// violated invariant becomes an AgReduceIssue and `needsResync`. This module holds what applies
// to every event — INV-SEQ and the depth cap; each §5 row lives in its family's module
// (handlers.ts lists them).

import type * as Lenient from "../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { DEFAULT_MAX_DEPTH, depthProblem } from "./depth-cap.js";
import { dispatch } from "./dispatch.js";
import { ReduceState } from "./fold-state.js";
import { FOLD_HANDLERS, RESYNC_EVENT_TYPES } from "./handlers.js";
import { DEFAULT_MAX_ERRORS, type AgOmittedIssues, type AgReduceIssue } from "./issues.js";
import { materialize } from "./materialize.js";
import { specimenStream } from "./shape-specimen.js";

export type { AgOmittedIssues, AgReduceInvariant, AgReduceIssue } from "./issues.js";
export { DEFAULT_MAX_ERRORS } from "./issues.js";
export { DEFAULT_MAX_DEPTH } from "./depth-cap.js";
export { applyJsonPatch, parseJsonPointer, type JsonPatchResult } from "./json-patch.js";
export { jsonEqual } from "./json.js";
export type { AgLenientEvent } from "../../generated/types.js";

/**
 * What the fold lands, in consumer-lenient types (§0.2, §12): the schema's AgReduceResult whose
 * blocks may be a type this version does not know (`AgUnknownBlock`, narrow with `isKnownBlock`)
 * and whose open enums may hold a later minor's value. A distinct name from the producer-strict
 * `AgReduceResult`, which `validateReduceResult(x, { posture: "strict" })` yields.
 */
export interface AgLenientReduceResult extends Lenient.AgReduceResult {}

/** What reduce() returns: the folded result, the resync condition (INV-SEQ) and the fold errors. */
export interface AgReduceOutput {
  result: AgLenientReduceResult;
  /** True while a snapshot resync is outstanding (forward seq gap or a reduce() error). */
  needsResync: boolean;
  /** The fold errors in event order: the first `maxErrors` of them. */
  errors: AgReduceIssue[];
  /** Present when more errors occurred than `maxErrors`: how many were not kept, per rule. */
  errorsOmitted?: AgOmittedIssues;
}

/** Limits of one fold (docs/reduce.md "Limits"). */
export interface AgReduceOptions {
  /**
   * Errors kept whole (default {@link DEFAULT_MAX_ERRORS}); past it they are only counted, per rule,
   * so a stream of bad events cannot grow the fold's memory. `Infinity` keeps every one.
   */
  maxErrors?: number;
  /**
   * Deepest nesting of an event, the event itself being level 1 (default {@link DEFAULT_MAX_DEPTH},
   * the validators' `CheckOptions.maxDepth`, §13). A deeper event is refused whole with a `CAP` issue.
   */
  maxDepth?: number;
  /**
   * The events are fresh from `JSON.parse` of text whose depth was already capped (the CLI, the
   * gateway), as the validators' `CheckOptions.parsed`: they cannot nest past the cap or hold a
   * cycle, so the walk that measures each event is skipped. Never set it for events of unknown origin.
   */
  parsed?: boolean;
}

/** An incremental (live) reducer: push events one at a time, read the result at any point. */
export interface AgReducer {
  /** Folds one event. Never throws on a validated event. */
  push(event: AgLenientEvent): void;
  /** The result so far. A returned result is never changed by later pushes. */
  readonly result: AgLenientReduceResult;
  /** True while a snapshot resync is outstanding (INV-SEQ; any `resync` AgReduceIssue also sets it). */
  readonly needsResync: boolean;
  /** The fold errors so far, in event order: the first `maxErrors` of them. */
  readonly errors: AgReduceIssue[];
  /** The errors past `maxErrors`, counted per rule; `undefined` while none was omitted. */
  readonly errorsOmitted?: AgOmittedIssues;
  /**
   * Notes one event rejected before folding (a failed validation at a trust boundary, §5): it
   * folds nothing, but its seq slot counts as used, so the next valid event is not taken for a
   * forward gap. The fold and the resync condition stay exactly as they were (§10 item 20).
   */
  noteRejected(): void;
}

/** Resolved limits of one fold. */
interface Limits {
  maxErrors: number;
  /** The depth cap, or 0 when the events were parsed from depth-capped text (no walk). */
  maxDepth: number;
}

function limits(options: AgReduceOptions | undefined): Limits {
  const maxErrors = options?.maxErrors ?? DEFAULT_MAX_ERRORS;
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!(maxErrors === Infinity || (Number.isSafeInteger(maxErrors) && maxErrors >= 0))) {
    throw new RangeError(`reduce(): maxErrors is ${String(maxErrors)}; give a whole number ≥ 0, or Infinity to keep every error.`);
  }
  if (!(Number.isSafeInteger(maxDepth) && maxDepth >= 1)) {
    throw new RangeError(`reduce(): maxDepth is ${String(maxDepth)}; give a whole number ≥ 1 (the event itself is level 1).`);
  }
  return { maxErrors, maxDepth: options?.parsed === true ? 0 : maxDepth };
}

/**
 * The depth cap (depth-cap.ts): whether `event` is refused whole. A refused event records a `CAP`
 * issue and uses its seq slot like a `noteRejected()` one; nothing else changes (§10 item 20).
 */
function refusedByDepthCap(state: ReduceState, event: AgLenientEvent, maxDepth: number): boolean {
  let problem: string | undefined;
  try {
    problem = depthProblem(event, maxDepth);
  } catch (error) {
    problem = `reading it threw ${error instanceof Error ? error.message : String(error)} (a Proxy or getter that throws is not a JSON value, §0.1)`;
  }
  if (problem === undefined) return false;
  state.rejectedSince++;
  let seq = -1;
  let type = "";
  try {
    if (typeof event.seq === "number") seq = event.seq;
    if (typeof event.type === "string") type = event.type;
  } catch {
    // A value whose envelope cannot be read is reported without one.
  }
  state.issues.record({
    seq,
    type,
    invariant: "CAP",
    message: `${type} seq ${seq}: ${problem}; the event was refused whole — nothing folded, the resync condition unchanged — so fix the producer or raise maxDepth.`,
    recovery: "reject",
  });
  return true;
}

/**
 * Folds one event: the depth cap first, then INV-SEQ (every event, folding or not, advances
 * `seq`), then — unless the reducer is parked after a forward gap — the event's §5 row.
 */
function foldEvent(state: ReduceState, event: AgLenientEvent, maxDepth: number): void {
  if (maxDepth !== 0 && refusedByDepthCap(state, event, maxDepth)) return;
  const seq = typeof event.seq === "number" ? event.seq : -1;
  // The event being folded, for issue reports; kept on the state to avoid a per-event allocation.
  state.current.type = event.type;
  state.current.seq = seq;
  if (seq >= 0) {
    const expected = state.lastSeq + 1 + state.rejectedSince;
    if (seq > expected && !state.parked) {
      state.fail(
        "INV-SEQ",
        `seq jumped forward from ${state.lastSeq} to ${seq}: ${seq - expected} event(s) never reached the fold${state.rejectedSince > 0 ? ` (besides ${state.rejectedSince} rejected before folding)` : ""}, so it parks and ignores events until messages.snapshot or state.snapshot. If you left out events that failed validation, call noteRejected() for each one instead (or fold with createValidatingReducer() / reduceUntrusted(), which do), and the fold goes on; if they were lost upstream, request a snapshot resync.`,
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
export function createReducer(options?: AgReduceOptions): AgReducer {
  const { maxErrors, maxDepth } = limits(options);
  const state = new ReduceState(maxErrors);
  let cached: AgLenientReduceResult | undefined;
  return {
    push(event: AgLenientEvent): void {
      cached = undefined;
      foldEvent(state, event, maxDepth);
    },
    get result(): AgLenientReduceResult {
      return (cached ??= materialize(state));
    },
    get needsResync(): boolean {
      return state.needsResync;
    },
    get errors(): AgReduceIssue[] {
      return state.issues.kept.slice();
    },
    get errorsOmitted(): AgOmittedIssues | undefined {
      return state.issues.omitted();
    },
    noteRejected(): void {
      state.rejectedSince++;
    },
  };
}

/** Folds a whole stream (the batch surface of §5). */
export function reduce(events: Iterable<AgLenientEvent>, options?: AgReduceOptions): AgReduceOutput {
  // The fold createReducer() runs (INV-FOLD), without its per-push call and result-cache reset.
  const { maxErrors, maxDepth } = limits(options);
  const state = new ReduceState(maxErrors);
  for (const event of events) foldEvent(state, event, maxDepth);
  const output: AgReduceOutput = { result: materialize(state), needsResync: state.needsResync, errors: state.issues.kept.slice() };
  const omitted = state.issues.omitted();
  if (omitted !== undefined) output.errorsOmitted = omitted;
  return output;
}

/**
 * One folded specimen stream, kept for the life of the process so that V8 keeps the hidden classes
 * of the fold state alive (shape-specimen.ts says why): a reducer created after every earlier one
 * was collected runs on optimized code instead of recompiling it. Never read.
 */
const SHAPE_SPECIMEN: AgReducer = createReducer();
for (const event of specimenStream()) SHAPE_SPECIMEN.push(event);
void SHAPE_SPECIMEN.result;
