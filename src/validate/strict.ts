/**
 * Validation in one posture only: producer-strict (§0.2: exactly the schema, no field or type
 * outside it; everything that passes is known, typed as the schema's own types). Imports only
 * the strict generated validators, so `agjson/validate/strict` bundles none of the other
 * posture's code. Same results as `agjson/validate` with `{ posture: "strict" }`.
 */
import { strictRuleSites } from "../../generated/semantic-rules.js";
import * as generated from "../../generated/validators/strict.js";
import type { ParseCaps } from "./caps.js";
import { isJsonTree } from "./graph.js";
import {
  KnownEventTable,
  parseCapped,
  validateStrictBlockWith,
  validateStrictEventWith,
  validateStrictInputWith,
  validateMessageWith,
  validateReduceResultWith,
  type CheckOptions,
  type StrictEventValidators,
  type StrictKnownEvent,
  type StrictBlockValidation,
  type StrictEventValidation,
  type StrictInputValidation,
  type StrictMessageValidation,
  type StrictReduceResultValidation,
} from "./core.js";

export {
  isKnownEventType,
  isExtEvent,
  parseCapped,
  type StrictEventValidation as EventValidation,
  type StrictInputValidation as InputValidation,
  type StrictBlockValidation as BlockValidation,
  type StrictMessageValidation as MessageValidation,
  type StrictReduceResultValidation as ReduceResultValidation,
  type ValidationFailure,
  type CheckOptions,
  type KnownEventValidation,
  type KnownInputValidation,
  type KnownBlockValidation,
} from "./core.js";
export { type AgValidationIssue, pointerToken } from "./issues.js";
export { negotiateVersion, SPEC_VERSION, type VersionVerdict } from "./version.js";
export { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";

// Built on first use: a bundle that never validates an event drops the event validators.
let events: StrictEventValidators | undefined;

/** Validates one AgEvent (§4); an unknown type is an error. */
export function validateEvent(x: unknown, opts?: CheckOptions): StrictEventValidation {
  if (events === undefined) {
    const accepts = generated.createEventAccepts(isJsonTree);
    events = {
      byType: new KnownEventTable<StrictKnownEvent>(generated.knownEventValidators, accepts.byType, strictRuleSites.AgEvent),
      ext: generated.validateAgExtEvent,
      extAccept: accepts.ext,
      root: generated.validateAgEvent,
    };
  }
  return validateStrictEventWith(events, x, opts);
}

/** Validates one AgInput (§3), including version negotiation (§12); an unknown kind is an error. */
export function validateInput(x: unknown, opts?: CheckOptions): StrictInputValidation {
  return validateStrictInputWith(generated.validateAgInput, x, opts);
}

/** Validates one AgMessage (§3.2). */
export function validateMessage(x: unknown, opts?: CheckOptions): StrictMessageValidation {
  return validateMessageWith(generated.validateAgMessage, x, opts);
}

/** Validates one content block (§2); an unknown type is an error. */
export function validateBlock(x: unknown, opts?: CheckOptions): StrictBlockValidation {
  return validateStrictBlockWith(generated.validateAgBlock, x, opts);
}

/** Validates an AgReduceResult (§5). */
export function validateReduceResult(x: unknown, opts?: CheckOptions): StrictReduceResultValidation {
  return validateReduceResultWith(generated.validateAgReduceResult, x, opts, strictRuleSites.AgReduceResult);
}

/** Parses one JSON text under the §13 caps, then validates it as an AgEvent. */
export function validateEventText(text: string, opts?: { caps?: Partial<ParseCaps> }): StrictEventValidation {
  const parsed = parseCapped(text, opts?.caps);
  if (!parsed.ok) return parsed;
  return validateEvent(parsed.value, { parsed: true });
}
