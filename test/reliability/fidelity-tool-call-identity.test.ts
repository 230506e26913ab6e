/**
 * INV-BLOCK (§5.0) and §1.3: a toolCallId names one tool call in a fold, whichever path the call
 * entered by — tool.start or a `tool-call` block in content.block — and in either order.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { reduce } from "../../src/reduce/index.js";
import { validateEvent, validateMessage } from "../../src/validate/index.js";
import type { AgMessage } from "../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { asEvents, messageEnd, messageStart, turnDone, turnStart } from "./fidelity-support.js";

type Entry = "start" | "block";

function events(order: Entry[], id = "call_1"): AgLenientEvent[] {
  const out: Record<string, unknown>[] = [turnStart(0), messageStart(1)];
  for (const how of order) {
    const seq = out.length;
    if (how === "start") out.push({ type: "tool.start", seq, toolCallId: id, name: "lookup" });
    else out.push({ type: "content.block", seq, block: { type: "tool-call", toolCallId: id, name: "lookup", input: { q: seq } } });
  }
  out.push(messageEnd(out.length), turnDone(out.length + 1));
  return asEvents(out);
}

function callsIn(message: AgMessage | undefined, id = "call_1"): number {
  return (message?.content ?? []).filter((b) => b.type === "tool-call" && b.toolCallId === id).length;
}

describe("tool-call identity across tool.start and content.block (INV-BLOCK, §1.3)", () => {
  for (const order of [
    ["start", "block"],
    ["block", "start"],
    ["block", "block"],
    ["start", "start"],
  ] as Entry[][]) {
    it(`${order.join(" then ")}: the message holds the call once, and the result validates (strict)`, () => {
      const { result } = reduce(events(order));
      const message = result.messages[0];
      expect(callsIn(message)).toBe(1);
      expect(validateMessage(message, { posture: "strict" }).ok).toBe(true);
    });
  }

  it("a content.block after tool.start reconciles the call in place: its input wins, its position stays", () => {
    const { result, needsResync } = reduce(events(["start", "block"]));
    expect(needsResync).toBe(false);
    expect(result.messages[0]?.content).toEqual([{ type: "tool-call", toolCallId: "call_1", name: "lookup", input: { q: 3 } }]);
  });

  it("a tool.start after a content.block call is the INV-BLOCK error a repeated tool.start is", () => {
    const out = reduce(events(["block", "start"]));
    expect(out.needsResync).toBe(true);
    expect(out.errors.map((e) => e.invariant)).toEqual(["INV-BLOCK"]);
  });

  it("tool.args.assembled and tool.done find a call that entered by content.block, without touching the caller's event", () => {
    const evs = events(["block"]);
    const blockEvent = evs[2];
    const before = JSON.stringify(blockEvent);
    const more = asEvents([
      { type: "tool.args.assembled", seq: 3, toolCallId: "call_1", input: { q: "final" } },
      { type: "tool.done", seq: 4, toolCallId: "call_1", content: [{ type: "text", text: "ok" }] },
      messageEnd(5),
      turnDone(6),
    ]);
    const all = [...evs.slice(0, 3), ...more];
    const out = reduce(all);
    expect(out.errors).toEqual([]);
    expect(out.result.messages[0]?.content).toEqual([
      { type: "tool-call", toolCallId: "call_1", name: "lookup", input: { q: "final" } },
      { type: "tool-result", toolCallId: "call_1", content: [{ type: "text", text: "ok" }] },
    ]);
    expect(JSON.stringify(blockEvent)).toBe(before);
  });

  it("property: any interleaving of both paths over a few ids never yields a message holding an id twice", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom<Entry>("start", "block"), fc.constantFrom("a", "b", "c")), { maxLength: 12 }),
        (plan) => {
          const out: Record<string, unknown>[] = [turnStart(0), messageStart(1)];
          for (const [how, id] of plan) {
            const seq = out.length;
            out.push(
              how === "start"
                ? { type: "tool.start", seq, toolCallId: id, name: "f" }
                : { type: "content.block", seq, block: { type: "tool-call", toolCallId: id, name: "f", input: {} } },
            );
          }
          out.push(messageEnd(out.length));
          const { result } = reduce(asEvents(out));
          for (const m of result.messages) {
            for (const id of ["a", "b", "c"]) expect(callsIn(m, id)).toBeLessThanOrEqual(1);
            expect(validateMessage(m, { posture: "strict" }).ok).toBe(true);
          }
        },
      ),
      { numRuns: Number(process.env.AGJSON_FUZZ_RUNS ?? 300) },
    );
  });

  it("a message (or a snapshot's message) holding a toolCallId twice is refused by the semantic layer, both postures", () => {
    const message = {
      id: "m",
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "x", name: "f", input: {} },
        { type: "text", text: "between" },
        { type: "tool-call", toolCallId: "x", name: "f", input: {} },
      ],
    };
    for (const posture of ["strict", "lenient"] as const) {
      const r = validateMessage(message, { posture });
      expect(r.ok).toBe(false);
      if (!r.ok)
        expect(r.errors[0]).toMatchObject({ path: "/content/2/toolCallId", keyword: "tool-call-id-unique", spec: "§5.0 INV-BLOCK" });
      const snap = validateEvent({ type: "messages.snapshot", seq: 0, messages: [message] }, { posture });
      expect(snap.ok).toBe(false);
      if (!snap.ok) expect(snap.errors[0]?.path).toBe("/messages/0/content/2/toolCallId");
    }
    // A call and its result share the id: that is not a duplicate.
    const paired = {
      id: "m",
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "x", name: "f", input: {} },
        { type: "tool-result", toolCallId: "x", content: [] },
      ],
    };
    expect(validateMessage(paired, { posture: "strict" }).ok).toBe(true);
  });
});
