// The `ag-ui` facet (issue 19 §1, spec §8.0) over the recorded AG-UI .NET server streams in
// fixtures/agui (one file per turn, each starting with a BOM), plus its degradation rules.
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { recordedAgUiStreams, schemaFailures, verifyFailure } from "../../bridges/ag-ui/ag-ui.test-support.js";
import { toAgUi } from "../../bridges/ag-ui/to-ag-ui.js";
import { reduce } from "../../reduce/index.js";
import { normalizeAll } from "../index.js";
import { checkStream } from "../stream-check.test-support.js";

const streams = recordedAgUiStreams();

function byName(part: string): AgEvent[] {
  const s = streams.find((x) => x.name.includes(part));
  if (!s) throw new Error(`no fixture ${part}`);
  return normalizeAll("ag-ui", s.events);
}

describe("ag-ui facet over fixtures/agui", () => {
  it("reads all eleven recorded turns (BOM-prefixed JSON arrays)", () => {
    expect(streams.length).toBe(11);
    for (const s of streams) expect(s.events.length).toBeGreaterThan(3);
  });

  for (const { name, events: native } of streams) {
    it(`${name}: a §5.0-clean stream that folds without resync, nothing degraded`, async () => {
      const events = normalizeAll("ag-ui", native);
      expect(checkStream(events)).toEqual([]);
      expect(events.filter((e) => e.type === "error" || e.type.startsWith("ext.ag-ui."))).toEqual([]);
      const folded = reduce(events);
      expect(folded.errors).toEqual([]);
      expect(folded.needsResync).toBe(false);
      // And back out: the AgEvents of a recorded AG-UI run are a valid AG-UI run again.
      const again = toAgUi(events);
      expect(schemaFailures(again)).toEqual([]);
      expect(await verifyFailure(again)).toBeUndefined();
      const types = (xs: readonly { type: string }[]) => xs.map((e) => e.type).filter((t) => t !== "CUSTOM");
      expect(types(again)).toEqual(
        types(
          native.filter((e): e is { type: string } => typeof e === "object" && e !== null && "type" in e && typeof e.type === "string"),
        ),
      );
    });
  }

  it("an interrupt outcome becomes hitl.ask + a paused turn.done (§7)", () => {
    const events = byName("Step09_InterruptsApproval/PostRun_DeleteRequest_EmitsInterruptThenResumes#Turn_01");
    const ask = events.find((e) => e.type === "hitl.ask");
    expect(ask).toMatchObject({
      askId: "ficc_Id_1",
      kind: "approval",
      toolCallId: "call_Id_1",
      reason: "tool_call",
      message: "Approval required for tool call: delete_file",
    });
    const done = events.find((e) => e.type === "turn.done");
    expect(done).toMatchObject({
      finishReason: "paused",
      outcome: { type: "paused", asks: [{ askId: "ficc_Id_1", kind: "approval", schema: { required: ["approved"] } }] },
    });
    expect(done).toMatchObject({
      usage: { inputTokens: 182, outputTokens: 155, totalTokens: 337, reasoningTokens: 128, cacheReadTokens: 0 },
    });
    const turn = reduce(events).result.turns[0];
    expect(turn?.outcome).toMatchObject({ type: "paused" });
    const call = reduce(events)
      .result.messages.flatMap((m) => m.content)
      .find((b) => b.type === "tool-call");
    expect(call).toMatchObject({ toolCallId: "call_Id_1", name: "delete_file", input: { filename: "report-draft.txt" } });
  });

  it("turn 2 of a two-turn scenario folds with turn 1 (two invokes, seq restarting at 0, INV-SEQ)", () => {
    const turn1 = byName("MixedInvocation_TwoTurnFlow_EmitsToolCallsThenServerResults#Turn_01");
    const turn2 = byName("MixedInvocation_TwoTurnFlow_EmitsToolCallsThenServerResults#Turn_02");
    const folded = reduce([...turn1, ...turn2]);
    expect(folded.errors).toEqual([]);
    expect(folded.result.turns).toHaveLength(2);
    const roles = folded.result.messages.map((m) => m.role);
    expect(roles).toContain("tool");
    expect(folded.result.messages.at(-1)?.content[0]).toMatchObject({ type: "text" });
  });

  it("state, reasoning and tool results land where §5 says", () => {
    expect(reduce(byName("Step05_StateManagement")).result.state).toMatchObject({ recipe: { cuisine: "Italian" } });
    const reasoning = reduce(byName("Step07_ThinkingEvents")).result.messages.flatMap((m) => m.content);
    expect(reasoning.find((b) => b.type === "reasoning")).toMatchObject({ type: "reasoning" });
    expect(reasoning.find((b) => b.type === "text")).toMatchObject({ type: "text" });
    const parallel = reduce(byName("Step12_ParallelToolCalls")).result.messages;
    expect(parallel.filter((m) => m.role === "tool")).toHaveLength(2);
  });

  it("degrades loudly: unknown types, malformed events and non-objects are carried, never thrown (§8.0)", () => {
    const events = normalizeAll("ag-ui", [
      { type: "RUN_STARTED", threadId: "t", runId: "r", protocolVersion: "2.0" },
      { type: "THINKING_START" },
      { type: "TEXT_MESSAGE_START" },
      42,
      { unparsedLine: "data: {oops" },
      { type: "CUSTOM", name: "acme.thing", value: { a: 1 } },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]);
    expect(events.filter((e) => e.type === "error").map((e) => ("code" in e ? e.code : undefined))).toEqual([
      "ag-ui-version-skew",
      "ag-ui-unknown-event",
    ]);
    expect(events.filter((e) => e.type === "ext.ag-ui.unparsed")).toHaveLength(4);
    expect(events.find((e) => e.type === "ext.ag-ui.custom")).toMatchObject({ name: "acme.thing", value: { a: 1 } });
    expect(checkStream(events)).toEqual([]);
  });

  it("restores a CUSTOM named like an ext event only when the name is the schema's ext.<vendor>.<key> form (§12)", () => {
    const events = normalizeAll("ag-ui", [
      { type: "RUN_STARTED", threadId: "t", runId: "r" },
      { type: "CUSTOM", name: "ext.acme.trace", value: { span: "s1" } },
      { type: "CUSTOM", name: "ext.acme.fooBar", value: { a: 1 } },
      { type: "RUN_FINISHED", threadId: "t", runId: "r" },
    ]);
    expect(events.find((e) => e.type === "ext.acme.trace")).toMatchObject({ span: "s1" });
    // Not kebab-case (§0.4): no such event type exists, so the CUSTOM is carried as it came.
    expect(events.some((e) => e.type === "ext.acme.fooBar")).toBe(false);
    expect(events.find((e) => e.type === "ext.ag-ui.custom")).toMatchObject({ name: "ext.acme.fooBar", value: { a: 1 } });
    expect(checkStream(events)).toEqual([]);
  });
});
