/**
 * AJV's raw errors turned into AgValidationIssues: a JSON Pointer to the field at fault, a message
 * that says what is wrong in AgJSON's words, the JSON Schema keyword, and the spec section
 * the rule comes from. Wrapper errors (`if` branches) that only say "a sub-schema failed" are dropped
 * so the precise error is the one reported (docs/research/codegen-findings.md §2), and a broken
 * cross-field rule (a failed `anyOf`/`oneOf`) is reported by what would satisfy it, naming the fields,
 * instead of AJV's summary and one error per alternative.
 */
import type { RawValidationError } from "../../generated/validators/types.js";

/** One reason a document is invalid. */
export interface AgValidationIssue {
  /** JSON Pointer (RFC 6901) to the offending value; "" is the document itself. */
  path: string;
  /** What is wrong, and where it matters what to do. */
  message: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `additionalProperties`, …), or `json`/`cap`/`version`. */
  keyword: string;
  /** The spec section defining the rule. */
  spec: string;
}

const WRAPPERS = new Set(["if", "then", "else"]);

/** RFC 6901 escaping of one reference token. */
export function pointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function toIssues(raw: readonly RawValidationError[] | null | undefined, spec: string): AgValidationIssue[] {
  if (!raw || raw.length === 0) return [{ path: "", message: "invalid document", keyword: "schema", spec }];
  const precise = raw.filter((e) => !WRAPPERS.has(e.keyword));
  const chosen = precise.length > 0 ? precise : raw;
  const seen = new Set<string>();
  const out: AgValidationIssue[] = [];
  for (const issue of collapseRules(chosen, spec)) {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out;
}

/** A failed `anyOf`, or a `oneOf` no alternative passed: a cross-field rule (schema/ states them so). */
function isFailedRule(e: RawValidationError): boolean {
  return e.keyword === "anyOf" || (e.keyword === "oneOf" && !Array.isArray(e.params.passingSchemas));
}

/**
 * AJV reports a broken rule as one error per alternative, then the rule's own summary. The rules in
 * schema/ are implications (`anyOf: [{not: condition}, consequence…]`) and exclusive choices
 * (`oneOf: [{required: [a]}, {required: [b]}]`): the `not` alternative's error only says the
 * condition holds, and the summary names no field, so neither tells a producer what to change.
 * Reported instead, at the rule's place: with one consequence left, its own precise issues (e.g.
 * `/errorText` missing when `outcome` is "error"); with several, one issue listing each way to
 * satisfy the rule; with none (every alternative excludes something present), one issue saying so.
 * A rule whose alternatives hold a rule of their own keeps AJV's errors as they are.
 */
function collapseRules(errors: readonly RawValidationError[], spec: string): AgValidationIssue[] {
  const replaced = new Map<RawValidationError, AgValidationIssue[]>();
  const dropped = new Set<RawValidationError>();
  for (const rule of errors) {
    if (!isFailedRule(rule)) continue;
    const prefix = `${rule.schemaPath}/`;
    const members = errors.filter((e) => e !== rule && e.schemaPath.startsWith(prefix));
    // Alternatives whose errors are not under the rule's own path are `$ref`s (the untagged union
    // AgSourcePayload): each shape's errors are its own, and stay as they are.
    if (members.length === 0 || members.some((e) => isFailedRule(e) || dropped.has(e))) continue;
    const ways = new Map<string, AgValidationIssue[]>();
    for (const e of members) {
      dropped.add(e);
      const branch = e.schemaPath.slice(prefix.length).split("/")[0]!;
      // An alternative's own `not` failing says only that the rule's condition holds.
      if (e.keyword === "not" && e.schemaPath === `${prefix}${branch}/not`) continue;
      ways.set(branch, [...(ways.get(branch) ?? []), toIssue(e, spec)]);
    }
    const alternatives = [...ways.values()];
    replaced.set(
      rule,
      alternatives.length === 1
        ? alternatives[0]!.map((i) => ({ ...i, message: `${i.message} (a cross-field rule requires it here)` }))
        : [
            {
              path: rule.instancePath,
              keyword: rule.keyword,
              spec,
              message:
                alternatives.length === 0
                  ? "breaks a cross-field rule: fields it allows only apart are present together"
                  : `breaks a cross-field rule; any one of these satisfies it: ${alternatives.map((is) => is.map((i) => (i.keyword === "required" ? `${i.path} present` : `${i.path || "/"} ${i.message}`)).join(" and ")).join("; or ")}`,
            },
          ],
    );
  }
  const out: AgValidationIssue[] = [];
  for (const e of errors) if (!dropped.has(e)) out.push(...(replaced.get(e) ?? [toIssue(e, spec)]));
  return out;
}

function toIssue(e: RawValidationError, spec: string): AgValidationIssue {
  const p = e.params;
  const at = e.instancePath;
  switch (e.keyword) {
    // `closedProperties` is the generated strict validators' faster additionalProperties:false.
    case "closedProperties":
    case "additionalProperties": {
      const field = String(p.additionalProperty);
      return {
        path: `${at}/${pointerToken(field)}`,
        keyword: "additionalProperties",
        spec: "§0.2",
        message: `unknown field "${field}": producer-strict allows only the spec's fields (${extrasHint(p.extrasIn)})`,
      };
    }
    case "required": {
      const field = String(p.missingProperty);
      return { path: `${at}/${pointerToken(field)}`, keyword: e.keyword, spec, message: `missing required field "${field}"` };
    }
    case "discriminator": {
      const tag = String(p.tag);
      if (p.error === "mapping") {
        return {
          path: `${at}/${pointerToken(tag)}`,
          keyword: e.keyword,
          spec: "§0.2",
          message: `unknown ${tag} ${JSON.stringify(p.tagValue)}: producer-strict accepts only the spec's ${tag} values (a consumer validates leniently and skips it)`,
        };
      }
      return { path: `${at}/${pointerToken(tag)}`, keyword: e.keyword, spec, message: `"${tag}" must be a string naming the variant` };
    }
    case "const":
      return { path: at, keyword: e.keyword, spec, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "enum":
      return {
        path: at,
        keyword: e.keyword,
        spec,
        message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`,
      };
    case "oneOf":
      return {
        path: at,
        keyword: e.keyword,
        spec,
        message: Array.isArray(p.passingSchemas)
          ? "matches more than one alternative of a cross-field rule (e.g. both of two mutually exclusive fields)"
          : "matches none of its alternatives (each one's errors are listed)",
      };
    case "anyOf":
      return { path: at, keyword: e.keyword, spec, message: "breaks a cross-field rule: fields that must agree do not" };
    case "not":
      return { path: at, keyword: e.keyword, spec, message: "has a field or value this combination does not allow" };
    case "pattern":
      return { path: at, keyword: e.keyword, spec, message: `does not match the required form ${String(p.pattern)}` };
    case "format":
      return { path: at, keyword: e.keyword, spec, message: `must be a valid ${String(p.format)}` };
    // The generated validators carry no message strings (Ajv's `messages: false`, a third of the
    // bytes a browser loads, emit-validators.ts); the rest of Ajv's wording is rebuilt here from
    // the keyword's params, as Ajv words it.
    case "type":
      return { path: at, keyword: e.keyword, spec, message: `must be ${String(p.type)}` };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return { path: at, keyword: e.keyword, spec, message: `must be ${String(p.comparison)} ${String(p.limit)}` };
    case "if":
      return { path: at, keyword: e.keyword, spec, message: `must match "${String(p.failingKeyword)}" schema` };
    default:
      return { path: at, keyword: e.keyword, spec, message: e.message ?? `fails ${e.keyword}` };
  }
}

/**
 * Where §12 lets the extras go, from the fields the generated strict validator says the object
 * declares (`closedProperties`' `extrasIn`); an `additionalProperties` error of another validator
 * does not say, so the hint names every carrier.
 */
function extrasHint(extrasIn: unknown): string {
  if (typeof extrasIn !== "string") return "carry extras in the object's _meta, providerMetadata or metadata, whichever it has";
  if (extrasIn === "") return "this object has no field for extras: carry them in an enclosing object's _meta";
  return `use ${extrasIn.split(" ").join(" or ")} for extras`;
}
