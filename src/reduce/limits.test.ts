// The limits of one fold (docs/reduce.md "Limits"): a bounded error log (issue 20 item 11: a long
// stream of bad events must not grow the fold's memory with it) and the §13 depth cap before
// folding (issue 20 item 14: a deeply nested `_meta` or other opaque value is a typed issue,
// never a stack overflow, and changes nothing — §10 item 20).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_ERRORS, createReducer, reduce } from "./index.js";

/** A stream whose every event after the first is an INV-OWNER error: deltas for a block never opened. */
function* badDeltas(count: number): Generator<AgEvent> {
  yield { type: "turn.start", seq: 0, threadId: "th", turnId: "t" };
  for (let i = 1; i <= count; i++) yield { type: "text.delta", seq: i, id: `missing-${i}`, delta: "x" };
}

/** A value `levels` levels deep (the value itself is level 1), built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** A chat turn, optionally with `extra` between message.start and the text block (all seq-numbered in order). */
function turn(extra: (seq: number) => AgEvent | undefined): AgEvent[] {
  const events: AgEvent[] = [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
    { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
  ];
  const inserted = extra(2);
  if (inserted !== undefined) events.push(inserted);
  let seq = events.length;
  events.push({ type: "text.start", seq: seq++, id: "x" });
  events.push({ type: "text.delta", seq: seq++, id: "x", delta: "hi" });
  events.push({ type: "text.end", seq: seq++, id: "x" });
  events.push({ type: "message.end", seq: seq++, id: "m" });
  events.push({ type: "turn.done", seq: seq++, turnId: "t", outcome: { type: "success" }, finishReason: "stop" });
  return events;
}

describe("bounded errors (issue 20 item 11)", () => {
  it("keeps the first maxErrors issues whole and counts the rest per rule", () => {
    const out = reduce(badDeltas(250), { maxErrors: 10 });
    expect(out.errors).toHaveLength(10);
    expect(out.errors.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out.errors.every((e) => e.invariant === "INV-OWNER" && e.recovery === "resync")).toBe(true);
    expect(out.errorsOmitted).toEqual({ count: 240, byInvariant: { "INV-OWNER": 240 } });
    expect(out.needsResync).toBe(true);
  });

  it("counts each rule apart", () => {
    const events: AgEvent[] = [...badDeltas(3)];
    events.push({ type: "artifact.end", seq: 4, artifactId: "nope", lastChunk: true });
    events.push({ type: "turn.done", seq: 5, turnId: "never", outcome: { type: "success" }, finishReason: "stop" });
    const out = reduce(events, { maxErrors: 1 });
    expect(out.errors.map((e) => e.invariant)).toEqual(["INV-OWNER"]);
    expect(out.errorsOmitted).toEqual({ count: 4, byInvariant: { "INV-OWNER": 2, ARTIFACT: 1, "INV-TURN": 1 } });
  });

  it(`keeps ${DEFAULT_MAX_ERRORS} by default, however long the bad stream`, () => {
    const reducer = createReducer();
    for (const event of badDeltas(DEFAULT_MAX_ERRORS * 20)) reducer.push(event);
    expect(reducer.errors).toHaveLength(DEFAULT_MAX_ERRORS);
    expect(reducer.errorsOmitted?.count).toBe(DEFAULT_MAX_ERRORS * 19);
  });

  it("reports nothing omitted while under the limit, and keeps everything with Infinity", () => {
    expect(reduce(badDeltas(5)).errorsOmitted).toBeUndefined();
    expect("errorsOmitted" in reduce(badDeltas(5))).toBe(false);
    const all = reduce(badDeltas(DEFAULT_MAX_ERRORS + 5), { maxErrors: Infinity });
    expect(all.errors).toHaveLength(DEFAULT_MAX_ERRORS + 5);
    expect(all.errorsOmitted).toBeUndefined();
  });

  it("maxErrors 0 keeps no issue but still counts it and still asks for a resync", () => {
    const out = reduce(badDeltas(3), { maxErrors: 0 });
    expect(out.errors).toEqual([]);
    expect(out.errorsOmitted).toEqual({ count: 3, byInvariant: { "INV-OWNER": 3 } });
    expect(out.needsResync).toBe(true);
  });

  it("batch and incremental agree (INV-FOLD) under the limit", () => {
    const batch = reduce(badDeltas(30), { maxErrors: 7 });
    const reducer = createReducer({ maxErrors: 7 });
    for (const event of badDeltas(30)) reducer.push(event);
    expect(reducer.errors).toEqual(batch.errors);
    expect(reducer.errorsOmitted).toEqual(batch.errorsOmitted);
  });

  it.each([-1, 1.5, Number.NaN, "10"])("refuses maxErrors %s with a RangeError naming it", (maxErrors) => {
    expect(() => createReducer({ maxErrors: maxErrors as number })).toThrow(RangeError);
    expect(() => createReducer({ maxErrors: maxErrors as number })).toThrow(/maxErrors/);
  });
});

describe("depth cap before folding (issue 20 item 14, §13, §10 item 20)", () => {
  const clean = reduce(turn(() => undefined));

  it("the cap is the validators' (64 levels, the event itself level 1)", () => {
    expect(DEFAULT_MAX_DEPTH).toBe(64);
  });

  it.each([
    ["_meta on a text.start", (depth: number): AgEvent => ({ type: "text.start", seq: 2, id: "y", _meta: nested(depth) })],
    [
      "a memory.write value",
      (depth: number): AgEvent => ({ type: "memory.write", seq: 2, scope: "thread", key: "k", value: nested(depth) }),
    ],
    ["a state.snapshot", (depth: number): AgEvent => ({ type: "state.snapshot", seq: 2, snapshot: nested(depth) })],
    [
      "a tool-call input inside content.block",
      (depth: number): AgEvent => ({
        type: "content.block",
        seq: 2,
        block: { type: "tool-call", toolCallId: "c", name: "n", input: nested(depth) },
      }),
    ],
  ])("%s nested 100,000 levels: a CAP issue, never a stack overflow, and the fold as if it never arrived", (_name, make) => {
    const events = turn(() => make(100_000));
    const batch = reduce(events);
    expect(batch.result).toEqual(clean.result);
    expect(batch.needsResync).toBe(false);
    expect(batch.errors).toHaveLength(1);
    expect(batch.errors[0]).toMatchObject({ seq: 2, invariant: "CAP", recovery: "reject" });
    expect(batch.errors[0]?.message).toMatch(/nests deeper than the 64-level cap/);
    // The refused event used its seq slot: the next one (seq 3) is not a forward gap (INV-SEQ).
    expect(batch.errors.some((e) => e.invariant === "INV-SEQ")).toBe(false);
    const reducer = createReducer();
    for (const event of events) reducer.push(event);
    expect(reducer.result).toEqual(batch.result);
    expect(reducer.errors).toEqual(batch.errors);
  });

  it("names where the value nests too deep", () => {
    const out = reduce(turn((seq) => ({ type: "text.start", seq, id: "y", _meta: { ok: 1, deep: nested(200) } })));
    expect(out.errors[0]?.message).toMatch(/the value at \/_meta\/deep\/a\/a/);
  });

  it("accepts a value exactly at the cap and refuses one level more", () => {
    // The event is level 1 and its _meta level 2, so _meta may nest 63 levels under a 64 cap.
    const atCap = reduce(turn((seq) => ({ type: "text.start", seq, id: "y", _meta: nested(DEFAULT_MAX_DEPTH - 1) })));
    expect(atCap.errors).toEqual([]);
    expect(atCap.result.messages[0]?.content).toHaveLength(2);
    const past = reduce(turn((seq) => ({ type: "text.start", seq, id: "y", _meta: nested(DEFAULT_MAX_DEPTH) })));
    expect(past.errors.map((e) => e.invariant)).toEqual(["CAP"]);
    expect(past.result).toEqual(clean.result);
  });

  it("maxDepth raises or lowers the cap", () => {
    const deep = (seq: number): AgEvent => ({ type: "text.start", seq, id: "y", _meta: nested(200) });
    expect(reduce(turn(deep), { maxDepth: 201 }).errors).toEqual([]);
    expect(reduce(turn(deep), { maxDepth: 200 }).errors.map((e) => e.invariant)).toEqual(["CAP"]);
    expect(
      reduce(
        turn(() => ({ type: "text.start", seq: 2, id: "y", _meta: { a: {} } })),
        { maxDepth: 2 },
      ).errors.map((e) => e.invariant),
    ).toEqual(["CAP"]);
    expect(() => createReducer({ maxDepth: 0 })).toThrow(RangeError);
  });

  it("parsed: true skips the walk for events parsed from depth-capped text", () => {
    const deep = (seq: number): AgEvent => ({ type: "text.start", seq, id: "y", _meta: nested(200) });
    const out = reduce(turn(deep), { parsed: true });
    expect(out.errors).toEqual([]);
    expect(out.result.messages[0]?.content[0]).toMatchObject({ type: "text", _meta: nested(200) });
  });

  it("refuses a cyclic value the same way instead of looping", () => {
    const meta: Record<string, unknown> = {};
    meta.self = meta;
    const out = reduce(turn((seq) => ({ type: "text.start", seq, id: "y", _meta: meta })));
    expect(out.errors.map((e) => [e.invariant, e.recovery])).toEqual([["CAP", "reject"]]);
    expect(out.errors[0]?.message).toMatch(/cycle/);
    expect(out.result).toEqual(clean.result);
  });

  it("leaves an outstanding resync condition as it was", () => {
    const events: AgEvent[] = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
      { type: "text.delta", seq: 1, id: "nope", delta: "x" },
      { type: "state.snapshot", seq: 2, snapshot: nested(1000) },
    ];
    const out = reduce(events);
    // The snapshot would have ended the resync condition; refused, it does not.
    expect(out.needsResync).toBe(true);
    expect(out.result.state).toBeUndefined();
    expect(out.errors.map((e) => e.invariant)).toEqual(["INV-OWNER", "CAP"]);
  });
});

describe("a removed message's content is let go (§5 message.remove)", () => {
  // The heap is measured after a full collection (V8's own gc, exposed for this test): a fold that
  // kept what it removed retains every removed text; the fold here keeps ids only.
  it("a long stream that streams and removes its messages retains no removed text", async () => {
    const { setFlagsFromString } = await import("node:v8");
    const { runInNewContext } = await import("node:vm");
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const big = "x".repeat(256 * 1024);
    const reducer = createReducer();
    let seq = 0;
    reducer.push({ type: "turn.start", seq: seq++, threadId: "th", turnId: "t" });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let m = 0; m < 400; m++) {
      const id = `m${m}`;
      reducer.push({ type: "message.start", seq: seq++, id, role: "assistant", turnId: "t", threadId: "th" });
      reducer.push({ type: "text.start", seq: seq++, id: `${id}:t`, messageId: id });
      // A fresh string per message (a slice of a concatenation), as parsed deltas are.
      reducer.push({ type: "text.delta", seq: seq++, id: `${id}:t`, delta: (big + m).slice(1) });
      reducer.push({ type: "text.end", seq: seq++, id: `${id}:t` });
      reducer.push({ type: "message.end", seq: seq++, id });
      if (m % 50 === 0) expect(reducer.result.messages.length).toBe(1); // a read makes a view
      reducer.push({ type: "message.remove", seq: seq++, id });
    }
    gc();
    const retained = process.memoryUsage().heapUsed - before;
    expect(reducer.errors).toEqual([]);
    expect(reducer.result.messages).toEqual([]);
    // 400 × 256 KiB = 100 MiB streamed; the ids and registries left are well under 16 MiB.
    expect(retained).toBeLessThan(16 * 1024 * 1024);
  });
});
