// Fuzz (AGJSON_FUZZ_RUNS sets the run count): toAgUi and the ag-ui facet never throw, whatever they are fed;
// what the facet emits is producer-strict.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../generated/types.js";
import { createAgUiEncoder } from "../../src/bridges/ag-ui/to-ag-ui.js";
import { createNormalizer } from "../../src/normalize/index.js";
import { validateEvent } from "../../src/validate/index.js";

const numRuns = Number(process.env.AGJSON_FUZZ_RUNS ?? 300);
const AG_UI_TYPES = [
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_RESULT",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "MESSAGES_SNAPSHOT",
  "ACTIVITY_SNAPSHOT",
  "ACTIVITY_DELTA",
  "CUSTOM",
  "REASONING_START",
  "REASONING_ENCRYPTED_VALUE",
  "SUBAGENT_STARTED",
  "SUBAGENT_FINISHED",
  "STEP_STARTED",
  "STEP_FINISHED",
];
const id = fc.constantFrom("a", "b", "m1", "c1", "");
const agUiEvent = fc.record(
  {
    type: fc.constantFrom(...AG_UI_TYPES),
    messageId: id,
    toolCallId: id,
    runId: id,
    threadId: id,
    delta: fc.string(),
    subagentRunId: id,
    name: fc.string(),
    content: fc.anything(),
    metadata: fc.anything(),
    outcome: fc.anything(),
    snapshot: fc.anything(),
    delta2: fc.anything(),
  },
  { requiredKeys: ["type"] },
);
const agEventType = fc.constantFrom(
  "turn.start",
  "turn.done",
  "message.start",
  "text.start",
  "text.delta",
  "tool.start",
  "tool.done",
  "hitl.ask",
  "state.delta",
  "content.block",
  "subagent.start",
  "ext.acme.x",
);

describe("AG-UI bridge fuzz", () => {
  it("the ag-ui facet never throws, and everything it emits is a producer-strict AgEvent (§8.0)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(agUiEvent, fc.anything()), { maxLength: 30 }), (chunks) => {
        const n = createNormalizer("ag-ui");
        const out = [...chunks.flatMap((c) => n.push(c)), ...n.flush()];
        for (const e of out) expect(validateEvent(e, { posture: "strict" }).ok, JSON.stringify(e).slice(0, 300)).toBe(true);
      }),
      { numRuns },
    );
  });

  it("toAgUi never throws on any object, validated or not", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record(
            {
              type: agEventType,
              seq: fc.nat(),
              id: id,
              turnId: id,
              messageId: id,
              toolCallId: id,
              delta: fc.string(),
              patch: fc.anything(),
              content: fc.anything(),
              outcome: fc.anything(),
              block: fc.anything(),
            },
            { requiredKeys: ["type", "seq"] },
          ),
          { maxLength: 30 },
        ),
        (raw) => {
          const enc = createAgUiEncoder();
          for (const r of raw) {
            const v = validateEvent(r, { posture: "lenient" });
            const ev: AgLenientEvent | undefined = v.ok && v.known ? v.event : undefined;
            if (ev) expect(() => enc.push(ev)).not.toThrow();
          }
          enc.flush();
        },
      ),
      { numRuns },
    );
  });
});
