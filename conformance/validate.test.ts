import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FAMILY_ROOT, loadSchemaSet } from "../codegen/load.js";
import { canonicalAjv } from "../codegen/canonical-ajv.js";
import { loadValidateFixtures } from "./validate-fixtures.js";

const dir = fileURLToPath(new URL("./validate", import.meta.url));
const set = loadSchemaSet();
const fixtures = loadValidateFixtures(dir);
const canonical = canonicalAjv(set);

function targetDef(f: (typeof fixtures)[number]): string {
  const def = f.def ?? FAMILY_ROOT[f.kind];
  if (!def) throw new Error(`${f.name}: kind "${f.kind}" has no root type; name one with "def"`);
  return def;
}

// DESIGN §7: the canonical schemas (AJV draft 2020-12) agree with every fixture's strict verdict.
describe("validation fixtures against the canonical schemas", () => {
  it.each(fixtures.map((f) => [f.name, f] as const))("%s", (_name, f) => {
    const validate = canonical.validatorFor(targetDef(f));
    const ok = validate(f.document) as boolean;
    const verdict = ok ? "valid" : "invalid";
    expect(verdict, `${f.description}\n${JSON.stringify(validate.errors)}`).toBe(f.strict);
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
