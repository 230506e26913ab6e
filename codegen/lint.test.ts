import { describe, expect, it } from "vitest";
import { loadSchemaSet } from "./load.js";
import { formatFindings, lintSchemaSet } from "./lint.js";
import { canonicalAjv, metaValidate } from "./canonical-ajv.js";

// §0.3, §0.4, docs/schema.md: the canonical files obey every encoding rule.
describe("schema lint", () => {
  const set = loadSchemaSet();

  it("finds no rule broken in schema/", () => {
    const findings = lintSchemaSet(set);
    expect(formatFindings(findings)).toBe("");
  });

  it("passes the draft 2020-12 meta-schema", () => {
    expect(metaValidate(set)).toEqual([]);
  });

  it("compiles every $def with discriminators on", () => {
    const { validatorFor } = canonicalAjv(set);
    for (const name of set.defs.keys()) expect(() => validatorFor(name), name).not.toThrow();
  });
});
