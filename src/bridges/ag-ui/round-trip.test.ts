// Issue 19 §1 round trip: AgJSON → AG-UI → AgJSON keeps text, tool calls and results, reasoning,
// state and interrupts — over every recorded stream that folds cleanly. With the metadata.agjson
// carry the fold is identical (INV-FOLD equality) for every stream that also meets the §5.0 producer
// invariants (a stream that leaves a turn open comes back closed by INV-FLUSH); without the carry
// (what a foreign AG-UI peer keeps) the kept set above survives. docs/bridges/ag-ui.md lists the rest.
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../../generated/types.js";
import { normalizeAll } from "../../normalize/index.js";
import { checkStream } from "../../normalize/stream-check.test-support.js";
import { reduce } from "../../reduce/index.js";
import { firstDifference } from "../../../conformance/runner.js";
import { kept, recordedStreams } from "./ag-ui.test-support.js";
import { toAgUi } from "./to-ag-ui.js";

function roundTrip(events: AgLenientEvent[], carry: boolean): AgLenientEvent[] {
  return normalizeAll("ag-ui", toAgUi(events, { carry }));
}

const clean = recordedStreams().filter((s) => {
  if (s.events.length === 0) return false;
  const folded = reduce(s.events);
  return !folded.needsResync && folded.errors.length === 0;
});

describe("AgJSON → AG-UI → AgJSON", () => {
  const exact = clean.filter((s) => checkStream(s.events).length === 0);
  it("runs over the recorded streams that fold cleanly and meet the §5.0 producer invariants", () => {
    expect(exact.length).toBeGreaterThan(60);
  });

  for (const { name, events } of exact) {
    it(`${name}: the fold after the round trip (with the metadata.agjson carry) is identical (INV-FOLD)`, () => {
      const original = reduce(events).result;
      const carried = reduce(roundTrip(events, true));
      expect(carried.errors).toEqual([]);
      expect(firstDifference(carried.result, original)).toBeUndefined();
      expect(kept(carried.result)).toEqual(kept(original));
    });
  }
});

describe("AgJSON → AG-UI → AgJSON, event by event", () => {
  it("a field AG-UI has no slot for comes back from metadata.agjson (the envelope's id, parentId and _meta too)", () => {
    const _meta = { "acme.example/trace": "x1" };
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant" },
      { type: "text.start", seq: 2, id: "b", turnId: "t", messageId: "m", parentId: "p", _meta },
      { type: "text.delta", seq: 3, id: "b", delta: "hi", turnId: "t", messageId: "m" },
      { type: "text.end", seq: 4, id: "b", turnId: "t", messageId: "m", parentId: "p", _meta },
      { type: "reasoning.start", seq: 5, id: "r", turnId: "t", messageId: "m", parentId: "p" },
      { type: "reasoning.delta", seq: 6, id: "r", delta: "so", turnId: "t", messageId: "m", parentId: "p" },
      { type: "reasoning.end", seq: 7, id: "r", turnId: "t", messageId: "m", parentId: "p", _meta },
      { type: "tool.start", seq: 8, id: "e8", toolCallId: "c", name: "f", turnId: "t", messageId: "m", parentId: "p", index: 0 },
      {
        type: "tool.args.assembled",
        seq: 9,
        id: "e9",
        toolCallId: "c",
        input: { q: 1 },
        turnId: "t",
        messageId: "m",
        parentId: "p",
        _meta,
      },
      {
        type: "tool.done",
        seq: 10,
        id: "e10",
        toolCallId: "c",
        content: [{ type: "text", text: "ok" }],
        outcome: "ok",
        turnId: "t",
        parentId: "p",
      },
      { type: "message.end", seq: 11, id: "m", turnId: "t" },
      { type: "turn.done", seq: 12, turnId: "t", outcome: { type: "success" }, finishReason: "stop", id: "e12", parentId: "p", _meta },
    ];
    const back = roundTrip(events, true);
    for (const original of events) {
      const { seq: _seq, ...fields } = original;
      const key =
        "toolCallId" in original
          ? { toolCallId: original.toolCallId }
          : "id" in original && original.id !== undefined
            ? { id: original.id }
            : { turnId: original.turnId };
      const same = back.find((e) => e.type === original.type && Object.entries(key).every(([k, v]) => Reflect.get(e, k) === v));
      expect(same, original.type).toMatchObject(fields);
    }
  });

  it("turn.start: its _meta, envelope and a field a later minor added ride RUN_STARTED's carry; the facet reads back the §4 ones (§0.2, §12)", () => {
    const _meta = { "acme.example/trace": "x1", traceparent: "00-abc-def-01" };
    const events: AgLenientEvent[] = [
      {
        type: "turn.start",
        seq: 0,
        turnId: "t",
        threadId: "th",
        id: "e0",
        parentId: "p",
        _meta,
        trigger: { kind: "cron" },
        addedLater: { n: 1 },
      } as AgLenientEvent,
      { type: "turn.done", seq: 1, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const agUi = toAgUi(events, { carry: true });
    expect(agUi[0]).toMatchObject({
      type: "RUN_STARTED",
      runId: "t",
      metadata: { agjson: { id: "e0", parentId: "p", _meta, trigger: { kind: "cron" }, addedLater: { n: 1 } } },
    });
    const back = roundTrip(events, true);
    // The facet is a producer (§0.2 producer-strict): the unknown field stays behind, the §4 fields return.
    expect(back[0]).toEqual({
      type: "turn.start",
      seq: 0,
      turnId: "t",
      threadId: "th",
      id: "e0",
      parentId: "p",
      _meta,
      trigger: { kind: "cron" },
    });
  });

  it("message.end of a shown message: its _meta and a field a later minor added are carried (CUSTOM), and _meta comes back (§0.2, §12)", () => {
    const _meta = { "acme.example/trace": "x2" };
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant" },
      { type: "text.start", seq: 2, id: "b", turnId: "t" },
      { type: "text.delta", seq: 3, id: "b", delta: "hi", turnId: "t" },
      { type: "text.end", seq: 4, id: "b", turnId: "t" },
      { type: "message.end", seq: 5, id: "m", turnId: "t", parentId: "p", _meta, addedLater: 1 } as AgLenientEvent,
      { type: "turn.done", seq: 6, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    expect(toAgUi(events, { carry: true })).toContainEqual({
      type: "CUSTOM",
      name: "agjson.message.end",
      value: { id: "m", turnId: "t", parentId: "p", _meta, addedLater: 1 },
    });
    const end = roundTrip(events, true).find((e) => e.type === "message.end");
    expect(end).toMatchObject({ id: "m", turnId: "t", parentId: "p", _meta });
  });
});

/** `ev` with fields a later minor may add (§0.2): the fixtures below are events of a newer producer. */
function withUnknown<E extends AgLenientEvent>(ev: E, extra: Record<string, unknown>): E {
  return Object.assign(ev, extra);
}

describe("AgJSON → AG-UI → AgJSON, the carry's remaining events (§0.2, §12)", () => {
  const _meta = { "acme.example/trace": "x3" };

  it("tool.args.delta: its _meta, parentId, id and a field a later minor added ride TOOL_CALL_ARGS's carry; the facet reads back the §4 ones", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant" },
      { type: "tool.start", seq: 2, toolCallId: "c", name: "f", turnId: "t", messageId: "m" },
      withUnknown(
        { type: "tool.args.delta", seq: 3, id: "e3", toolCallId: "c", delta: '{"q":1}', turnId: "t", messageId: "m", parentId: "p", _meta },
        { addedLater: 1 },
      ),
      { type: "tool.args.assembled", seq: 4, toolCallId: "c", input: { q: 1 }, turnId: "t", messageId: "m" },
      { type: "message.end", seq: 5, id: "m", turnId: "t" },
      { type: "turn.done", seq: 6, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    expect(toAgUi(events, { carry: true })).toContainEqual({
      type: "TOOL_CALL_ARGS",
      toolCallId: "c",
      delta: '{"q":1}',
      metadata: { agjson: { id: "e3", parentId: "p", _meta, addedLater: 1 } },
    });
    const back = roundTrip(events, true);
    // The facet is a producer (§0.2 producer-strict): the unknown field stays behind, the §4 fields return.
    expect(back.find((e) => e.type === "tool.args.delta")).toEqual({
      type: "tool.args.delta",
      seq: 3,
      id: "e3",
      toolCallId: "c",
      delta: '{"q":1}',
      turnId: "t",
      messageId: "m",
      parentId: "p",
      _meta,
    });
    expect(back.filter((e) => e.type === "error")).toEqual([]);
  });

  it("message.start whose carry holds a field unknown to the schema: the facet keeps its §4 fields, _meta included, and drops only the unknown one", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      withUnknown(
        { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant", agentName: "a", parentId: "p", _meta },
        { addedLater: 1 },
      ),
      { type: "text.start", seq: 2, id: "b", turnId: "t", messageId: "m" },
      { type: "text.delta", seq: 3, id: "b", delta: "hi", turnId: "t", messageId: "m" },
      { type: "text.end", seq: 4, id: "b", turnId: "t", messageId: "m" },
      { type: "message.end", seq: 5, id: "m", turnId: "t" },
      withUnknown({ type: "message.start", seq: 6, id: "m2", turnId: "t", threadId: "th", role: "assistant", _meta }, { addedLater: 2 }),
      { type: "message.end", seq: 7, id: "m2", turnId: "t" },
      { type: "turn.done", seq: 8, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const back = roundTrip(events, true);
    // Shown by its text (the carry's `message`) and shown only by CUSTOM agjson.message.start: both keep their §4 fields.
    expect(back.filter((e) => e.type === "message.start")).toEqual([
      { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant", agentName: "a", parentId: "p", _meta },
      { type: "message.start", seq: 6, id: "m2", turnId: "t", threadId: "th", role: "assistant", _meta },
    ]);
    expect(back.filter((e) => e.type === "error" || e.type.startsWith("ext."))).toEqual([]);
  });

  it("subagent.done whose carry holds a field unknown to the schema comes back a subagent.done with its §4 fields, not ext.ag-ui.unparsed", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "subagent.start", seq: 1, turnId: "s", parentTurnId: "t", agentName: "helper" },
      withUnknown({ type: "subagent.done", seq: 2, id: "e2", turnId: "s", parentTurnId: "t", parentId: "p", _meta }, { addedLater: 1 }),
      // A subagent toAgUi never opened: its done travels whole as CUSTOM agjson.subagent.done.
      withUnknown({ type: "subagent.done", seq: 3, id: "e3", turnId: "s2", parentTurnId: "t", _meta }, { addedLater: 2 }),
      { type: "turn.done", seq: 4, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const agUi = toAgUi(events, { carry: true });
    expect(agUi).toContainEqual({
      type: "CUSTOM",
      name: "agjson.subagent.done",
      value: { id: "e3", turnId: "s2", parentTurnId: "t", _meta, addedLater: 2 },
    });
    const back = roundTrip(events, true);
    expect(back.filter((e) => e.type === "subagent.done")).toEqual([
      { type: "subagent.done", seq: 2, id: "e2", turnId: "s", parentTurnId: "t", parentId: "p", _meta },
      { type: "subagent.done", seq: 3, id: "e3", turnId: "s2", parentTurnId: "t", _meta },
    ]);
    expect(back.filter((e) => e.type === "error" || e.type.startsWith("ext."))).toEqual([]);
  });

  it("step.start: its _meta and parentId come back from STEP_STARTED's carry", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "step.start", seq: 1, id: "s1", stepName: "plan", turnId: "t", parentId: "p", _meta },
      { type: "step.done", seq: 2, id: "s1", stepName: "plan", turnId: "t" },
      { type: "turn.done", seq: 3, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const back = roundTrip(events, true);
    expect(back.find((e) => e.type === "step.start")).toEqual({
      type: "step.start",
      seq: 1,
      id: "s1",
      stepName: "plan",
      turnId: "t",
      parentId: "p",
      _meta,
    });
  });

  it("step.done: its usage, _meta and parentId come back from STEP_FINISHED's carry", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "step.start", seq: 1, id: "s1", stepName: "plan", turnId: "t" },
      { type: "step.done", seq: 2, id: "s1", stepName: "plan", turnId: "t", parentId: "p", usage: { inputTokens: 3 }, _meta },
      { type: "turn.done", seq: 3, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const back = roundTrip(events, true);
    expect(back.find((e) => e.type === "step.done")).toEqual({
      type: "step.done",
      seq: 2,
      id: "s1",
      stepName: "plan",
      turnId: "t",
      parentId: "p",
      usage: { inputTokens: 3 },
      _meta,
    });
  });

  // docs/spec-decisions.md D20: a turn's terminal keeps every field it carried, nested or not (§12, §0.2).
  it("nested turn.error and turn.abort: retriable, usage, reason, id, parentId and _meta come back from SUBAGENT_ERROR's carry", () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "subagent.start", seq: 1, turnId: "s1", parentTurnId: "t", agentName: "a" },
      {
        type: "turn.error",
        seq: 2,
        id: "e2",
        turnId: "s1",
        parentId: "p",
        message: "boom",
        code: "x",
        retriable: true,
        usage: { inputTokens: 3 },
        _meta,
      },
      { type: "subagent.start", seq: 3, turnId: "s2", parentTurnId: "t", agentName: "b" },
      { type: "turn.abort", seq: 4, id: "e4", turnId: "s2", parentId: "p", reason: "parent-ended", _meta },
      { type: "turn.done", seq: 5, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const back = roundTrip(events, true);
    expect(back.find((e) => e.type === "turn.error")).toEqual({
      type: "turn.error",
      seq: 2,
      id: "e2",
      turnId: "s1",
      parentId: "p",
      message: "boom",
      code: "x",
      retriable: true,
      usage: { inputTokens: 3 },
      _meta,
    });
    expect(back.find((e) => e.type === "turn.abort")).toEqual({
      type: "turn.abort",
      seq: 4,
      id: "e4",
      turnId: "s2",
      parentId: "p",
      reason: "parent-ended",
      _meta,
    });
  });

  it("root turn.error and turn.abort: every carried field comes back from RUN_ERROR / RUN_FINISHED's carry", () => {
    const errored: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "turn.error", seq: 1, id: "e1", turnId: "t", parentId: "p", message: "boom", retriable: false, _meta },
    ];
    expect(roundTrip(errored, true).find((e) => e.type === "turn.error")).toEqual({
      type: "turn.error",
      seq: 1,
      id: "e1",
      turnId: "t",
      parentId: "p",
      message: "boom",
      retriable: false,
      _meta,
    });
    const aborted: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "turn.abort", seq: 1, id: "e1", turnId: "t", parentId: "p", reason: "user", _meta },
    ];
    expect(roundTrip(aborted, true).find((e) => e.type === "turn.abort")).toEqual({
      type: "turn.abort",
      seq: 1,
      id: "e1",
      turnId: "t",
      parentId: "p",
      reason: "user",
      _meta,
    });
  });
});
