/**
 * §13 hostile objects and numbers: every validator returns a typed issue — never throws — for a
 * Proxy whose traps throw, a throwing getter, a cycle, or nesting past the cap (`_meta` and opaque
 * values count); a `seq` that is not a safe integer is refused by strict (and lenient) and by the
 * gateway, which never writes `seq: null` or an inexact ordinal (§5.0 INV-SEQ).
 */
import { describe, expect, it } from "vitest";
import { validateBlock, validateEvent, validateInput, validateMessage, validateReduceResult } from "../../src/validate/index.js";
import { throughGateway, turnStart } from "./fidelity-support.js";

const VALIDATORS = { validateEvent, validateInput, validateMessage, validateBlock, validateReduceResult };

/** Hostile values; `mustFail`: reading the value as JSON necessarily hits the hostility. */
function hostiles(): [string, () => unknown, boolean][] {
  const thrower = () => {
    throw new Error("boom");
  };
  const trap = (name: keyof ProxyHandler<object>) => new Proxy({ type: "text.delta", seq: 0, id: "b", delta: "x" }, { [name]: thrower });
  const cyclicMeta: Record<string, unknown> = { type: "text.delta", seq: 0, id: "b", delta: "x", _meta: {} };
  (cyclicMeta._meta as Record<string, unknown>).self = cyclicMeta._meta;
  const cyclicContent: Record<string, unknown>[] = [];
  cyclicContent.push({ type: "tool-result", toolCallId: "c", content: cyclicContent });
  let deep: unknown = "leaf";
  for (let i = 0; i < 10_000; i++) deep = { d: deep };
  return [
    ["a Proxy whose get trap throws", () => trap("get"), true],
    ["a Proxy whose ownKeys trap throws", () => trap("ownKeys"), true],
    ["a Proxy whose has trap throws", () => trap("has"), false],
    ["a Proxy whose getPrototypeOf trap throws", () => trap("getPrototypeOf"), false],
    ["a Proxy whose getOwnPropertyDescriptor trap throws", () => trap("getOwnPropertyDescriptor"), false],
    ["a throwing getter on type", () => Object.defineProperty({ seq: 0 }, "type", { get: thrower, enumerable: true }), true],
    [
      "a throwing getter on _meta",
      () => Object.defineProperty({ type: "text.delta", seq: 0, id: "b", delta: "x" }, "_meta", { get: thrower, enumerable: true }),
      true,
    ],
    ["a cycle inside _meta", () => cyclicMeta, true],
    ["a cycle through tool-result content", () => ({ type: "content.block", seq: 0, block: cyclicContent[0] }), true],
    ["a _meta nested 10,000 levels", () => ({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: deep }), true],
    [
      "a thrown non-Error",
      () =>
        new Proxy(
          {},
          {
            get: () => {
              throw Symbol("s");
            },
          },
        ),
      true,
    ],
  ];
}

describe("hostile objects get a typed issue from every validator (§13)", () => {
  for (const [what, make, mustFail] of hostiles()) {
    for (const [name, validate] of Object.entries(VALIDATORS)) {
      for (const posture of ["strict", "lenient"] as const) {
        it(`${name} (${posture}): ${what}`, () => {
          let r: { ok: boolean; errors?: { keyword: string; spec: string; message: string }[] } | undefined;
          expect(() => (r = validate(make(), { posture }))).not.toThrow();
          // A trap the validator never calls leaves the value readable: then any verdict is fine.
          if (mustFail) expect(r?.ok).toBe(false);
          if (r?.ok === false && mustFail) {
            expect(["structure", "cap"]).toContain(r.errors?.[0]?.keyword);
            expect(r.errors?.[0]?.message.length).toBeGreaterThan(10);
          }
        });
      }
    }
  }

  it("the depth cap counts _meta as the text cap does (64 accepted, 65 refused), and is adjustable", () => {
    const nest = (levels: number) => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = { n: v };
      return v;
    };
    // The event object is level 1, _meta level 2: 62 more levels reach 64.
    expect(validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: nest(63) }).ok).toBe(true);
    const over = validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: nest(64) });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.errors[0]).toMatchObject({ keyword: "cap", spec: "§13" });
    expect(validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: nest(64) }, { maxDepth: 100 }).ok).toBe(true);
  });

  it("a shared (acyclic) subtree is a tree to JSON and is accepted", () => {
    const shared = { k: 1 };
    expect(validateEvent({ type: "text.delta", seq: 0, id: "b", delta: "x", _meta: { a: shared, b: shared } }).ok).toBe(true);
  });
});

describe("seq is a safe integer (§5.0 INV-SEQ, §13)", () => {
  const unsafe: [string, number][] = [
    ["2^53", 2 ** 53],
    ["1e300", 1e300],
    ["Infinity", Infinity],
    ["MAX_VALUE", Number.MAX_VALUE],
  ];
  for (const [name, seq] of unsafe) {
    for (const posture of ["strict", "lenient"] as const) {
      it(`${posture} refuses seq ${name} on a known, an ext and an unknown type`, () => {
        expect(validateEvent({ type: "text.delta", seq, id: "b", delta: "x" }, { posture }).ok).toBe(false);
        expect(validateEvent({ type: "ext.acme.ping", seq }, { posture }).ok).toBe(false);
        expect(validateEvent({ type: "future.thing", seq }, { posture }).ok).toBe(false);
      });
    }
  }
  it("2^53 − 1 is accepted", () => {
    expect(validateEvent({ type: "text.delta", seq: Number.MAX_SAFE_INTEGER, id: "b", delta: "x" }, { posture: "strict" }).ok).toBe(true);
  });

  for (const posture of ["strict", "lenient"] as const) {
    it(`the gateway (${posture}) drops an unsafe seq and every seq it writes is an exact integer`, async () => {
      for (const raw of ["9007199254740993", "1e400", "123456789012345678901234567890"]) {
        const lines = [
          JSON.stringify(turnStart(0)),
          `{"type":"text.delta","seq":${raw},"id":"b","delta":"x"}`,
          `{"type":"ext.acme.ping","seq":${raw}}`,
        ];
        const out = await throughGateway(lines, { posture });
        for (const e of out) expect(Number.isSafeInteger(e.seq), JSON.stringify(e)).toBe(true);
        expect(out.map((e) => e.type)).toEqual(["turn.start", "error", "error", "turn.error"]);
        expect(JSON.stringify(out)).not.toContain("null");
      }
    });
  }
});
