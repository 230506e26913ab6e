// Fuzz (test/fuzz convention: AGJSON_FUZZ_RUNS sets the run count; issue 19 §1): whatever valid AgEvent stream toAgUi is given — ids that
// collide across blocks, messages, calls and steps, blocks left open, turns nested or never closed —
// every AG-UI event it emits parses with @ag-ui/core's EventSchemas and the stream passes
// @ag-ui/client's verifyEvents, with and without the metadata.agjson carry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../generated/types.js";
import { schemaFailures, verifyFailure } from "../../src/bridges/ag-ui/ag-ui.test-support.js";
import { toAgUi } from "../../src/bridges/ag-ui/to-ag-ui.js";
import { validateEvent } from "../../src/validate/index.js";

const numRuns = Number(process.env.AGJSON_FUZZ_RUNS ?? 200);

const turn = fc.constantFrom("t1", "t2", "s1");
const message = fc.constantFrom("m1", "m2");
const block = fc.constantFrom("b1", "b2", "m1");
const call = fc.constantFrom("c1", "c2");
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** One event of a plausible shape; the few that do not validate are filtered out below. */
const event: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("turn.start"), threadId: fc.constant("th"), turnId: turn }),
  fc.record({
    type: fc.constant("turn.done"),
    turnId: turn,
    outcome: fc.oneof(
      fc.constant({ type: "success" }),
      fc.constant({ type: "aborted" }),
      fc.constant({ type: "error", message: "x" }),
      fc.constant({ type: "paused", asks: [{ askId: "a1", kind: "approval", toolCallId: "c1" }] }),
    ),
    finishReason: fc.constantFrom("stop", "tool_call", "paused", "error"),
  }),
  fc.record({ type: fc.constant("turn.error"), turnId: maybe(turn), message: fc.constant("boom") }, { requiredKeys: ["type", "message"] }),
  fc.record({ type: fc.constant("turn.abort"), turnId: maybe(turn) }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("subagent.start"),
    turnId: fc.constant("s1"),
    parentTurnId: fc.constant("t1"),
    agentName: fc.constant("helper"),
  }),
  fc.record({ type: fc.constant("subagent.done"), turnId: fc.constant("s1") }),
  fc.record({
    type: fc.constant("message.start"),
    id: message,
    role: fc.constantFrom("assistant", "user"),
    turnId: turn,
    threadId: fc.constant("th"),
  }),
  fc.record({ type: fc.constant("message.end"), id: message }),
  fc.record(
    { type: fc.constantFrom("text.start", "reasoning.start"), id: block, messageId: maybe(message), turnId: maybe(turn) },
    { requiredKeys: ["type", "id"] },
  ),
  fc.record({ type: fc.constantFrom("text.delta", "reasoning.delta"), id: block, delta: fc.constantFrom("a", "b ") }),
  fc.record({ type: fc.constantFrom("text.end", "reasoning.end"), id: block }),
  fc.record({ type: fc.constant("reasoning.opaque"), id: block, kind: fc.constant("signature"), value: fc.constant("sig==") }),
  fc.record(
    { type: fc.constant("tool.start"), toolCallId: call, name: fc.constantFrom("f", "g"), messageId: maybe(message), turnId: maybe(turn) },
    { requiredKeys: ["type", "toolCallId", "name"] },
  ),
  fc.record({ type: fc.constant("tool.args.delta"), toolCallId: call, delta: fc.constantFrom('{"a":', "1}", "x") }),
  fc.record({ type: fc.constant("tool.args.assembled"), toolCallId: call, input: fc.constantFrom({ a: 1 }, "raw") }),
  fc.record(
    {
      type: fc.constant("tool.done"),
      toolCallId: call,
      messageId: maybe(fc.constantFrom("r1", "m2")),
      content: fc.constant([{ type: "text", text: "ok" }]),
      more: maybe(fc.boolean()),
    },
    { requiredKeys: ["type", "toolCallId", "content"] },
  ),
  fc.record(
    {
      type: fc.constant("content.block"),
      id: maybe(block),
      messageId: maybe(message),
      transient: maybe(fc.boolean()),
      block: fc.oneof(
        fc.record({ type: fc.constant("text"), text: fc.constantFrom("", "whole") }),
        fc.record({ type: fc.constant("tool-call"), toolCallId: call, name: fc.constantFrom("f", "g"), input: fc.constant({ b: 2 }) }),
        fc.record({ type: fc.constant("data"), name: fc.constant("chart"), data: fc.constant({ v: 1 }) }),
        fc.record({ type: fc.constant("code"), language: fc.constant("py"), code: fc.constant("1") }),
      ),
    },
    { requiredKeys: ["type", "block"] },
  ),
  fc.record(
    {
      type: fc.constant("step.start"),
      id: fc.constantFrom("p1", "p2"),
      stepName: maybe(fc.constantFrom("plan", "p1")),
      turnId: maybe(turn),
    },
    { requiredKeys: ["type", "id"] },
  ),
  fc.record({ type: fc.constant("step.done"), id: fc.constantFrom("p1", "p2") }),
  fc.record(
    {
      type: fc.constant("hitl.ask"),
      askId: fc.constantFrom("a1", "a2"),
      kind: fc.constant("approval"),
      toolCallId: maybe(call),
      turnId: maybe(turn),
    },
    { requiredKeys: ["type", "askId", "kind"] },
  ),
  fc.record({ type: fc.constant("state.snapshot"), snapshot: fc.constantFrom({ n: 1 }, [1], "s") }),
  fc.record({
    type: fc.constant("state.delta"),
    patch: fc.constantFrom([{ op: "add", path: "/n", value: 2 }], { node: { n: 3 } }, [{ op: "bogus" }]),
  }),
  fc.record({
    type: fc.constantFrom("ui.surface.start"),
    surfaceId: fc.constant("sf"),
    catalogId: fc.constant("c"),
    components: fc.constant([]),
  }),
  fc.record(
    {
      type: fc.constant("ui.data-model"),
      surfaceId: fc.constant("sf"),
      path: maybe(fc.constantFrom("/", "/x")),
      value: maybe(fc.constant(1)),
    },
    { requiredKeys: ["type", "surfaceId"] },
  ),
  fc.record({ type: fc.constant("ext.acme.ping"), n: fc.nat(3) }),
);

/** The events that validate (lenient, known types), numbered from 0 as a producer would (§4 seq). */
function valid(raw: Record<string, unknown>[]): AgLenientEvent[] {
  const out: AgLenientEvent[] = [];
  for (const r of raw) {
    const v = validateEvent({ ...r, seq: out.length }, { posture: "lenient" });
    if (v.ok && v.known) out.push(v.event);
  }
  return out;
}

describe("toAgUi fuzz: the output verifies", () => {
  it("mostly generates valid events (the property below is not vacuous)", () => {
    const sample = fc.sample(fc.array(event, { minLength: 20, maxLength: 20 }), 20).map(valid);
    expect(sample.reduce((n, s) => n + s.length, 0)).toBeGreaterThan(20 * 20 * 0.8);
  });

  // Found by this property at 20,000 runs: a result adopted (tool.done messageId) into a message a
  // subagent opened was attributed to the parent agent, taking the message from its opener.
  it("attributes a result adopted into a subagent's open message to that subagent", async () => {
    const events = valid([
      { type: "subagent.start", turnId: "s1", parentTurnId: "t1", agentName: "helper" },
      { type: "text.start", id: "b1", messageId: "m2", turnId: "s1" },
      { type: "tool.done", toolCallId: "c1", messageId: "m2", content: [{ type: "text", text: "ok" }] },
    ]);
    expect(events).toHaveLength(3);
    for (const carry of [true, false]) {
      const out = toAgUi(events, { carry });
      expect(out.find((e) => e.type === "TOOL_CALL_RESULT")).toMatchObject({ messageId: "m2", subagentRunId: "s1" });
      expect(await verifyFailure(out)).toBeUndefined();
    }
  });

  it("every event parses with EventSchemas and the stream passes verifyEvents, carry on and off", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), async (raw) => {
        const events = valid(raw);
        for (const carry of [true, false]) {
          const out = toAgUi(events, { carry });
          expect(schemaFailures(out)).toEqual([]);
          expect(await verifyFailure(out)).toBeUndefined();
        }
      }),
      { numRuns },
    );
  });
});
