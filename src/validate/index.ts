/** Validation of AgJSON documents: postures, typed issues, version negotiation, caps (§0.2, §12, §13; docs/validation.md). */
export {
  validateEvent, validateInput, validateMessage, validateBlock, validateReduceResult, validateEventText,
  parseCapped, isKnownEventType, isExtEvent, POSTURES, DOCUMENT_KINDS,
  type Posture, type ValidateOptions, type ValidationFailure, type EventValidation, type InputValidation,
  type MessageValidation, type BlockValidation, type ReduceResultValidation, type DocumentKind, type StrictOptions,
  type LenientKnownEvent, type LenientKnownInput, type LenientKnownBlock, type StrictMessageValidation, type StrictReduceResultValidation,
  type KnownEventValidation, type UnknownEventValidation, type StrictEventValidation, type LenientEventValidation,
  type KnownInputValidation, type UnknownInputValidation, type StrictInputValidation, type LenientInputValidation,
  type KnownBlockValidation, type UnknownBlockValidation, type StrictBlockValidation, type LenientBlockValidation,
} from "./validate.js";
export { type AgValidationIssue, pointerToken } from "./issues.js";
// Narrowing what a lenient parse yields (§0.2, §12): each guard tells a known union member from one a
// later minor added, before a switch on its tag.
export {
  isKnownEvent, isKnownBlock, isKnownInput, isKnownOutcome, isKnownSource, isKnownCitation, isKnownToolSource,
  isKnownSurfaceInteraction, isKnownA2uiSurfaceInteraction, isKnownMcpAppViewMessage, isKnownOpenAiWidgetAction,
} from "../../generated/schema-facts.js";
export type * as Lenient from "../../generated/lenient-types.js";
export { negotiateVersion, SPEC_VERSION, type VersionVerdict } from "./version.js";
export { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";
