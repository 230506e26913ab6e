/**
 * Emitter: the published JSON Schemas of both postures (§0.2, §12), for consumers in any
 * language. Producer-strict is the canonical schema itself: its per-family files are `schema/`
 * (published as `agjson/schema/strict/<family>.schema.json`) and this adds the bundle of every
 * family. Consumer-lenient is `deriveLenient` of the same `$def`s — closed objects opened, tagged
 * unions guarded so an unknown tag passes — split back into the families, each file referencing
 * its siblings by relative `$ref` the way the canonical files do, plus its own bundle.
 * Every file is standard 2020-12; the AJV-only `discriminator` keyword is an annotation there.
 */
import { allDefs, fullBundle, type Defs } from "./bundle.js";
import { deriveLenient } from "./derive.js";
import { FAMILIES, FAMILY_ROOT, ID_PREFIX, familyFileName, type Family, type SchemaNode, type SchemaSet } from "./load.js";
import { mapSchema } from "./schema-map.js";

export const STRICT_ID_PREFIX = `${ID_PREFIX}strict/`;
export const LENIENT_ID_PREFIX = `${ID_PREFIX}lenient/`;
const DRAFT = "https://json-schema.org/draft/2020-12/schema";

/** The family a `$def` of the lenient derivation belongs to: its own, or that of the def it was derived for. */
function derivedFamily(set: SchemaSet, name: string): Family {
  const own = set.defs.get(name);
  if (own) return own.family;
  // deriveLenient adds `AgUnknownEvent` (the catch-all arm of AgEvent) and `<Arm>Within<Union>`
  // copies (a guarded arm of an untagged union): each lives beside the def that uses it.
  if (name === "AgUnknownEvent") return set.defs.get("AgEvent")!.family;
  const within = /Within([A-Za-z0-9_]+)$/.exec(name);
  const host = within ? set.defs.get(within[1]!) : undefined;
  if (host) return host.family;
  throw new Error(`emit-posture-schemas: the lenient $def ${name} has no family`);
}

/** Points each `#/$defs/N` of a family file at the sibling file that holds N. */
function crossFileRefs(node: unknown, family: Family, familyOf: (name: string) => Family): unknown {
  return mapSchema(node, (k, v) => {
    if (k !== "$ref" || typeof v !== "string" || !v.startsWith("#/$defs/")) return undefined;
    const target = familyOf(v.slice("#/$defs/".length));
    return [[k, target === family ? v : `${familyFileName(target)}${v}`]];
  });
}

/** Root arms of a bundle: a document of any family with a root type. */
function rootArms(): SchemaNode[] {
  return FAMILIES.map((f) => FAMILY_ROOT[f])
    .filter((r): r is string => !!r)
    .map((r) => ({ $ref: `#/$defs/${r}` }));
}

/** Path under `generated/schema/` → document. */
export function emitPostureSchemas(
  set: SchemaSet,
  knownEventTypes: string[],
  banner: (what: string, source: string) => string,
): Map<string, SchemaNode> {
  const out = new Map<string, SchemaNode>();
  const strict = fullBundle(set, banner("producer-strict: every family in one schema", "schema/*.schema.json"));
  out.set("strict/agjson.schema.json", { ...strict, $id: `${STRICT_ID_PREFIX}agjson.schema.json` });
  // The published per-family files: the canonical file plus a root `$ref` to its family's root
  // type, so that validating a document against `event.schema.json` checks it as an AgEvent. The
  // canonical file holds `$defs` only (a root breaks json-schema-to-typescript, codegen/lint.ts), and
  // a schema with no root accepts every document. Same `$id`: it is the same schema, rooted.
  for (const file of set.files) {
    const root = FAMILY_ROOT[file.family];
    const { $defs, ...head } = file.schema;
    out.set(`strict/${familyFileName(file.family)}`, {
      ...head,
      $comment: banner(`producer-strict ${file.family} schema, rooted`, `schema/${familyFileName(file.family)}`),
      ...(root ? { $ref: `#/$defs/${root}` } : {}),
      $defs,
    });
  }

  const lenient: Defs = deriveLenient(allDefs(set), knownEventTypes);
  const familyOf = (name: string) => derivedFamily(set, name);
  for (const file of set.files) {
    const family = file.family;
    const names = Object.keys(lenient).filter((n) => familyOf(n) === family);
    const root = FAMILY_ROOT[family];
    out.set(`lenient/${familyFileName(family)}`, {
      $schema: DRAFT,
      $id: `${LENIENT_ID_PREFIX}${familyFileName(family)}`,
      $comment: banner(`consumer-lenient ${family} schema`, `schema/${familyFileName(family)}`),
      title: `${String(file.schema.title ?? family)} (consumer-lenient)`,
      description:
        "Unknown fields pass through and an unknown tag is accepted as a well-formed unknown value (§0.2, §12); the producer-strict schema is the canonical file of the same name.",
      ...(root ? { $ref: `#/$defs/${root}` } : {}),
      $defs: Object.fromEntries(names.map((n) => [n, crossFileRefs(lenient[n], family, familyOf)])),
    });
  }
  out.set("lenient/agjson.schema.json", {
    $schema: DRAFT,
    $id: `${LENIENT_ID_PREFIX}agjson.schema.json`,
    $comment: banner("consumer-lenient: every family in one schema", "schema/*.schema.json"),
    title: "AgJSON v1 (consumer-lenient)",
    description:
      "Every AgJSON v1 type as a consumer reads it (§0.2, §12). The root accepts an AgEvent, AgInput, AgMessage, AgBlock or AgReduceResult.",
    anyOf: rootArms(),
    $defs: lenient,
  });
  return out;
}
