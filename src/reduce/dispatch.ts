// Routes one event to its fold handler through the generated `dispatchFold` (a narrowing switch
// over every known type). Live-only types, `ext.*` and types this version does not know fold to
// nothing here; the caller has already advanced `seq` for them (INV-SEQ).

import { dispatchFold, type FoldFallbacks, type FoldHandlers } from "../../generated/fold-scaffold.js";
import type { AgEvent } from "../../generated/types.js";

/** Calls the handler for `event.type`; non-folding types are no-ops (empty fallbacks). */
export function dispatch<S>(handlers: FoldHandlers<S>, state: S, event: AgEvent): void {
  const fallbacks: FoldFallbacks<S> = {};
  dispatchFold(handlers, fallbacks, state, event);
}
