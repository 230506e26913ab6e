/**
 * The validation API (docs/validation.md) with the posture as an option. Two postures (§0.2):
 * producer-strict checks exactly the schema; consumer-lenient — the default, because a consumer
 * MUST ignore unknown types and fields (§0.2, §12) — passes unknown fields through and reports an
 * unknown event type as `known: false` so the caller skips it. Never throws, whatever the input.
 * This module loads both postures; `agjson/validate/lenient` and `agjson/validate/strict` load one.
 */
import type { ParseCaps } from "./caps.js";
import {
  parseCapped,
  type BlockValidation,
  type CheckOptions,
  type EventValidation,
  type InputValidation,
  type MessageValidation,
  type Posture,
  type ReduceResultValidation,
  type StrictBlockValidation,
  type StrictEventValidation,
  type StrictInputValidation,
  type StrictMessageValidation,
  type StrictReduceResultValidation,
} from "./core.js";
import * as lenient from "./lenient.js";
import * as strict from "./strict.js";

export {
  isKnownEventType,
  isExtEvent,
  parseCapped,
  POSTURES,
  type Posture,
  type ValidationFailure,
  type EventValidation,
  type InputValidation,
  type MessageValidation,
  type BlockValidation,
  type ReduceResultValidation,
  type LenientKnownEvent,
  type LenientKnownInput,
  type LenientKnownBlock,
  type StrictMessageValidation,
  type StrictReduceResultValidation,
  type KnownEventValidation,
  type UnknownEventValidation,
  type StrictEventValidation,
  type LenientEventValidation,
  type KnownInputValidation,
  type UnknownInputValidation,
  type StrictInputValidation,
  type LenientInputValidation,
  type KnownBlockValidation,
  type UnknownBlockValidation,
  type StrictBlockValidation,
  type LenientBlockValidation,
} from "./core.js";

export interface ValidateOptions extends CheckOptions {
  /** `lenient` (default, the consumer posture) or `strict` (the producer posture). */
  posture?: Posture;
}

/** Options naming the producer-strict posture: the result's types are then the schema's own. */
export type StrictOptions = ValidateOptions & { posture: "strict" };

// Each function names both postures' functions directly (no namespace object chosen at run
// time), so a bundler keeps only the validators of the kinds a consumer calls.

/** Validates one AgEvent (§4). Lenient: an unknown type is `ok` with `known: false` — skip it. */
export function validateEvent(x: unknown, opts: StrictOptions): StrictEventValidation;
export function validateEvent(x: unknown, opts?: ValidateOptions): EventValidation;
export function validateEvent(x: unknown, opts?: ValidateOptions): EventValidation {
  return opts?.posture === "strict" ? strict.validateEvent(x, opts) : lenient.validateEvent(x, opts);
}

/** Validates one AgInput (§3), including version negotiation (§12) in both postures. */
export function validateInput(x: unknown, opts: StrictOptions): StrictInputValidation;
export function validateInput(x: unknown, opts?: ValidateOptions): InputValidation;
export function validateInput(x: unknown, opts?: ValidateOptions): InputValidation {
  return opts?.posture === "strict" ? strict.validateInput(x, opts) : lenient.validateInput(x, opts);
}

/** Validates one AgMessage (§3.2); typed in the posture's type tree. */
export function validateMessage(x: unknown, opts: StrictOptions): StrictMessageValidation;
export function validateMessage(x: unknown, opts?: ValidateOptions): MessageValidation;
export function validateMessage(x: unknown, opts?: ValidateOptions): MessageValidation {
  return opts?.posture === "strict" ? strict.validateMessage(x, opts) : lenient.validateMessage(x, opts);
}

/** Validates one content block (§2). Lenient: an unknown block type is `ok` with `known: false`. */
export function validateBlock(x: unknown, opts: StrictOptions): StrictBlockValidation;
export function validateBlock(x: unknown, opts?: ValidateOptions): BlockValidation;
export function validateBlock(x: unknown, opts?: ValidateOptions): BlockValidation {
  return opts?.posture === "strict" ? strict.validateBlock(x, opts) : lenient.validateBlock(x, opts);
}

/** Validates an AgReduceResult (§5), e.g. a persisted fold read back from storage; typed in the posture's type tree. */
export function validateReduceResult(x: unknown, opts: StrictOptions): StrictReduceResultValidation;
export function validateReduceResult(x: unknown, opts?: ValidateOptions): ReduceResultValidation;
export function validateReduceResult(x: unknown, opts?: ValidateOptions): ReduceResultValidation {
  return opts?.posture === "strict" ? strict.validateReduceResult(x, opts) : lenient.validateReduceResult(x, opts);
}

/** The documents `validateEventText` takes (and `agjson validate --kind`). */
export const DOCUMENT_KINDS = ["event", "input", "message"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * Parses and validates one JSON text under size and depth caps (checked before parsing, §13).
 * Bad JSON, an oversized or over-deep text, and a schema failure are all typed issues.
 */
export function validateEventText(text: string, opts: StrictOptions & { caps?: Partial<ParseCaps> }): StrictEventValidation;
export function validateEventText(text: string, opts?: ValidateOptions & { caps?: Partial<ParseCaps> }): EventValidation;
export function validateEventText(text: string, opts?: ValidateOptions & { caps?: Partial<ParseCaps> }): EventValidation {
  const parsed = parseCapped(text, opts?.caps);
  if (!parsed.ok) return parsed;
  return validateEvent(parsed.value, { ...opts, parsed: true });
}
