import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILY_ROOT, loadSchemaSet } from "../codegen/load.js";
import { canonicalAjv } from "../codegen/canonical-ajv.js";
import { generatedValidator } from "./generated-validators.js";
import { validateEvent } from "../src/validate/index.js";
import { verdict } from "./validate-runner.js";
import { loadValidateFixtures, type ValidateFixture } from "./validate-fixtures.js";

const dir = fileURLToPath(new URL("./validate", import.meta.url));
const set = loadSchemaSet();
const fixtures = loadValidateFixtures(dir);
const canonical = canonicalAjv(set);

function targetDef(f: ValidateFixture): string {
  const def = f.def ?? FAMILY_ROOT[f.kind];
  if (!def) throw new Error(`${f.name}: kind "${f.kind}" has no root type; name one with "def"`);
  return def;
}

const cases = fixtures.map((f) => [f.name, f] as const);

// §10 (docs/conformance.md), differentially: the canonical schema (AJV 2020-12), the generated strict validator
// and the generated lenient validator each agree with every fixture.
describe("validation fixtures", () => {
  it.each(cases)("%s: canonical schema gives the strict verdict", (_n, f) => {
    const v = canonical.validatorFor(targetDef(f));
    const verdict = v(f.document) ? "valid" : "invalid";
    expect(verdict, `${f.description}\n${JSON.stringify(v.errors)}`).toBe(f.semantic === undefined ? f.strict : "valid");
  });

  it.each(cases)("%s: generated strict validator gives the strict verdict", (_n, f) => {
    const v = generatedValidator("strict", targetDef(f));
    const raw = v(f.document) ? "valid" : "invalid";
    expect(raw, `${f.description}\n${JSON.stringify(v.errors)}`).toBe(f.semantic === undefined ? f.strict : "valid");
    expect(verdict(f, "strict"), `${f.description} (through the API)`).toBe(f.strict);
  });

  it.each(cases)("%s: generated lenient validator gives the lenient verdict", (_n, f) => {
    expect(verdict(f, "lenient"), f.description).toBe(f.lenient);
  });
});

describe("postures (§0.2)", () => {
  it("lenient accepts everything strict accepts", () => {
    const bad = fixtures.filter((f) => f.strict === "valid" && f.lenient === "invalid").map((f) => f.name);
    expect(bad).toEqual([]);
  });

  it("every invalid event gets issues with a JSON Pointer, a message and a spec section", () => {
    for (const f of fixtures.filter((x) => targetDef(x) === "AgEvent" && x.strict === "invalid")) {
      const r = validateEvent(f.document, { posture: "strict" });
      expect(r.ok, f.name).toBe(false);
      if (r.ok) continue;
      for (const issue of r.errors) {
        expect(issue.path === "" || issue.path.startsWith("/"), f.name).toBe(true);
        expect(issue.message.length, f.name).toBeGreaterThan(5);
        expect(issue.spec, f.name).toMatch(/^§/);
      }
    }
  });
});

describe("fixture coverage", () => {
  it("has a valid fixture for every $def", () => {
    const covered = new Set(fixtures.filter((f) => f.strict === "valid").map((f) => f.exemplifies));
    const missing = [...set.defs.keys()].filter((d) => !covered.has(d));
    expect(missing).toEqual([]);
  });

  it("names each fixture folder after a $def", () => {
    const unknown = [...new Set(fixtures.map((f) => f.exemplifies))].filter((d) => !set.defs.has(d));
    expect(unknown).toEqual([]);
  });
});
