// §5 rows that land on the owning turn's AgTurnRecord and never into content: prompt.blocked,
// guardrail.result, agent.capabilities, handoff, source, display.required. Owner per INV-OWNER.

import type {
  AgAgentCapabilitiesEvent,
  AgDisplayRequiredEvent,
  AgGuardrailResultEvent,
  AgHandoffEvent,
  AgPromptBlockedEvent,
  AgSafety,
  AgSourceEvent,
} from "../../generated/types.js";
import { dropUndefined, jsonEqual } from "./json.js";
import type { ReduceState, TurnState } from "./state.js";

/** Merges safety entries into the turn's `safety[]`, skipping entries already recorded verbatim. */
export function mergeSafety(turn: TurnState, safety: AgSafety[] | undefined): void {
  if (safety === undefined) return;
  const merged = (turn.safety ??= []);
  for (const entry of safety) if (!merged.some((known) => jsonEqual(known, entry))) merged.push(entry);
  turn.view = undefined;
}

/** prompt.blocked: `promptBlocked = {reason, safety?}` and its safety merged into the turn's (§5, audit M28). */
export function foldPromptBlocked(state: ReduceState, event: AgPromptBlockedEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  turn.base = { ...turn.base, promptBlocked: dropUndefined({ reason: event.reason, safety: event.safety }) };
  mergeSafety(turn, event.safety);
  state.touchTurn(turn);
}

/** guardrail.result: append an evaluation record to `guardrails[]`. */
export function foldGuardrailResult(state: ReduceState, event: AgGuardrailResultEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  (turn.guardrails ??= []).push(
    dropUndefined({
      target: event.target,
      passed: event.passed,
      action: event.action,
      reason: event.reason,
      guardrailName: event.guardrailName,
      safety: event.safety,
    }),
  );
  state.touchTurn(turn);
}

/** agent.capabilities: record (REPLACE) the agent's AgCapabilities on the turn. */
export function foldAgentCapabilities(state: ReduceState, event: AgAgentCapabilitiesEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  turn.base = { ...turn.base, capabilities: event.capabilities };
  state.touchTurn(turn);
}

/** handoff: append the agent-to-agent edge to `handoffs[]`. */
export function foldHandoff(state: ReduceState, event: AgHandoffEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  (turn.handoffs ??= []).push(
    dropUndefined({
      kind: event.kind,
      fromAgentId: event.fromAgentId,
      toAgentId: event.toAgentId,
      toAgentName: event.toAgentName,
    }),
  );
  state.touchTurn(turn);
}

/**
 * source: land the full record on `sources[]` and its id on `sourceIds[]` (audit M23), in arrival
 * order (which preserves groundingChunks order). A repeated sourceId REPLACEs its record in place.
 */
export function foldSource(state: ReduceState, event: AgSourceEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  const record = dropUndefined({
    sourceId: event.sourceId,
    source: event.source,
    chunkIndex: event.chunkIndex,
    providerMetadata: event.providerMetadata,
  });
  const sources = (turn.sources ??= []);
  const index = sources.findIndex((known) => known.sourceId === event.sourceId);
  if (index >= 0) sources[index] = record;
  else sources.push(record);
  const sourceIds = (turn.sourceIds ??= []);
  if (!sourceIds.includes(event.sourceId)) sourceIds.push(event.sourceId);
  state.touchTurn(turn);
}

/** display.required: append `{provider, html}` to `displayRequired[]`; never dropped (ToS, §13.3). */
export function foldDisplayRequired(state: ReduceState, event: AgDisplayRequiredEvent): void {
  const turn = state.ownerTurn(event);
  if (turn === undefined) return;
  (turn.displayRequired ??= []).push({ provider: event.provider, html: event.html });
  state.touchTurn(turn);
}
