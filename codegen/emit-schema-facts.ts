/**
 * Emitter: the schema facts code reads instead of copying them — the event
 * envelope, the fields of every event type and every other object `$def`, the event types of each
 * §5 fold kind, the field naming the block an event addresses, the tag values of every tagged
 * union, the values of every enum — and the type guards that split a consumer-lenient value into
 * known and unknown (§0.2, §12).
 * `test/schema-facts.test.ts` fails when a module of `src/` spells one of these by hand.
 */
import type { Defs } from "./bundle.js";
import type { EventEntry } from "./event-table.js";
import { FOLD_KINDS, OPEN_ENUM_KEYWORD } from "./annotations.js";
import type { SchemaNode } from "./load.js";
import { guardedUnionTag } from "./derive.js";

const q = (s: string) => JSON.stringify(s);
const list = (xs: readonly string[]) => `[${xs.map(q).join(", ")}]`;

function props(def: SchemaNode | undefined): Record<string, SchemaNode> {
  return (def?.properties ?? {}) as Record<string, SchemaNode>;
}

/** Tagged unions: `$def` → its tag and the tag value of each arm, in schema order. */
export function unionTags(defs: Defs): Map<string, { tag: string; values: string[] }> {
  const out = new Map<string, { tag: string; values: string[] }>();
  for (const [name, def] of Object.entries(defs)) {
    const tag = guardedUnionTag(def);
    if (tag === undefined) continue;
    const values = (def.oneOf as SchemaNode[]).map((m) => {
      const arm = defs[String(m.$ref).replace("#/$defs/", "")];
      const value = props(arm)[tag]?.const;
      if (typeof value !== "string") throw new Error(`emit-schema-facts: an arm of ${name} has no string const ${tag}`);
      return value;
    });
    out.set(name, { tag, values });
  }
  return out;
}

/** Every string enum: `<$def>` or `<$def>#<pointer>` → its values, and whether it is open. */
export function schemaEnums(defs: Defs): Map<string, { values: string[]; open: boolean }> {
  const out = new Map<string, { values: string[]; open: boolean }>();
  const walk = (node: unknown, def: string, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, def, `${pointer}/${i}`));
    if (!node || typeof node !== "object") return;
    const n = node as SchemaNode;
    if (Array.isArray(n.enum) && n.enum.every((v) => typeof v === "string")) {
      out.set(pointer === "" ? def : `${def}#${pointer}`, { values: n.enum as string[], open: n[OPEN_ENUM_KEYWORD] === true });
    }
    for (const [k, v] of Object.entries(n)) if (k !== "enum" && k !== "const") walk(v, def, `${pointer}/${k}`);
  };
  for (const [name, def] of Object.entries(defs)) walk(def, name, "");
  return out;
}

/** Fold kinds whose event addresses one block of a message (§5: create, append, seal, replace, insert). */
const BLOCK_FOLDS = new Set(["block-create", "block-append", "block-seal", "block-replace", "block-insert", "scratch-append"]);

/** The spec version the schema files state in their `$id` (`…/schema/<version>/<family>.schema.json`); all must agree. */
export function schemaVersion(ids: readonly unknown[]): string {
  const versions = new Set(ids.map((id) => /\/schema\/([^/]+)\/[^/]+\.schema\.json$/.exec(String(id))?.[1]));
  const [only] = versions;
  if (versions.size !== 1 || only === undefined)
    throw new Error(`emit-schema-facts: the schema files' $id name ${versions.size} versions (${[...versions].join(", ")}); expected one`);
  return only;
}

export function emitSchemaFacts(defs: Defs, events: EventEntry[], version: string, banner: string): string {
  const out: string[] = [banner];
  out.push(`import type * as T from "./types.js";`);
  out.push(`import type * as L from "./lenient-types.js";`);
  out.push(
    `import { EXT_EVENT_TYPE, KNOWN_EVENT_TYPES, type AgEventByType, type AgKnownEventType, type FoldKind } from "./fold-scaffold.js";`,
    "",
  );

  const versionPattern = defs.AgSpecVersion?.pattern;
  if (typeof versionPattern !== "string") throw new Error("emit-schema-facts: AgSpecVersion has no pattern");
  out.push("/** The AgJSON version this schema set is (its files' `$id`, §12). */");
  out.push(`export const SPEC_VERSION = ${q(version)};`, "");
  out.push("/** A semantic version (SemVer 2.0.0) as AgSpecVersion states it (§12): major, minor, patch captured. */");
  out.push(`export const SPEC_VERSION_PATTERN: RegExp = new RegExp(${q(versionPattern)});`, "");

  const envelope = Object.keys(props(defs.AgExtEvent));
  if (!envelope.includes("type") || !envelope.includes("seq")) throw new Error("emit-schema-facts: AgExtEvent lists no type/seq envelope");
  out.push("/**");
  out.push(" * The base envelope every event carries (§4), the fields of AgExtEvent: a vendor payload key that");
  out.push(" * collides with one is relocated under `shadowed` (§12).");
  out.push(" */");
  out.push(`export const EVENT_ENVELOPE_FIELDS = ${list(envelope)} as const;`, "");

  out.push("/** The field names of `T`, of every arm when `T` is a union (a refinement's arms share the object's fields). */");
  out.push("export type FieldOf<T> = T extends unknown ? keyof T & string : never;", "");
  out.push("/**");
  out.push(" * Every named event type's fields (§4), in schema order: the envelope, then its own. A consumer that");
  out.push(' * copies or carries "the fields of X other than the ones it maps" reads them here ({@link fieldsOtherThan}),');
  out.push(" * so a field the schema adds is copied too; the compiler checks each list against the generated type.");
  out.push(" */");
  out.push("export const EVENT_FIELDS = {");
  for (const e of events) out.push(`  ${q(e.type)}: ${list(Object.keys(props(defs[e.def])))},`);
  out.push("} as const satisfies { readonly [K in AgKnownEventType]: readonly FieldOf<AgEventByType[K]>[] };", "");
  const eventDefs = new Set(events.map((e) => e.def));
  const objectDefs = Object.entries(defs).filter(
    ([name, def]) => !eventDefs.has(name) && def.properties !== undefined && Object.keys(props(def)).length > 0,
  );
  out.push("/** The generated type of each object `$def` that is not an event (blocks, records, inputs, …). */");
  out.push("export interface AgObjectDefs {");
  for (const [name] of objectDefs) out.push(`  ${name}: T.${name};`);
  out.push("}", "");
  out.push(
    "/** The fields of every object `$def` that is not an event, in schema order (a record a fold copies, an input a bridge reads, …). */",
  );
  out.push("export const DEF_FIELDS = {");
  for (const [name, def] of objectDefs) out.push(`  ${name}: ${list(Object.keys(props(def)))},`);
  out.push("} as const satisfies { readonly [D in keyof AgObjectDefs]: readonly FieldOf<AgObjectDefs[D]>[] };", "");
  out.push("/** The names of `fields` other than `except`, in their order: what a consumer copies when it maps `except` itself. */");
  out.push("export function fieldsOtherThan<F extends string, X extends F>(fields: readonly F[], except: readonly X[]): Exclude<F, X>[] {");
  out.push("  const mapped: ReadonlySet<string> = new Set(except);");
  out.push("  return fields.filter((f): f is Exclude<F, X> => !mapped.has(f));");
  out.push("}", "");

  out.push("/** The named event types of each §5 fold kind (`x-agjson-fold`), in schema order. */");
  out.push("export const EVENT_TYPES_BY_FOLD: { readonly [K in FoldKind]: readonly AgKnownEventType[] } = {");
  for (const k of FOLD_KINDS) out.push(`  ${q(k)}: ${list(events.filter((e) => e.fold === k).map((e) => e.type))},`);
  out.push("};", "");

  const blockEvents = events.filter((x) => BLOCK_FOLDS.has(x.fold));
  out.push("/** Events that address one block of a message (the §5 block folds): their `messageId` is the block's message. */");
  out.push(`export const BLOCK_EVENT_TYPES: readonly AgKnownEventType[] = ${list(blockEvents.map((e) => e.type))};`, "");
  out.push("/**");
  out.push(" * For each event that addresses one block of a message, the field naming that block:");
  out.push(" * `toolCallId` where the event has one (the tool events), else the envelope `id`.");
  out.push(" */");
  out.push('export const BLOCK_KEY_FIELD: { readonly [type: string]: "id" | "toolCallId" } = {');
  for (const e of blockEvents) {
    const fields = props(defs[e.def]);
    out.push(`  ${q(e.type)}: ${q("toolCallId" in fields ? "toolCallId" : "id")},`);
  }
  out.push("};", "");

  const tags = unionTags(defs);
  const tagsOf = (union: string): string[] => {
    const t = tags.get(union);
    if (!t) throw new Error(`emit-schema-facts: ${union} is not a tagged union`);
    return t.values;
  };
  // Standalone constants (not reads of TAG_VALUES), so a bundle that needs one keeps only it.
  out.push("/** Every block type of §2. */", `export const BLOCK_TYPES = ${list(tagsOf("AgBlock"))} as const;`, "");
  out.push("/** A block type this version knows. */", "export type AgKnownBlockType = (typeof BLOCK_TYPES)[number];", "");
  out.push("/** Every AgInput kind of §3. */", `export const INPUT_KINDS = ${list(tagsOf("AgInput"))} as const;`, "");
  const named: Record<string, string> = { AgBlock: "BLOCK_TYPES", AgInput: "INPUT_KINDS", AgKnownEvent: "KNOWN_EVENT_TYPES" };
  out.push("/** Every tagged union: its arms' tag values, in schema order (`AgKnownEvent` → the §4 event types, …). */");
  out.push("export const TAG_VALUES: { readonly [union: string]: readonly string[] } = {");
  for (const [name, t] of tags) out.push(`  ${name}: ${named[name] ?? list(t.values)},`);
  out.push("};", "");

  const enums = schemaEnums(defs);
  out.push("/** Every string enum: keyed by `$def`, or `$def#pointer` for one inside a `$def`. */");
  out.push("export const SCHEMA_ENUMS = {");
  for (const [where, e] of enums) out.push(`  ${q(where)}: ${list(e.values)},`);
  out.push("} as const;", "");
  out.push(`/** The enums a same-major minor may extend (\`${OPEN_ENUM_KEYWORD}\`, §0.2, §12): a consumer keeps any string there. */`);
  out.push(
    `export const OPEN_ENUMS: readonly (keyof typeof SCHEMA_ENUMS)[] = ${list([...enums].filter(([, e]) => e.open).map(([w]) => w))};`,
    "",
  );

  out.push("/** Whether `value` is one of the values of the enum at `where` (a key of SCHEMA_ENUMS). */");
  out.push(
    "export function isEnumValue<K extends keyof typeof SCHEMA_ENUMS>(where: K, value: unknown): value is (typeof SCHEMA_ENUMS)[K][number] {",
  );
  out.push("  const values: readonly string[] = SCHEMA_ENUMS[where];");
  out.push('  return typeof value === "string" && values.includes(value);');
  out.push("}", "");
  out.push("// Built on first use, so a bundle that calls no guard drops the tables behind it.");
  out.push("let knownEventTypes: ReadonlySet<string> | undefined;");
  out.push("let knownBlockTypes: ReadonlySet<string> | undefined;");
  out.push("let knownInputKinds: ReadonlySet<string> | undefined;", "");
  out.push("/** Whether `type` is one of the named event types of §4 (not `ext.*`). */");
  out.push("export function isKnownEventType(type: string): type is AgKnownEventType {");
  out.push("  knownEventTypes ??= new Set(KNOWN_EVENT_TYPES);");
  out.push("  return knownEventTypes.has(type);");
  out.push("}", "");
  out.push("/** Whether a lenient event is a known one: a named §4 type or `ext.<vendor>.<key>` (§12), in consumer-lenient types. */");
  out.push("export function isKnownEvent(event: L.AgEvent): event is L.AgKnownEvent | L.AgExtEvent {");
  out.push("  return isKnownEventType(event.type) || EXT_EVENT_TYPE.test(event.type);");
  out.push("}", "");
  out.push("/** Whether a lenient block is a known one: its `type` is one of §2's (consumer-lenient types). */");
  out.push("export function isKnownBlock(block: L.AgBlock): block is L.AgKnownBlock {");
  out.push("  knownBlockTypes ??= new Set(BLOCK_TYPES);");
  out.push("  return knownBlockTypes.has(block.type);");
  out.push("}", "");
  out.push("/** Whether a lenient input is a known one: its `kind` is one of §3's (consumer-lenient types). */");
  out.push("export function isKnownInput(input: L.AgInput): input is L.AgKnownInput {");
  out.push("  knownInputKinds ??= new Set(INPUT_KINDS);");
  out.push("  return knownInputKinds.has(input.kind);");
  out.push("}", "");
  // The other guarded unions (§0.2, §12): inside a lenient document an unknown tag passes as the
  // union's AgUnknown* arm, so a consumer narrows with these before switching on the tag.
  for (const [name, t] of tags) {
    if (name === "AgKnownEvent" || name === "AgBlock" || name === "AgInput") continue;
    const suffix = name.replace(/^Ag/, "");
    out.push(
      `/** Whether a lenient ${name} is a known one: its \`${t.tag}\` is one of ${list(t.values).replace(/"/g, "")} (consumer-lenient types). */`,
    );
    out.push(`export function isKnown${suffix}(value: L.${name}): value is L.AgKnown${suffix} {`);
    out.push(`  const tag: unknown = value.${t.tag};`, `  return typeof tag === "string" && (TAG_VALUES.${name} ?? []).includes(tag);`);
    out.push("}", "");
  }
  return out.join("\n");
}
