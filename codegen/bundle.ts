/**
 * Bundling: the canonical files with every `$ref` rewritten to a local `#/$defs/<Name>` (names are
 * globally unique, lint enforces it), either all together or one family with the closure of what
 * it references. Every emitter starts from a bundle, never from the files.
 */
import { FAMILIES, FAMILY_ROOT, ID_PREFIX, refTarget, type Family, type SchemaNode, type SchemaSet } from "./load.js";
import { mapSchema } from "./schema-map.js";

export type Defs = Record<string, SchemaNode>;

/** Deep copy with `$ref`s made local; key order is preserved (it is the hand-written order). */
export function localizeRefs<T>(node: T): T {
  return mapSchema(node, (k, v) => {
    if (k !== "$ref" || typeof v !== "string") return undefined;
    const t = refTarget(v);
    return [[k, t ? `#/$defs/${t.def}` : v]];
  });
}

/** All `$def`s of every family, refs localized, sorted by family order then the file's own order. */
export function allDefs(set: SchemaSet): Defs {
  const defs: Defs = {};
  for (const file of set.files) {
    for (const [name, def] of Object.entries((file.schema.$defs ?? {}) as Defs)) defs[name] = localizeRefs(def);
  }
  return defs;
}

/** Names of the defs reachable from `roots` (including them), in `defs` order. */
export function closure(defs: Defs, roots: string[]): string[] {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [k, v] of Object.entries(node as SchemaNode)) {
      if (k === "$ref" && typeof v === "string") {
        const name = v.replace("#/$defs/", "");
        if (!seen.has(name) && defs[name]) {
          seen.add(name);
          visit(defs[name]);
        }
      } else if (k !== "const" && k !== "enum") visit(v);
    }
  };
  for (const r of roots) {
    seen.add(r);
    visit(defs[r]);
  }
  return Object.keys(defs).filter((n) => seen.has(n));
}

export const BUNDLE_ID_PREFIX = `${ID_PREFIX}bundled/`;

/** A self-contained schema for one family (its own defs plus what they reference). */
export function familyBundle(set: SchemaSet, family: Family, banner: string): SchemaNode {
  const defs = allDefs(set);
  const own = Object.keys((set.files.find((f) => f.family === family)!.schema.$defs ?? {}) as Defs);
  const names = closure(defs, own);
  const root = FAMILY_ROOT[family];
  const src = set.files.find((f) => f.family === family)!.schema;
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${BUNDLE_ID_PREFIX}${family}.schema.json`,
    $comment: banner,
    title: String(src.title ?? family),
    description: String(src.description ?? ""),
    ...(root ? { $ref: `#/$defs/${root}` } : {}),
    $defs: Object.fromEntries(names.map((n) => [n, defs[n]!])),
  };
}

/** Every family in one document; the root accepts a document of any family with a root type. */
export function fullBundle(set: SchemaSet, banner: string): SchemaNode {
  const defs = allDefs(set);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `${BUNDLE_ID_PREFIX}agjson.schema.json`,
    $comment: banner,
    title: "AgJSON v1",
    description: "Every AgJSON v1 type (spec 1.0.0-draft.1). The root accepts an AgEvent, AgInput, AgMessage, AgBlock or AgReduceResult.",
    anyOf: FAMILIES.map((f) => FAMILY_ROOT[f])
      .filter((r): r is string => !!r)
      .map((r) => ({ $ref: `#/$defs/${r}` })),
    $defs: defs,
  };
}
