// §5 UI family (§6): the surface RPC events (`ui.call`, `ui.result`, `ui.action-result`,
// `ui.widget.result`, `ui.display-mode`), the A2UI surface lifecycle and data-model push
// (`ui.surface.*`, `ui.data-model`) and the host hint `host.context` are live-only / non-folding:
// ephemeral render state, never persisted. The one surface datum that persists, the
// `a2uiClientDataModel` snapshot, rides `AgMessage.messageMetadata` and folds with its message
// (message.ts, turn.ts). Like every event they advance seq (INV-SEQ, index.ts).

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type { ReduceState } from "./fold-state.js";

/** The UI family folds nothing: every row of it is live-only (§5 table). */
export const UI_FOLD: FamilyFoldHandlers<"ui", ReduceState> = {};
