// Sound consumer-lenient types (§0.2, §12): what a later same-major minor may add — a union tag
// (block, source, citation, outcome type) or an open-enum value — passes lenient validation, is
// typed as such (generated/lenient-types.ts), and every consumer handles it. The type-level checks
// below are compiled by `tsc --noEmit` (make test); the run-time ones pin what each consumer does
// with such a value, each a place where the strict types had hidden it.
import { verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as L from "../generated/lenient-types.js";
import type { AgBlock, AgEvent } from "../generated/types.js";
import * as facts from "../generated/schema-facts.js";
import { isKnownBlock, isKnownOutcome, isKnownSource } from "../generated/schema-facts.js";
import { createAgUiEncoder, toAgUiContent } from "../src/bridges/ag-ui/index.js";
import { createUIMessageStreamTransform } from "../src/bridges/ui-message-stream/index.js";
import { reduce } from "../src/reduce/index.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "../src/reinput/index.js";
import * as validateApi from "../src/validate/index.js";
import { validateBlock, validateEvent, validateMessage } from "../src/validate/index.js";

/** A lenient parse that must succeed: the known event it yields. */
function lenientEvent(x: unknown): L.AgKnownEvent | L.AgExtEvent {
  const v = validateEvent(x);
  if (!v.ok || !v.known) throw new Error(`not a valid known event: ${JSON.stringify(v)}`);
  return v.event;
}

const FUTURE_SOURCE = { type: "s3", bucket: "b", key: "k.png", mediaType: "image/png" };

describe("the lenient type tree", () => {
  it("types a lenient parse with what a later minor may add, and a strict value still fits it", () => {
    const v = validateEvent({ type: "content.block", seq: 0, block: { type: "hologram", frames: 3 } });
    // Run time: each parse below succeeds, so the types asserted inside its branch are the ones
    // a caller's code meets (tsc checks the type assertions; vitest the parses).
    expect(v.ok && v.known && v.event.type).toBe("content.block");
    if (v.ok && v.known && v.event.type === "content.block") {
      // The block inside a known event is the lenient AgBlock: its unknown arm is part of the type.
      expectTypeOf(v.event.block).toEqualTypeOf<L.AgBlock>();
      expectTypeOf<L.AgUnknownBlock>().toMatchTypeOf<typeof v.event.block>();
    }
    const b = validateBlock({ type: "text", text: "hi" });
    expect(b.ok && b.known).toBe(true);
    if (b.ok && b.known) expectTypeOf(b.block).toEqualTypeOf<L.AgKnownBlock>();
    const m = validateMessage({ id: "m", role: "user", content: [] });
    expect(m.ok).toBe(true);
    if (m.ok) expectTypeOf(m.message).toEqualTypeOf<L.AgMessage>();
    const strict = validateEvent({ type: "text.delta", seq: 0, id: "x", delta: "a" }, { posture: "strict" });
    expect(strict.ok).toBe(true);
    if (strict.ok) expectTypeOf(strict.event).toEqualTypeOf<AgEvent>();
    // Every strict value is a lenient one: producers' events go to consumers unchanged.
    expectTypeOf<AgEvent>().toMatchTypeOf<L.AgKnownEvent | L.AgExtEvent>();
    expectTypeOf<AgBlock>().toMatchTypeOf<L.AgKnownBlock>();
    // An open enum keeps its listed values and admits any other string.
    expectTypeOf<"ok">().toMatchTypeOf<L.AgToolOutcome>();
    expectTypeOf<"a-later-outcome">().toMatchTypeOf<L.AgToolOutcome>();
  });

  it("passes an unknown block, source and outcome type at run time, and the guards tell them apart", () => {
    const event = lenientEvent({ type: "content.block", seq: 0, block: { type: "image", source: FUTURE_SOURCE } });
    if (event.type !== "content.block") throw new Error("content.block expected");
    expect(isKnownBlock(event.block)).toBe(true);
    if (isKnownBlock(event.block) && event.block.type === "image") expect(isKnownSource(event.block.source)).toBe(false);
    const done = lenientEvent({ type: "turn.done", seq: 1, turnId: "t", outcome: { type: "handed-to-human" }, finishReason: "stop" });
    if (done.type !== "turn.done") throw new Error("turn.done expected");
    expect(isKnownOutcome(done.outcome)).toBe(false);
  });
});

describe("the isKnown* guards", () => {
  // Every tagged union but the event one has a guard, reading the union's own tag (type, kind,
  // surface, a2uiMessage, method): each arm's tag passes, a tag no arm has does not.
  const TAGS = ["type", "kind", "surface", "a2uiMessage", "method"];
  const unions = Object.entries(facts.TAG_VALUES).filter(([union]) => union !== "AgKnownEvent");
  it("exist for every guarded union, and agjson/validate exports every one", () => {
    expect(unions.length).toBeGreaterThanOrEqual(10);
    for (const [union] of unions) expect(typeof Reflect.get(facts, `isKnown${union.replace(/^Ag/, "")}`), union).toBe("function");
    // The public list is written out in src/validate/index.ts: a guard a schema change adds fails here until exported.
    const guards = Object.keys(facts).filter((k) => /^isKnown[A-Z]/.test(k) && k !== "isKnownEventType");
    expect(guards.filter((g) => Reflect.get(validateApi, g) !== Reflect.get(facts, g))).toEqual([]);
  });
  it.each(unions)("%s: its arms' tags pass, an unknown tag does not", (union, values) => {
    const guard: unknown = Reflect.get(facts, `isKnown${union.replace(/^Ag/, "")}`);
    if (typeof guard !== "function") throw new Error(`no guard for ${union}`);
    const withTag = (tag: unknown) => Object.fromEntries(TAGS.map((k) => [k, tag]));
    for (const v of values) expect(guard(withTag(v)), `${union} ${v}`).toBe(true);
    expect(guard(withTag("a-tag-no-arm-has"))).toBe(false);
    expect(guard(withTag(7))).toBe(false);
  });
});

/** A short stream whose turn ends with an outcome type this version does not know. */
function futureOutcomeStream(): (L.AgKnownEvent | L.AgExtEvent)[] {
  return [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
    { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
    { type: "text.start", seq: 2, id: "x" },
    { type: "text.delta", seq: 3, id: "x", delta: "done" },
    { type: "text.end", seq: 4, id: "x" },
    { type: "message.end", seq: 5, id: "m" },
    { type: "turn.done", seq: 6, turnId: "t", outcome: { type: "handed-to-human", queue: "q1" }, finishReason: "a-later-reason" },
  ].map(lenientEvent);
}

describe("an outcome type or finish reason a later minor added", () => {
  it("still folds: reduce() keeps the outcome verbatim", () => {
    const { result, errors } = reduce(futureOutcomeStream());
    expect(errors).toEqual([]);
    expect(result.turns[0]?.outcome).toEqual({ type: "handed-to-human", queue: "q1" });
    expect(result.turns[0]?.finishReason).toBe("a-later-reason");
  });

  it("ends the AG-UI run (RUN_FINISHED, the AgJSON outcome carried) and the stream verifies", async () => {
    const encoder = createAgUiEncoder();
    const out = [...futureOutcomeStream().flatMap((e) => encoder.push(e)), ...encoder.flush()];
    const last = out.at(-1);
    expect(last?.type).toBe("RUN_FINISHED");
    expect(JSON.stringify(last)).toContain("handed-to-human");
    // @ag-ui/client's own verifier accepts the stream (a run that never finished would not end it).
    await expect(lastValueFrom(verifyEvents(false)(from(out as never[])).pipe(toArray()))).resolves.toHaveLength(out.length);
  });

  it("maps to the AI SDK's 'other' finish reason", () => {
    const transform = createUIMessageStreamTransform();
    const chunks = [...futureOutcomeStream().flatMap((e) => transform.push(e)), ...transform.end()];
    const finish = chunks.find((c) => c.type === "finish");
    expect(finish).toMatchObject({ type: "finish", finishReason: "other" });
  });
});

describe("a block or source type a later minor added, at re-input (§10 round trips)", () => {
  const messages = (): L.AgMessage[] => {
    const v = [
      {
        id: "u",
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", source: FUTURE_SOURCE },
          { type: "hologram", frames: 3 },
        ],
      },
      { id: "a", role: "assistant", content: [{ type: "text", text: "seen" }] },
    ].map((m) => validateMessage(m));
    return v.map((r) => {
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.message;
    });
  };

  it.each([
    ["anthropic", toAnthropic],
    ["openai-responses", toOpenAIResponses],
    ["openai-chat", toOpenAIChat],
    ["gemini", toGemini],
  ] as const)("%s: both are left out and reported, never sent half-formed", (_target, convert) => {
    const { request, report } = convert(messages());
    const sent = JSON.stringify(request);
    expect(sent).toContain("look");
    expect(sent).not.toContain("k.png");
    expect(sent).not.toContain("hologram");
    expect(sent).not.toContain("undefined");
    const dropped = report
      .filter((e) => e.action === "dropped" && e.reason === "unsupported-block")
      .map((e) => e.detail)
      .join("\n");
    expect(dropped).toMatch(/"s3" source|has no input form for this image|Chat Completions has no input form/);
    expect(dropped).toContain("hologram");
  });
});

describe("a source type a later minor added, in AG-UI content", () => {
  it("becomes a text part (AG-UI has no part for it), never a part with an undefined source", () => {
    const v = validateBlock({ type: "image", source: FUTURE_SOURCE });
    if (!v.ok) throw new Error("lenient validation refused a future source");
    const { content, exact } = toAgUiContent([v.block]);
    expect(exact).toBe(false);
    expect(content).toEqual([{ type: "text", text: JSON.stringify(v.block) }]);
  });
});
