/**
 * The one post-processing step applied to Ajv's standalone output, `positionalContext` (a named,
 * tested transform, issue 21 item 5), and the shape of the generated modules: formatted, one
 * function per `$def`, no object-context call left.
 */
import AjvModule from "ajv";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dependencyOrder, positionalContext, withOwnFormats } from "./emit-validators.js";
import { repoRoot } from "./load.js";

const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as typeof import("ajv").default;
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ??
  standaloneCodeModule) as typeof import("ajv/dist/standalone/index.js").default;

/** Ajv standalone ESM for a schema whose `$def`s call each other (so context objects are passed). */
function ajvOutput(): string {
  const ajv = new Ajv({ strict: false, inlineRefs: false, code: { source: true, esm: true, lines: false } });
  ajv.addSchema({
    $id: "t",
    $defs: {
      Leaf: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] },
      Node: {
        type: "object",
        properties: { leaf: { $ref: "#/$defs/Leaf" }, kids: { type: "array", items: { $ref: "#/$defs/Leaf" } } },
        required: ["leaf"],
      },
    },
  });
  return standaloneCode(ajv, { validateNode: "t#/$defs/Node" });
}

async function load(source: string): Promise<(x: unknown) => boolean> {
  const url = `data:text/javascript;base64,${Buffer.from(source.replace(/require\("([^"]+)"\)/g, "undefined")).toString("base64")}`;
  const mod = (await import(url)) as { validateNode: (x: unknown) => boolean };
  return mod.validateNode;
}

describe("positionalContext (emit-validators.ts)", () => {
  it("rewrites every context-object declaration and call to positional arguments", () => {
    const before = ajvOutput();
    expect(before).toMatch(/\{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}/);
    expect(before).toMatch(/, \{instancePath[,:]/);
    const after = positionalContext(before);
    expect(after).not.toMatch(/\{instancePath="", parentData/);
    expect(after).not.toMatch(/, \{instancePath[,:][^;]*?rootData\}\)/);
    expect(after).toMatch(/function validate\d+\(data, instancePath="", parentData, parentDataProperty, rootData=data\)/);
  });

  it("keeps the verdicts and the error paths of the original", async () => {
    const before = await load(ajvOutput());
    const after = await load(positionalContext(ajvOutput()));
    const cases = [{ leaf: { n: 1 } }, { leaf: { n: -1 } }, { leaf: {} }, { leaf: { n: 1 }, kids: [{ n: 2 }, { n: "x" }] }, {}, 7];
    for (const c of cases) {
      const a = before(c);
      const b = after(c);
      expect(b, JSON.stringify(c)).toBe(a);
      expect((after as unknown as { errors: unknown }).errors, JSON.stringify(c)).toEqual(
        (before as unknown as { errors: unknown }).errors,
      );
    }
  });

  it("refuses output where a context object would survive", () => {
    const broken = `function validate1(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}, extra){}`;
    expect(() => positionalContext(broken)).toThrow(/context object was not rewritten/);
  });
});

describe("the generated validator modules", () => {
  const root = repoRoot();
  for (const posture of ["strict", "lenient"]) {
    it(`${posture}.js is formatted (not minified) and compiles each $def once`, () => {
      const text = readFileSync(join(root, "generated/validators", `${posture}.js`), "utf8");
      const lines = text.split("\n");
      expect(Math.max(...lines.map((l) => l.length)), "longest line").toBeLessThan(2000);
      expect(lines.length).toBeGreaterThan(5000);
      const functions = (text.match(/^function validate\w*\(/gm) ?? []).length;
      const exported = (/export \{([^}]*)\};\s*$/.exec(text)?.[1] ?? "").split(",").filter((n) => /validateAg/.test(n)).length;
      expect(exported).toBeGreaterThan(100);
      // One function per exported $def, plus the few the derivation adds (lenient: AgUnknownEvent,
      // guarded union copies); in another order each $def reached by a $ref first was compiled twice.
      expect(functions).toBeGreaterThanOrEqual(exported * 0.9);
      expect(functions).toBeLessThan(exported * 1.15);
    });
  }

  it("check date-time with their own function, not ajv-formats' table (which no bundler can drop)", async () => {
    for (const posture of ["strict", "lenient"]) {
      const text = readFileSync(join(root, "generated/validators", `${posture}.js`), "utf8");
      expect(text).not.toContain("ajv-formats");
      expect(text.match(/^function isDateTime\(/gm)).toHaveLength(1);
    }
    const { validateAgA2uiSurfaceAction } = (await import("../generated/validators/strict.js")) as unknown as {
      validateAgA2uiSurfaceAction: (x: unknown) => boolean;
    };
    const action = (timestamp: string) => ({
      surface: "a2ui",
      surfaceId: "s",
      a2uiMessage: "action",
      name: "go",
      sourceComponentId: "b",
      timestamp,
      context: {},
    });
    expect(validateAgA2uiSurfaceAction(action("2016-12-31T23:59:60Z"))).toBe(true);
    expect(validateAgA2uiSurfaceAction(action("2016-12-31T22:59:60Z"))).toBe(false);
    expect(validateAgA2uiSurfaceAction(action("2026-02-29T10:00:00Z"))).toBe(false);
  });

  it("refuses a format it has no function for", () => {
    expect(() => withOwnFormats(`const formats0 = agjsonFormats["uri"];`)).toThrow(/no function for format "uri"/);
    expect(withOwnFormats(`const formats0 = agjsonFormats["date-time"];`)).toMatch(
      /^const formats0 = isDateTime;\nfunction isDateTime\(value\)/,
    );
  });

  it("orders $defs after the ones they reference", () => {
    const defs = { A: { $ref: "#/$defs/B" }, B: { items: { $ref: "#/$defs/C" } }, C: { type: "string" }, D: {} };
    expect(dependencyOrder(defs)).toEqual(["C", "B", "A", "D"]);
  });
});
