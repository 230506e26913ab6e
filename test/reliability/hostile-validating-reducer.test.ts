/**
 * The library's validating fold (`createValidatingReducer`, `reduceUntrusted`: the §5 trust
 * boundary) folds exactly what it validated. Before: it validated the caller's object and then
 * folded that same object, so a getter or a Proxy could answer the validator one thing and the fold
 * another — a `text.delta` whose `delta` read as a string while validated and as an object while
 * folded left a text block whose `text` is an object, in a result `validateReduceResult` refuses
 * (§5 Trust boundary: validate BEFORE folding; §13 hostile objects). And its `maxDepth` reached the
 * validator but not the fold, which re-measured each event against its own default of 64: an event
 * the caller's cap allowed was answered `ok` by `push` and then refused whole by the fold (never
 * listed in `rejected`). Now each value is copied once into plain JSON data, the copy validated
 * and folded, both under the caller's cap.
 */
import { describe, expect, it } from "vitest";
import { createValidatingReducer, reduceUntrusted } from "../../src/reduce/untrusted.js";
import { validateEvent, validateReduceResult } from "../../src/validate/index.js";

const opening = [
  { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
  { type: "message.start", seq: 1, id: "m", turnId: "t", threadId: "th", role: "assistant" },
  { type: "text.start", seq: 2, id: "b", turnId: "t" },
];

/** How many times validating `text.delta` reads its `delta`, whatever the implementation does. */
function readsByValidation(): number {
  let reads = 0;
  validateEvent({
    type: "text.delta",
    seq: 3,
    id: "b",
    turnId: "t",
    get delta() {
      reads++;
      return "ok";
    },
  });
  return Math.max(reads, 1);
}

describe("the validating fold folds what it validated (§5 trust boundary, §13)", () => {
  it("a getter that answers validation with a string and the fold with an object cannot reach the fold", () => {
    const k = readsByValidation();
    for (const validReads of [1, k, k + 1, k + 4]) {
      const r = createValidatingReducer();
      for (const e of opening) r.push(e);
      let n = 0;
      const verdict = r.push({
        type: "text.delta",
        seq: 3,
        id: "b",
        turnId: "t",
        get delta() {
          return n++ < validReads ? "ok" : { evil: 1 };
        },
      });
      expect(verdict).toEqual({ ok: true, known: true });
      const content = r.result.messages[0]!.content;
      expect(content).toEqual([{ type: "text", text: "ok" }]);
      expect(validateReduceResult(r.result, { posture: "strict" }).ok).toBe(true);
      expect(n).toBe(1);
    }
  });

  it("a Proxy answering each read differently is read once: the fold holds the value that was judged", () => {
    let reads = 0;
    const target = { type: "text.delta", seq: 3, id: "b", turnId: "t", delta: "first" };
    const shifty = new Proxy(target, { get: (t, key) => (key === "delta" ? (reads++ === 0 ? "first" : 42) : Reflect.get(t, key)) });
    const out = reduceUntrusted([...opening, shifty]);
    expect(out.rejected).toEqual([]);
    expect(out.result.messages[0]!.content).toEqual([{ type: "text", text: "first" }]);
    expect(reads).toBe(1);
  });

  it("the fold keeps no reference into the caller's objects: mutating a pushed event later changes nothing", () => {
    const r = createValidatingReducer();
    for (const e of opening) r.push(e);
    const snapshot = { a: { b: 1 } };
    r.push({ type: "state.snapshot", seq: 3, turnId: "t", snapshot });
    snapshot.a.b = 999;
    expect(r.result.state).toEqual({ a: { b: 1 } });
  });

  it("an own __proto__ field (JSON.parse makes one) stays a field of the folded value", () => {
    const snapshot = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as Record<string, unknown>;
    const out = reduceUntrusted([{ type: "state.snapshot", seq: 0, snapshot }]);
    expect(out.rejected).toEqual([]);
    const state = out.result.state as Record<string, unknown>;
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(Object.hasOwn(state, "__proto__")).toBe(true);
    expect(JSON.stringify(state)).toBe('{"__proto__":{"polluted":true},"x":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("the validating fold's maxDepth is the fold's too (§13, §10 item 20)", () => {
  const nest = (levels: number) => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = { n: v };
    return v;
  };

  it("an event within the caller's raised cap folds; one past it is rejected with a cap issue and changes nothing", () => {
    // The event is level 1, snapshot level 2: nest(k) reaches level k + 1.
    const within = { type: "state.snapshot", seq: 1, turnId: "t", snapshot: nest(99) };
    const past = { type: "state.snapshot", seq: 2, turnId: "t", snapshot: nest(100) };
    const r = createValidatingReducer({ maxDepth: 100 });
    r.push({ type: "turn.start", seq: 0, turnId: "t", threadId: "th" });
    expect(r.push(within)).toEqual({ ok: true, known: true });
    expect(r.errors).toEqual([]);
    expect(r.result.state).toEqual(nest(99));
    const refused = r.push(past);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.errors[0]).toMatchObject({ keyword: "cap", spec: "§13" });
    expect(r.rejected.map((x) => x.index)).toEqual([2]);
    expect(r.result.state).toEqual(nest(99));
    r.push({ type: "state.snapshot", seq: 3, turnId: "t", snapshot: 1 });
    expect(r.needsResync).toBe(false);
    expect(r.result.state).toBe(1);
  });

  it("reduceUntrusted: the default cap (64) judges and folds alike", () => {
    const out = reduceUntrusted([
      { type: "state.snapshot", seq: 0, snapshot: nest(63) },
      { type: "state.snapshot", seq: 1, snapshot: nest(64) },
    ]);
    expect(out.rejected.map((x) => [x.index, x.errors[0]!.keyword])).toEqual([[1, "cap"]]);
    expect(out.errors).toEqual([]);
    expect(out.result.state).toEqual(nest(63));
  });

  it("a maxDepth out of range is a RangeError naming it, as reduce()'s is", () => {
    for (const bad of [0, -1, 1.5, Infinity, NaN]) expect(() => createValidatingReducer({ maxDepth: bad })).toThrow(/maxDepth/);
  });
});
