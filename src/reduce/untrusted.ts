// The trust-boundary surface of reduce() (§5 Trust boundary, §10 item 20): values read from a
// network, storage or another process are validated (consumer-lenient by default, §0.2) before
// they fold. A value that fails is a typed error to the caller and changes nothing: not the fold,
// not the resync condition — its seq slot is noted as used, so the next valid event is not taken
// for a forward gap (INV-SEQ).

import { validateEvent, type AgValidationIssue, type ValidateOptions } from "../validate/index.js";
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
  const reducer = createReducer();
  const rejected: AgRejectedEvent[] = [];
  let index = 0;
  return {
    push(value: unknown) {
      const at = index++;
      const checked = validateEvent(value, opts);
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

/** Validates and folds a whole untrusted stream: `reduce()`'s output plus every refused value. */
export function reduceUntrusted(values: Iterable<unknown>, opts?: ValidateOptions): AgReduceOutput & { rejected: AgRejectedEvent[] } {
  const reducer = createValidatingReducer(opts);
  for (const value of values) reducer.push(value);
  const output: AgReduceOutput & { rejected: AgRejectedEvent[] } = { result: reducer.result, needsResync: reducer.needsResync, errors: reducer.errors, rejected: reducer.rejected };
  const omitted = reducer.errorsOmitted;
  if (omitted !== undefined) output.errorsOmitted = omitted;
  return output;
}
