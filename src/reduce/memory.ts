// §5 memory.write: land/update an AgMemoryRecord keyed by (scope, key) in AgReduceResult.memory.
// `value` sets the record; `patch` (RFC 6902) mutates the seeded value — a patch with no seeded
// value is a reduce() error (§5 memory.write: "never silently based on {}"), and a failing patch leaves the
// value untouched (atomic) and is a reduce() error too.

import type { FamilyFoldHandlers } from "../../generated/fold-scaffold.js";
import type { AgMemoryRecord, AgMemoryWriteEvent } from "../../generated/lenient-types.js";
import type { MemoryState } from "./entities.js";
import type { ReduceState } from "./fold-state.js";
import { applyJsonPatch } from "./json-patch.js";
import { dropUndefined } from "./json.js";
import { quietTurn } from "./ownership.js";

/** Memory key of §5 memory.write: (scope, key), an absent key being "". */
export function memoryKey(scope: string, key: string | undefined): string {
  return `${scope}\u0000${key ?? ""}`;
}

/** Lands a record at (scope, key), keeping the position of an existing one. */
export function landMemory(state: ReduceState, record: AgMemoryRecord): void {
  const key = memoryKey(record.scope, record.key);
  const existing = state.memory.get(key);
  if (existing !== undefined) {
    existing.record = record;
    return;
  }
  const entry: MemoryState = { record, present: true };
  state.memory.set(key, entry);
  state.memoryOrder.push(entry);
}

/** memory.write: `value` REPLACEs the record's value, `patch` applies RFC 6902 to it. */
export function foldMemoryWrite(state: ReduceState, event: AgMemoryWriteEvent): void {
  const hasValue = event.value !== undefined;
  const hasPatch = event.patch !== undefined;
  const where = `(${event.scope}, ${JSON.stringify(event.key ?? "")})`;
  if (hasValue === hasPatch) {
    state.fail(
      "MEMORY-PATCH",
      `memory.write ${where} carries ${hasValue ? "both value and patch" : "neither value nor patch"}; exactly one is required and such an event is rejected at parse — it was not folded.`,
    );
    return;
  }
  // An empty key is the scope-default record, the same record as an absent key.
  const key = event.key === undefined || event.key === "" ? undefined : event.key;
  const existing = state.memory.get(memoryKey(event.scope, key));
  let value = event.value;
  if (event.patch !== undefined) {
    if (existing === undefined) {
      state.fail(
        "MEMORY-PATCH",
        `memory.write ${where} carries a patch but the record has no value yet; the writer MUST seed it with a value first (a patch is never applied to {}) — resync with messages.snapshot.`,
      );
      return;
    }
    const patched = applyJsonPatch(existing.record.value, event.patch, { owned: state.owned });
    if (!patched.ok) {
      state.fail(
        "MEMORY-PATCH",
        `memory.write ${where} patch failed, the record is unchanged: ${patched.message} — resync with messages.snapshot.`,
      );
      return;
    }
    value = patched.doc;
  }
  if (value === undefined) return;
  // Provenance: the writing turn, when one resolves (memory is not bound to a turn, so none is fine).
  const turn = quietTurn(state, event);
  landMemory(
    state,
    dropUndefined({
      scope: event.scope,
      key,
      value,
      reason: event.reason ?? existing?.record.reason,
      durable: event.durable ?? existing?.record.durable,
      turnId: turn?.turnId ?? existing?.record.turnId,
      threadId: turn === undefined ? existing?.record.threadId : (turn.base.threadId ?? state.rootThreadId),
    }),
  );
}

/** The memory family's §5 rows. */
export const MEMORY_FOLD: FamilyFoldHandlers<"memory", ReduceState> = {
  "memory.write": foldMemoryWrite,
};
