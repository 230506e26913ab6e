/**
 * The validation rules shared by both postures (DESIGN §5), written against one posture's
 * generated validators so that `lenient.ts` and `strict.ts` each import only their own module:
 * a consumer of one posture bundles none of the other (issue 22). Never throws, whatever the input.
 */
import type { GeneratedValidator } from "../../generated/validators/types.js";
import { EXT_EVENT_TYPE, KNOWN_EVENT_TYPES } from "../../generated/fold-scaffold.js";
import { BLOCK_PROFILE } from "../../generated/profiles.js";
import type { AgBlock, AgEvent, AgInput, AgMessage, AgReduceResult } from "../../generated/types.js";
import { DEFAULT_PARSE_CAPS, jsonDepth, utf8Length, type ParseCaps } from "./caps.js";
import { toIssues } from "./issues.js";
import { inspectGraph } from "./graph.js";
import { semanticIssues, type SemanticRoot } from "./semantic.js";
import { negotiateVersion } from "./version.js";
import type { AgValidationIssue } from "./issues.js";

export type Posture = "strict" | "lenient";

/** How a value handed in as an object is guarded before validation (§13). */
export interface CheckOptions {
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

// Built on first use, not at load: a bundle that calls none of the functions reading a set drops
// it and the table it comes from (the lenient event validator alone is measured, test/package.test.ts).
let knownEvents: ReadonlySet<string> | undefined;
let knownInputKinds: ReadonlySet<string> | undefined;
let blockTypes: ReadonlySet<string> | undefined;

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

/**
 * A hostile object (§13) — a Proxy whose traps throw, a throwing getter, a cycle, a value nested
 * past the cap — is a typed `structure` issue, never an exception: the object graph is walked
 * first (bounded by the depth cap, so the walk itself cannot exhaust the stack), and anything the
 * validators or the semantic layer still throw on is caught.
 */
function guarded<R>(x: unknown, opts: CheckOptions | undefined, spec: string, run: () => R | ValidationFailure): R | ValidationFailure {
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

/** Whether an event type is one this version knows (a named §4 type or `ext.<vendor>.<key>`). */
export function isKnownEventType(type: string): boolean {
  knownEvents ??= new Set(KNOWN_EVENT_TYPES);
  return knownEvents.has(type) || EXT_EVENT_TYPE.test(type);
}

type EventValidator = GeneratedValidator<AgEvent>;

/** One posture's event validators: each known type's own, the ext arm's, and the root's. */
export interface EventValidators {
  byType: ReadonlyMap<string, EventValidator>;
  ext: EventValidator;
  root: EventValidator;
}

/** The type → validator map of a generated `knownEventValidators` table. */
export function eventTypeMap(table: Readonly<Record<string, EventValidator>>): ReadonlyMap<string, EventValidator> {
  return new Map(Object.entries(table));
}

/**
 * Validates one AgEvent (§4). The caller has to read `type` anyway (to tell known from ext from
 * unknown), so a known type goes straight to its variant: the union validator would read `type`
 * a second time (a megamorphic load across the event shapes) and walk an if-chain of string
 * compares. Same validators, same errors; the union adds no error of its own once the type is
 * known. Lenient: an unknown type is `ok` with `known: false` — skip it.
 */
export function validateEventWith(v: EventValidators, x: unknown, opts?: CheckOptions): EventValidation {
  return guarded(x, opts, "§4", () => checkEvent(v, x));
}

function checkEvent(v: EventValidators, x: unknown): EventValidation {
  const type = typeof x === "object" && x !== null ? (x as { type?: unknown }).type : undefined;
  if (typeof type === "string") {
    const known = v.byType.get(type);
    if (known !== undefined) {
      if (!check(known, x)) return fail(known, "§4");
      return semantic("AgEvent", x, { ok: true, event: x, known: true });
    }
    // `ext.<vendor>.<key>` (§12): the root would reach the same validator after re-testing the
    // pattern behind an if/then/else that allocates on its way; its wrapper errors are the kind
    // toIssues drops, so calling the ext validator directly reports the same issues.
    if (EXT_EVENT_TYPE.test(type)) {
      if (!check(v.ext, x)) return fail(v.ext, "§4");
      return { ok: true, event: x, known: true };
    }
  }
  // Not an object, no string `type`, or an unknown type: the root decides (the discriminator's
  // "unknown type" error under strict; lenient's any-object-with-a-string-tag fallback).
  if (!check(v.root, x)) return fail(v.root, "§4");
  return { ok: true, event: x, known: false };
}

/** Validates one AgInput (§3), including version negotiation (§12) in both postures. */
export function validateInputWith(v: GeneratedValidator<AgInput>, x: unknown, opts?: CheckOptions): InputValidation {
  return guarded(x, opts, "§3", () => {
    if (!check(v, x)) return fail(v, "§3");
    const version = negotiateVersion(x.version);
    if (!version.ok) return { ok: false, errors: [{ path: "/version", message: version.message, keyword: "version", spec: "§12" }] };
    knownInputKinds ??= new Set(["start", "resume", "tool-result"]);
    return semantic("AgInput", x, { ok: true, input: x, known: knownInputKinds.has(x.kind) });
  });
}

/** Validates one AgMessage (§3.2). */
export function validateMessageWith(v: GeneratedValidator<AgMessage>, x: unknown, opts?: CheckOptions): MessageValidation {
  return guarded(x, opts, "§3.2", () => {
    if (!check(v, x)) return fail(v, "§3.2");
    return semantic("AgMessage", x, { ok: true, message: x });
  });
}

/** Validates one content block (§2). Lenient: an unknown block type is `ok` with `known: false`. */
export function validateBlockWith(v: GeneratedValidator<AgBlock>, x: unknown, opts?: CheckOptions): BlockValidation {
  return guarded(x, opts, "§2", () => {
    if (!check(v, x)) return fail(v, "§2");
    blockTypes ??= new Set(Object.keys(BLOCK_PROFILE));
    return semantic("AgBlock", x, { ok: true, block: x, known: blockTypes.has(x.type) });
  });
}

/** Validates an AgReduceResult (§5), e.g. a persisted fold read back from storage. */
export function validateReduceResultWith(v: GeneratedValidator<AgReduceResult>, x: unknown, opts?: CheckOptions): ReduceResultValidation {
  return guarded(x, opts, "§5", () => {
    if (!check(v, x)) return fail(v, "§5");
    return semantic("AgReduceResult", x, { ok: true, result: x });
  });
}

/**
 * Parses one JSON text under size and depth caps (checked before parsing, §13). Bad JSON and an
 * oversized or over-deep text are typed issues.
 */
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
