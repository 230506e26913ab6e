// §5 HITL family (§7): `hitl.ask` is live-only — the within-run pause it announces is recorded by
// `turn.done.outcome = {type:"paused", asks}` (turn.ts), so the ask itself folds to nothing. It
// still advances seq like every event (INV-SEQ, index.ts).

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type { ReduceState } from "./fold-state.js";

/** The HITL family folds nothing: its only row is live-only (§5 table, `hitl.ask`). */
export const HITL_FOLD: FamilyFoldHandlers<"hitl", ReduceState> = {};
