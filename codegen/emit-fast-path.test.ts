/**
 * The fast-path emitter on small hand-written derived schemas: what it tabulates, and what it leaves
 * out (with the reason). The tables it emits from the real schemas are proved against the validators
 * in `src/gateway/fast-path.test.ts`.
 */
import { describe, expect, it } from "vitest";
import type { Defs } from "./bundle.js";
import { fastPathEntry, type FastPathEntry } from "./emit-fast-path.js";


/** An event `$def` with `type`, `seq`, the given fields, and extra keywords. */
function eventDef(type: string, props: Record<string, unknown>, extra: Record<string, unknown> = {}): Defs[string] {
  return { type: "object", properties: { type: { const: type }, seq: { type: "integer", minimum: 0 }, ...props }, required: ["type", "seq"], ...extra };
}

function entryOf(defs: Defs, type = "x.y"): FastPathEntry | string {
  return fastPathEntry(defs, { type, def: "X" });
}

describe("the fast-path emitter", () => {
  it("tabulates a rule over enum, boolean and presence states, in field order", () => {
    const defs: Defs = {
      X: eventDef("x.y", { kind: { enum: ["a", "b"] }, flag: { type: "boolean" }, note: { type: "string" } }, {
        // note present iff kind is "b"; flag, when present, is true exactly with kind "b".
        allOf: [
          { oneOf: [{ properties: { kind: { const: "b" } }, required: ["kind", "note"] }, { not: { anyOf: [{ required: ["note"] }, { properties: { kind: { const: "b" } }, required: ["kind"] }] } }] },
          { if: { required: ["flag"] }, then: { properties: { flag: { const: true }, kind: { const: "b" } }, required: ["kind"] }, else: {} },
        ],
      }),
    };
    const entry = entryOf(defs);
    if (typeof entry === "string") throw new Error(entry);
    // kind: 3 states (radix 1), flag: 3 (radix 3), note: 2 (radix 9).
    expect(entry.cross?.fields).toEqual([["kind", 1], ["flag", 3], ["note", 9]]);
    const allowed = (kind: 0 | 1 | 2, flag: 0 | 1 | 2, note: 0 | 1) => entry.cross!.allowed[kind + 3 * flag + 9 * note];
    expect(allowed(0, 0, 0)).toBe("1");
    expect(allowed(1, 0, 0)).toBe("1");
    expect(allowed(2, 0, 0)).toBe("0");
    expect(allowed(2, 0, 1)).toBe("1");
    expect(allowed(1, 0, 1)).toBe("0");
    expect(allowed(2, 1, 1)).toBe("1");
    expect(allowed(2, 2, 1)).toBe("0");
    expect(allowed(0, 1, 0)).toBe("0");
  });

  it("drops a rule that holds in every state", () => {
    const defs: Defs = { X: eventDef("x.y", { a: { type: "string" } }, { anyOf: [{ required: ["a"] }, { not: { required: ["a"] } }] }) };
    const entry = entryOf(defs);
    expect(typeof entry === "string" ? entry : entry.cross).toBeUndefined();
  });

  it("leaves out a rule it cannot model exactly, saying why", () => {
    // A string's value is not a finite domain (message.remove's `id: "*"`).
    expect(entryOf({ X: eventDef("x.y", { id: { type: "string" } }, { anyOf: [{ not: { properties: { id: { const: "*" } }, required: ["id"] } }] }) })).toMatch(/cannot model: anyOf/);
    // A keyword the evaluator does not know.
    expect(entryOf({ X: eventDef("x.y", { a: { type: "string" } }, { anyOf: [{ minProperties: 3 }] }) })).toMatch(/cannot model/);
    // A field the object does not declare (lenient objects would let it through unchecked).
    expect(entryOf({ X: eventDef("x.y", {}, { oneOf: [{ required: ["value"] }, { required: ["patch"] }] }) })).toMatch(/does not declare: value, patch/);
    // Any other object keyword.
    expect(entryOf({ X: eventDef("x.y", {}, { minProperties: 1 }) })).toMatch(/beyond properties\/required/);
  });

  it("models an array of a tagged union in its strict and lenient forms, and nothing else", () => {
    const variants = {
      A: { type: "object", properties: { k: { const: "a" }, n: { type: "integer", minimum: 0 } }, required: ["k"] },
      B: { type: "object", properties: { k: { const: "b" }, src: { type: "object", properties: { u: { type: "string" } } } }, required: ["k", "src"] },
    };
    const strictUnion = { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }], discriminator: { propertyName: "k" } };
    const lenientUnion = (tags: string[]) => ({
      type: "object",
      if: { properties: { k: { enum: tags } }, required: ["k"] },
      then: strictUnion,
      else: { type: "object", properties: { k: { type: "string" } }, required: ["k"] },
    });
    const withUnion = (u: unknown): Defs => ({ ...variants, U: u as Defs[string], X: eventDef("x.y", { items: { type: "array", items: { $ref: "#/$defs/U" } } }) });
    const field = (defs: Defs) => {
      const entry = entryOf(defs);
      return typeof entry === "string" ? entry : Object.fromEntries(entry.fields).items;
    };
    expect(field(withUnion(strictUnion))).toEqual({ kind: "union-array", union: "U" });
    expect(field(withUnion(lenientUnion(["a", "b"])))).toEqual({ kind: "union-array", union: "U" });
    // A guard whose known tags are not exactly the variants' would make `then`/`else` disagree with the table.
    expect(field(withUnion(lenientUnion(["a"])))).toEqual({ kind: "unchecked" });
    expect(field(withUnion({ ...strictUnion, minProperties: 1 }))).toEqual({ kind: "unchecked" });
    expect(field(withUnion({ type: "object", oneOf: [{ $ref: "#/$defs/A" }, { type: "object" }], discriminator: { propertyName: "k" } }))).toEqual({ kind: "unchecked" });
  });

  it("models a field that is one object of a tagged union, reached by a pure $ref only", () => {
    const variants = {
      A: { type: "object", properties: { k: { const: "a" } }, required: ["k"] },
      B: { type: "object", properties: { k: { const: "b" }, s: { type: "string" } }, required: ["k", "s"] },
    };
    const union = { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }], discriminator: { propertyName: "k" } };
    const fieldOf = (schema: unknown, u: unknown = union) => {
      const entry = entryOf({ ...variants, U: u as Defs[string], X: eventDef("x.y", { one: schema }, { required: ["type", "seq", "one"] }) });
      return typeof entry === "string" ? entry : Object.fromEntries(entry.fields).one;
    };
    expect(fieldOf({ $ref: "#/$defs/U" })).toEqual({ kind: "union-object", union: "U" });
    // Anything beside the $ref (here a description AJV ignores, but the emitter does not read) is not modelled:
    // the required field is then unchecked and the event left out.
    expect(fieldOf({ $ref: "#/$defs/U", description: "d" })).toMatch(/cannot check: one/);
    // An untagged union (AgSourcePayload) is not modelled either.
    expect(fieldOf({ $ref: "#/$defs/U" }, { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] })).toMatch(/cannot check: one/);
  });
});
