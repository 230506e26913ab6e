/**
 * Emitter: TypeScript types, by json-schema-to-typescript on one bundle whose root is `anyOf` over
 * every `$def` (compiling files separately would copy shared types into each; codegen-findings §1).
 * Its input is a derived copy: discriminators and union-parent `type` removed so unions stay plain
 * narrowable unions, constraint-only keywords removed (restated in ts-refinements.ts), `tsType`
 * set where the spec asks for a type JSON Schema cannot state (the ext template literal, the
 * AgProviderMeta brand) and for the opaque value of §0.1 (`unknown`).
 */
import { compile } from "json-schema-to-typescript";
import type { Defs } from "./bundle.js";
import type { SchemaNode } from "./load.js";
import { TS_REFINEMENTS } from "./ts-refinements.js";
import { mapSchema } from "./schema-map.js";
import { ANNOTATION_KEYWORDS, OPEN_ENUM_KEYWORD } from "./annotations.js";
import { guardedUnionTag, lenientRoots, unknownEventDef, unknownTagArm } from "./derive.js";

const ROOT = "AgJsonTypesRoot";
const CONSTRAINT_KEYWORDS = ["oneOf", "anyOf", "allOf", "not"];

function isRefUnion(node: SchemaNode): boolean {
  return Array.isArray(node.oneOf) && (node.oneOf as SchemaNode[]).every((m) => "$ref" in m);
}

/** A constraint-only member states no type of its own: `{required:[…]}`, `{properties:{x:{const}}}`, `{not:…}`. */
function isConstraint(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(isConstraint);
  if (!node || typeof node !== "object") return false;
  const n = node as SchemaNode;
  return !("type" in n) && !("$ref" in n) && !("enum" in n) && !("const" in n && !("properties" in n));
}

function prepare(node: unknown): unknown {
  const dropped = new Set(["discriminator", ...ANNOTATION_KEYWORDS, "$comment"]);
  return mapSchema(node, (k, v, src) => {
    const refUnion = isRefUnion(src) || (Array.isArray(src.anyOf) && (src.anyOf as SchemaNode[]).every((m) => "$ref" in m));
    if (dropped.has(k)) return [];
    // A mid-level union repeats its parent's tag in `properties` for AJV's discriminator; for the
    // types it must stay a plain union, or jsts emits an intersection of two halves.
    if (refUnion && (k === "type" || k === "properties" || k === "required" || k === "additionalProperties")) return [];
    if (CONSTRAINT_KEYWORDS.includes(k) && !refUnion && isConstraint(v)) return [];
    return undefined;
  });
}

/**
 * The consumer-lenient type tree (§0.2, §12), as a lenient parse yields a document: every tagged
 * union but the known-event one gains its catch-all arm (`AgUnknownBlock`: any object whose tag is a
 * string outside the known set), AgEvent is known | ext | unknown, and an open enum
 * (`x-agjson-open-enum`) is its listed values or any other string. The same schema facts derive
 * the lenient validators (derive.ts `deriveLenient`), so the validators and these types widen at
 * the same places; `generated/lenient-types.ts` holds the result under the strict names.
 */
export function lenientTypeDefs(defs: Defs): { defs: Defs; unknownArms: string[]; aliased: string[] } {
  const out: Defs = {};
  const unknownArms: string[] = [];
  // The $defs whose lenient type differs from the strict one; the rest become aliases (below).
  const widened = new Set<string>(["AgEvent"]);
  const openEnums = (node: unknown): unknown =>
    mapSchema(node, (k, v, src) => {
      if (k === "enum" && src[OPEN_ENUM_KEYWORD] === true && Array.isArray(v)) {
        return [["tsType", `${v.map((x) => JSON.stringify(x)).join(" | ")} | (string & {})`]];
      }
      return undefined;
    });
  for (const [name, def] of Object.entries(defs)) {
    const copy = openEnums(def) as SchemaNode;
    const tag = guardedUnionTag(def);
    // AgKnownEvent is the known arm of AgEvent itself; its catch-all is AgUnknownEvent (below).
    if (name !== "AgKnownEvent" && tag !== undefined) {
      const unknown = `AgUnknown${name.replace(/^Ag/, "")}`;
      const known = `AgKnown${name.replace(/^Ag/, "")}`;
      unknownArms.push(unknown, known);
      widened.add(name);
      // The known arms alone, to narrow to once the tag is known (an Exclude<> of the catch-all would
      // also drop every arm TypeScript sees as an object literal type, e.g. a refined AgToolResultBlock).
      out[known] = {
        title: known,
        description: `A ${name} of a \`${tag}\` this version knows, in consumer-lenient types.`,
        oneOf: structuredClone(def.oneOf),
      };
      copy.oneOf = [...(copy.oneOf as SchemaNode[]), { $ref: `#/$defs/${unknown}` }];
      out[unknown] = {
        ...unknownTagArm(tag),
        title: unknown,
        additionalProperties: true,
        description: `An ${name} whose \`${tag}\` this version does not know, as a consumer-lenient parse yields it (§0.2, §12): its \`${tag}\` is a string outside the known set. Strict rejects it; a consumer ignores it or keeps it verbatim.`,
      };
    }
    out[name] = copy;
  }
  out.AgUnknownEvent = {
    ...unknownEventDef(defs),
    title: "AgUnknownEvent",
    additionalProperties: true,
    description:
      "An event whose `type` this version does not know, as a consumer-lenient parse yields it (§0.2, §12): its envelope checked, its `type` a string outside the known set. Strict rejects it; reduce() folds it to nothing but its seq.",
  };
  unknownArms.push("AgUnknownEvent");
  out.AgEvent = {
    description: defs.AgEvent?.description,
    oneOf: [{ $ref: "#/$defs/AgKnownEvent" }, { $ref: "#/$defs/AgExtEvent" }, { $ref: "#/$defs/AgUnknownEvent" }],
  };
  // Where the postures agree, the lenient type is the strict one: a $def that holds no open enum and
  // reaches no widened union is emitted as an alias of its types.ts twin (`T.AgTextDeltaEvent`),
  // so the two trees are one type there and differ only where the postures do.
  for (const [name, def] of Object.entries(defs)) if (JSON.stringify(def).includes(`"${OPEN_ENUM_KEYWORD}":true`)) widened.add(name);
  const refsOf = (node: unknown): string[] => [...JSON.stringify(node).matchAll(/"\$ref":"#\/\$defs\/([^"]+)"/g)].map((m) => m[1]!);
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of Object.keys(defs)) {
      if (!widened.has(name) && refsOf(defs[name]).some((r) => widened.has(r))) {
        widened.add(name);
        grew = true;
      }
    }
  }
  for (const name of Object.keys(defs)) {
    if (!widened.has(name)) out[name] = { title: name, description: defs[name]?.description, tsType: `T.${name}` };
  }
  return { defs: out, unknownArms, aliased: Object.keys(defs).filter((n) => !widened.has(n)) };
}

export async function emitTypes(
  defs: Defs,
  sourceOf: (def: string) => string,
  banner: string,
  posture: "strict" | "lenient" = "strict",
): Promise<string> {
  let unknownArms: string[] = [];
  let aliased: string[] = [];
  if (posture === "lenient") ({ defs, unknownArms, aliased } = lenientTypeDefs(defs));
  const prepared: Defs = {};
  for (const [name, def] of Object.entries(defs)) {
    const d = prepare(def) as SchemaNode;
    const from = unknownArms.includes(name) ? "the consumer-lenient posture, codegen/emit-types.ts" : `${sourceOf(name)}#/$defs/${name}`;
    d.description = `${String(def.description ?? "")}\n\n@generated from ${from}`;
    prepared[name] = d;
  }
  // §0.1 says SHOULD type opaque values as a recursive JSON value; `unknown` makes every
  // reader of such a value narrow it first, and a recursive type rejects every interface-typed
  // payload (no implicit index signature), so AgJsonValue is `unknown` (docs/codegen.md).
  // (An alias of the strict type, in the lenient tree, is that type already.)
  if (!aliased.includes("AgJsonValue")) prepared.AgJsonValue = { ...prepared.AgJsonValue, tsType: "unknown" };
  if (!aliased.includes("AgProviderMeta"))
    prepared.AgProviderMeta = { ...prepared.AgProviderMeta, tsType: `AgMeta & { readonly __brand: "AgProviderMeta" }` };
  if (!aliased.includes("AgExtEvent")) {
    const ext = prepared.AgExtEvent!;
    (ext.properties as SchemaNode).type = { type: "string", tsType: "`ext.${string}.${string}`" };
  }
  // The consumer-lenient posture's catch-all arms (§0.2, §12), under the names the strict tree has
  // always exported: aliases of their one definition in lenient-types.ts.
  const roots = posture === "strict" ? lenientRoots(defs) : [];
  for (const r of roots) {
    prepared[r.unknown] = {
      title: r.unknown,
      tsType: `import("./lenient-types.js").${r.unknown}`,
      description: `An ${r.root} whose \`${r.tag}\` this version does not know, as a consumer-lenient parse yields it (§0.2, §12).\n\n@generated from ${sourceOf(r.root)}#/$defs/${r.root} (the consumer-lenient catch-all arm, codegen/emit-types.ts)`,
    };
  }

  const root = {
    title: ROOT,
    anyOf: Object.keys(prepared).map((n) => ({ $ref: `#/$defs/${n}` })),
    $defs: prepared,
  };
  let ts = await compile(root as never, ROOT, {
    bannerComment: banner,
    declareExternallyReferenced: true,
    unreachableDefinitions: true,
    additionalProperties: false,
    strictIndexSignatures: false,
    unknownAny: true,
    format: true,
    style: { printWidth: 110, singleQuote: false },
    customName: (schema) => (typeof schema.title === "string" ? schema.title : undefined),
    $refOptions: {},
  });
  // jsts re-cases identifiers after a digit (A2ui → A2Ui); the spec names are restored.
  ts = ts.replace(/\bAg(Unknown|Known)?A2Ui/g, "Ag$1A2ui");
  ts = ts.replace(new RegExp(`export type ${ROOT} =[^;]*;\\n?`), "");
  for (const [name, r] of Object.entries(TS_REFINEMENTS)) {
    // An alias of the strict type carries its refinement already.
    if (aliased.includes(name)) continue;
    const decl = `export interface ${name} {`;
    if (!ts.includes(decl)) throw new Error(`ts-refinements: ${name} is not emitted as an interface`);
    ts = ts.replace(decl, `/** The fields of ${name} before its cross-field rule. */\nexport interface ${name}Fields {`);
    ts += `\n/** ${name}, refined: ${r.rule}. */\nexport type ${name} = Omit<${name}Fields, ${r.omit.map((o) => JSON.stringify(o)).join(" | ")}> &\n  ${r.refine};\n`;
  }
  for (const r of roots) {
    ts += `\n/** An ${r.root} as a consumer-lenient parse yields it (§0.2, §12): a known ${r.root} or an ${r.unknown}, and inside either, the consumer-lenient types (unknown union tags, open enums: lenient-types.ts). */\nexport type ${r.lenient} = import("./lenient-types.js").${r.root};\n`;
  }
  if (posture === "lenient") {
    // The aliases name their strict twins: the import goes after the banner (a comment block).
    if (aliased.length > 0) ts = ts.replace(/^((?:\/\/.*\n|\/\*[\s\S]*?\*\/\n)*)/, `$1\nimport type * as T from "./types.js";\n`);
    return ts;
  }
  ts += `\n/** Marks a plain object as replay-load-bearing provider metadata (§2, §12); the brand is compile-time only. */\nexport function providerMeta(meta: AgMeta): AgProviderMeta {\n  return meta as AgProviderMeta;\n}\n`;
  return ts;
}
