/**
 * `closedProperties`: the producer-strict "no field outside the spec" check (§0.2), as an AJV code
 * keyword used in place of `additionalProperties: false` in the strict derived copy. AJV's own
 * keyword tests each key with `hasOwnProperty` on the schema's `properties` once an object has more
 * than 8 of them — most AgJSON events do — and that lookup costs several times an `===` chain over
 * the declared names (`make bench`). Errors keep additionalProperties' shape (`additionalProperty`).
 */
import type { KeywordCxt, KeywordDefinition } from "ajv";
import codegen from "ajv/dist/compile/codegen/index.js";

const { _, or, not } = codegen as unknown as typeof import("ajv/dist/compile/codegen/index.js");

export const CLOSED_KEYWORD = "closedProperties";

export const closedPropertiesKeyword: KeywordDefinition = {
  keyword: CLOSED_KEYWORD,
  type: "object",
  schemaType: "array",
  error: {
    message: "must NOT have additional properties",
    params: ({ params }) => _`{additionalProperty: ${params.additionalProperty}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const names = cxt.schema as string[];
    gen.forIn("key", data, (key) => {
      const known = names.length ? or(...names.map((n) => _`${key} === ${n}`)) : _`false`;
      gen.if(not(known), () => {
        cxt.setParams({ additionalProperty: key });
        cxt.error();
        if (!cxt.it.allErrors) gen.break();
      });
    });
  },
};
