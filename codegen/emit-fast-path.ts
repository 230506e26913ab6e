/**
 * Emitter: the table behind the gateway's byte-level fast path (`src/gateway/fast-path.ts`). For
 * each known event type and each posture it states, from the *derived* schemas the validators are
 * compiled from (DESIGN §4), what a flat event of that type may hold: every field and how its value
 * is checked, the required set, and whether the object is closed. The fast path may only say
 * "valid" where AJV would, so the table is conservative by construction:
 *
 * - a field whose schema is anything but a string (optionally an ASCII enum or const), an integer
 *   with at most a `minimum`, a boolean (optionally a const), any JSON value (`{}`, §0.1's opaque
 *   value) or any object (an open bag such as `_meta`) is `unchecked`: present, the scanner defers
 *   to AJV;
 * - a type is left out when its object carries any keyword beyond `type`, `properties`, `required`
 *   and the closing keyword (cross-field rules such as `anyOf`/`allOf`), when its `type` is not a
 *   const, or when a required field is `unchecked` (it could never be judged);
 * - the schema keywords are whitelisted: one this emitter does not know makes the field `unchecked`.
 */
import type { Defs } from "./bundle.js";
import { deriveLenient, deriveStrict } from "./derive.js";
import type { EventEntry } from "./event-table.js";
import type { SchemaNode } from "./load.js";
import { CLOSED_KEYWORD } from "./closed-keyword.js";

const q = (s: string) => JSON.stringify(s);

export type FastPathCheck =
  | { kind: "string" }
  | { kind: "enum"; values: string[] }
  | { kind: "integer"; minimum?: number }
  | { kind: "boolean" }
  | { kind: "const"; value: boolean }
  | { kind: "json" }
  | { kind: "object" }
  | { kind: "unchecked" };

export interface FastPathEntry {
  type: string;
  def: string;
  closed: boolean;
  required: string[];
  fields: [string, FastPathCheck][];
}

/** The scanner keeps a field's presence in one bit of a 32-bit mask. */
const MAX_FIELDS = 31;
const OBJECT_KEYWORDS = new Set(["type", "properties", "required", CLOSED_KEYWORD, "additionalProperties"]);

/** Strings the scanner can compare as raw bytes: printable ASCII, nothing JSON would escape. */
function byteComparable(s: unknown): s is string {
  return typeof s === "string" && /^[\x20-\x7e]*$/.test(s) && !s.includes('"') && !s.includes("\\");
}

function resolve(defs: Defs, node: SchemaNode, hops = 0): SchemaNode | undefined {
  if (!("$ref" in node)) return node;
  if (Object.keys(node).length !== 1 || typeof node.$ref !== "string" || hops > 16) return undefined;
  const target = defs[node.$ref.replace("#/$defs/", "")];
  return target === undefined ? undefined : resolve(defs, target, hops + 1);
}

function only(node: SchemaNode, allowed: string[]): boolean {
  return Object.keys(node).every((k) => allowed.includes(k));
}

/** How the scanner checks a value against `schema`, or `unchecked` when it cannot do so exactly. */
export function classifyField(defs: Defs, schema: SchemaNode): FastPathCheck {
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
  if (Object.keys(node).length === 0) return { kind: "json" };
  if (node.type === "object" && only(node, ["type", "additionalProperties"]) && (node.additionalProperties ?? true) === true) return { kind: "object" };
  if (node.type === "string" && only(node, ["type"])) return { kind: "string" };
  if (node.type === "boolean" && only(node, ["type"])) return { kind: "boolean" };
  if (node.type === "integer" && only(node, ["type", "minimum"])) {
    if (node.minimum === undefined) return { kind: "integer" };
    return typeof node.minimum === "number" && Number.isSafeInteger(node.minimum) ? { kind: "integer", minimum: node.minimum } : { kind: "unchecked" };
  }
  return { kind: "unchecked" };
}

/** The entry for one event `$def` under one derived posture, or why it is left out. */
export function fastPathEntry(defs: Defs, event: EventEntry): FastPathEntry | string {
  const def = defs[event.def];
  if (def === undefined) return "not in the derived schema";
  const extra = Object.keys(def).filter((k) => !OBJECT_KEYWORDS.has(k));
  if (def.type !== "object" || extra.length > 0) return `object keywords beyond properties/required: ${extra.join(", ") || "type"}`;
  const props = (def.properties ?? {}) as Record<string, SchemaNode>;
  const fields = new Map<string, FastPathCheck>(Object.entries(props).map(([name, s]) => [name, classifyField(defs, s)]));
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
  const type = fields.get("type");
  if (type?.kind !== "enum" || type.values.length !== 1 || type.values[0] !== event.type) return "type is not a byte-comparable const";
  const required = (def.required ?? []) as string[];
  if (!required.includes("type")) return "type is not required";
  const blind = required.filter((r) => fields.get(r) === undefined || fields.get(r)!.kind === "unchecked");
  if (blind.length > 0) return `required field(s) the scanner cannot check: ${blind.join(", ")}`;
  if (fields.size > MAX_FIELDS) return `more than ${MAX_FIELDS} fields`;
  return { type: event.type, def: event.def, closed, required, fields: [...fields] };
}

function renderCheck(c: FastPathCheck): string {
  switch (c.kind) {
    case "enum":
      return `{ kind: "enum", values: [${c.values.map(q).join(", ")}] }`;
    case "integer":
      return c.minimum === undefined ? `{ kind: "integer" }` : `{ kind: "integer", minimum: ${c.minimum} }`;
    case "const":
      return `{ kind: "const", value: ${c.value} }`;
    default:
      return `{ kind: ${q(c.kind)} }`;
  }
}

function renderPosture(name: string, doc: string, entries: FastPathEntry[], sourceOf: (def: string) => string): string[] {
  const out = [`/** ${doc} */`, `export const ${name}: readonly FastPathEntry[] = [`];
  for (const e of entries) {
    out.push(`  // @generated from ${sourceOf(e.def)}#/$defs/${e.def}`);
    out.push(`  {`, `    type: ${q(e.type)},`, `    closed: ${e.closed},`, `    required: [${e.required.map(q).join(", ")}],`, `    fields: {`);
    for (const [field, check] of e.fields) out.push(`      ${q(field)}: ${renderCheck(check)},`);
    out.push(`    },`, `  },`);
  }
  out.push("];", "");
  return out;
}

export function emitFastPath(defs: Defs, events: EventEntry[], sourceOf: (def: string) => string, banner: string): string {
  const knownTypes = events.map((e) => e.type);
  const postures = [
    { name: "FAST_PATH_STRICT", derived: deriveStrict(defs, knownTypes), doc: "Flat event types under the producer-strict posture (closed objects, §0.2, §12)." },
    { name: "FAST_PATH_LENIENT", derived: deriveLenient(defs, knownTypes), doc: "Flat event types under the consumer-lenient posture (unknown fields pass, §0.2, §12)." },
  ];
  const out: string[] = [banner];
  out.push("/**");
  out.push(" * How the scanner checks one field's value. `json`: any JSON value (§0.1); `object`: any JSON object (an");
  out.push(" * open bag such as `_meta`); `unchecked`: when present, the scanner defers to the validator.");
  out.push(" */");
  out.push("export type FastPathCheck =");
  out.push('  | { readonly kind: "string" }');
  out.push('  | { readonly kind: "enum"; readonly values: readonly string[] }');
  out.push('  | { readonly kind: "integer"; readonly minimum?: number }');
  out.push('  | { readonly kind: "boolean" }');
  out.push('  | { readonly kind: "const"; readonly value: boolean }');
  out.push('  | { readonly kind: "json" }');
  out.push('  | { readonly kind: "object" }');
  out.push('  | { readonly kind: "unchecked" };', "");
  out.push("/** One event type whose flat instances the byte-level scanner can judge exactly, under one posture. */");
  out.push("export interface FastPathEntry {");
  out.push("  /** The wire `type` (a const of the schema). */");
  out.push("  readonly type: string;");
  out.push("  /** No field outside `fields` is allowed (producer-strict). */");
  out.push("  readonly closed: boolean;");
  out.push("  readonly required: readonly string[];");
  out.push("  readonly fields: { readonly [name: string]: FastPathCheck };");
  out.push("}", "");
  const excluded = new Map<string, string[]>();
  for (const p of postures) {
    const entries: FastPathEntry[] = [];
    for (const e of events) {
      const entry = fastPathEntry(p.derived, e);
      if (typeof entry !== "string") entries.push(entry);
      else if (!excluded.get(e.type)?.includes(entry)) excluded.set(e.type, [...(excluded.get(e.type) ?? []), entry]);
    }
    out.push(...renderPosture(p.name, p.doc, entries, sourceOf));
  }
  out.push("/** Known event types the fast path leaves to the validator (in a posture or both), with the reason. */");
  out.push("export const FAST_PATH_EXCLUDED: { readonly [type: string]: string } = {");
  for (const e of events) if (excluded.has(e.type)) out.push(`  ${q(e.type)}: ${q(excluded.get(e.type)!.join("; "))},`);
  out.push("};", "");
  return out.join("\n");
}
