/**
 * The `x-agjson-*` annotation vocabulary (docs/schema.md), defined once with TypeBox so the generator
 * can refuse a malformed annotation with a precise message and the emitters get typed values.
 * TypeBox 0.34 cannot read raw JSON Schema, so it is not the validator of AgJSON documents; this —
 * typed definitions of the generator's own inputs — is the job it does well (docs/codegen.md).
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

export const ProfileAnnotation = Type.Union([Type.Literal("CORE"), Type.Literal("EXTENDED"), Type.Literal("ADVANCED")], {
  description: "x-agjson-profile: the §9 profile that introduces the event or block",
});
export type ProfileAnnotation = Static<typeof ProfileAnnotation>;

/** The §5 fold table rows as fold kinds (docs/schema.md lists what each means). */
export const FOLD_KINDS = [
  "live-only",
  "turn-open",
  "turn-close",
  "turn-record",
  "message-open",
  "message-seal",
  "message-remove",
  "message-merge",
  "block-create",
  "block-append",
  "block-seal",
  "block-replace",
  "block-insert",
  "scratch-append",
  "tool-land",
  "snapshot-replace",
  "artifact-open",
  "artifact-append",
  "artifact-seal",
  "state-replace",
  "state-patch",
  "memory-land",
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

/**
 * `x-agjson-open-enum: true` beside an `enum`: a same-major minor may add values (§0.2, §12
 * additive-minor), so the consumer-lenient posture accepts any string there and `reduce()` keeps
 * it verbatim; producer-strict still allows only the listed values (docs/validation.md lists them).
 */
export const OPEN_ENUM_KEYWORD = "x-agjson-open-enum";

/**
 * The rules JSON Schema cannot state, each an annotation on the node it constrains and run by the
 * semantic layer after schema validation, in both postures unless a rule names `posture: "strict"`
 * (`generated/semantic-rules.ts`):
 * `x-agjson-distinct` on an object — two of its fields, when both present, differ;
 * `x-agjson-unique` on an array — among the items matching `where`, no two share `key`.
 */
export const DistinctRule = Type.Object(
  {
    fields: Type.Tuple([Type.String(), Type.String()]),
    spec: Type.String({ pattern: "^§" }),
    rule: Type.String({ pattern: "^[a-z][a-z0-9-]*$" }),
    message: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false, description: "x-agjson-distinct: two fields of one object that may not be equal" },
);
export type DistinctRule = Static<typeof DistinctRule>;

export const UniqueRule = Type.Object(
  {
    key: Type.String(),
    where: Type.Record(Type.String(), Type.String()),
    /**
     * `strict`: a producer rule only — producer-strict refuses the document, consumer-lenient accepts
     * it and the fold reports what it kept (docs/spec-decisions.md D21). Absent: both postures.
     */
    posture: Type.Optional(Type.Literal("strict")),
    spec: Type.String({ pattern: "^§" }),
    rule: Type.String({ pattern: "^[a-z][a-z0-9-]*$" }),
    message: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false, description: "x-agjson-unique: items of one array (those matching `where`) may not share `key`" },
);
export type UniqueRule = Static<typeof UniqueRule>;

export const SEMANTIC_KEYWORDS = { "x-agjson-distinct": DistinctRule, "x-agjson-unique": UniqueRule } as const;
export type SemanticKeyword = keyof typeof SEMANTIC_KEYWORDS;

/** Every `x-agjson-*` keyword: annotations to the generator, never keywords of a derived schema. */
export const ANNOTATION_KEYWORDS: readonly string[] = [
  "x-agjson-profile",
  "x-agjson-fold",
  OPEN_ENUM_KEYWORD,
  ...Object.keys(SEMANTIC_KEYWORDS),
];

/** Checks a semantic-rule or open-enum annotation where it sits; a message when it is malformed. */
export function checkSemanticAnnotation(keyword: string, value: unknown, node: Record<string, unknown>): string | undefined {
  if (keyword === OPEN_ENUM_KEYWORD) {
    if (value !== true) return `${keyword} is ${JSON.stringify(value)}; expected true`;
    if (!Array.isArray(node.enum)) return `${keyword} sits on a node without an enum`;
    return undefined;
  }
  const schema = SEMANTIC_KEYWORDS[keyword as SemanticKeyword];
  if (schema === undefined) return undefined;
  if (!Value.Check(schema, value)) {
    const first = [...Value.Errors(schema, value)][0];
    return `${keyword} is malformed at ${first?.path || "/"}: ${first?.message ?? "invalid"}`;
  }
  if (keyword === "x-agjson-distinct" && node.type !== "object") return `${keyword} sits on a node that is not an object`;
  if (keyword === "x-agjson-unique" && node.type !== "array") return `${keyword} sits on a node that is not an array`;
  return undefined;
}
