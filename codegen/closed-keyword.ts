/**
 * `closedProperties`: the producer-strict "no field outside the spec" check (§0.2), as an AJV code
 * keyword used in place of `additionalProperties: false` in the strict derived copy. AJV's own
 * keyword tests each key with `hasOwnProperty` on the schema's `properties` once an object has more
 * than 8 of them — most AgJSON events do — and that lookup costs several times an `===` chain over
 * the declared names (`make bench`). Errors keep additionalProperties' shape (`additionalProperty`), plus `extrasIn`.
 */
import type { KeywordCxt, KeywordDefinition } from "ajv";
import codegen from "ajv/dist/compile/codegen/index.js";

const { _, or, not } = codegen as unknown as typeof import("ajv/dist/compile/codegen/index.js");

export const CLOSED_KEYWORD = "closedProperties";

/**
 * The fields in which §12 lets a producer carry what the spec has no field for, in the order the
 * unknown-field message names them. Each error says which of them its object declares (`extrasIn`,
 * space-separated; empty when none), so the hint never points at a field the object lacks: an
 * AgInput envelope has `metadata`, no `_meta` (§3).
 */
export const EXTRAS_CARRIERS = ["_meta", "providerMetadata", "metadata"] as const;

export const closedPropertiesKeyword: KeywordDefinition = {
  keyword: CLOSED_KEYWORD,
  type: "object",
  schemaType: "array",
  error: {
    message: "must NOT have additional properties",
    params: ({ params }) => _`{additionalProperty: ${params.additionalProperty}, extrasIn: ${params.extrasIn}}`,
  },
  code(cxt: KeywordCxt) {
    const { gen, data } = cxt;
    const names = cxt.schema as string[];
    const extrasIn = EXTRAS_CARRIERS.filter((f) => names.includes(f)).join(" ");
    gen.forIn("key", data, (key) => {
      const known = names.length ? or(...names.map((n) => _`${key} === ${n}`)) : _`false`;
      gen.if(not(known), () => {
        cxt.setParams({ additionalProperty: key, extrasIn: _`${extrasIn}` });
        cxt.error();
        if (!cxt.it.allErrors) gen.break();
      });
    });
  },
};
