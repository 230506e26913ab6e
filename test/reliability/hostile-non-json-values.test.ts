/**
 * §0.1 / §13 hostile objects, the values the schema cannot see: a validator handed an object (not
 * text) must judge the JSON value that object stands for. The schema reads properties as
 * JavaScript does (inherited and non-enumerable ones too) and an opaque slot (`_meta`,
 * `providerMetadata`, state, tool input) accepts anything, while the wire form is what
 * `JSON.stringify` writes. Before this suite, every validator in both postures accepted a BigInt
 * (serializing the document, or a fold of it, then threw), NaN/Infinity, functions, Symbols, Dates,
 * Maps and class instances (written as null, nothing, a string or `{}`), and producer-strict
 * accepted as a known `text.delta` an object whose `type` was inherited from its prototype —
 * written to the wire without any `type`. Each now gets a typed `structure` issue naming its JSON
 * Pointer; and whatever a validator accepts as an object survives `JSON.stringify` unchanged.
 *
 * A property `JSON.stringify` does not write (not enumerable, or a Symbol key) is no part of the
 * value, so it is passed over — a Vue `markRaw` flag is valid input — unless the validator reads it
 * (a field the schema names): then it is refused, as an inherited one is (D32).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateBlock, validateEvent, validateInput, validateMessage, validateReduceResult } from "../../src/validate/index.js";
import { reduceUntrusted } from "../../src/reduce/untrusted.js";

class Point {
  x = 1;
}

/** Values that are not JSON, and what `JSON.stringify` would have made of them. */
const NOT_JSON: [string, () => unknown][] = [
  ["a BigInt", () => 10n],
  ["NaN", () => NaN],
  ["Infinity", () => Infinity],
  ["-Infinity", () => -Infinity],
  ["a function", () => () => 1],
  ["a Symbol", () => Symbol("s")],
  ["a Date", () => new Date(0)],
  ["a Map", () => new Map([[1, 2]])],
  ["a RegExp", () => /x/],
  ["a Uint8Array", () => new Uint8Array(2)],
  ["a boxed String", () => new String("a")],
  ["a class instance", () => new Point()],
  ["an object with an inherited field", () => Object.assign(Object.create({ inherited: 1 }) as object, { own: 1 })],
  ["an object with a toJSON", () => ({ toJSON: () => "other" })],
  // biome-ignore lint/suspicious/noSparseArray: a sparse array is the hostile value under test
  ["a sparse array", () => [1, , 3]],
  ["an array holding undefined", () => [1, undefined]],
];

/** Where each validator has an opaque slot (§0.1) to put `v`, with the pointer of `v`. */
const SLOTS: [string, (v: unknown) => unknown, string, string][] = [
  ["validateEvent", (v) => ({ type: "state.snapshot", seq: 0, snapshot: { deep: [v] } }), "/snapshot/deep/0", "event"],
  ["validateEvent", (v) => ({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: { k: v } }), "/_meta/k", "event"],
  [
    "validateEvent",
    (v) => ({ type: "text.delta", seq: 0, id: "b", delta: "x", providerMetadata: { k: v } }),
    "/providerMetadata/k",
    "event",
  ],
  ["validateBlock", (v) => ({ type: "tool-call", toolCallId: "c", name: "f", input: { k: v } }), "/input/k", "block"],
  [
    "validateMessage",
    (v) => ({ id: "m", role: "user", content: [{ type: "text", text: "t" }], metadata: { k: v } }),
    "/metadata/k",
    "message",
  ],
  [
    "validateInput",
    (v) => ({ kind: "start", protocol: "agjson", version: "1.0.0-draft.1", threadId: "th", turnId: "t", messages: [], state: { k: v } }),
    "/state/k",
    "input",
  ],
  ["validateReduceResult", (v) => ({ messages: [], artifacts: [], memory: [], turns: [], state: { k: v } }), "/state/k", "result"],
];

const VALIDATORS: Record<
  string,
  (
    x: unknown,
    o: { posture: "strict" | "lenient" },
  ) => { ok: boolean; errors?: { path: string; keyword: string; spec: string; message: string }[] }
> = {
  validateEvent,
  validateBlock,
  validateMessage,
  validateInput,
  validateReduceResult,
};

/**
 * Whether `wire` (parsed JSON) is the JSON value `value` stands for: numbers by value (-0 writes as
 * 0), an object's fields holding undefined absent, nothing else allowed to differ.
 */
function sameJson(wire: unknown, value: unknown): boolean {
  if (typeof value === "number") return wire === value;
  if (typeof value !== "object" || value === null) return wire === value;
  if (Array.isArray(value)) return Array.isArray(wire) && wire.length === value.length && value.every((v, i) => sameJson(wire[i], v));
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return false;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
  const w = wire as Record<string, unknown>;
  return (
    keys.length === Object.keys(w).length && keys.every((k) => Object.hasOwn(w, k) && sameJson(w[k], (value as Record<string, unknown>)[k]))
  );
}

describe("a value that is not JSON is a typed structure issue at its pointer, in both postures (§0.1, §13)", () => {
  for (const [slotName, put, pointer] of SLOTS) {
    it(`${slotName}: the same document with plain data is valid (the slot is opaque)`, () => {
      for (const posture of ["strict", "lenient"] as const)
        expect(VALIDATORS[slotName]!(put({ plain: [1, "a", null, true] }), { posture }).ok).toBe(true);
    });
    for (const [what, make] of NOT_JSON) {
      it(`${slotName} ${pointer}: ${what}`, () => {
        for (const posture of ["strict", "lenient"] as const) {
          const doc = put(make());
          let r: ReturnType<(typeof VALIDATORS)[string]> | undefined;
          expect(() => (r = VALIDATORS[slotName]!(doc, { posture }))).not.toThrow();
          expect(r!.ok).toBe(false);
          const issue = r!.errors![0]!;
          expect(issue.keyword).toBe("structure");
          expect(issue.spec).toBe("§13");
          expect(issue.message).toMatch(/JSON/);
          expect(issue.path.startsWith(pointer)).toBe(true);
        }
      });
    }
  }

  it("producer-strict no longer passes an event whose type the wire would not carry (inherited or not enumerable, D32)", () => {
    const inherited = Object.assign(Object.create({ type: "text.delta" }) as object, { seq: 0, id: "b", delta: "x" });
    const hidden = Object.defineProperty({ seq: 0, id: "b", delta: "x" }, "type", { value: "text.delta", enumerable: false });
    for (const ev of [inherited, hidden]) {
      expect(JSON.parse(JSON.stringify(ev))).not.toHaveProperty("type");
      const r = validateEvent(ev, { posture: "strict" });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors[0]).toMatchObject({ keyword: "structure", spec: "§13" });
    }
    const r = validateEvent(hidden, { posture: "strict" });
    expect(r.ok === false && r.errors[0]).toMatchObject({ path: "/type", message: expect.stringMatching(/not enumerable/) });
  });

  it("a typed field holding a non-JSON number is named at that field (usage Infinity, seq as a BigInt)", () => {
    const done = (extra: object) => ({
      type: "turn.done",
      seq: 0,
      turnId: "t",
      finishReason: "stop",
      outcome: { type: "success" },
      ...extra,
    });
    expect(validateEvent(done({ usage: { inputTokens: Infinity } }))).toMatchObject({
      ok: false,
      errors: [{ path: "/usage/inputTokens", keyword: "structure" }],
    });
    expect(validateEvent(done({ seq: 0n }))).toMatchObject({ ok: false, errors: [{ path: "/seq", keyword: "structure" }] });
  });

  it("what stays accepted: null-prototype objects, -0, a property holding undefined (absent, as JSON.stringify reads it), Symbol keys", () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    const ev = { type: "state.snapshot", seq: 0, snapshot: { bare, z: -0, gone: undefined }, [Symbol("s")]: 1 };
    for (const posture of ["strict", "lenient"] as const) expect(validateEvent(ev, { posture }).ok).toBe(true);
  });

  it("the trust-boundary fold refuses such an event (changing nothing, §10 item 20) and its result always serializes", () => {
    const out = reduceUntrusted([
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      { type: "state.snapshot", seq: 1, turnId: "t", snapshot: { n: 10n } },
      { type: "state.snapshot", seq: 2, turnId: "t", snapshot: { n: 10 } },
    ]);
    expect(out.rejected.map((r) => [r.index, r.errors[0]!.path])).toEqual([[1, "/snapshot/n"]]);
    expect(out.needsResync).toBe(false);
    expect(JSON.parse(JSON.stringify(out.result)).state).toEqual({ n: 10 });
  });

  it("property: whatever validateEvent accepts as an object is the document JSON.stringify writes (both postures)", () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt(),
      fc.constant(undefined),
      fc.func(fc.integer()),
      fc.date(),
      fc.constant(Symbol("s")),
    );
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("v"), { maxLength: 3 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie("v"), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, fc.constantFrom("strict", "lenient" as const), (v, posture) => {
        const ev = { type: "text.delta", seq: 0, id: "b", delta: "x", _meta: { v }, providerMetadata: { v } };
        const r = validateEvent(ev, { posture: posture as "strict" | "lenient" });
        if (!r.ok) return;
        const wire = JSON.parse(JSON.stringify(ev)) as unknown;
        expect(sameJson(wire, ev)).toBe(true);
        expect(validateEvent(wire, { posture: posture as "strict" | "lenient" }).ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

/** Vue 3's `markRaw`: a flag defined on the object, not enumerable, so JSON.stringify leaves it out. */
const markRaw = <T extends object>(o: T): T => Object.defineProperty(o, "__v_skip", { value: true, configurable: true, enumerable: false });
const hide = <T extends object>(o: T, key: string, value: unknown): T =>
  Object.defineProperty(o, key, { value, configurable: true, enumerable: false, writable: true });
const POSTURES = ["strict", "lenient"] as const;

describe("a property JSON.stringify does not write is passed over unless the validator reads it (D32)", () => {
  // text.delta takes the generated fast accept; tool.done (content blocks) the walk and the validator.
  const delta = () => ({ type: "text.delta", seq: 0, id: "b", delta: "x", providerMetadata: { p: { q: 1 } } });
  const done = () => ({
    type: "tool.done",
    seq: 1,
    toolCallId: "c",
    outcome: "ok",
    content: [{ type: "text", text: "result" }],
    structuredContent: { hits: 2 },
  });

  it("accepts a markRaw'd event, its typed parts and its opaque values, and hands the same object back", () => {
    const cases = [
      markRaw(delta()),
      (() => {
        const e = delta();
        markRaw(e.providerMetadata.p);
        return e;
      })(),
      markRaw(done()),
      (() => {
        const e = done();
        markRaw(e.content[0]!);
        markRaw(e.structuredContent);
        return e;
      })(),
      Object.freeze(markRaw(done())),
    ];
    for (const ev of cases)
      for (const posture of POSTURES) {
        const r = validateEvent(ev, { posture });
        expect(r).toMatchObject({ ok: true, known: true });
        if (r.ok) expect(r.event).toBe(ev);
      }
  });

  it("refuses a field the schema names that is not enumerable, at its pointer, wherever it is", () => {
    const cases: [object, string][] = [
      [hide({ type: "text.delta", seq: 0, id: "b" }, "delta", "x"), "/delta"],
      [hide({ type: "text.delta", seq: 0, id: "b", delta: "x" }, "providerMetadata", { a: 1 }), "/providerMetadata"],
      [{ ...done(), content: [hide({ type: "text" }, "text", "result")] }, "/content/0/text"],
      [hide({ type: "tool.done", seq: 1, toolCallId: "c", content: [] }, "outcome", "ok"), "/outcome"],
    ];
    for (const [ev, path] of cases) {
      expect(JSON.parse(JSON.stringify(ev))).not.toEqual(expect.objectContaining({ [path.split("/").pop()!]: expect.anything() }));
      for (const posture of POSTURES) {
        const r = validateEvent(ev, { posture });
        expect(r.ok).toBe(false);
        if (!r.ok)
          expect(r.errors[0]).toMatchObject({ path, keyword: "structure", spec: "§13", message: expect.stringMatching(/not enumerable/) });
      }
    }
  });

  it("does the same in every validator: input, message, block, fold", () => {
    const input = () => ({ kind: "start", protocol: "agjson", version: "1.0.0-draft.1", threadId: "th", turnId: "t", messages: [] });
    const message = () => ({ id: "m", role: "user", content: [{ type: "text", text: "t" }] });
    const block = () => ({ type: "text", text: "t" });
    const result = () => ({ messages: [], artifacts: [], memory: [], turns: [] });
    for (const posture of POSTURES) {
      for (const [validate, make] of [
        [validateInput, input],
        [validateMessage, message],
        [validateBlock, block],
        [validateReduceResult, result],
      ] as const) {
        const flagged = markRaw(make());
        const r = (validate as (x: unknown, o: object) => { ok: boolean })(flagged, { posture });
        expect(r.ok).toBe(true);
        expect(Object.values(r)).toContain(flagged);
      }
      expect(validateInput(hide(input(), "threadId", "th") as object, { posture })).toMatchObject({
        ok: false,
        errors: [{ path: "/threadId", keyword: "structure" }],
      });
      expect(validateMessage({ ...message(), content: [hide({ type: "text" }, "text", "t")] }, { posture })).toMatchObject({
        ok: false,
        errors: [{ path: "/content/0/text", keyword: "structure" }],
      });
    }
  });

  it("refuses a field the validator reads through a polluted Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.turnId = "polluted";
    try {
      for (const posture of POSTURES) {
        const r = validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x" }, { posture });
        expect(r.ok === false && r.errors[0]).toMatchObject({ path: "/turnId", message: expect.stringMatching(/inherited/) });
      }
    } finally {
      delete proto.turnId;
    }
    expect(validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x" }).ok).toBe(true);
  });

  it("the trust-boundary fold folds a markRaw'd event and refuses a hidden named field, as validateEvent does", () => {
    const out = reduceUntrusted([
      { type: "turn.start", seq: 0, turnId: "t", threadId: "th" },
      markRaw({ type: "state.snapshot", seq: 1, turnId: "t", snapshot: markRaw({ kept: 1 }) }),
      hide({ type: "state.snapshot", seq: 2, turnId: "t" }, "snapshot", { hidden: 1 }),
    ]);
    expect(out.rejected.map((r) => [r.index, r.errors[0]!.path])).toEqual([[2, "/snapshot"]]);
    expect(JSON.stringify(out.result)).toContain("kept");
    expect(JSON.stringify(out.result)).not.toContain("hidden");
  });
});
