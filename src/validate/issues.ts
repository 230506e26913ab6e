/**
 * AJV's raw errors turned into AgValidationIssues: a JSON Pointer to the field at fault, a message
 * that says what is wrong in AgJSON's words, the JSON Schema keyword, and the spec section
 * the rule comes from. Wrapper errors (`if` branches) that only say "a sub-schema failed" are dropped
 * so the precise error is the one reported (docs/research/codegen-findings.md §2).
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
  for (const e of chosen) {
    const issue = toIssue(e, spec);
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
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
      return { path: `${at}/${pointerToken(field)}`, keyword: "additionalProperties", spec: "§0.2", message: `unknown field "${field}": producer-strict allows only the spec's fields (use _meta or providerMetadata for extras)` };
    }
    case "required": {
      const field = String(p.missingProperty);
      return { path: `${at}/${pointerToken(field)}`, keyword: e.keyword, spec, message: `missing required field "${field}"` };
    }
    case "discriminator": {
      const tag = String(p.tag);
      if (p.error === "mapping") {
        return { path: `${at}/${pointerToken(tag)}`, keyword: e.keyword, spec: "§0.2", message: `unknown ${tag} ${JSON.stringify(p.tagValue)}: producer-strict accepts only the spec's ${tag} values (a consumer validates leniently and skips it)` };
      }
      return { path: `${at}/${pointerToken(tag)}`, keyword: e.keyword, spec, message: `"${tag}" must be a string naming the variant` };
    }
    case "const":
      return { path: at, keyword: e.keyword, spec, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "enum":
      return { path: at, keyword: e.keyword, spec, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "oneOf":
      return {
        path: at, keyword: e.keyword, spec,
        message: Array.isArray(p.passingSchemas)
          ? "matches more than one alternative of a cross-field rule (e.g. both of two mutually exclusive fields)"
          : "matches none of the alternatives of a cross-field rule (e.g. a field required by another field's value is missing)",
      };
    case "anyOf":
      return { path: at, keyword: e.keyword, spec, message: "breaks a cross-field rule: fields that must appear together (or a value that requires another field) do not agree" };
    case "not":
      return { path: at, keyword: e.keyword, spec, message: "breaks a cross-field rule: a field or value that is not allowed in this combination is present" };
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
