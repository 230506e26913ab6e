/**
 * Validation in one posture only: consumer-lenient (§0.2, §12: unknown types and fields pass
 * through; an unknown event type, block type or input kind is `known: false`, typed as its
 * `AgUnknown*` arm). Imports only the lenient generated validators, so `agjson/validate/lenient`
 * bundles none of the other posture's code. Same results as `agjson/validate` with
 * `{ posture: "lenient" }`.
 */
import * as generated from "../../generated/validators/lenient.js";
import type { ParseCaps } from "./caps.js";
import { isJsonTree } from "./graph.js";
import {
  KnownEventTable,
  parseCapped,
  validateLenientBlockWith,
  validateLenientEventWith,
  validateLenientInputWith,
  validateMessageWith,
  validateReduceResultWith,
  type CheckOptions,
  type LenientEventValidators,
  type LenientKnownEvent,
  type LenientBlockValidation,
  type LenientEventValidation,
  type LenientInputValidation,
  type LenientMessageValidation,
  type LenientReduceResultValidation,
} from "./core.js";

export {
  isKnownEventType,
  isExtEvent,
  parseCapped,
  type LenientEventValidation as EventValidation,
  type LenientInputValidation as InputValidation,
  type LenientBlockValidation as BlockValidation,
  type LenientMessageValidation as MessageValidation,
  type LenientReduceResultValidation as ReduceResultValidation,
  type ValidationFailure,
  type CheckOptions,
  type KnownEventValidation,
  type KnownInputValidation,
  type KnownBlockValidation,
} from "./core.js";
// Lenient only: what an unknown event type, input kind or block type passes as (§0.2, §12).
export type { UnknownEventValidation, UnknownInputValidation, UnknownBlockValidation } from "./core.js";
export { type AgValidationIssue, pointerToken } from "./issues.js";
export { negotiateVersion, SPEC_VERSION, type VersionVerdict } from "./version.js";
export { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";

// Built on first use: a bundle that never validates an event drops the event validators.
let events: LenientEventValidators | undefined;

/** Validates one AgEvent (§4); an unknown type is `known: false` with an AgUnknownEvent. */
export function validateEvent(x: unknown, opts?: CheckOptions): LenientEventValidation {
  if (events === undefined) {
    const accepts = generated.createEventAccepts(isJsonTree);
    events = {
      byType: new KnownEventTable<LenientKnownEvent>(generated.knownEventValidators, accepts.byType),
      ext: generated.validateAgExtEvent,
      extAccept: accepts.ext,
      unknown: generated.validateAgUnknownEvent,
    };
  }
  return validateLenientEventWith(events, x, opts);
}

/** Validates one AgInput (§3), including version negotiation (§12); an unknown kind is `known: false`. */
export function validateInput(x: unknown, opts?: CheckOptions): LenientInputValidation {
  return validateLenientInputWith(generated.validateAgInput, x, opts);
}

/** Validates one AgMessage (§3.2). */
export function validateMessage(x: unknown, opts?: CheckOptions): LenientMessageValidation {
  return validateMessageWith(generated.validateAgMessage, x, opts);
}

/** Validates one content block (§2); an unknown type is `known: false` with an AgUnknownBlock. */
export function validateBlock(x: unknown, opts?: CheckOptions): LenientBlockValidation {
  return validateLenientBlockWith(generated.validateAgBlock, x, opts);
}

/** Validates an AgReduceResult (§5). */
export function validateReduceResult(x: unknown, opts?: CheckOptions): LenientReduceResultValidation {
  return validateReduceResultWith(generated.validateAgReduceResult, x, opts);
}

/** Parses one JSON text under the §13 caps, then validates it as an AgEvent. */
export function validateEventText(text: string, opts?: { caps?: Partial<ParseCaps> }): LenientEventValidation {
  const parsed = parseCapped(text, opts?.caps);
  if (!parsed.ok) return parsed;
  return validateEvent(parsed.value, { parsed: true });
}
