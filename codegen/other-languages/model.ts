/**
 * The language-neutral model the Python and Go emitters render: every `$def` read once into
 * records (objects with named properties), unions (with the rule that picks a variant) and aliases
 * (enums, maps, opaque values). Both emitters walk this one model, so they cannot disagree on
 * which field is required or which tag value selects which variant.
 */
import type { Defs } from "../bundle.js";
import type { SchemaNode } from "../load.js";

/** A field's or alias's type. `any` is the spec's opaque JSON value (§0.1), kept verbatim. */
export type TypeRef =
  | { k: "any" }
  | { k: "string" }
  | { k: "integer" }
  | { k: "number" }
  | { k: "boolean" }
  | { k: "array"; items: TypeRef }
  | { k: "map"; values: TypeRef }
  | { k: "record"; name: string }
  | { k: "union"; name: string }
  | { k: "alias"; name: string; target: TypeRef };

export interface Field {
  /** The wire name, e.g. `turnId` or `_meta`. */
  json: string;
  type: TypeRef;
  required: boolean;
  /** The `const` of a tag property (`type`, `kind`, `surface`, …): the value a new instance carries. */
  constValue?: string;
  description?: string;
}

export interface RecordModel {
  name: string;
  /** JSON Pointer-ish provenance inside the source file: `AgCapabilities` or `AgCapabilities/streaming`. */
  from: string;
  /** The `$def` it was found in (an inline object reports its enclosing `$def`). */
  def: string;
  description?: string;
  fields: Field[];
}

/** What a union's variant is: a record, or a nested union (AgSourcePayload → AgSource). */
export type VariantTarget = { k: "record" | "union"; name: string };

export interface UnionModel {
  name: string;
  def: string;
  description?: string;
  /** The property read to pick a variant (`type`, `kind`, `surface`, `method`, `a2uiMessage`). */
  tag: string;
  /** Tag value → variant, in schema order. */
  cases: { value: string; target: VariantTarget }[];
  /** The variant of an object that has no tag at all (AgSourcePayload's untagged web page). */
  absent?: VariantTarget;
  /** A tag pattern and its variant (AgEvent's open `ext.<vendor>.<key>`). */
  pattern?: { regex: string; target: VariantTarget };
  /** Name of the holder for a tag this version does not know (lenient posture, §0.2). */
  unknownName: string;
  /** Every union this one is a variant of. */
  memberOf: string[];
}

export interface AliasModel {
  name: string;
  def: string;
  description?: string;
  target: TypeRef;
}

export interface Model {
  records: RecordModel[];
  unions: UnionModel[];
  aliases: AliasModel[];
  /** Every `$def` name → how a document of that def is typed. */
  defTypes: { def: string; type: TypeRef }[];
  /** For each record: the unions it is a direct variant of. */
  recordUnions: Map<string, string[]>;
}

const IDENT = /^[A-Za-z][A-Za-z0-9]*$/;

/** Names the holder of an unknown variant: `AgEvent` → `UnknownEvent`, `AgBlock` → `UnknownBlock`. */
function unknownNameOf(union: string): string {
  return `Unknown${union.replace(/^Ag/, "")}`;
}

function refName(node: SchemaNode): string | undefined {
  return typeof node.$ref === "string" ? node.$ref.replace("#/$defs/", "") : undefined;
}

function pascal(s: string): string {
  const parts = s.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return parts.map((p) => p[0]!.toUpperCase() + p.slice(1)).join("");
}

/** Builds the model from the bundled `$defs` (refs already localized). */
export function buildModel(defs: Defs): Model {
  const records: RecordModel[] = [];
  const unions: UnionModel[] = [];
  const aliases: AliasModel[] = [];
  const defTypes: { def: string; type: TypeRef }[] = [];
  const names = new Set<string>();
  const claim = (name: string, where: string): string => {
    if (!IDENT.test(name))
      throw new Error(`other-languages: ${where} yields the identifier ${JSON.stringify(name)}, which is not [A-Za-z][A-Za-z0-9]*`);
    if (names.has(name))
      throw new Error(`other-languages: ${where} yields the type name ${name}, already taken; rename the $def or the property`);
    names.add(name);
    return name;
  };
  for (const name of Object.keys(defs)) claim(name, `$defs/${name}`);

  const isUnionDef = (s: SchemaNode): boolean =>
    (Array.isArray(s.oneOf) && (s.oneOf as SchemaNode[]).every((m) => refName(m))) ||
    (Array.isArray(s.anyOf) && (s.anyOf as SchemaNode[]).every((m) => refName(m)) && !s.properties);

  /** The type of a schema node met at `where` (inline objects become records named after it). */
  const typeOf = (node: SchemaNode, def: string, inlineName: string, from: string): TypeRef => {
    const ref = refName(node);
    if (ref) {
      const target = defs[ref];
      if (!target) throw new Error(`other-languages: ${from} references the unknown $def ${ref}`);
      return defRef(ref, target);
    }
    if (node.oneOf || node.anyOf || Array.isArray(node.type) || node.not) return { k: "any" };
    if (node.const !== undefined) return typeof node.const === "string" ? { k: "string" } : { k: "any" };
    switch (node.type) {
      case "string":
        return { k: "string" };
      case "integer":
        return { k: "integer" };
      case "number":
        return { k: "number" };
      case "boolean":
        return { k: "boolean" };
      case "array":
        return {
          k: "array",
          items: node.items ? typeOf(node.items as SchemaNode, def, `${inlineName}Item`, `${from}/items`) : { k: "any" },
        };
      case "object": {
        if (node.properties) {
          const name = claim(inlineName, from);
          addRecord(name, def, from, node);
          return { k: "record", name };
        }
        const ap = node.additionalProperties;
        return {
          k: "map",
          values:
            ap && typeof ap === "object"
              ? typeOf(ap as SchemaNode, def, `${inlineName}Value`, `${from}/additionalProperties`)
              : { k: "any" },
        };
      }
      default:
        return { k: "any" };
    }
  };

  const defKinds = new Map<string, TypeRef>();
  /** The type a `$ref` to a def stands for (records and unions by name, the rest as aliases). */
  function defRef(name: string, s: SchemaNode): TypeRef {
    if (isUnionDef(s)) return { k: "union", name };
    if (s.type === "object" && s.properties) return { k: "record", name };
    const known = defKinds.get(name);
    if (known) return known;
    const alias: TypeRef = { k: "alias", name, target: { k: "any" } };
    defKinds.set(name, alias);
    alias.target = typeOf({ ...s, title: undefined, description: undefined }, name, `${name}Item`, name);
    return alias;
  }

  function addRecord(name: string, def: string, from: string, s: SchemaNode): void {
    const props = (s.properties ?? {}) as Record<string, SchemaNode>;
    const required = new Set((s.required ?? []) as string[]);
    const fields: Field[] = Object.entries(props).map(([json, p]) => {
      const field: Field = {
        json,
        type: typeOf(p, def, `${name}${pascal(json)}`, `${from}/properties/${json}`),
        required: required.has(json),
      };
      if (typeof p.const === "string") field.constValue = p.const;
      if (typeof p.description === "string") field.description = p.description;
      return field;
    });
    records.push({ name, def, from, ...(typeof s.description === "string" ? { description: s.description } : {}), fields });
  }

  const constOf = (s: SchemaNode, tag: string): string | undefined => {
    const c = ((s.properties ?? {}) as Record<string, SchemaNode>)[tag]?.const;
    return typeof c === "string" ? c : undefined;
  };
  const targetOf = (name: string): VariantTarget => (isUnionDef(defs[name]!) ? { k: "union", name } : { k: "record", name });

  for (const [name, s] of Object.entries(defs)) {
    if (isUnionDef(s)) {
      const members = ((s.oneOf ?? s.anyOf) as SchemaNode[]).map((m) => refName(m)!);
      const union: UnionModel = {
        name,
        def: name,
        tag: "",
        cases: [],
        unknownName: claim(unknownNameOf(name), `$defs/${name} (its unknown-variant holder)`),
        memberOf: [],
      };
      if (typeof s.description === "string") union.description = s.description;
      const disc = (s.discriminator as { propertyName?: string } | undefined)?.propertyName;
      if (disc) {
        union.tag = disc;
        for (const m of members) {
          const value = constOf(defs[m]!, disc);
          if (value === undefined)
            throw new Error(`other-languages: $defs/${m} is a variant of ${name} but has no properties.${disc}.const`);
          union.cases.push({ value, target: targetOf(m) });
        }
      } else if (s.anyOf) {
        // AgEvent = anyOf[closed discriminated union, open pattern-tagged variant] (docs/schema.md rule 5).
        const closed = members.find((m) => (defs[m]!.discriminator as { propertyName?: string } | undefined)?.propertyName);
        const open = members.find((m) => m !== closed);
        const openTag = open
          ? Object.entries((defs[open]!.properties ?? {}) as Record<string, SchemaNode>).find(([, p]) => typeof p.pattern === "string")
          : undefined;
        if (!closed || !open || !openTag || members.length !== 2)
          throw new Error(`other-languages: $defs/${name} is an anyOf that is not [discriminated union, pattern-tagged variant]`);
        const closedDef = defs[closed]!;
        union.tag = (closedDef.discriminator as { propertyName: string }).propertyName;
        if (openTag[0] !== union.tag)
          throw new Error(`other-languages: $defs/${open} matches ${openTag[0]} by pattern, not the tag ${union.tag} of ${closed}`);
        for (const m of (closedDef.oneOf as SchemaNode[]).map((x) => refName(x)!)) {
          union.cases.push({ value: constOf(defs[m]!, union.tag)!, target: targetOf(m) });
        }
        union.pattern = { regex: String(openTag[1].pattern), target: targetOf(open) };
      } else {
        // The untagged union (AgSourcePayload): one member forbids the tag, the others carry it.
        const absent = members.filter((m) => ((defs[m]!.not as SchemaNode | undefined)?.required as string[] | undefined)?.length === 1);
        if (absent.length !== 1)
          throw new Error(`other-languages: $defs/${name} is an untagged union without exactly one member that forbids its tag`);
        union.tag = ((defs[absent[0]!]!.not as SchemaNode).required as string[])[0]!;
        union.absent = targetOf(absent[0]!);
        for (const m of members.filter((x) => x !== absent[0])) {
          const direct = constOf(defs[m]!, union.tag);
          if (direct !== undefined) union.cases.push({ value: direct, target: targetOf(m) });
          else {
            const nested = defs[m]!;
            const nestedTag = (nested.discriminator as { propertyName?: string } | undefined)?.propertyName;
            if (nestedTag !== union.tag)
              throw new Error(`other-languages: $defs/${m} in ${name} is neither tagged by ${union.tag} nor a union on it`);
            for (const v of (nested.oneOf as SchemaNode[]).map((x) => refName(x)!))
              union.cases.push({ value: constOf(defs[v]!, union.tag)!, target: targetOf(m) });
          }
        }
      }
      unions.push(union);
    }
  }
  for (const [name, s] of Object.entries(defs)) {
    if (isUnionDef(s)) continue;
    if (s.type === "object" && s.properties) addRecord(name, name, name, s);
  }
  for (const [name, s] of Object.entries(defs)) {
    const t = defRef(name, s);
    defTypes.push({ def: name, type: t });
    if (t.k === "alias")
      aliases.push({ name, def: name, ...(typeof s.description === "string" ? { description: s.description } : {}), target: t.target });
  }
  const recordUnions = new Map<string, string[]>();
  for (const u of unions) {
    const direct = new Set<string>();
    for (const c of [...u.cases.map((c) => c.target), ...(u.absent ? [u.absent] : []), ...(u.pattern ? [u.pattern.target] : [])]) {
      if (direct.has(c.name)) continue;
      direct.add(c.name);
      if (c.k === "record") recordUnions.set(c.name, [...(recordUnions.get(c.name) ?? []), u.name]);
      else unions.find((x) => x.name === c.name)?.memberOf.push(u.name);
    }
  }
  // Records come out in `$defs` order with each def's inline records right after it.
  const order = new Map(Object.keys(defs).map((n, i) => [n, i]));
  records.sort((a, b) => order.get(a.def)! - order.get(b.def)! || (a.name === a.def ? -1 : b.name === b.def ? 1 : 0));
  return { records, unions, aliases, defTypes, recordUnions };
}
