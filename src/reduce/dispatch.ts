// Routes one event to its fold handler through the generated `dispatchFold` (a narrowing switch
// over every known type). Live-only types, `ext.*` and types this version does not know fold to
// nothing here; the caller has already advanced `seq` for them (INV-SEQ).

import { dispatchFold, type FoldFallbacks, type FoldHandlers } from "../../generated/fold-scaffold.js";
import type { AgLenientEvent } from "../../generated/types.js";

/** No fallbacks: live-only, `ext.*` and unknown types fold to nothing. */
const NO_FALLBACKS: FoldFallbacks<unknown> = {};

/** Calls the handler for `event.type`; non-folding types are no-ops. */
export function dispatch<S>(handlers: FoldHandlers<S>, state: S, event: AgLenientEvent): void {
  dispatchFold(handlers, NO_FALLBACKS, state, event);
}
