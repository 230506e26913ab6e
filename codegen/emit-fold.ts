/**
 * Emitter: the fold scaffold `reduce()` is built on (§5). A handler table with one entry per
 * folding event type (a missing handler is a compile error) and a dispatcher whose `switch`
 * hands each event to its handler as its exact type. It takes what a consumer-lenient parse
 * yields (AgEvent | AgUnknownEvent): TypeScript cannot exclude a `string`-typed tag under a case,
 * so the generated code asserts each case's type there, and only there (an AgUnknownEvent never
 * carries a named type). Live-only, `ext.*` and unknown types go to optional fallbacks (§0.2:
 * clients ignore unknown types; INV-SEQ still sees them).
 */
import { FOLD_KINDS, type FoldAnnotation } from "./annotations.js";
import type { EventEntry } from "./event-table.js";

const q = (s: string) => JSON.stringify(s);

/**
 * The families of the §5 folding table, one `src/reduce/` module each: the turn record, the
 * message, the three streamed block kinds, whole blocks (`content.block`), the resync snapshot,
 * and the side channels, plus the two live-only families §5 names (HITL, §7; the `ui.*` surface
 * RPC, §6).
 */
export const FOLD_FAMILIES = [
  "turn",
  "message",
  "text",
  "reasoning",
  "tool",
  "content",
  "snapshot",
  "artifact",
  "state",
  "memory",
  "hitl",
  "ui",
] as const;
export type FoldFamily = (typeof FOLD_FAMILIES)[number];

/** Fold kinds whose §5 rows all belong to one family. */
const FAMILY_OF_KIND: Partial<Record<FoldAnnotation, FoldFamily>> = {
  "turn-open": "turn",
  "turn-close": "turn",
  "turn-record": "turn",
  "message-open": "message",
  "message-seal": "message",
  "message-remove": "message",
  "message-merge": "message",
  "block-insert": "content",
  "tool-land": "tool",
  "snapshot-replace": "snapshot",
  "artifact-open": "artifact",
  "artifact-append": "artifact",
  "artifact-seal": "artifact",
  "state-replace": "state",
  "state-patch": "state",
  "memory-land": "memory",
};

/**
 * Live-only events whose first type segment names no family: `error` and `step.*` are §4's
 * LIFECYCLE markers of a turn; `host.context` is ephemeral render state "like" the `ui.*` surface
 * events (§5 table).
 */
const LIVE_ONLY_FAMILY: Readonly<Record<string, FoldFamily>> = { error: "turn", step: "turn", host: "ui" };

/**
 * The family of one event: by its fold kind when the kind names one; a streamed-block row
 * (create/append/seal/replace, scratch) by the block kind, its type's first segment; a live-only
 * row by its first segment. A type that fits none stops the generator: a new family is a new
 * `src/reduce/` module, decided by a person.
 */
export function foldFamily(entry: EventEntry): FoldFamily {
  const byKind = FAMILY_OF_KIND[entry.fold];
  if (byKind !== undefined) return byKind;
  const segment = entry.type.split(".")[0] ?? "";
  const named = FOLD_FAMILIES.find((family) => family === segment);
  if (entry.fold === "live-only") {
    const family = named ?? LIVE_ONLY_FAMILY[segment];
    if (family !== undefined) return family;
  } else if (named === "text" || named === "reasoning" || named === "tool") {
    return named;
  }
  throw new Error(
    `agjson gen: event ${q(entry.type)} (x-agjson-fold ${q(entry.fold)}) belongs to no §5 family of codegen/emit-fold.ts; add it to FAMILY_OF_KIND or LIVE_ONLY_FAMILY`,
  );
}

export function emitFoldScaffold(events: EventEntry[], extPattern: string, banner: string): string {
  const folding = events.filter((e) => e.fold !== "live-only");
  const live = events.filter((e) => e.fold === "live-only");
  // A fold consumes what a consumer-lenient parse yields (§0.2, §12): the lenient type tree.
  const out: string[] = [banner, `import type * as T from "./lenient-types.js";`, ""];
  out.push("/** Every named event type of §4, in schema order. */");
  out.push(`export const KNOWN_EVENT_TYPES = [\n${events.map((e) => `  ${q(e.type)},`).join("\n")}\n] as const;`);
  out.push("", "/** A named (non-ext) event type. */", "export type AgKnownEventType = (typeof KNOWN_EVENT_TYPES)[number];", "");
  out.push("/** Event type → its generated TS type. */", "export interface AgEventByType {");
  for (const e of events) out.push(`  ${q(e.type)}: T.${e.def};`);
  out.push("}", "");
  out.push("/** A §5 fold kind (docs/schema.md). */");
  out.push(`export type FoldKind =\n${FOLD_KINDS.map((k) => `  | ${q(k)}`).join("\n")};`, "");
  out.push("/** The §5 table, read from each event's `x-agjson-fold`. */");
  out.push(
    `export const FOLD_TABLE: { readonly [K in AgKnownEventType]: FoldKind } = {\n${events.map((e) => `  ${q(e.type)}: ${q(e.fold)},`).join("\n")}\n};`,
    "",
  );
  out.push("/** Event types whose §5 row folds into AgReduceResult. */");
  out.push(`export type FoldingEventType =\n${folding.map((e) => `  | ${q(e.type)}`).join("\n")};`, "");
  out.push("/** Event types §5 marks live-only: delivered to the live client, never folded. */");
  out.push(`export type LiveOnlyEventType =\n${live.map((e) => `  | ${q(e.type)}`).join("\n")};`, "");
  out.push("/** A family of the §5 folding table: one `src/reduce/` module each. */");
  out.push(`export type FoldFamily =\n${FOLD_FAMILIES.map((f) => `  | ${q(f)}`).join("\n")};`, "");
  out.push("/** Every family, in §5 table order. */");
  out.push(`export const FOLD_FAMILIES = [${FOLD_FAMILIES.map(q).join(", ")}] as const;`, "");
  out.push("/** Event type → the family whose module folds it (or, for a live-only row, documents it). */");
  out.push(
    `export const FOLD_FAMILY: { readonly [K in AgKnownEventType]: FoldFamily } = {\n${events.map((e) => `  ${q(e.type)}: ${q(foldFamily(e))},`).join("\n")}\n};`,
    "",
  );
  out.push("/** Family → its event types (folding and live-only), in schema order. */");
  out.push("export interface FoldFamilyEvents {");
  for (const family of FOLD_FAMILIES) {
    const members = events.filter((e) => foldFamily(e) === family);
    out.push(`  ${q(family)}: ${members.length === 0 ? "never" : members.map((e) => q(e.type)).join(" | ")};`);
  }
  out.push("}", "");
  out.push("/** The handlers one family module provides: exactly its folding event types. */");
  out.push(
    "export type FamilyFoldHandlers<F extends FoldFamily, S> = {",
    "  readonly [K in FoldFamilyEvents[F] & FoldingEventType]: (state: S, event: AgEventByType[K]) => void;",
    "};",
    "",
  );
  out.push("/** One handler per folding event type; each receives the exact event type. */");
  out.push("export type FoldHandlers<S> = {", "  readonly [K in FoldingEventType]: (state: S, event: AgEventByType[K]) => void;", "};", "");
  out.push("/** Where events that do not fold go; every fallback is optional. */");
  out.push("export interface FoldFallbacks<S> {");
  out.push("  /** A known event whose §5 row is live-only. */");
  out.push("  liveOnly?: (state: S, event: AgEventByType[LiveOnlyEventType]) => void;");
  out.push("  /** An `ext.<vendor>.<key>` event (§12): live-only unless a vendor profile folds it. */");
  out.push("  ext?: (state: S, event: T.AgExtEvent) => void;");
  out.push("  /** A type this version does not know (a later same-major minor, §12). */");
  out.push("  unknown?: (state: S, event: { readonly type: string; readonly seq: number }) => void;");
  out.push("}", "");
  out.push("/** The `ext.<vendor>.<key>` type form (§12), the AgExtEvent schema's own pattern. */");
  out.push(`export const EXT_EVENT_TYPE: RegExp = new RegExp(${q(extPattern)});`, "");
  out.push("/**");
  out.push(" * Routes one event — as a consumer-lenient parse yields it (§0.2, §12) — to its handler or fallback.");
  out.push(" * An AgUnknownEvent never carries a named type (the lenient AgEvent sends every named type to");
  out.push(" * AgKnownEvent), so under a case the event is that case's type: the one place this is asserted.");
  out.push(" */");
  out.push(
    "export function dispatchFold<S>(handlers: FoldHandlers<S>, fallbacks: FoldFallbacks<S>, state: S, event: T.AgEvent | T.AgUnknownEvent): void {",
  );
  out.push("  switch (event.type) {");
  for (const e of folding) out.push(`    case ${q(e.type)}:`, `      return handlers[${q(e.type)}](state, event as T.${e.def});`);
  for (const e of live) out.push(`    case ${q(e.type)}:`);
  out.push("      return fallbacks.liveOnly?.(state, event as AgEventByType[LiveOnlyEventType]);");
  out.push("    default:");
  out.push("      if (EXT_EVENT_TYPE.test(event.type)) return fallbacks.ext?.(state, event as T.AgExtEvent);");
  out.push("      return fallbacks.unknown?.(state, event);");
  out.push("  }");
  out.push("}", "");
  return out.join("\n");
}
