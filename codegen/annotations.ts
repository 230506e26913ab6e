/**
 * The `x-agjson-*` annotation vocabulary (DESIGN §3), defined once with TypeBox so the generator
 * can refuse a malformed annotation with a precise message and the emitters get typed values.
 * TypeBox 0.34 cannot read raw JSON Schema, so it is not the validator of AgJSON documents; this —
 * typed definitions of the generator's own inputs — is the job it does well (docs/codegen.md).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const ProfileAnnotation = Type.Union(
  [Type.Literal("CORE"), Type.Literal("EXTENDED"), Type.Literal("ADVANCED")],
  { description: "x-agjson-profile: the §9 profile that introduces the event or block" },
);
export type ProfileAnnotation = Static<typeof ProfileAnnotation>;

/** The §5 fold table rows as fold kinds (docs/schema.md lists what each means). */
export const FOLD_KINDS = [
  "live-only",
  "turn-open", "turn-close", "turn-record",
  "message-open", "message-seal", "message-remove", "message-merge",
  "block-create", "block-append", "block-seal", "block-replace", "block-insert",
  "scratch-append", "tool-land", "snapshot-replace",
  "artifact-open", "artifact-append", "artifact-seal",
  "state-replace", "state-patch", "memory-land",
] as const;

export const FoldAnnotation = Type.Union(
  FOLD_KINDS.map((k) => Type.Literal(k)),
  { description: "x-agjson-fold: the §5 fold this event performs" },
);
export type FoldAnnotation = (typeof FOLD_KINDS)[number];

/** Checks one annotation value; returns a message naming the allowed values when it is wrong. */
export function checkAnnotation(keyword: "x-agjson-profile" | "x-agjson-fold", value: unknown): string | undefined {
  const schema = keyword === "x-agjson-profile" ? ProfileAnnotation : FoldAnnotation;
  if (Value.Check(schema, value)) return undefined;
  const allowed = keyword === "x-agjson-profile" ? ["CORE", "EXTENDED", "ADVANCED"] : FOLD_KINDS;
  return `${keyword} is ${JSON.stringify(value)}; expected one of ${allowed.join(", ")}`;
}

/** Options of `agjson gen`, validated before any work starts. */
export const GenOptions = Type.Object(
  {
    check: Type.Boolean({ description: "render in memory and compare with generated/ instead of writing" }),
    root: Type.String({ minLength: 1, description: "repository root holding schema/ and generated/" }),
    only: Type.Optional(Type.Array(Type.String(), { description: "emit only these artifacts (by emitter name)" })),
  },
  { additionalProperties: false },
);
export type GenOptions = Static<typeof GenOptions>;

export function parseGenOptions(input: unknown): GenOptions {
  if (Value.Check(GenOptions, input)) return input;
  const first = [...Value.Errors(GenOptions, input)][0];
  throw new Error(`agjson gen: bad option ${first?.path || "/"}: ${first?.message ?? "invalid"}`);
}
