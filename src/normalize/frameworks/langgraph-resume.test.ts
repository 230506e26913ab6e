// docs/spec-decisions.md D14: LangGraph interrupts become asks with distinct, stable askIds (the
// interrupt id and the ordinal), the LangGraph id in the ask's metadata; the resume value is rebuilt
// from the asks' binding and ordinals (§7 Resume binding, §3.1, §10 item 11).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgHitlAnswer, AgPausedAsk } from "../../../generated/types.js";
import { normalizeAll, readNativeChunks } from "../index.js";
import { LangGraphResumeError, toLangGraphResume } from "./langgraph-resume.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");

function pausedAsks(native: unknown[]): AgPausedAsk[] {
  const done = normalizeAll("langgraph", native).find((e) => e.type === "turn.done");
  if (done?.type !== "turn.done" || done.outcome.type !== "paused") throw new Error("the stream did not pause");
  return done.outcome.asks as AgPausedAsk[];
}

const recorded = (name: string): AgPausedAsk[] =>
  pausedAsks(readNativeChunks(readFileSync(join(ROOT, "record", "recordings", "langgraph", `${name}.native.ndjson`), "utf8")));
const framework = (name: string): { framework: { interruptPositions: { id: string; position: number }[] } } =>
  JSON.parse(readFileSync(join(ROOT, "record", "recordings", "langgraph", `${name}.final.json`), "utf8"));

describe("LangGraph asks (D14)", () => {
  it("a node's repeated interrupts get distinct askIds made of the interrupt id and ordinal; the id rides metadata", () => {
    const names = ["interrupt-first", "interrupt-second", "interrupt-third", "interrupt-fourth"];
    const asks = names.map((n) => recorded(n));
    const positions = names.map((n) => framework(n).framework.interruptPositions[0]!);
    expect(asks.map((a) => a.map((x) => [x.askId, x.ordinal, x.metadata?.["langgraph/interruptId"]]))).toEqual(
      positions.map((p) => [[`${p.id}:${p.position}`, p.position, p.id]]),
    );
    expect(new Set(asks.map((a) => a[0]!.askId)).size).toBe(4);
    // Stable: the same stream gives the same askId.
    expect(recorded("interrupt-second")[0]!.askId).toBe(asks[1]![0]!.askId);
    // The interrupt's dict is still the metadata, beside the id.
    expect(asks[1]![0]!.metadata).toEqual({
      question: "Approve the second change?",
      risk: "high",
      "langgraph/interruptId": positions[1]!.id,
    });
  });

  it("an interrupt value holding the id's own key rides whole under metadata.value (§0.2)", () => {
    const value = { "langgraph/interruptId": "mine", question: "Go?" };
    const native = [
      ["updates", { agent: { messages: [] } }],
      ["updates", { __interrupt__: [{ id: "i1", value }] }],
    ];
    const [ask] = pausedAsks(native);
    expect(ask).toMatchObject({ askId: "i1:0", message: "Go?", metadata: { value, "langgraph/interruptId": "i1" } });
  });
});

describe("toLangGraphResume (§3.1 LangGraph resume shape)", () => {
  const answer = (askId: string, reply: unknown, extra: Partial<AgHitlAnswer> = {}): AgHitlAnswer => ({
    askId,
    status: "resolved",
    reply,
    ...extra,
  });

  it("one positional ask resumes with the scalar reply (the recorded second interrupt)", () => {
    const asks = recorded("interrupt-second");
    expect(toLangGraphResume(asks, [answer(asks[0]!.askId, "also yes")])).toEqual({ resume: "also yes" });
  });

  it("positional asks sharing one LangGraph id resume with the replies in ordinal order, whatever the answers' order", () => {
    const ask = (ordinal: number): AgPausedAsk => ({
      askId: `n:${ordinal}`,
      kind: "text",
      resumeBinding: "positional",
      ordinal,
      metadata: { "langgraph/interruptId": "n" },
    });
    const asks = [ask(1), ask(0), ask(2)];
    expect(toLangGraphResume(asks, [answer("n:2", "c"), answer("n:0", "a"), answer("n:1", "b")])).toEqual({ resume: ["a", "b", "c"] });
  });

  it("id-bound asks resume with a map keyed by the LangGraph interrupt id; a declined answer without a reply resumes with null", () => {
    const native = JSON.parse(readFileSync(join(ROOT, "conformance", "normalize", "langgraph", "parallel-interrupts.json"), "utf8"))
      .native as unknown[];
    const asks = pausedAsks(native);
    expect(asks.map((a) => a.resumeBinding)).toEqual(["id", "id"]);
    expect(toLangGraphResume(asks, [answer("int-b", { size: "L" }), { askId: "int-a", status: "declined" }])).toEqual({
      resume: { "int-a": null, "int-b": { size: "L" } },
    });
  });

  it("refuses an answer naming no ask, a second answer to one ask, and an ask left unanswered", () => {
    const asks: AgPausedAsk[] = [{ askId: "a:0", kind: "text", resumeBinding: "positional", ordinal: 0 }];
    expect(() => toLangGraphResume(asks, [answer("b", 1)])).toThrow(LangGraphResumeError);
    expect(() => toLangGraphResume(asks, [answer("a:0", 1), answer("a:0", 2)])).toThrow(/already answered/);
    expect(() => toLangGraphResume(asks, [])).toThrow(/has no answer/);
  });
});
