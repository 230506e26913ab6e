/**
 * Emitter: the table behind the gateway's byte-level fast path (`src/gateway/fast-path.ts`). For
 * each known event type and each posture it states, from the *derived* schemas the validators are
 * compiled from (§0.2), what an event of that type may hold: every field and how its value
 * is checked, the required set, whether the object is closed, and the outcome of its cross-field
 * rules for every combination of the fields they read. The fast path may only say "valid" where
 * AJV would, so the table is conservative by construction:
 *
 * - a field whose schema is anything but a string (optionally an ASCII enum or const), an integer
 *   with at most a `minimum`, a boolean (optionally a const), any JSON value (`{}`, §0.1's opaque
 *   value), any object (an open bag such as `_meta`), a tagged union of such objects
 *   (`content.block.block`, `artifact.delta.part`: AgBlock, §7; a media block's `source`: AgSource,
 *   §2) or an array of one (`tool.done.content`) is `unchecked`: present, the scanner defers to AJV;
 * - cross-field keywords (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`) are evaluated here,
 *   once per combination of the states of the fields they read (absent, or present with each value
 *   of a finite domain: an enum, a boolean; any other kind may only be tested for presence). A rule
 *   that reads anything else, or a keyword this emitter does not know, leaves the type out;
 * - a type is left out when its `type` is not a const, or when a required field is `unchecked`
 *   (it could never be judged);
 * - the schema keywords are whitelisted: one this emitter does not know makes the field `unchecked`.
 *
 * A tagged union is modelled as the derived schemas write it: producer-strict, `oneOf` with a
 * `discriminator` (an unknown tag is refused); consumer-lenient, "tag ∈ known ? that variant : any
 * object with a string tag" (§0.2, §12). Each variant is an entry like an event's; a variant left
 * out is listed with its reason, and its tag stays "known" (the scanner defers on it).
 */
import type { Defs } from "./bundle.js";
import { deriveLenient, deriveStrict, KNOWN_VALUES_KEYWORD } from "./derive.js";
import type { EventEntry } from "./event-table.js";
import type { SchemaNode } from "./load.js";
import { CLOSED_KEYWORD } from "./closed-keyword.js";

const q = (s: string) => JSON.stringify(s);
/** Largest integer the byte-level scanner reads (15 digits; `src/gateway/fast-path.ts`). */
const SCANNED_INTEGER_BOUND = 999_999_999_999_999;

export type FastPathCheck =
  | { kind: "string" }
  | { kind: "enum"; values: string[] }
  | { kind: "integer"; minimum?: number }
  | { kind: "boolean" }
  | { kind: "const"; value: boolean }
  | { kind: "json" }
  | { kind: "object" }
  | { kind: "union-array"; union: string }
  | { kind: "union-object"; union: string }
  | { kind: "unchecked" };

/**
 * The cross-field rules of an object, tabulated. `fields`: each field the rules read, with its
 * radix; a field's state is 0 when absent, else 1 + the index of its value in the enum (`enum`),
 * 1 for `true` and 2 for `false` (`boolean`), 1 for any other kind. `allowed[Σ state × radix]` is
 * "1" when the rules hold for that combination.
 */
export interface FastPathCross {
  fields: [string, number][];
  allowed: string;
}

export interface FastPathEntry {
  type: string;
  def: string;
  closed: boolean;
  required: string[];
  fields: [string, FastPathCheck][];
  cross?: FastPathCross;
}

/** A tagged union of objects (`AgBlock`, `AgSource`): its tag, whether unknown tags pass (lenient), its variants. */
export interface FastPathUnion {
  def: string;
  tag: string;
  open: boolean;
  variants: FastPathEntry[];
  /** Known tags whose variant the scanner cannot judge, with the reason. */
  excluded: [string, string][];
}

/** The scanner keeps a field's presence in one bit of a 32-bit mask. */
const MAX_FIELDS = 31;
/** Combinations of cross-field states tabulated at most (the table is one character each). */
const MAX_CROSS_STATES = 4096;
const OBJECT_KEYWORDS = new Set(["type", "properties", "required", CLOSED_KEYWORD, "additionalProperties"]);
const CROSS_KEYWORDS = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else"]);

/** What one posture's walk has found so far: the derived defs, and the unions met in fields. */
interface Walk {
  defs: Defs;
  unions: Map<string, FastPathUnion>;
}

/** Strings the scanner can compare as raw bytes: printable ASCII, nothing JSON would escape. */
function byteComparable(s: unknown): s is string {
  return typeof s === "string" && /^[\x20-\x7e]*$/.test(s) && !s.includes('"') && !s.includes("\\");
}

const refName = (ref: unknown) => (typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice("#/$defs/".length) : undefined);

/** The `$def` a pure `$ref` chain ends at, or `undefined`. */
function refTarget(defs: Defs, node: SchemaNode, hops = 0): string | undefined {
  if (Object.keys(node).length !== 1 || hops > 16) return undefined;
  const name = refName(node.$ref);
  const target = name === undefined ? undefined : defs[name];
  if (target === undefined) return undefined;
  return "$ref" in target ? refTarget(defs, target, hops + 1) : name;
}

function resolve(defs: Defs, node: SchemaNode): SchemaNode | undefined {
  if (!("$ref" in node)) return node;
  const name = refTarget(defs, node);
  return name === undefined ? undefined : defs[name];
}

function only(node: SchemaNode, allowed: string[]): boolean {
  return Object.keys(node).every((k) => allowed.includes(k));
}

const isRecord = (v: unknown): v is SchemaNode => typeof v === "object" && v !== null && !Array.isArray(v);

/** How the scanner checks a value against `schema`, or `unchecked` when it cannot do so exactly. */
export function classifyField(defs: Defs, schema: SchemaNode, walk: Walk = { defs, unions: new Map() }): FastPathCheck {
  // A field that is one object of a tagged union (`content.block.block`, an image's `source`).
  const target = refTarget(defs, schema);
  if (target !== undefined && unionOf(walk, target) !== undefined) return { kind: "union-object", union: target };
  const node = resolve(defs, schema);
  if (node === undefined) return { kind: "unchecked" };
  if ("const" in node) {
    if (!only(node, ["const", "type"])) return { kind: "unchecked" };
    const c = node.const;
    if (typeof c === "boolean" && (node.type === undefined || node.type === "boolean")) return { kind: "const", value: c };
    if (byteComparable(c) && (node.type === undefined || node.type === "string")) return { kind: "enum", values: [c] };
    return { kind: "unchecked" };
  }
  if (Array.isArray(node.enum)) {
    if (!only(node, ["enum", "type"]) || (node.type !== undefined && node.type !== "string")) return { kind: "unchecked" };
    const values = node.enum as unknown[];
    return values.length > 0 && values.every(byteComparable) ? { kind: "enum", values: values as string[] } : { kind: "unchecked" };
  }
  // An open enum under lenient (derive.ts): the known values are judged here, any other string is
  // left to AJV — the scanner defers on a value outside an enum.
  const known = node[KNOWN_VALUES_KEYWORD];
  if (Array.isArray(known) && node.type === "string" && only(node, ["type", KNOWN_VALUES_KEYWORD])) {
    return known.length > 0 && known.every(byteComparable) ? { kind: "enum", values: known as string[] } : { kind: "unchecked" };
  }
  if (Object.keys(node).length === 0) return { kind: "json" };
  if (node.type === "object" && only(node, ["type", "additionalProperties"]) && (node.additionalProperties ?? true) === true)
    return { kind: "object" };
  if (node.type === "string" && only(node, ["type"])) return { kind: "string" };
  if (node.type === "boolean" && only(node, ["type"])) return { kind: "boolean" };
  // A `maximum` at or above 10^15 − 1 is implied by the scanner, which reads at most 15 digits
  // (`seq`'s safe-integer bound, §5.0 INV-SEQ); a lower one is left to AJV.
  if (
    node.type === "integer" &&
    only(node, ["type", "minimum", "maximum"]) &&
    (node.maximum === undefined || (typeof node.maximum === "number" && node.maximum >= SCANNED_INTEGER_BOUND))
  ) {
    if (node.minimum === undefined) return { kind: "integer" };
    return typeof node.minimum === "number" && Number.isSafeInteger(node.minimum)
      ? { kind: "integer", minimum: node.minimum }
      : { kind: "unchecked" };
  }
  if (node.type === "array" && only(node, ["type", "items"]) && isRecord(node.items)) {
    const union = refTarget(defs, node.items);
    if (union !== undefined && unionOf(walk, union) !== undefined) return { kind: "union-array", union };
  }
  return { kind: "unchecked" };
}

/**
 * The tag and variant `$def`s of a tagged union as the derived schemas write it, or `undefined`:
 * strict `{type:"object", oneOf:[$ref…], discriminator:{propertyName}}`; lenient
 * `{type:"object", if: tag ∈ K, then: <the strict form>, else: object with a string tag}`, K being
 * exactly the variants' tags.
 */
function unionShape(defs: Defs, def: SchemaNode): { tag: string; open: boolean; variants: [string, string][] } | undefined {
  const closedForm = (node: unknown): { tag: string; variants: [string, string][] } | undefined => {
    if (!isRecord(node) || node.type !== "object" || !only(node, ["type", "oneOf", "discriminator"])) return undefined;
    const disc = node.discriminator;
    if (!isRecord(disc) || !only(disc, ["propertyName"]) || typeof disc.propertyName !== "string" || !Array.isArray(node.oneOf))
      return undefined;
    const tag = disc.propertyName;
    const variants: [string, string][] = [];
    for (const arm of node.oneOf as unknown[]) {
      const name = isRecord(arm) && Object.keys(arm).length === 1 ? refName(arm.$ref) : undefined;
      const variant = name === undefined ? undefined : defs[name];
      const tagSchema = isRecord(variant?.properties) ? (variant.properties as SchemaNode)[tag] : undefined;
      if (name === undefined || !isRecord(tagSchema) || !only(tagSchema, ["const"]) || !byteComparable(tagSchema.const)) return undefined;
      variants.push([tagSchema.const, name]);
    }
    return new Set(variants.map(([t]) => t)).size === variants.length ? { tag, variants } : undefined;
  };
  const closed = closedForm(def);
  if (closed !== undefined) return { ...closed, open: false };
  if (def.type !== "object" || !only(def, ["type", "if", "then", "else"])) return undefined;
  const inner = closedForm(def.then);
  if (inner === undefined) return undefined;
  const { tag } = inner;
  const guard = JSON.stringify({ properties: { [tag]: { enum: inner.variants.map(([t]) => t) } }, required: [tag] });
  const fallback = JSON.stringify({ type: "object", properties: { [tag]: { type: "string" } }, required: [tag] });
  return JSON.stringify(def.if) === guard && JSON.stringify(def.else) === fallback ? { ...inner, open: true } : undefined;
}

/** The union at `$defs/name`, walked once per posture (a variant may hold the union again). */
function unionOf(walk: Walk, name: string): FastPathUnion | undefined {
  const known = walk.unions.get(name);
  if (known !== undefined) return known;
  const def = walk.defs[name];
  const shape = def === undefined ? undefined : unionShape(walk.defs, def);
  if (shape === undefined) return undefined;
  const union: FastPathUnion = { def: name, tag: shape.tag, open: shape.open, variants: [], excluded: [] };
  // Registered before its variants are walked, so a variant holding the union refers back to it.
  walk.unions.set(name, union);
  for (const [tag, def] of shape.variants) {
    const entry = objectEntry(walk, tag, def, shape.tag);
    if (typeof entry === "string") union.excluded.push([tag, entry]);
    else union.variants.push(entry);
  }
  return union;
}

const PRESENT = Symbol("present");
type FieldState = typeof PRESENT | string | boolean | undefined;

/** Whether `value` (one state of a field) satisfies `schema`, or `undefined` when that cannot be told. */
function valueHolds(schema: unknown, value: typeof PRESENT | string | boolean): boolean | undefined {
  if (!isRecord(schema)) return undefined;
  let result = true;
  for (const [k, v] of Object.entries(schema)) {
    if (value === PRESENT) return undefined;
    if (k === "const") result &&= v === value;
    else if (k === "enum" && Array.isArray(v)) result &&= v.includes(value);
    else return undefined;
  }
  return result;
}

/** Whether the cross-field `schema` holds for the object whose field states are `state`, or `undefined`. */
function crossHolds(schema: unknown, state: Map<string, FieldState>): boolean | undefined {
  if (!isRecord(schema)) return undefined;
  let result = true;
  for (const [k, v] of Object.entries(schema)) {
    let r: boolean | undefined;
    if (k === "then" || k === "else") {
      // Read with `if`; without one they have no effect (as in AJV).
      continue;
    } else if (k === "allOf" || k === "anyOf" || k === "oneOf") {
      if (!Array.isArray(v) || v.length === 0) return undefined;
      const rs = v.map((n) => crossHolds(n, state));
      if (rs.includes(undefined)) return undefined;
      const n = rs.filter(Boolean).length;
      r = k === "allOf" ? n === rs.length : k === "anyOf" ? n > 0 : n === 1;
    } else if (k === "not") {
      const inner = crossHolds(v, state);
      r = inner === undefined ? undefined : !inner;
    } else if (k === "if") {
      const cond = crossHolds(v, state);
      const branch = cond === undefined ? undefined : cond ? schema.then : schema.else;
      r = cond === undefined ? undefined : branch === undefined ? true : crossHolds(branch, state);
    } else if (k === "required" && Array.isArray(v)) {
      r = v.every((name) => state.has(name)) ? v.every((name) => state.get(name) !== undefined) : undefined;
    } else if (k === "properties" && isRecord(v)) {
      r = true;
      for (const [name, sub] of Object.entries(v)) {
        const s = state.get(name);
        // `properties` applies to present fields only.
        const holds = !state.has(name) ? undefined : s === undefined ? true : valueHolds(sub, s);
        if (holds === undefined) return undefined;
        r &&= holds;
      }
    } else if (k === "type" && v === "object") {
      r = true;
    } else {
      return undefined;
    }
    if (r === undefined) return undefined;
    result &&= r;
  }
  return result;
}

/** The field names a cross-field schema reads (through `required` and `properties`). */
function crossFieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const n of schema) crossFieldNames(n, out);
  else if (isRecord(schema)) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === "required" && Array.isArray(v)) for (const name of v) if (typeof name === "string") out.add(name);
      if (k === "properties" && isRecord(v)) for (const name of Object.keys(v)) out.add(name);
      if (CROSS_KEYWORDS.has(k)) crossFieldNames(v, out);
    }
  }
  return out;
}

/** The values a field's state ranges over when present (see `FastPathCross`). */
function domainOf(check: FastPathCheck): (typeof PRESENT | string | boolean)[] {
  if (check.kind === "enum") return check.values;
  if (check.kind === "boolean") return [true, false];
  if (check.kind === "const") return [check.value];
  return [PRESENT];
}

/** The cross-field rules `rules` tabulated over the fields they read, or why they cannot be. */
function tabulateCross(rules: SchemaNode, fields: Map<string, FastPathCheck>): FastPathCross | string {
  const names = [...fields.keys()].filter((n) => crossFieldNames(rules).has(n));
  const unknown = [...crossFieldNames(rules)].filter((n) => !fields.has(n));
  if (unknown.length > 0) return `cross-field rule reads field(s) the object does not declare: ${unknown.join(", ")}`;
  const domains = names.map((n) => domainOf(fields.get(n)!));
  const radices: number[] = [];
  let size = 1;
  for (const d of domains) {
    radices.push(size);
    size *= d.length + 1;
  }
  if (size > MAX_CROSS_STATES) return `cross-field rule over more than ${MAX_CROSS_STATES} states`;
  let allowed = "";
  for (let index = 0; index < size; index++) {
    const state = new Map<string, FieldState>(
      names.map((n, k) => {
        const s = Math.floor(index / radices[k]!) % (domains[k]!.length + 1);
        return [n, s === 0 ? undefined : domains[k]![s - 1]];
      }),
    );
    const holds = crossHolds(rules, state);
    if (holds === undefined) return `cross-field rule the table cannot model: ${Object.keys(rules).join(", ")}`;
    allowed += holds ? "1" : "0";
  }
  return { fields: names.map((n, k) => [n, radices[k]!]), allowed };
}

/** The entry for the object at `$defs/def`, whose `tag` field must be the const `type`, or why it is left out. */
function objectEntry(walk: Walk, type: string, defName: string, tag: string): FastPathEntry | string {
  const { defs } = walk;
  const def = defs[defName];
  if (def === undefined) return "not in the derived schema";
  const extra = Object.keys(def).filter((k) => !OBJECT_KEYWORDS.has(k) && !CROSS_KEYWORDS.has(k));
  if (def.type !== "object" || extra.length > 0)
    return `object keywords beyond properties/required and cross-field rules: ${extra.join(", ") || "type"}`;
  const props = (def.properties ?? {}) as Record<string, SchemaNode>;
  const fields = new Map<string, FastPathCheck>(Object.entries(props).map(([name, s]) => [name, classifyField(defs, s, walk)]));
  let closed = false;
  if (Array.isArray(def[CLOSED_KEYWORD])) {
    closed = true;
    // A name the closing keyword admits without a property schema takes any value: unchecked.
    for (const name of def[CLOSED_KEYWORD] as string[]) if (!fields.has(name)) fields.set(name, { kind: "unchecked" });
    for (const name of [...fields.keys()]) if (!(def[CLOSED_KEYWORD] as string[]).includes(name)) fields.delete(name);
  } else if (def.additionalProperties === false) {
    closed = true;
  } else if (def.additionalProperties !== undefined && def.additionalProperties !== true) {
    return "additionalProperties is a schema";
  }
  const typeCheck = fields.get(tag);
  if (typeCheck?.kind !== "enum" || typeCheck.values.length !== 1 || typeCheck.values[0] !== type)
    return `${tag} is not a byte-comparable const`;
  const required = (def.required ?? []) as string[];
  if (!required.includes(tag)) return `${tag} is not required`;
  const blind = required.filter((r) => fields.get(r) === undefined || fields.get(r)!.kind === "unchecked");
  if (blind.length > 0) return `required field(s) the scanner cannot check: ${blind.join(", ")}`;
  if (fields.size > MAX_FIELDS) return `more than ${MAX_FIELDS} fields`;
  const rules = Object.fromEntries(Object.entries(def).filter(([k]) => CROSS_KEYWORDS.has(k)));
  const entry: FastPathEntry = { type, def: defName, closed, required, fields: [...fields] };
  if (Object.keys(rules).length > 0) {
    const cross = tabulateCross(rules, fields);
    if (typeof cross === "string") return cross;
    // Rules that hold for every combination need no check.
    if (cross.allowed.includes("0")) entry.cross = cross;
  }
  return entry;
}

/** The entry for one event `$def` under one derived posture, or why it is left out. */
export function fastPathEntry(
  defs: Defs,
  event: Pick<EventEntry, "type" | "def">,
  walk: Walk = { defs, unions: new Map() },
  tag = eventTag(defs),
): FastPathEntry | string {
  return objectEntry(walk, event.type, event.def, tag);
}

/** The field that names an event's type: the discriminator of `AgKnownEvent` (§4), `type` where the defs hold none (tests' small schemas). */
export function eventTag(defs: Defs): string {
  const known = defs.AgKnownEvent;
  if (known === undefined) return "type";
  const tag = isRecord(known.discriminator) ? known.discriminator.propertyName : undefined;
  if (typeof tag !== "string" || !byteComparable(tag))
    throw new Error(`agjson gen: AgKnownEvent's discriminator ${JSON.stringify(tag)} is not a plain ASCII name`);
  return tag;
}

function renderCheck(c: FastPathCheck): string {
  switch (c.kind) {
    case "enum":
      return `{ kind: "enum", values: [${c.values.map(q).join(", ")}] }`;
    case "integer":
      return c.minimum === undefined ? `{ kind: "integer" }` : `{ kind: "integer", minimum: ${c.minimum} }`;
    case "const":
      return `{ kind: "const", value: ${c.value} }`;
    case "union-array":
    case "union-object":
      return `{ kind: ${q(c.kind)}, union: ${q(c.union)} }`;
    default:
      return `{ kind: ${q(c.kind)} }`;
  }
}

function renderEntry(e: FastPathEntry, sourceOf: (def: string) => string, indent: string): string[] {
  const out = [`${indent}// @generated from ${sourceOf(e.def)}#/$defs/${e.def}`];
  out.push(
    `${indent}{`,
    `${indent}  type: ${q(e.type)},`,
    `${indent}  closed: ${e.closed},`,
    `${indent}  required: [${e.required.map(q).join(", ")}],`,
    `${indent}  fields: {`,
  );
  for (const [field, check] of e.fields) out.push(`${indent}    ${q(field)}: ${renderCheck(check)},`);
  out.push(`${indent}  },`);
  if (e.cross !== undefined) {
    out.push(`${indent}  cross: {`, `${indent}    fields: { ${e.cross.fields.map(([n, r]) => `${q(n)}: ${r}`).join(", ")} },`);
    out.push(`${indent}    allowed: ${q(e.cross.allowed)},`, `${indent}  },`);
  }
  out.push(`${indent}},`);
  return out;
}

function renderPosture(
  name: string,
  doc: string,
  entries: FastPathEntry[],
  unions: FastPathUnion[],
  sourceOf: (def: string) => string,
): string[] {
  const out = [`/** ${doc} */`, `export const ${name}: readonly FastPathEntry[] = [`];
  for (const e of entries) out.push(...renderEntry(e, sourceOf, "  "));
  out.push("];", "");
  out.push(`/** The tagged unions the entries of \`${name}\` name (as a field or as array items), by \`$def\`. */`);
  out.push(`export const ${name}_UNIONS: { readonly [def: string]: FastPathUnion } = {`);
  for (const u of unions) {
    out.push(`  // @generated from ${sourceOf(u.def)}#/$defs/${u.def}`);
    out.push(`  ${q(u.def)}: {`, `    tag: ${q(u.tag)},`, `    open: ${u.open},`, `    variants: [`);
    for (const v of u.variants) out.push(...renderEntry(v, sourceOf, "      "));
    out.push(`    ],`, `    excluded: {`);
    for (const [tag, reason] of u.excluded) out.push(`      ${q(tag)}: ${q(reason)},`);
    out.push(`    },`, `  },`);
  }
  out.push("};", "");
  return out;
}

export function emitFastPath(defs: Defs, events: EventEntry[], sourceOf: (def: string) => string, banner: string): string {
  const knownTypes = events.map((e) => e.type);
  const tag = eventTag(defs);
  const postures = [
    {
      name: "FAST_PATH_STRICT",
      derived: deriveStrict(defs, knownTypes),
      doc: "Event types under the producer-strict posture (closed objects, §0.2, §12).",
    },
    {
      name: "FAST_PATH_LENIENT",
      derived: deriveLenient(defs, knownTypes),
      doc: "Event types under the consumer-lenient posture (unknown fields pass, §0.2, §12).",
    },
  ];
  const out: string[] = [banner];
  out.push("/**");
  out.push(" * How the scanner checks one field's value. `json`: any JSON value (§0.1); `object`: any JSON object (an");
  out.push(" * open bag such as `_meta`); `union-object`: one object of the tagged union `union` (a key of the posture's");
  out.push(" * `_UNIONS` table); `union-array`: an array of such objects; `unchecked`: when present, the scanner defers");
  out.push(" * to the validator.");
  out.push(" */");
  out.push("export type FastPathCheck =");
  out.push('  | { readonly kind: "string" }');
  out.push('  | { readonly kind: "enum"; readonly values: readonly string[] }');
  out.push('  | { readonly kind: "integer"; readonly minimum?: number }');
  out.push('  | { readonly kind: "boolean" }');
  out.push('  | { readonly kind: "const"; readonly value: boolean }');
  out.push('  | { readonly kind: "json" }');
  out.push('  | { readonly kind: "object" }');
  out.push('  | { readonly kind: "union-array"; readonly union: string }');
  out.push('  | { readonly kind: "union-object"; readonly union: string }');
  out.push('  | { readonly kind: "unchecked" };', "");
  out.push("/**");
  out.push(" * An object's cross-field rules (`allOf`, `anyOf`, `oneOf`, `not`, `if`), tabulated over the fields they read.");
  out.push(" * A field's state is 0 when absent, else 1 + the index of its value in its enum (`enum`), 1 for `true` and 2");
  out.push(' * for `false` (`boolean`), 1 for any other kind; the rules hold when `allowed[Σ state × radix]` is "1".');
  out.push(" */");
  out.push("export interface FastPathCross {");
  out.push("  /** Each field the rules read, with its radix. */");
  out.push("  readonly fields: { readonly [name: string]: number };");
  out.push("  readonly allowed: string;");
  out.push("}", "");
  out.push("/** One object type (an event type, or a variant of a union) the byte-level scanner can judge exactly, under one posture. */");
  out.push("export interface FastPathEntry {");
  out.push("  /** The wire `type` (a const of the schema), or the variant's tag value. */");
  out.push("  readonly type: string;");
  out.push("  /** No field outside `fields` is allowed (producer-strict). */");
  out.push("  readonly closed: boolean;");
  out.push("  readonly required: readonly string[];");
  out.push("  readonly fields: { readonly [name: string]: FastPathCheck };");
  out.push("  /** Absent when the object has no cross-field rule, or one that always holds. */");
  out.push("  readonly cross?: FastPathCross;");
  out.push("}", "");
  out.push("/**");
  out.push(" * A tagged union of objects (a field's value, or array items). The tag is the object's first key. `open` (consumer-lenient):");
  out.push(" * an object whose tag is a string that names no variant and is not `excluded` is valid whatever else it holds.");
  out.push(" */");
  out.push("export interface FastPathUnion {");
  out.push("  readonly tag: string;");
  out.push("  readonly open: boolean;");
  out.push("  readonly variants: readonly FastPathEntry[];");
  out.push("  /** Known tags whose variant the scanner cannot judge (it defers on them), with the reason. */");
  out.push("  readonly excluded: { readonly [tag: string]: string };");
  out.push("}", "");
  const excluded = new Map<string, string[]>();
  for (const p of postures) {
    const entries: FastPathEntry[] = [];
    const walk: Walk = { defs: p.derived, unions: new Map() };
    for (const e of events) {
      const entry = fastPathEntry(p.derived, e, walk, tag);
      if (typeof entry !== "string") entries.push(entry);
      else if (!excluded.get(e.type)?.includes(entry)) excluded.set(e.type, [...(excluded.get(e.type) ?? []), entry]);
    }
    // Only the unions an entry names (a union met under a field left out is not emitted).
    const named = new Set<string>();
    const visit = (list: FastPathEntry[]) => {
      for (const e of list)
        for (const [, c] of e.fields) {
          if ((c.kind === "union-array" || c.kind === "union-object") && !named.has(c.union)) {
            named.add(c.union);
            visit(walk.unions.get(c.union)!.variants);
          }
        }
    };
    visit(entries);
    const unions = [...named].sort().map((n) => walk.unions.get(n)!);
    out.push(...renderPosture(p.name, p.doc, entries, unions, sourceOf));
  }
  out.push("/** The field that names an event's type, its first key on the fast path: the discriminator of `AgKnownEvent` (§4). */");
  out.push(`export const FAST_PATH_EVENT_TAG = ${q(tag)};`, "");
  out.push("/** Known event types the fast path leaves to the validator (in a posture or both), with the reason. */");
  out.push("export const FAST_PATH_EXCLUDED: { readonly [type: string]: string } = {");
  for (const e of events) if (excluded.has(e.type)) out.push(`  ${q(e.type)}: ${q(excluded.get(e.type)!.join("; "))},`);
  out.push("};", "");
  return out.join("\n");
}
