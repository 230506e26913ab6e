/**
 * Validation in one posture only: producer-strict (the producer posture, §0.2: exactly the schema, no field or type outside it).
 * Imports only the strict generated validators, so `agjson/validate/strict` bundles none of the other
 * posture's code (issue 22). Same results as `agjson/validate` with `{ posture: "strict" }`.
 */
import * as generated from "../../generated/validators/strict.js";
import type { ParseCaps } from "./caps.js";
import {
  eventTypeMap, parseCapped, validateBlockWith, validateEventWith, validateInputWith, validateMessageWith, validateReduceResultWith,
  type BlockValidation, type CheckOptions, type EventValidation, type EventValidators, type InputValidation, type MessageValidation, type ReduceResultValidation,
} from "./core.js";

export {
  isKnownEventType, parseCapped,
  type EventValidation, type InputValidation, type MessageValidation, type BlockValidation, type ReduceResultValidation, type ValidationFailure, type CheckOptions,
} from "./core.js";
export { type AgValidationIssue, pointerToken } from "./issues.js";
export { negotiateVersion, SPEC_VERSION, type VersionVerdict } from "./version.js";
export { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";

// Built on first use: a bundle that never validates an event drops the event validators.
let events: EventValidators | undefined;

/** Validates one AgEvent (§4). */
export function validateEvent(x: unknown, opts?: CheckOptions): EventValidation {
  events ??= { byType: eventTypeMap(generated.knownEventValidators), ext: generated.validateAgExtEvent, root: generated.validateAgEvent };
  return validateEventWith(events, x, opts);
}

/** Validates one AgInput (§3), including version negotiation (§12). */
export function validateInput(x: unknown, opts?: CheckOptions): InputValidation {
  return validateInputWith(generated.validateAgInput, x, opts);
}

/** Validates one AgMessage (§3.2). */
export function validateMessage(x: unknown, opts?: CheckOptions): MessageValidation {
  return validateMessageWith(generated.validateAgMessage, x, opts);
}

/** Validates one content block (§2). */
export function validateBlock(x: unknown, opts?: CheckOptions): BlockValidation {
  return validateBlockWith(generated.validateAgBlock, x, opts);
}

/** Validates an AgReduceResult (§5). */
export function validateReduceResult(x: unknown, opts?: CheckOptions): ReduceResultValidation {
  return validateReduceResultWith(generated.validateAgReduceResult, x, opts);
}

/** Parses one JSON text under the §13 caps, then validates it as an AgEvent. */
export function validateEventText(text: string, opts?: { caps?: Partial<ParseCaps> }): EventValidation {
  const parsed = parseCapped(text, opts?.caps);
  if (!parsed.ok) return parsed;
  return validateEvent(parsed.value, { parsed: true });
}
