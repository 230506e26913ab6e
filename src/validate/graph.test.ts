/**
 * The one-pass JSON-tree check (`isJsonTree`, §0.1 §13) agrees with the walk that names the place
 * (`inspectGraph`) on every value: the validators call the pointer-building walk only for a value
 * the fast pass doubts, so a value the fast pass passes must be one the walk passes, and a value
 * the walk refuses must be doubted. The fast pass also doubts a tree holding a property
 * `JSON.stringify` does not write, which the walk passes over (D32): the validators then read it
 * through `watchHiddenReads`, pinned here too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inspectGraph, isJsonTree, watchHiddenReads } from "./graph.js";

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

/** Whether an object in the tree `v` has an own property that is not enumerable. */
function holdsHidden(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return false;
  if (Object.getOwnPropertyNames(v).length !== Object.keys(v).length + (Array.isArray(v) ? 1 : 0)) return true;
  return Object.values(v).some(holdsHidden);
}

describe("isJsonTree agrees with inspectGraph (§0.1, §13)", () => {
  it("property: on any value, under any cap", () => {
    fc.assert(
      fc.property(value, fc.integer({ min: 1, max: 6 }), (v, cap) => {
        const problem = inspectGraph(v, cap);
        if (isJsonTree(v, cap)) expect(problem).toBeUndefined();
        else if (problem === undefined) expect(holdsHidden(v)).toBe(true);
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

describe("watchHiddenReads: what a validator reads that JSON.stringify does not write (D32)", () => {
  const hide = <T extends object>(o: T, key: string, value: unknown): T =>
    Object.defineProperty(o, key, { value, enumerable: false, configurable: true, writable: true });

  it("passes over a hidden property nobody reads, and names one that is read, at its pointer", () => {
    const event = { type: "text.delta", usage: hide({ inputTokens: 1 }, "outputTokens", 2) };
    const unread = watchHiddenReads(hide(structuredClone({ ...event, usage: { inputTokens: 1 } }), "__v_skip", true));
    const view = unread.view as Record<string, unknown>;
    expect(view.type).toBe("text.delta");
    expect((view.usage as Record<string, unknown>).inputTokens).toBe(1);
    expect(unread.first()).toBeUndefined();

    const read = watchHiddenReads(event);
    expect(((read.view as Record<string, unknown>).usage as Record<string, unknown>).outputTokens).toBe(2);
    expect(read.first()).toMatchObject({ path: "/usage/outputTokens", keyword: "structure" });
    expect(read.first()?.message).toMatch(/not enumerable/);
  });

  it("names an inherited field that holds a value, but not an inherited method or an array's length", () => {
    const proto = { inherited: "x" };
    const reads = watchHiddenReads({ list: [1, 2], child: Object.create(proto) as object });
    const view = reads.view as { list: number[]; child: Record<string, unknown> };
    expect(view.list.length).toBe(2);
    expect(typeof view.list.map).toBe("function");
    expect(typeof view.child.hasOwnProperty).toBe("function");
    expect(reads.first()).toBeUndefined();
    expect(view.child.inherited).toBe("x");
    expect(reads.first()).toMatchObject({ path: "/child/inherited" });
    expect(reads.first()?.message).toMatch(/inherited/);
  });

  it("shows a validator the value as it is: keys, arrays, prototypes, frozen objects", () => {
    const frozen = Object.freeze({ a: Object.freeze({ b: [Object.freeze({ c: 1 })] }) });
    const view = watchHiddenReads(frozen).view as typeof frozen;
    expect(view.a.b[0]?.c).toBe(1);
    expect(Array.isArray(view.a.b)).toBe(true);
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    const keys: string[] = [];
    for (const k in view) keys.push(k);
    expect(keys).toEqual(["a"]);
    expect("a" in view).toBe(true);
    expect(Object.keys(view.a)).toEqual(["b"]);
  });
});
