/**
 * The fast-path emitter on small hand-written derived schemas: what it tabulates, and what it leaves
 * out (with the reason). The tables it emits from the real schemas are proved against the validators
 * in `src/gateway/fast-path.test.ts`.
 */
import { transform } from "esbuild";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FastPathEntry as EmittedEntry, FastPathUnion as EmittedUnion } from "../generated/fast-path.js";
import { FastPath, UNSURE } from "../src/gateway/fast-path.js";
import { allDefs, type Defs } from "./bundle.js";
import { emitFastPath, fastPathEntry, type FastPathEntry } from "./emit-fast-path.js";
import { eventTable } from "./event-table.js";
import { familyFileName, loadSchemaSet, repoRoot } from "./load.js";

/** An event `$def` with `type`, `seq`, the given fields, and extra keywords. */
function eventDef(type: string, props: Record<string, unknown>, extra: Record<string, unknown> = {}): Defs[string] {
  return {
    type: "object",
    properties: { type: { const: type }, seq: { type: "integer", minimum: 0 }, ...props },
    required: ["type", "seq"],
    ...extra,
  };
}

function entryOf(defs: Defs, type = "x.y"): FastPathEntry | string {
  return fastPathEntry(defs, { type, def: "X" });
}

describe("the fast-path emitter", () => {
  it("tabulates a rule over enum, boolean and presence states, in field order", () => {
    const defs: Defs = {
      X: eventDef(
        "x.y",
        { kind: { enum: ["a", "b"] }, flag: { type: "boolean" }, note: { type: "string" } },
        {
          // note present iff kind is "b"; flag, when present, is true exactly with kind "b".
          allOf: [
            {
              oneOf: [
                { properties: { kind: { const: "b" } }, required: ["kind", "note"] },
                { not: { anyOf: [{ required: ["note"] }, { properties: { kind: { const: "b" } }, required: ["kind"] }] } },
              ],
            },
            {
              if: { required: ["flag"] },
              then: { properties: { flag: { const: true }, kind: { const: "b" } }, required: ["kind"] },
              else: {},
            },
          ],
        },
      ),
    };
    const entry = entryOf(defs);
    if (typeof entry === "string") throw new Error(entry);
    // kind: 3 states (radix 1), flag: 3 (radix 3), note: 2 (radix 9).
    expect(entry.cross?.fields).toEqual([
      ["kind", 1],
      ["flag", 3],
      ["note", 9],
    ]);
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
    expect(
      entryOf({
        X: eventDef("x.y", { id: { type: "string" } }, { anyOf: [{ not: { properties: { id: { const: "*" } }, required: ["id"] } }] }),
      }),
    ).toMatch(/cannot model: anyOf/);
    // A keyword the evaluator does not know.
    expect(entryOf({ X: eventDef("x.y", { a: { type: "string" } }, { anyOf: [{ minProperties: 3 }] }) })).toMatch(/cannot model/);
    // A field the object does not declare (lenient objects would let it through unchecked).
    expect(entryOf({ X: eventDef("x.y", {}, { oneOf: [{ required: ["value"] }, { required: ["patch"] }] }) })).toMatch(
      /does not declare: value, patch/,
    );
    // Any other object keyword.
    expect(entryOf({ X: eventDef("x.y", {}, { minProperties: 1 }) })).toMatch(/beyond properties\/required/);
  });

  it("models an array of a tagged union in its strict and lenient forms, and nothing else", () => {
    const variants = {
      A: { type: "object", properties: { k: { const: "a" }, n: { type: "integer", minimum: 0 } }, required: ["k"] },
      B: {
        type: "object",
        properties: { k: { const: "b" }, src: { type: "object", properties: { u: { type: "string" } } } },
        required: ["k", "src"],
      },
    };
    const strictUnion = { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }], discriminator: { propertyName: "k" } };
    const lenientUnion = (tags: string[]) => ({
      type: "object",
      if: { properties: { k: { enum: tags } }, required: ["k"] },
      then: strictUnion,
      else: { type: "object", properties: { k: { type: "string" } }, required: ["k"] },
    });
    const withUnion = (u: unknown): Defs => ({
      ...variants,
      U: u as Defs[string],
      X: eventDef("x.y", { items: { type: "array", items: { $ref: "#/$defs/U" } } }),
    });
    const field = (defs: Defs) => {
      const entry = entryOf(defs);
      return typeof entry === "string" ? entry : Object.fromEntries(entry.fields).items;
    };
    expect(field(withUnion(strictUnion))).toEqual({ kind: "union-array", union: "U" });
    expect(field(withUnion(lenientUnion(["a", "b"])))).toEqual({ kind: "union-array", union: "U" });
    // A guard whose known tags are not exactly the variants' would make `then`/`else` disagree with the table.
    expect(field(withUnion(lenientUnion(["a"])))).toEqual({ kind: "unchecked" });
    expect(field(withUnion({ ...strictUnion, minProperties: 1 }))).toEqual({ kind: "unchecked" });
    expect(
      field(withUnion({ type: "object", oneOf: [{ $ref: "#/$defs/A" }, { type: "object" }], discriminator: { propertyName: "k" } })),
    ).toEqual({ kind: "unchecked" });
  });

  it("models a field that is one object of a tagged union, reached by a pure $ref only", () => {
    const variants = {
      A: { type: "object", properties: { k: { const: "a" } }, required: ["k"] },
      B: { type: "object", properties: { k: { const: "b" }, s: { type: "string" } }, required: ["k", "s"] },
    };
    const union = { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }], discriminator: { propertyName: "k" } };
    const fieldOf = (schema: unknown, u: unknown = union) => {
      const entry = entryOf({
        ...variants,
        U: u as Defs[string],
        X: eventDef("x.y", { one: schema }, { required: ["type", "seq", "one"] }),
      });
      return typeof entry === "string" ? entry : Object.fromEntries(entry.fields).one;
    };
    expect(fieldOf({ $ref: "#/$defs/U" })).toEqual({ kind: "union-object", union: "U" });
    // Anything beside the $ref (here a description AJV ignores, but the emitter does not read) is not modelled:
    // the required field is then unchecked and the event left out.
    expect(fieldOf({ $ref: "#/$defs/U", description: "d" })).toMatch(/cannot check: one/);
    // An untagged union (AgSourcePayload) is not modelled either.
    expect(fieldOf({ $ref: "#/$defs/U" }, { type: "object", oneOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }] })).toMatch(
      /cannot check: one/,
    );
  });
});

describe("the emitted table follows the schema: a schema fact changed in memory changes generated/fast-path.ts", () => {
  const root = repoRoot();
  const set = loadSchemaSet(root);
  const events = eventTable(set);
  const sourceOf = (def: string) => `schema/${familyFileName(set.defs.get(def)!.family)}`;
  const BANNER = "// banner\n";
  const emit = (defs: Defs) => emitFastPath(defs, events, sourceOf, BANNER);
  /** The real schemas' defs, as a copy a test may edit. */
  const editable = () => structuredClone(allDefs(set));
  const props = (defs: Defs, def: string) => defs[def]!.properties as Record<string, Record<string, unknown>>;
  /** The emitted module, compiled and loaded: what the gateway's scanner would read. */
  async function load(source: string): Promise<{
    FAST_PATH_LENIENT: EmittedEntry[];
    FAST_PATH_LENIENT_UNIONS: Record<string, EmittedUnion>;
    FAST_PATH_EXCLUDED: Record<string, string>;
  }> {
    const { code } = await transform(source, { loader: "ts", format: "esm" });
    return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  }
  const delta = new TextEncoder().encode('{"type":"text.delta","seq":1,"id":"a","delta":"x"}');

  it("renders from the unedited schemas exactly what generated/fast-path.ts holds", () => {
    const committed = readFileSync(join(root, "generated/fast-path.ts"), "utf8");
    expect(committed.endsWith(emit(editable()).slice(BANNER.length))).toBe(true);
  });

  it("a required field added to text.delta: the table requires it, and the scanner built from it defers on an event without it", async () => {
    const before = await load(emit(editable()));
    const defs = editable();
    props(defs, "AgTextDeltaEvent").speaker = { type: "string" };
    (defs.AgTextDeltaEvent!.required as string[]).push("speaker");
    const after = await load(emit(defs));
    const entry = (m: typeof after) => m.FAST_PATH_LENIENT.find((e) => e.type === "text.delta")!;
    expect(entry(before).required).not.toContain("speaker");
    expect(entry(after).required).toContain("speaker");
    expect(entry(after).fields.speaker).toEqual({ kind: "string" });
    const scan = (m: typeof after) =>
      new FastPath("lenient", new Set(), { table: { entries: m.FAST_PATH_LENIENT, unions: m.FAST_PATH_LENIENT_UNIONS } }).check(
        delta,
        0,
        delta.length,
      );
    expect(scan(before)).not.toBe(UNSURE);
    expect(scan(after)).toBe(UNSURE);
  });

  it("a value added to an enum (AgRole): the table holds it", async () => {
    const defs = editable();
    (defs.AgRole!.enum as string[]).push("robot");
    const after = await load(emit(defs));
    const role = after.FAST_PATH_LENIENT.find((e) => e.type === "message.start")!.fields.role;
    expect(role).toEqual({ kind: "enum", values: ["user", "assistant", "tool", "system", "robot"] });
  });

  it("a required field the scanner cannot judge (a string pattern): the type leaves the fast path, with the reason", async () => {
    const defs = editable();
    props(defs, "AgTextDeltaEvent").delta = { type: "string", pattern: "^x" };
    const after = await load(emit(defs));
    expect(after.FAST_PATH_LENIENT.some((e) => e.type === "text.delta")).toBe(false);
    expect(after.FAST_PATH_EXCLUDED["text.delta"]).toMatch(/cannot check: delta/);
  });
});
