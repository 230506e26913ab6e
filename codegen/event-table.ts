/**
 * The discriminator table read once from the schemas: each known event and block with its wire
 * type, `$def` name and annotations (already checked by lint). Fold, profile and other-language
 * emitters all work from it, so they cannot disagree.
 */
import { refTarget, type SchemaNode, type SchemaSet } from "./load.js";
import type { FoldAnnotation, ProfileAnnotation } from "./annotations.js";

export interface EventEntry {
  type: string;
  def: string;
  profile: ProfileAnnotation;
  fold: FoldAnnotation;
}
export interface BlockEntry {
  type: string;
  def: string;
  profile: ProfileAnnotation;
}

function variants(set: SchemaSet, union: string): { def: string; schema: SchemaNode }[] {
  const u = set.defs.get(union)?.schema;
  return ((u?.oneOf ?? []) as SchemaNode[]).map((m) => {
    const def = refTarget(String(m.$ref))!.def;
    return { def, schema: set.defs.get(def)!.schema };
  });
}

function typeConst(schema: SchemaNode): string {
  return String(((schema.properties ?? {}) as Record<string, SchemaNode>).type?.const);
}

export function eventTable(set: SchemaSet): EventEntry[] {
  return variants(set, "AgKnownEvent").map(({ def, schema }) => ({
    type: typeConst(schema),
    def,
    profile: schema["x-agjson-profile"] as ProfileAnnotation,
    fold: schema["x-agjson-fold"] as FoldAnnotation,
  }));
}

export function blockTable(set: SchemaSet): BlockEntry[] {
  return variants(set, "AgBlock").map(({ def, schema }) => ({
    type: typeConst(schema),
    def,
    profile: schema["x-agjson-profile"] as ProfileAnnotation,
  }));
}

export function extEventProfile(set: SchemaSet): ProfileAnnotation {
  return set.defs.get("AgExtEvent")!.schema["x-agjson-profile"] as ProfileAnnotation;
}

/** The AgExtEvent `type` pattern (§12). */
export function extEventPattern(set: SchemaSet): string {
  const props = (set.defs.get("AgExtEvent")!.schema.properties ?? {}) as Record<string, SchemaNode>;
  return String(props.type?.pattern);
}
