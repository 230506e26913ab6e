/**
 * The one-pass JSON-tree check (`isJsonTree`, §0.1 §13) agrees with the walk that names the place
 * (`inspectGraph`) on every value: the validators call the pointer-building walk only for a value
 * the fast pass doubts, so a value the fast pass passes must be one the walk passes, and a value
 * the walk refuses must be doubted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectGraph, isJsonTree } from "./graph.js";

class Point {
  x = 1;
}

const hostileLeaf = fc.oneof(
  fc.constantFrom<unknown>(
    10n,
    NaN,
    Infinity,
    -Infinity,
    undefined,
    Symbol("s"),
    () => 1,
    new Date(0),
    new Map(),
    /x/,
    new Uint8Array(1),
    new Point(),
    -0,
  ),
  fc.constant(null).map(() => Object.defineProperty({ a: 1 }, "hidden", { value: 2, enumerable: false })),
  fc.constant(null).map(() => Object.assign(Object.create(null) as object, { bare: 1 })),
  // biome-ignore lint/suspicious/noSparseArray: a sparse array is the hostile value under test
  fc.constant(null).map(() => [1, , 3]),
);
const leaf = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null)) },
  { weight: 1, arbitrary: hostileLeaf },
);
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("v"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie("v"), { maxKeys: 3 }),
  ),
})).v;

describe("isJsonTree agrees with inspectGraph (§0.1, §13)", () => {
  it("property: on any value, under any cap", () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 6 }), (v, cap) => {
        expect(isJsonTree(v, cap)).toBe(inspectGraph(v, cap) === undefined);
      }),
      { numRuns: 3000 },
    );
  });

  it("a cycle is doubted (it nests past any cap), and the walk names it", () => {
    const a: Record<string, unknown> = { k: 1 };
    a.self = a;
    expect(isJsonTree(a, 64)).toBe(false);
    expect(inspectGraph(a, 64)).toMatchObject({ path: "/self", keyword: "structure" });
  });

  it("the cap counts levels as the walk does: 64 levels pass, 65 do not", () => {
    let v: unknown = 1;
    for (let i = 0; i < 64; i++) v = { n: v };
    expect(isJsonTree(v, 64)).toBe(true);
    expect(isJsonTree({ n: v }, 64)).toBe(false);
    expect(inspectGraph({ n: v }, 64)).toMatchObject({ keyword: "cap" });
  });
});
