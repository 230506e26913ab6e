// The fold handler table of §5, assembled from the family modules — one per family of the
// generated fold table (generated/fold-scaffold.ts `FOLD_FAMILY`). No event type is listed here:
// each family module's table is typed `FamilyFoldHandlers<F, ReduceState>`, which requires exactly
// the folding event types the schema puts in family F, and `FoldHandlers<ReduceState>` requires
// the union to cover every folding type — so a schema change that adds, moves or removes a §5 row
// fails to compile until the family module follows. Live-only types (`error`, `step.*`,
// `host.context`, `hitl.ask`, `ui.*`), `ext.*` and unknown types have no handler and only advance
// `seq` (INV-SEQ). handlers.test.ts checks the same against the schema files at run time.

import {
  FOLD_TABLE,
  KNOWN_EVENT_TYPES,
  type FamilyFoldHandlers,
  type FoldFamily,
  type FoldHandlers,
} from "../../generated/fold-scaffold.js";
import { ARTIFACT_FOLD } from "./artifact.js";
import { CONTENT_FOLD } from "./content.js";
import type { ReduceState } from "./fold-state.js";
import { HITL_FOLD } from "./hitl.js";
import { MEMORY_FOLD } from "./memory.js";
import { MESSAGE_FOLD } from "./message.js";
import { REASONING_FOLD } from "./reasoning.js";
import { SNAPSHOT_FOLD } from "./snapshot.js";
import { STATE_FOLD } from "./state.js";
import { TEXT_FOLD } from "./text.js";
import { TOOL_FOLD } from "./tool.js";
import { TURN_FOLD } from "./turn.js";
import { UI_FOLD } from "./ui.js";

/** Each family's module table; the key set is the generated family list. */
export const FAMILY_FOLDS: { readonly [F in FoldFamily]: FamilyFoldHandlers<F, ReduceState> } = {
  turn: TURN_FOLD,
  message: MESSAGE_FOLD,
  text: TEXT_FOLD,
  reasoning: REASONING_FOLD,
  tool: TOOL_FOLD,
  content: CONTENT_FOLD,
  snapshot: SNAPSHOT_FOLD,
  artifact: ARTIFACT_FOLD,
  state: STATE_FOLD,
  memory: MEMORY_FOLD,
  hitl: HITL_FOLD,
  ui: UI_FOLD,
};

/** The reduce() handler table (§5): the union of the family tables. */
export const FOLD_HANDLERS: FoldHandlers<ReduceState> = {
  ...FAMILY_FOLDS.turn,
  ...FAMILY_FOLDS.message,
  ...FAMILY_FOLDS.text,
  ...FAMILY_FOLDS.reasoning,
  ...FAMILY_FOLDS.tool,
  ...FAMILY_FOLDS.content,
  ...FAMILY_FOLDS.snapshot,
  ...FAMILY_FOLDS.artifact,
  ...FAMILY_FOLDS.state,
  ...FAMILY_FOLDS.memory,
  ...FAMILY_FOLDS.hitl,
  ...FAMILY_FOLDS.ui,
};

/**
 * The events that un-park a reducer after a forward seq gap (INV-SEQ: "only
 * `messages.snapshot`/`state.snapshot` un-park"): the rows whose fold kind REPLACEs the working
 * messages or the shared state wholesale.
 */
export const RESYNC_EVENT_TYPES: ReadonlySet<string> = new Set(
  KNOWN_EVENT_TYPES.filter((type) => FOLD_TABLE[type] === "snapshot-replace" || FOLD_TABLE[type] === "state-replace"),
);
