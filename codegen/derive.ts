/**
 * The two postures of §0.2 (docs/codegen.md), derived mechanically from one bundle. The derived copies are for
 * AJV's draft-07 class only (no 2020-only keywords, so no unevaluated tracking: docs/research/codegen-findings.md §2).
 *
 * - strict (producer, §0.2/§12): exactly the schema. The open `ext.*` arm is selected by `if` on
 *   the type pattern, so the discriminator keeps reporting the single precise error.
 * - lenient (consumer): every closed object opened (unknown fields pass through untouched), and
 *   every tagged union guarded: "tag ∈ known ? discriminated union : any object with a string
 *   tag". An unknown event type still has its base fields checked (`seq` required, §4).
 */
import { FAMILIES, FAMILY_ROOT, type SchemaNode } from "./load.js";
import type { Defs } from "./bundle.js";
import { CLOSED_KEYWORD } from "./closed-keyword.js";
import { mapSchema } from "./schema-map.js";
import { ANNOTATION_KEYWORDS, OPEN_ENUM_KEYWORD } from "./annotations.js";

const ANNOTATIONS = new Set([...ANNOTATION_KEYWORDS, "title", "description", "$comment"]);

function strip(node: unknown): unknown {
  return mapSchema(node, (k) => (ANNOTATIONS.has(k) ? [] : undefined));
}

/** `if` guard selecting the ext arm: the AgExtEvent type pattern itself, so the arms never overlap. */
function extGuard(defs: Defs): SchemaNode {
  const pattern = ((defs.AgExtEvent?.properties ?? {}) as Record<string, SchemaNode>).type?.pattern;
  if (typeof pattern !== "string") throw new Error("AgExtEvent.properties.type.pattern is missing");
  return { properties: { type: { type: "string", pattern } }, required: ["type"] };
}

/**
 * Event types in the order a stream produces them most often. AJV compiles both the known-type
 * guard and the discriminator into chains of string comparisons in `oneOf` order, so putting the
 * deltas (the bulk of every stream) first saves dozens of comparisons per event. Types not listed
 * keep their schema order after these. Only the derived copies are reordered.
 */
export const FREQUENT_EVENT_TYPES = [
  "text.delta",
  "reasoning.delta",
  "tool.args.delta",
  "reasoning.opaque.delta",
  "artifact.delta",
  "state.delta",
  "text.start",
  "text.end",
  "reasoning.start",
  "reasoning.end",
  "reasoning.opaque",
  "tool.start",
  "tool.args.assembled",
  "tool.done",
  "content.block",
  "message.start",
  "message.end",
  "ui.data-model",
  "ui.surface.update",
];

function byFrequency(types: string[]): string[] {
  const rank = (t: string) => {
    const i = FREQUENT_EVENT_TYPES.indexOf(t);
    return i === -1 ? FREQUENT_EVENT_TYPES.length : i;
  };
  return types
    .map((t, i) => [t, i] as const)
    .sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
    .map(([t]) => t);
}

/** AgKnownEvent with its variants in frequency order (the derived copies only). */
function reorderKnownEvents(out: Defs): void {
  const known = out.AgKnownEvent as SchemaNode;
  const typeOf = (m: SchemaNode) =>
    String(((out[String(m.$ref).replace("#/$defs/", "")]?.properties ?? {}) as Record<string, SchemaNode>).type?.const);
  const arms = known.oneOf as SchemaNode[];
  const order = byFrequency(arms.map(typeOf));
  known.oneOf = order.map((t) => arms.find((m) => typeOf(m) === t)!);
}

/**
 * Producer-strict: the canonical schema with the ext arm chosen by `if`. Known types are tested
 * first (an enum check), so the ext pattern — a regex — only runs for types that are not known;
 * an unknown non-ext type still reaches the discriminated union, whose error names it.
 */
export function deriveStrict(defs: Defs, knownEventTypes: string[]): Defs {
  const out = closeWithKeyword(strip(defs)) as Defs;
  reorderKnownEvents(out);
  out.AgEvent = {
    if: { properties: { type: { enum: byFrequency(knownEventTypes) } }, required: ["type"] },
    then: { $ref: "#/$defs/AgKnownEvent" },
    else: {
      if: extGuard(out),
      then: { $ref: "#/$defs/AgExtEvent" },
      else: { $ref: "#/$defs/AgKnownEvent" },
    },
  };
  return out;
}

function tagValues(defs: Defs, union: SchemaNode, tag: string): string[] {
  const values: string[] = [];
  for (const m of union.oneOf as SchemaNode[]) {
    const name = String(m.$ref).replace("#/$defs/", "");
    const c = ((defs[name]?.properties ?? {}) as Record<string, SchemaNode>)[tag]?.const;
    if (typeof c === "string") values.push(c);
  }
  return values;
}

/**
 * Additive-minor (§0.2, §12): a future same-major minor may add values to an open enum
 * (`x-agjson-open-enum`), so the consumer accepts any string there; strict keeps the list.
 */
function openEnums(node: unknown): unknown {
  return mapSchema(node, (k, v, src) =>
    k === "enum" && src[OPEN_ENUM_KEYWORD] === true
      ? [
          ["type", "string"],
          [KNOWN_VALUES_KEYWORD, structuredClone(v)],
        ]
      : undefined,
  );
}

/**
 * Beside an opened enum, its listed values: AJV ignores the keyword; the fast path's emitter reads
 * it, so the byte scanner still judges the known values itself and defers any other string to the
 * validator (which accepts it).
 */
export const KNOWN_VALUES_KEYWORD = "agjsonKnownValues";

function openObjects(node: unknown): unknown {
  return mapSchema(node, (k, v) => (k === "additionalProperties" && v === false ? [] : undefined));
}

/**
 * The catch-all arm of the lenient AgEvent (§0.2, §12): an event of a type this version does not
 * know, with the base envelope of AgExtEvent checked and any string as its `type`. The lenient
 * validators and the generated `AgUnknownEvent` type both come from this one definition.
 */
export function unknownEventDef(defs: Defs): SchemaNode {
  const ext = defs.AgExtEvent;
  if (!ext) throw new Error("AgExtEvent is missing: the unknown-event arm copies its envelope");
  return { ...ext, properties: { ...(ext.properties as SchemaNode), type: { type: "string" } } };
}

/** The catch-all arm of a guarded tagged union: any object whose tag is a string (§0.2, §12). */
export function unknownTagArm(tag: string): SchemaNode {
  return { type: "object", properties: { [tag]: { type: "string" } }, required: [tag] };
}

/**
 * The tag of a tagged union the consumer-lenient posture guards (§0.2, §12) — a `$def` whose
 * `oneOf` is discriminated by a string property, where a later minor may add an arm — or
 * undefined. The one test of where lenient widens: the lenient validators (`deriveLenient`), the
 * lenient types (emit-types.ts) and the `isKnown*` guards (emit-schema-facts.ts) all ask it.
 */
export function guardedUnionTag(def: SchemaNode | undefined): string | undefined {
  const disc = def?.discriminator as SchemaNode | undefined;
  return def !== undefined && Array.isArray(def.oneOf) && typeof disc?.propertyName === "string" ? disc.propertyName : undefined;
}

/** Consumer-lenient: closed objects opened, unions guarded by tag membership. */
export function deriveLenient(defs: Defs, knownEventTypes: string[]): Defs {
  const base = openObjects(strip(openEnums(defs))) as Defs;
  const out: Defs = {};
  for (const [name, def] of Object.entries(base)) {
    const tag = guardedUnionTag(def);
    if (tag !== undefined) {
      const { oneOf, discriminator, ...rest } = def;
      out[name] = {
        ...rest,
        type: "object",
        if: { properties: { [tag]: { enum: tagValues(base, def, tag) } }, required: [tag] },
        then: { type: "object", oneOf, discriminator },
        else: unknownTagArm(tag),
      };
    } else {
      out[name] = def;
    }
  }
  excludeSiblingTags(out);
  out.AgUnknownEvent = unknownEventDef(out);
  out.AgEvent = {
    if: { properties: { type: { enum: byFrequency(knownEventTypes) } }, required: ["type"] },
    then: { $ref: "#/$defs/AgKnownEvent" },
    else: {
      if: extGuard(out),
      then: { $ref: "#/$defs/AgExtEvent" },
      else: { $ref: "#/$defs/AgUnknownEvent" },
    },
  };
  // The known-type guard is already applied by AgEvent; inside `then` only the union remains.
  const known = base.AgKnownEvent as SchemaNode;
  out.AgKnownEvent = { type: "object", oneOf: known.oneOf, discriminator: known.discriminator };
  reorderKnownEvents(out);
  return out;
}

/**
 * An untagged `oneOf` (AgSourcePayload) whose arm is a guarded union: that union's catch-all would
 * also match the tags of its sibling arms (`{type:"document"}` is an unknown AgSource tag) and
 * make `oneOf` fail on two matches. The arm gets a copy whose catch-all excludes those tags.
 */
function excludeSiblingTags(out: Defs): void {
  for (const [name, def] of Object.entries(out)) {
    if (!Array.isArray(def.oneOf) || def.discriminator || def.if) continue;
    const arms = (def.oneOf as SchemaNode[]).map((m) => String(m.$ref ?? "").replace("#/$defs/", ""));
    if (!arms.every((a) => out[a])) continue;
    const siblingTags: string[] = [];
    for (const a of arms) {
      const c = ((out[a]!.properties ?? {}) as Record<string, SchemaNode>).type?.const;
      if (typeof c === "string") siblingTags.push(c);
    }
    def.oneOf = arms.map((a) => {
      const arm = out[a]!;
      if (!arm.if || !arm.else || siblingTags.length === 0) return { $ref: `#/$defs/${a}` };
      const copy = `${a}Within${name}`;
      out[copy] = {
        ...arm,
        else: { ...(arm.else as SchemaNode), not: { properties: { type: { enum: siblingTags } }, required: ["type"] } },
      };
      return { $ref: `#/$defs/${copy}` };
    });
  }
}

/** Replaces `additionalProperties: false` by the faster `closedProperties` keyword (closed-keyword.ts). */
function closeWithKeyword(node: unknown): unknown {
  return mapSchema(node, (k, v, src) =>
    k === "additionalProperties" && v === false ? [[CLOSED_KEYWORD, Object.keys((src.properties ?? {}) as SchemaNode)]] : undefined,
  );
}

/**
 * Where the consumer-lenient posture widens a family root (§0.2, §12): AgEvent gains its
 * unknown-type arm, and each root that is a tagged union (AgBlock, AgInput) a catch-all for an
 * unknown tag. The generated types name each arm (`AgUnknownEvent`, …) and the widened root
 * (`AgLenientEvent`, …), and the lenient validators' `.d.ts` returns the widened root.
 */
export interface LenientRoot {
  /** The family root `$def`, e.g. `AgBlock`. */
  root: string;
  /** The catch-all arm's type name, e.g. `AgUnknownBlock`. */
  unknown: string;
  /** The root as a lenient parse yields it, e.g. `AgLenientBlock`. */
  lenient: string;
  /** The tag an unknown value carries as a string (`type`, `kind`). */
  tag: string;
  schema: SchemaNode;
}

export function lenientRoots(defs: Defs): LenientRoot[] {
  const out: LenientRoot[] = [];
  for (const root of FAMILIES.map((f) => FAMILY_ROOT[f])) {
    if (root === undefined) continue;
    const def = defs[root];
    if (!def) continue;
    const suffix = root.replace(/^Ag/, "");
    const tag = guardedUnionTag(def);
    if (root === "AgEvent")
      out.push({ root, unknown: "AgUnknownEvent", lenient: "AgLenientEvent", tag: "type", schema: unknownEventDef(defs) });
    else if (tag !== undefined) {
      out.push({ root, unknown: `AgUnknown${suffix}`, lenient: `AgLenient${suffix}`, tag, schema: unknownTagArm(tag) });
    }
  }
  return out;
}
