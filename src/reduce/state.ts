// §5 state rows: the shared-state working copy (AgReduceResult.state), LangGraph-anchored.
// state.snapshot REPLACEs it (`values` mode) and is a resync point (INV-SEQ). state.delta applies
// either an RFC 6902 patch (an array of operations) or a LangGraph `updates` payload
// (`{node_name: {key: value}}`, an object): every node's keys merge last-writer-wins into the state.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type { AgStateDeltaEvent, AgStateSnapshotEvent } from "../../generated/lenient-types.js";
import type { ReduceState } from "./fold-state.js";
import { applyJsonPatch } from "./json-patch.js";
import { isPlainObject, setKey } from "./json.js";

/** state.snapshot: REPLACE the working copy; un-parks the reducer and ends the resync condition. */
export function foldStateSnapshot(state: ReduceState, event: AgStateSnapshotEvent): void {
  state.state = event.snapshot;
  state.parked = false;
  state.needsResync = false;
}

/** state.delta: RFC 6902 (array) or node-keyed last-writer-wins merge (object). */
export function foldStateDelta(state: ReduceState, event: AgStateDeltaEvent): void {
  const { patch } = event;
  if (Array.isArray(patch)) {
    if (state.state === undefined) {
      state.fail(
        "STATE-DELTA",
        "state.delta carries an RFC 6902 patch but no state.snapshot seeded the shared state; a patch is never applied to an invented document — resync with state.snapshot.",
      );
      return;
    }
    const patched = applyJsonPatch(state.state, patch, { owned: state.owned });
    if (!patched.ok) {
      state.fail("STATE-DELTA", `state.delta patch failed, the state is unchanged: ${patched.message} — resync with state.snapshot.`);
      return;
    }
    state.state = patched.doc;
    return;
  }
  if (!isPlainObject(patch)) {
    state.fail(
      "STATE-DELTA",
      "state.delta carries a patch that is neither an RFC 6902 operation array nor a node-keyed object; it was not folded — resync with state.snapshot.",
    );
    return;
  }
  // LangGraph `updates` accumulate from an empty state when no `values` snapshot came first.
  const current = state.state ?? {};
  if (!isPlainObject(current)) {
    state.fail(
      "STATE-DELTA",
      "state.delta carries node-keyed updates but the shared state is not an object, so there are no keys to merge into — resync with state.snapshot.",
    );
    return;
  }
  let target = current;
  if (!state.owned.has(target)) {
    target = { ...current };
    state.owned.add(target);
  }
  for (const node of Object.keys(patch)) {
    const update = patch[node];
    // A node that wrote nothing (LangGraph yields null) or a non-object payload has no keys to merge.
    if (!isPlainObject(update)) continue;
    for (const key of Object.keys(update)) setKey(target, key, update[key]);
  }
  state.state = target;
}

/** The state family's §5 rows. */
export const STATE_FOLD: FamilyFoldHandlers<"state", ReduceState> = {
  "state.snapshot": foldStateSnapshot,
  "state.delta": foldStateDelta,
};
