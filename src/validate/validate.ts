/**
 * The validation API (DESIGN §5) over the generated standalone validators. Two postures (§0.2):
 * producer-strict checks exactly the schema; consumer-lenient — the default, because a consumer
 * MUST ignore unknown types and fields (§0.2, §12) — passes unknown fields through and reports an
 * unknown event type as `known: false` so the caller skips it. Never throws, whatever the input.
 */
import * as eventStrict from "../../generated/validators/event.strict.js";
import * as eventLenient from "../../generated/validators/event.lenient.js";
import * as inputStrict from "../../generated/validators/input.strict.js";
import * as inputLenient from "../../generated/validators/input.lenient.js";
import * as messageStrict from "../../generated/validators/message.strict.js";
import * as messageLenient from "../../generated/validators/message.lenient.js";
import * as blockStrict from "../../generated/validators/block.strict.js";
import * as blockLenient from "../../generated/validators/block.lenient.js";
import * as resultStrict from "../../generated/validators/reduce-result.strict.js";
import * as resultLenient from "../../generated/validators/reduce-result.lenient.js";
import type { GeneratedValidator } from "../../generated/validators/types.js";
import { EXT_EVENT_TYPE, KNOWN_EVENT_TYPES } from "../../generated/fold-scaffold.js";
import { BLOCK_PROFILE } from "../../generated/profiles.js";
import type { AgBlock, AgEvent, AgInput, AgMessage, AgReduceResult } from "../../generated/types.js";
import { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";
import { toIssues, type AgValidationIssue } from "./issues.js";
import { inspectGraph } from "./graph.js";
import { semanticIssues, type SemanticRoot } from "./semantic.js";
import { negotiateVersion } from "./version.js";

export type Posture = "strict" | "lenient";

export interface ValidateOptions {
  /** `lenient` (default, the consumer posture) or `strict` (the producer posture). */
  posture?: Posture;
  /**
   * Deepest nesting of arrays and objects accepted in a value handed in as an object (default
   * 64, the text cap of `parseCapped`, §13); `_meta` and every other opaque value count.
   */
  maxDepth?: number;
  /**
   * The value is fresh from `JSON.parse` of text whose depth was already capped (the gateway, the
   * CLI): it cannot hold a cycle, a getter or a Proxy, so the walk that guards against them is
   * skipped. Never set it for a value of unknown origin.
   */
  parsed?: boolean;
}

export type ValidationFailure = { ok: false; errors: AgValidationIssue[] };
export type EventValidation = { ok: true; event: AgEvent; known: boolean } | ValidationFailure;
export type InputValidation = { ok: true; input: AgInput; known: boolean } | ValidationFailure;
export type MessageValidation = { ok: true; message: AgMessage } | ValidationFailure;
export type BlockValidation = { ok: true; block: AgBlock; known: boolean } | ValidationFailure;
export type ReduceResultValidation = { ok: true; result: AgReduceResult } | ValidationFailure;

const KNOWN_EVENTS: ReadonlySet<string> = new Set(KNOWN_EVENT_TYPES);
const KNOWN_INPUT_KINDS: ReadonlySet<string> = new Set(["start", "resume", "tool-result"]);

function pick<T>(posture: Posture | undefined, s: GeneratedValidator<T>, l: GeneratedValidator<T>): GeneratedValidator<T> {
  return posture === "strict" ? s : l;
}

function fail(v: GeneratedValidator<unknown>, spec: string): ValidationFailure {
  return { ok: false, errors: toIssues(v.errors, spec) };
}

/**
 * Runs a generated validator so that no input can make it throw: a value nested deep enough to
 * exhaust the stack (possible only for parsed objects handed in directly; text goes through
 * parseCapped's depth cap first) becomes a typed `cap` issue instead of a crash.
 */
function check<T>(v: GeneratedValidator<T>, x: unknown): x is T {
  try {
    return v(x);
  } catch (err) {
    v.errors = [{ instancePath: "", schemaPath: "#", keyword: "cap", params: {}, message: `cannot be validated: ${(err as Error).message}; the document is probably nested too deeply (§13)` }];
    return false;
  }
}

/** Whether an event type is one this version knows (a named §4 type or `ext.<vendor>.<key>`). */
export function isKnownEventType(type: string): boolean {
  return KNOWN_EVENTS.has(type) || EXT_EVENT_TYPE.test(type);
}

type EventValidator = GeneratedValidator<AgEvent>;
/**
 * Known type → its variant's validator, per posture. validateEvent has to read `type` anyway (to
 * tell known from ext from unknown), so it goes straight to the variant: the union validator would
 * read `type` a second time (a megamorphic load across the event shapes) and walk an if-chain of
 * string compares. Same validators, same errors; the union adds no error of its own once the
 * type is known.
 */
const STRICT_BY_TYPE: ReadonlyMap<string, EventValidator> = new Map(Object.entries(eventStrict.knownEventValidators));
const LENIENT_BY_TYPE: ReadonlyMap<string, EventValidator> = new Map(Object.entries(eventLenient.knownEventValidators));

/**
 * A hostile object (§13) — a Proxy whose traps throw, a throwing getter, a cycle, a value nested
 * past the cap — is a typed `structure` issue, never an exception: the object graph is walked
 * first (bounded by the depth cap, so the walk itself cannot exhaust the stack), and anything the
 * validators or the semantic layer still throw on is caught.
 */
function guarded<R>(x: unknown, opts: ValidateOptions | undefined, spec: string, run: () => R | ValidationFailure): R | ValidationFailure {
  try {
    if (opts?.parsed !== true) {
      const problem = inspectGraph(x, opts?.maxDepth ?? DEFAULT_PARSE_CAPS.maxDepth);
      if (problem !== undefined) return { ok: false, errors: [{ ...problem, spec: "§13" }] };
    }
    return run();
  } catch (err) {
    return { ok: false, errors: [{ path: "", keyword: "structure", spec, message: `cannot be validated: reading it threw ${describeThrown(err)} (a Proxy or getter that throws is not a JSON value, §0.1)` }] };
  }
}

function describeThrown(err: unknown): string {
  try {
    return err instanceof Error ? `${err.name}: ${err.message}` : typeof err === "string" ? JSON.stringify(err) : typeof err;
  } catch {
    return "an unreadable value";
  }
}

/** Schema-valid `x` checked by the semantic layer too (the rules JSON Schema cannot state, docs/validation.md). */
function semantic<R extends { ok: true }>(root: SemanticRoot, x: unknown, ok: R): R | ValidationFailure {
  const issues = semanticIssues(root, x);
  return issues.length === 0 ? ok : { ok: false, errors: issues };
}

/** Validates one AgEvent (§4). Lenient: an unknown type is `ok` with `known: false` — skip it. */
export function validateEvent(x: unknown, opts?: ValidateOptions): EventValidation {
  return guarded(x, opts, "§4", () => checkEvent(x, opts));
}

function checkEvent(x: unknown, opts: ValidateOptions | undefined): EventValidation {
  const strict = opts?.posture === "strict";
  const type = typeof x === "object" && x !== null ? (x as { type?: unknown }).type : undefined;
  if (typeof type === "string") {
    const known = (strict ? STRICT_BY_TYPE : LENIENT_BY_TYPE).get(type);
    if (known !== undefined) {
      if (!check(known, x)) return fail(known, "§4");
      return semantic("AgEvent", x, { ok: true, event: x, known: true });
    }
    // `ext.<vendor>.<key>` (§12): the root would reach the same validator after re-testing the
    // pattern behind an if/then/else that allocates on its way; its wrapper errors are the kind
    // toIssues drops, so calling the ext validator directly reports the same issues.
    if (EXT_EVENT_TYPE.test(type)) {
      const ext = strict ? eventStrict.validateAgExtEvent : eventLenient.validateAgExtEvent;
      if (!check(ext, x)) return fail(ext, "§4");
      return { ok: true, event: x, known: true };
    }
  }
  // Not an object, no string `type`, or an unknown type: the root decides (the discriminator's
  // "unknown type" error under strict; lenient's any-object-with-a-string-tag fallback).
  const v = strict ? eventStrict.validateAgEvent : eventLenient.validateAgEvent;
  if (!check(v, x)) return fail(v, "§4");
  return { ok: true, event: x, known: false };
}

/** Validates one AgInput (§3), including version negotiation (§12) in both postures. */
export function validateInput(x: unknown, opts?: ValidateOptions): InputValidation {
  return guarded(x, opts, "§3", () => {
    const v = pick(opts?.posture, inputStrict.validateAgInput, inputLenient.validateAgInput);
    if (!check(v, x)) return fail(v, "§3");
    const version = negotiateVersion(x.version);
    if (!version.ok) return { ok: false, errors: [{ path: "/version", message: version.message, keyword: "version", spec: "§12" }] };
    return semantic("AgInput", x, { ok: true, input: x, known: KNOWN_INPUT_KINDS.has(x.kind) });
  });
}

/** Validates one AgMessage (§3.2). */
export function validateMessage(x: unknown, opts?: ValidateOptions): MessageValidation {
  return guarded(x, opts, "§3.2", () => {
    const v = pick(opts?.posture, messageStrict.validateAgMessage, messageLenient.validateAgMessage);
    if (!check(v, x)) return fail(v, "§3.2");
    return semantic("AgMessage", x, { ok: true, message: x });
  });
}

/** Validates one content block (§2). Lenient: an unknown block type is `ok` with `known: false`. */
export function validateBlock(x: unknown, opts?: ValidateOptions): BlockValidation {
  return guarded(x, opts, "§2", () => {
    const v = pick(opts?.posture, blockStrict.validateAgBlock, blockLenient.validateAgBlock);
    if (!check(v, x)) return fail(v, "§2");
    return semantic("AgBlock", x, { ok: true, block: x, known: BLOCK_TYPES.has(x.type) });
  });
}

const BLOCK_TYPES: ReadonlySet<string> = new Set(Object.keys(BLOCK_PROFILE));

/** Validates an AgReduceResult (§5), e.g. a persisted fold read back from storage. */
export function validateReduceResult(x: unknown, opts?: ValidateOptions): ReduceResultValidation {
  return guarded(x, opts, "§5", () => {
    const v = pick(opts?.posture, resultStrict.validateAgReduceResult, resultLenient.validateAgReduceResult);
    if (!check(v, x)) return fail(v, "§5");
    return semantic("AgReduceResult", x, { ok: true, result: x });
  });
}

export type DocumentKind = "event" | "input" | "message";

/**
 * Parses and validates one JSON text under size and depth caps (checked before parsing, §13).
 * Bad JSON, an oversized or over-deep text, and a schema failure are all typed issues.
 */
export function validateEventText(text: string, opts?: ValidateOptions & { caps?: Partial<ParseCaps> }): EventValidation {
  const parsed = parseCapped(text, opts?.caps);
  if (!parsed.ok) return parsed;
  return validateEvent(parsed.value, { ...opts, parsed: true });
}

export function parseCapped(text: string, caps?: Partial<ParseCaps>): { ok: true; value: unknown } | ValidationFailure {
  const c = { ...DEFAULT_PARSE_CAPS, ...caps };
  if (text.length > c.maxBytes || utf8Length(text) > c.maxBytes) {
    return { ok: false, errors: [{ path: "", keyword: "cap", spec: "§13", message: `document exceeds the ${c.maxBytes}-byte cap` }] };
  }
  if (jsonDepth(text, c.maxDepth) > c.maxDepth) {
    return { ok: false, errors: [{ path: "", keyword: "cap", spec: "§13", message: `document nests deeper than the ${c.maxDepth}-level cap` }] };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, errors: [{ path: "", keyword: "json", spec: "§4", message: `not valid JSON: ${(err as Error).message}` }] };
  }
}
