// A content.block tool-call naming a call already shown REPLACEs it in place (§5.0 INV-BLOCK, §1.3,
// docs/spec-decisions.md D1): AG-UI gets one TOOL_CALL_START per call, verifyEvents passes, and the
// way back (with the metadata.agjson carry) folds to the same messages.
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../../generated/types.js";
import { normalizeAll } from "../../normalize/index.js";
import { reduce } from "../../reduce/index.js";
import { kept, verifyFailure } from "./ag-ui.test-support.js";
import { toAgUi } from "./to-ag-ui.js";

const head: AgLenientEvent[] = [
  { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
  { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
  { type: "tool.start", seq: 2, toolCallId: "c1", name: "lookup" },
];
const tail = (seq: number): AgLenientEvent[] => [
  { type: "message.end", seq, id: "m1" },
  { type: "turn.done", seq: seq + 1, turnId: "t1", outcome: { type: "success" }, finishReason: "tool_call" },
];

async function check(events: AgLenientEvent[]) {
  const out = toAgUi(events);
  expect(out.filter((e) => e.type === "TOOL_CALL_START")).toHaveLength(1);
  expect(await verifyFailure(out)).toBeUndefined();
  expect(await verifyFailure(toAgUi(events, { carry: false }))).toBeUndefined();
  const back = reduce(normalizeAll("ag-ui", out));
  expect(back.result.messages).toEqual(reduce(events).result.messages);
  return out;
}

describe("toAgUi: a content.block tool-call re-stating a shown call", () => {
  it("closes a call still streaming with the block's input as its arguments", async () => {
    const out = await check([
      ...head,
      { type: "content.block", seq: 3, block: { type: "tool-call", toolCallId: "c1", name: "lookup", input: { q: "x" } } },
      ...tail(4),
    ]);
    expect(out.filter((e) => e.type === "TOOL_CALL_ARGS")).toMatchObject([{ toolCallId: "c1", delta: '{"q":"x"}' }]);
    expect(out.some((e) => e.type === "CUSTOM")).toBe(false);
  });

  it("carries a rename the START cannot say as CUSTOM agjson.content.block", async () => {
    const out = await check([
      ...head,
      { type: "content.block", seq: 3, block: { type: "tool-call", toolCallId: "c1", name: "search", input: { q: "x" } } },
      ...tail(4),
    ]);
    expect(out.filter((e) => e.type === "CUSTOM").map((e) => ("name" in e ? e.name : ""))).toEqual(["agjson.content.block"]);
  });

  it("carries a re-statement of an ended call, keeping its landed result", async () => {
    const out = await check([
      ...head,
      { type: "tool.args.assembled", seq: 3, toolCallId: "c1", input: { q: "x" } },
      { type: "tool.done", seq: 4, toolCallId: "c1", content: [{ type: "text", text: "found" }] },
      { type: "content.block", seq: 5, block: { type: "tool-call", toolCallId: "c1", name: "lookup", input: { q: "y" } } },
      ...tail(6),
    ]);
    expect(out.filter((e) => e.type === "TOOL_CALL_END")).toHaveLength(1);
    expect(out.filter((e) => e.type === "CUSTOM").map((e) => ("name" in e ? e.name : ""))).toEqual(["agjson.content.block"]);
  });

  it("shows a text block naming a text block still streaming as its own AG-UI message, never starting one twice", async () => {
    const events: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
      { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
      { type: "text.start", seq: 2, id: "b1" },
      { type: "text.delta", seq: 3, id: "b1", delta: "draft" },
      { type: "content.block", seq: 4, id: "b1", block: { type: "text", text: "final" } },
      { type: "text.end", seq: 5, id: "b1" },
      ...tail(6),
    ];
    for (const carry of [true, false]) {
      const out = toAgUi(events, { carry });
      const starts = out.flatMap((e) => (e.type === "TEXT_MESSAGE_START" ? [e.messageId] : []));
      expect(new Set(starts).size).toBe(2);
      expect(await verifyFailure(out)).toBeUndefined();
      const back = reduce(normalizeAll("ag-ui", out));
      expect(back.errors).toEqual([]);
      expect(kept(back.result)).toEqual(kept(reduce(events).result));
    }
    expect(reduce(normalizeAll("ag-ui", toAgUi(events))).result.messages).toEqual(reduce(events).result.messages);
  });
});

describe("toAgUi: the tool-result channels (§2.1, §10 item 3)", () => {
  it("TOOL_CALL_RESULT content is the result's content; structuredContent, uiData, sideData and the flags ride metadata.agjson, and fold back verbatim", async () => {
    const done: AgLenientEvent = {
      type: "tool.done",
      seq: 4,
      toolCallId: "c1",
      content: [{ type: "text", text: "MODEL-TEXT" }],
      outcome: "error",
      errorText: "boom",
      isError: true,
      structuredContent: { n: 1 },
      uiData: { view: "VIEW-ONLY" },
      sideData: { app: "APP-ONLY" },
    };
    const events: AgLenientEvent[] = [...head, { type: "tool.args.assembled", seq: 3, toolCallId: "c1", input: {} }, done, ...tail(5)];
    const out = toAgUi(events);
    const result = out.find((e) => e.type === "TOOL_CALL_RESULT");
    expect(result).toMatchObject({
      toolCallId: "c1",
      content: "MODEL-TEXT",
      metadata: {
        agjson: {
          outcome: "error",
          errorText: "boom",
          isError: true,
          structuredContent: { n: 1 },
          uiData: { view: "VIEW-ONLY" },
          sideData: { app: "APP-ONLY" },
        },
      },
    });
    expect(await verifyFailure(out)).toBeUndefined();
    expect(reduce(normalizeAll("ag-ui", out)).result.messages).toEqual(reduce(events).result.messages);
  });
});
