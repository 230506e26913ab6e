/** Validation of AgJSON documents: postures, typed issues, version negotiation, caps (§0.2, §12, §13; docs/validation.md). */
export {
  validateEvent, validateInput, validateMessage, validateBlock, validateReduceResult, validateEventText,
  parseCapped, isKnownEventType,
  type Posture, type ValidateOptions, type ValidationFailure, type EventValidation, type InputValidation,
  type MessageValidation, type BlockValidation, type ReduceResultValidation, type DocumentKind, type StrictOptions,
  type KnownEventValidation, type UnknownEventValidation, type StrictEventValidation, type LenientEventValidation,
  type KnownInputValidation, type UnknownInputValidation, type StrictInputValidation, type LenientInputValidation,
  type KnownBlockValidation, type UnknownBlockValidation, type StrictBlockValidation, type LenientBlockValidation,
} from "./validate.js";
export { type AgValidationIssue, pointerToken } from "./issues.js";
export { negotiateVersion, SPEC_VERSION, type VersionVerdict } from "./version.js";
export { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";
