// The trust-boundary surface of reduce() (§5 Trust boundary, §10 item 20): values read from a
// network, storage or another process are validated (consumer-lenient by default, §0.2) before
// they fold. A value that fails is a typed error to the caller and changes nothing: not the fold,
// not the resync condition — its seq slot is noted as used, so the next valid event is not taken
// for a forward gap (INV-SEQ).
//
// What folds is exactly what was validated: a value handed in as an object is first copied into
// plain JSON data, each property read once (a getter or Proxy could otherwise answer the validator
// one thing and the fold another — a text.delta whose delta read as a string while validated and
// as an object while folded), and the copy is validated and folded. The copy is bounded by the
// caller's `maxDepth`, which is the fold's cap too: an event `push` answers ok for is never refused
// by the fold under a cap of its own.

import { validateEvent, type AgValidationIssue, type EventValidation, type ValidateOptions } from "../validate/index.js";
import { maxDepthOf, unreadable } from "../validate/core.js";
import { snapshotJson } from "../validate/graph.js";
import { createReducer, type AgReduceOutput, type AgReducer } from "./index.js";

/** One value refused at the boundary: its position in the input and why. */
export interface AgRejectedEvent {
  index: number;
  errors: AgValidationIssue[];
}

/** An incremental reducer that takes values of unknown shape. */
export interface AgValidatingReducer extends Omit<AgReducer, "push"> {
  /**
   * Validates `value` and folds it when valid (an unknown type under lenient folds to nothing but
   * advances seq, INV-SEQ). Returns the validation verdict; never throws, whatever `value` is.
   */
  push(value: unknown): { ok: true; known: boolean } | { ok: false; errors: AgValidationIssue[] };
  /** Every value refused so far, in input order. */
  readonly rejected: AgRejectedEvent[];
}

/** Creates a reducer for untrusted input (validation options as `validateEvent`'s). */
export function createValidatingReducer(opts?: ValidateOptions): AgValidatingReducer {
  const maxDepth = maxDepthOf(opts);
  // Every value that reaches the fold is a validated plain copy within maxDepth (or, with
  // `parsed`, fresh from JSON.parse of text capped there): the fold need not measure it again.
  const reducer = createReducer({ maxDepth, parsed: true });
  const rejected: AgRejectedEvent[] = [];
  let index = 0;
  return {
    push(value: unknown) {
      const at = index++;
      const checked = validateSnapshot(value, maxDepth, opts);
      if (!checked.ok) {
        reducer.noteRejected();
        rejected.push({ index: at, errors: checked.errors });
        return checked;
      }
      reducer.push(checked.event);
      return { ok: true, known: checked.known };
    },
    get result() {
      return reducer.result;
    },
    get needsResync() {
      return reducer.needsResync;
    },
    get errors() {
      return reducer.errors;
    },
    get errorsOmitted() {
      return reducer.errorsOmitted;
    },
    get rejected() {
      return rejected.slice();
    },
    noteRejected() {
      reducer.noteRejected();
    },
  };
}

/**
 * Validates the JSON value `value` stands for: a plain copy of it (each property read once), unless
 * the caller says it is fresh from `JSON.parse` (`parsed`), which cannot hold a getter or a Proxy.
 * The verdict's event is the copy, so what folds is what was validated.
 */
function validateSnapshot(value: unknown, maxDepth: number, opts: ValidateOptions | undefined): EventValidation {
  if (opts?.parsed === true) return validateEvent(value, opts);
  let copy: ReturnType<typeof snapshotJson>;
  try {
    copy = snapshotJson(value, maxDepth);
  } catch (err) {
    return unreadable(err, "§4");
  }
  if (!copy.ok) return { ok: false, errors: [{ ...copy.problem, spec: "§13" }] };
  // The copy leaves out what JSON.stringify does (D32); whether the validator would have read one
  // of those fields is validateEvent's verdict on the value itself, the same as a caller gets.
  if (copy.hidden) {
    const own = validateEvent(value, opts);
    if (!own.ok) return own;
  }
  return validateEvent(copy.value, { ...opts, parsed: true });
}

/** Validates and folds a whole untrusted stream: `reduce()`'s output plus every refused value. */
export function reduceUntrusted(values: Iterable<unknown>, opts?: ValidateOptions): AgReduceOutput & { rejected: AgRejectedEvent[] } {
  const reducer = createValidatingReducer(opts);
  for (const value of values) reducer.push(value);
  const output: AgReduceOutput & { rejected: AgRejectedEvent[] } = {
    result: reducer.result,
    needsResync: reducer.needsResync,
    errors: reducer.errors,
    rejected: reducer.rejected,
  };
  const omitted = reducer.errorsOmitted;
  if (omitted !== undefined) output.errorsOmitted = omitted;
  return output;
}
