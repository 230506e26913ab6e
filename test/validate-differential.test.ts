/**
 * Differential tests (issue 3; §0.2): documents generated from the schema itself — valid
 * and, where a cross-field rule is broken by chance, invalid — get the same verdict from the
 * canonical schema (AJV's 2020-12 class) and the generated strict validator; the lenient validator
 * accepts every document strict accepts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDefs } from "../codegen/bundle.js";
import { canonicalAjv } from "../codegen/canonical-ajv.js";
import { loadSchemaSet } from "../codegen/load.js";
import { generatedValidator } from "../conformance/generated-validators.js";
import { schemaArbitrary } from "./schema-arbitrary.js";

const set = loadSchemaSet();
const defs = allDefs(set);
const canonical = canonicalAjv(set);

describe.each(["AgEvent", "AgInput", "AgMessage", "AgBlock", "AgReduceResult"])("%s generated from the schema", (root) => {
  const arb = schemaArbitrary(defs, root);
  const reference = canonical.validatorFor(root);
  const strict = generatedValidator("strict", root);
  const lenient = generatedValidator("lenient", root);

  it("gets the same verdict from the canonical schema and the generated strict validator; lenient accepts what strict accepts", () => {
    let valid = 0;
    fc.assert(
      fc.property(arb, (doc) => {
        const expected = reference(doc) as boolean;
        expect(strict(doc), JSON.stringify(doc)).toBe(expected);
        if (expected) {
          valid++;
          expect(lenient(doc), JSON.stringify(doc)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
    // The generator must mostly produce valid documents, or this test says little.
    expect(valid).toBeGreaterThan(100);
  });
});
