/**
 * One walker for every schema rewrite the generator does (deriving postures, preparing the types'
 * input, localizing refs): it copies a schema tree, descending into sub-schemas — including each
 * entry of `properties`, `$defs` and `patternProperties` — but never into `const`/`enum` values,
 * which are data. `rewrite` may replace any keyword; returning `undefined` keeps the default.
 */
import type { SchemaNode } from "./load.js";

/** Entries to put in place of one keyword (`[]` drops it), or `undefined` to copy it as usual. */
export type KeywordRewrite = (key: string, value: unknown, node: SchemaNode) => [string, unknown][] | undefined;

const NAMED_SUBSCHEMAS = new Set(["properties", "$defs", "patternProperties"]);
const DATA = new Set(["const", "enum", "default", "examples"]);

export function mapSchema<T>(node: T, rewrite: KeywordRewrite): T {
  if (Array.isArray(node)) return node.map((n) => mapSchema(n, rewrite)) as T;
  if (!node || typeof node !== "object") return node;
  const src = node as SchemaNode;
  const out: SchemaNode = {};
  for (const [k, v] of Object.entries(src)) {
    const replaced = rewrite(k, v, src);
    if (replaced) {
      for (const [rk, rv] of replaced) out[rk] = rv;
    } else if (DATA.has(k)) {
      out[k] = structuredClone(v);
    } else if (NAMED_SUBSCHEMAS.has(k) && v && typeof v === "object") {
      out[k] = Object.fromEntries(Object.entries(v as SchemaNode).map(([pk, pv]) => [pk, mapSchema(pv, rewrite)]));
    } else {
      out[k] = mapSchema(v, rewrite);
    }
  }
  return out as T;
}
