// The fold handler table: one handler per folding event type of the §5 table, assembled from the
// per-family modules. Every §5 row that is not live-only is a key here; live-only types (`error`,
// `step.*`, `host.context`, `hitl.ask`, `ui.*`), `ext.*` and unknown types have no handler and
// only advance `seq` (INV-SEQ).
//
// The table is typed by the generated `FoldHandlers<S>` (generated/fold-scaffold.ts), so the
// compiler checks it is exhaustive over the schema's folding types and that each handler takes its
// exact event type.

import type { FoldHandlers } from "../../generated/fold-scaffold.js";
import { foldArtifactDelta, foldArtifactEnd, foldArtifactStart } from "./artifact.js";
import { foldContentBlock } from "./content.js";
import {
  foldSubagentDone,
  foldSubagentStart,
  foldTurnAbort,
  foldTurnDone,
  foldTurnError,
  foldTurnStart,
} from "./lifecycle.js";
import { foldMemoryWrite } from "./memory.js";
import { foldMessageEnd, foldMessageMetadata, foldMessageRemove, foldMessageStart } from "./message.js";
import {
  foldReasoningDelta,
  foldReasoningEnd,
  foldReasoningOpaque,
  foldReasoningOpaqueDelta,
  foldReasoningStart,
} from "./reasoning.js";
import { foldStateDelta, foldStateSnapshot } from "./shared-state.js";
import { foldMessagesSnapshot } from "./snapshot.js";
import type { ReduceState } from "./state.js";
import { foldTextDelta, foldTextEnd, foldTextStart } from "./text.js";
import { foldToolArgsAssembled, foldToolArgsDelta, foldToolDone, foldToolStart } from "./tool.js";
import {
  foldAgentCapabilities,
  foldDisplayRequired,
  foldGuardrailResult,
  foldHandoff,
  foldPromptBlocked,
  foldSource,
} from "./turn-record.js";

/** The reduce() handler table (§5). */
export const FOLD_HANDLERS: FoldHandlers<ReduceState> = {
  "turn.start": foldTurnStart,
  "turn.done": foldTurnDone,
  "turn.error": foldTurnError,
  "turn.abort": foldTurnAbort,
  "message.start": foldMessageStart,
  "message.end": foldMessageEnd,
  "message.remove": foldMessageRemove,
  "prompt.blocked": foldPromptBlocked,
  "guardrail.result": foldGuardrailResult,
  "agent.capabilities": foldAgentCapabilities,
  "messages.snapshot": foldMessagesSnapshot,
  "text.start": foldTextStart,
  "text.delta": foldTextDelta,
  "text.end": foldTextEnd,
  "reasoning.start": foldReasoningStart,
  "reasoning.delta": foldReasoningDelta,
  "reasoning.end": foldReasoningEnd,
  "reasoning.opaque": foldReasoningOpaque,
  "reasoning.opaque.delta": foldReasoningOpaqueDelta,
  "tool.start": foldToolStart,
  "tool.args.delta": foldToolArgsDelta,
  "tool.args.assembled": foldToolArgsAssembled,
  "tool.done": foldToolDone,
  "content.block": foldContentBlock,
  "message.metadata": foldMessageMetadata,
  source: foldSource,
  "artifact.start": foldArtifactStart,
  "artifact.delta": foldArtifactDelta,
  "artifact.end": foldArtifactEnd,
  "subagent.start": foldSubagentStart,
  "subagent.done": foldSubagentDone,
  handoff: foldHandoff,
  "display.required": foldDisplayRequired,
  "state.snapshot": foldStateSnapshot,
  "state.delta": foldStateDelta,
  "memory.write": foldMemoryWrite,
};

/** The two events that un-park a reducer after a forward seq gap (INV-SEQ). */
export const RESYNC_EVENT_TYPES: ReadonlySet<string> = new Set(["messages.snapshot", "state.snapshot"]);
