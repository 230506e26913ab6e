/**
 * fast-check arbitraries built from the bundled schema: a document for any `$def`, following its
 * types, consts, enums, required and optional fields, tagged unions, patterns and formats.
 * Cross-field rules are not solved, so a generated document may break one: callers either use
 * every document (differential tests) or keep those the canonical schema accepts.
 */
import fc from "fast-check";
import type { Defs } from "../codegen/bundle.js";
import type { SchemaNode } from "../codegen/load.js";

const DEPTH_LIMIT = 3;

export function schemaArbitrary(defs: Defs, root: string): fc.Arbitrary<unknown> {
  const cache = new Map<string, fc.Arbitrary<unknown>>();
  const ofDef = (name: string, depth: number): fc.Arbitrary<unknown> => {
    const key = `${name}@${Math.min(depth, DEPTH_LIMIT + 1)}`;
    let a = cache.get(key);
    if (!a) {
      // Built lazily (the schema is recursive) and once: a `chain` that rebuilt the definition's
      // arbitrary on every draw spent most of a fuzz run building arbitraries, not using them.
      let built: fc.Arbitrary<unknown> | undefined;
      a = fc.constant(null).chain(() => (built ??= of(defs[name]!, depth)));
      cache.set(key, a);
    }
    return a;
  };
  const of = (s: SchemaNode, depth: number): fc.Arbitrary<unknown> => {
    if (typeof s.$ref === "string") return ofDef(s.$ref.replace("#/$defs/", ""), depth + 1);
    if ("const" in s) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const arms = (s.oneOf ?? s.anyOf) as SchemaNode[] | undefined;
    if (arms?.every((m) => "$ref" in m || "type" in m || "enum" in m)) return fc.oneof(...arms.map((m) => of(m, depth)));
    switch (s.type) {
      case "object": {
        const props = (s.properties ?? {}) as Record<string, SchemaNode>;
        const required = new Set((s.required ?? []) as string[]);
        const shallow = depth > DEPTH_LIMIT;
        const entries: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(props)) if (required.has(k) || !shallow) entries[k] = of(v, depth);
        const record = fc.record(entries, { requiredKeys: [...required].filter((k) => k in entries) });
        if (s.additionalProperties && typeof s.additionalProperties === "object") {
          return fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/), of(s.additionalProperties as SchemaNode, depth + 1), {
            maxKeys: shallow ? 0 : 2,
          });
        }
        return record;
      }
      case "array":
        return fc.array(of((s.items ?? {}) as SchemaNode, depth + 1), {
          maxLength: depth > DEPTH_LIMIT ? 0 : 2,
          minLength: typeof s.minItems === "number" ? s.minItems : 0,
        });
      case "string":
        if (s.format === "date-time")
          return fc.date({ min: new Date(0), max: new Date(4102444800000), noInvalidDate: true }).map((d) => d.toISOString());
        if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
        return fc.string({ maxLength: 8 });
      case "integer":
        return typeof s.minimum === "number" ? fc.integer({ min: s.minimum, max: 1000 }) : fc.integer({ min: -5, max: 1000 });
      case "number":
        return fc.double({ min: typeof s.minimum === "number" ? s.minimum : -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
      case "boolean":
        return fc.boolean();
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  };
  return ofDef(root, 0);
}
