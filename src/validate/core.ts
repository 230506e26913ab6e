/**
 * The validation rules shared by both postures (§0.2), written against one posture's
 * generated validators so that `lenient.ts` and `strict.ts` each import only their own module:
 * a consumer of one posture bundles none of the other. Never throws, whatever the input.
 */
import type { EventAccept, EventAccepts, GeneratedValidator } from "../../generated/validators/types.js";
import { EXT_EVENT_TYPE } from "../../generated/fold-scaffold.js";
import { isKnownBlock, isKnownEventType as isNamedEventType, isKnownInput } from "../../generated/schema-facts.js";
import type { AgBlock, AgEvent, AgExtEvent, AgInput, AgMessage, AgReduceResult } from "../../generated/types.js";
import type { AgKnownEventType } from "../../generated/fold-scaffold.js";
import type * as L from "../../generated/lenient-types.js";
import { DEFAULT_PARSE_CAPS, jsonDepth, resolveCap, utf8Length, type ParseCaps } from "./caps.js";
import { toIssues } from "./issues.js";
import { inspectGraph, isJsonTree, watchHiddenReads, type HiddenReads } from "./graph.js";
import {
  eventRuleSites,
  issuesAt,
  SEMANTIC_EVENT_TYPES,
  semanticIssues,
  siteIssues,
  sitesByEventType,
  type SemanticRoot,
} from "./semantic.js";
import type { RuleSite } from "../../generated/semantic-rules.js";
import { negotiateVersion } from "./version.js";
import type { AgValidationIssue } from "./issues.js";

/** The two postures (§0.2): strict judges what a producer must write, lenient what a consumer reads. */
export const POSTURES = ["strict", "lenient"] as const;
export type Posture = (typeof POSTURES)[number];

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

// Each posture's results carry its own type tree: producer-strict the schema's types
// (generated/types.ts), consumer-lenient the lenient tree (generated/lenient-types.ts), which is
// widened where the lenient validators accept more — an unknown union tag anywhere in a document
// (an AgUnknownBlock inside content.block), a value outside an open enum (§0.2, §12).

/** A known event as producer-strict types it: the schema's own AgEvent. */
export type StrictKnownEvent = AgEvent;
/**
 * What a consumer-lenient verdict with `known: true` holds: an event of a type §4 names or an
 * `ext.<vendor>.<key>` one (§12), in consumer-lenient types — `Lenient.AgKnownEvent | Lenient.AgExtEvent`.
 *
 * @deprecated Write `Lenient.AgKnownEvent | Lenient.AgExtEvent`, or take `AgLenientEvent` (what
 * `reduce()` and the bridges take): "Known" in a type name means the types §4 names, never `ext.*`
 * (`AgKnownEvent`, `Lenient.AgKnownEvent`), and this name said otherwise.
 */
export type LenientKnownEvent = L.AgKnownEvent | L.AgExtEvent;
/** A known input (a kind §3 names) as consumer-lenient types it. */
export type LenientKnownInput = L.AgKnownInput;
/** A known block (a type §2 names) as consumer-lenient types it. */
export type LenientKnownBlock = L.AgKnownBlock;

/** An AgEvent of a named §4 type or `ext.<vendor>.<key>` (§12) that passed (strict types unless `E` says otherwise). */
export type KnownEventValidation<E = AgEvent> = { ok: true; event: E; known: true };
/** Consumer-lenient only: an event of a type this version does not know (§0.2, §12) — skip it. */
export type UnknownEventValidation = { ok: true; event: L.AgUnknownEvent; known: false };
/** Producer-strict: exactly the schema, so every event that passes is known. */
export type StrictEventValidation = KnownEventValidation | ValidationFailure;
/** Consumer-lenient: an unknown type passes as an AgUnknownEvent with `known: false`; a known one in lenient types. */
export type LenientEventValidation = KnownEventValidation<LenientKnownEvent> | UnknownEventValidation | ValidationFailure;
/** Either posture's result (the posture chosen at run time): the lenient one, which the strict one narrows. */
export type EventValidation = LenientEventValidation;

/** An AgInput of a kind §3 names that passed. */
export type KnownInputValidation<I = AgInput> = { ok: true; input: I; known: true };
/** Consumer-lenient only: an input of a kind this version does not know (§0.2, §12). */
export type UnknownInputValidation = { ok: true; input: L.AgUnknownInput; known: false };
export type StrictInputValidation = KnownInputValidation | ValidationFailure;
export type LenientInputValidation = KnownInputValidation<LenientKnownInput> | UnknownInputValidation | ValidationFailure;
/** Either posture's result (the posture chosen at run time). */
export type InputValidation = LenientInputValidation;

/** A content block of a type §2 names that passed. */
export type KnownBlockValidation<B = AgBlock> = { ok: true; block: B; known: true };
/** Consumer-lenient only: a block of a type this version does not know (§0.2, §12). */
export type UnknownBlockValidation = { ok: true; block: L.AgUnknownBlock; known: false };
export type StrictBlockValidation = KnownBlockValidation | ValidationFailure;
export type LenientBlockValidation = KnownBlockValidation<LenientKnownBlock> | UnknownBlockValidation | ValidationFailure;
/** Either posture's result (the posture chosen at run time). */
export type BlockValidation = LenientBlockValidation;

/** A message that passed: consumer-lenient types by default, `StrictMessageValidation` for the producer posture. */
export type MessageValidation<M = L.AgMessage> = { ok: true; message: M } | ValidationFailure;
export type StrictMessageValidation = MessageValidation<AgMessage>;
export type LenientMessageValidation = MessageValidation<L.AgMessage>;
/** A persisted fold that passed: consumer-lenient types by default. */
export type ReduceResultValidation<R = L.AgReduceResult> = { ok: true; result: R } | ValidationFailure;
export type StrictReduceResultValidation = ReduceResultValidation<AgReduceResult>;
export type LenientReduceResultValidation = ReduceResultValidation<L.AgReduceResult>;

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
    v.errors = [
      {
        instancePath: "",
        schemaPath: "#",
        keyword: "cap",
        params: {},
        message: `cannot be validated: ${(err as Error).message}; the document is probably nested too deeply (§13)`,
      },
    ];
    return false;
  }
}

/**
 * A hostile object (§13) — a Proxy whose traps throw, a throwing getter, a cycle, a value nested
 * past the cap — is a typed `structure` issue, never an exception: the object graph is walked
 * first (bounded by the depth cap, so the walk itself cannot exhaust the stack), and anything the
 * validators or the semantic layer still throw on is caught. `run` validates `subject` (`arg`: what
 * it needs besides, so that a caller on the per-event path passes a module function, no closure):
 * the value itself, or a view of it that watches reads of what `JSON.stringify` does not write
 * (D32); any verdict field holding the view is given the value back.
 */
function guarded<R extends { ok: boolean }, A = undefined>(
  x: unknown,
  opts: CheckOptions | undefined,
  spec: string,
  run: (subject: unknown, arg: A) => R | ValidationFailure,
  arg?: A,
): R | ValidationFailure {
  const graph = graphFailure(x, opts, spec);
  if (graph !== undefined && !(graph instanceof HiddenFields)) return graph;
  try {
    if (graph === undefined) return run(x, arg as A);
    const verdict = run(graph.reads.view, arg as A);
    const hidden = graph.reads.first();
    if (hidden !== undefined) return { ok: false, errors: [{ ...hidden, spec: "§13" }] };
    if (verdict.ok === true) {
      const fields = verdict as Record<string, unknown>;
      for (const key in fields) if (fields[key] === graph.reads.view) fields[key] = x;
    }
    return verdict;
  } catch (err) {
    return unreadable(err, spec);
  }
}

/** A JSON tree that holds properties `JSON.stringify` does not write: validate it through `reads.view` (D32). */
class HiddenFields {
  constructor(readonly reads: HiddenReads) {}
}

/**
 * The §13 object-graph check of a value handed in as an object: undefined when it is a JSON tree
 * within the cap (or was parsed from capped text, `parsed`). One pass with no JSON Pointer decides
 * (`isJsonTree`); only a value it doubts is walked again to name the place and the rule. A tree
 * that holds properties `JSON.stringify` does not write is {@link HiddenFields}: not refused for
 * them, but validated through a view that refuses the ones the validator reads (D32).
 */
function graphFailure(x: unknown, opts: CheckOptions | undefined, spec: string): ValidationFailure | HiddenFields | undefined {
  // A misused option is the caller's error, thrown before anything is read (not an issue of x).
  const maxDepth = maxDepthOf(opts);
  if (opts?.parsed === true) return undefined;
  try {
    if (isJsonTree(x, maxDepth)) return undefined;
    const problem = inspectGraph(x, maxDepth);
    if (problem !== undefined) return { ok: false, errors: [{ ...problem, spec: "§13" }] };
    return typeof x === "object" && x !== null ? new HiddenFields(watchHiddenReads(x)) : undefined;
  } catch (err) {
    return unreadable(err, spec);
  }
}

/** The object walk's depth cap: the caller's, checked (a RangeError naming it), or the text cap's default. */
export function maxDepthOf(opts: CheckOptions | undefined): number {
  return resolveCap("maxDepth", opts?.maxDepth, DEFAULT_PARSE_CAPS.maxDepth);
}

/** The typed failure of a value whose reading threw (a Proxy trap or getter): never the exception itself. */
export function unreadable(err: unknown, spec: string): ValidationFailure {
  let thrown = "an unreadable value";
  try {
    thrown = err instanceof Error ? `${err.name}: ${err.message}` : typeof err === "string" ? JSON.stringify(err) : typeof err;
  } catch {
    // What was thrown cannot be described either.
  }
  return {
    ok: false,
    errors: [
      {
        path: "",
        keyword: "structure",
        spec,
        message: `cannot be validated: reading it threw ${thrown} (a Proxy or getter that throws is not a JSON value, §0.1)`,
      },
    ],
  };
}

/** Schema-valid `x` checked by the semantic layer too (the rules JSON Schema cannot state, docs/validation.md). */
function semantic<R extends { ok: true }>(root: SemanticRoot, x: unknown, ok: R): R | ValidationFailure {
  const issues = semanticIssues(root, x);
  return issues.length === 0 ? ok : { ok: false, errors: issues };
}

/** Whether any of `sites` can apply to `x`: an event's sites sit under a guard on its type, so most events pass at once. */
function reachesAny(sites: readonly RuleSite[], x: unknown): boolean {
  for (const site of sites) {
    const first = site.path[0];
    if (
      first === undefined ||
      !("tag" in first) ||
      (typeof x === "object" && x !== null && (x as Record<string, unknown>)[first.tag] === first.value)
    )
      return true;
  }
  return false;
}

/**
 * The semantic rules that bind producer-strict only (`posture: "strict"` in schema/,
 * docs/spec-decisions.md D21), over a reduce result that passed everything else. strict.ts passes
 * its table (`strictRuleSites`); the lenient posture passes none, so it never loads it. An event's
 * strict-only rules sit in its KnownEventTable entry instead (one lookup on the per-event path).
 */
function postureRules<R extends { ok: boolean }>(result: R, sites: readonly RuleSite[] | undefined, x: unknown): R | ValidationFailure {
  if (!result.ok || sites === undefined || !reachesAny(sites, x)) return result;
  const issues = issuesAt(sites, x);
  return issues.length === 0 ? result : { ok: false, errors: issues };
}

/**
 * Whether an event type is one this version validates as known (the verdict's `known: true`): a type
 * §4 names or an `ext.<vendor>.<key>` one (§12). A type predicate, so `type` narrows to the literal
 * union (or the ext template) in the true branch.
 */
export function isKnownEventType(type: string): type is AgKnownEventType | AgExtEvent["type"] {
  return isNamedEventType(type) || EXT_EVENT_TYPE.test(type);
}

/**
 * Whether an event is a vendor extension `ext.<vendor>.<key>` (§12), in either posture's types: the
 * arm of AgEvent a `switch` on `type` cannot name, so the `default:` of an exhaustive switch calls
 * this before its `never` check (docs/api.md "An exhaustive switch").
 */
export function isExtEvent(event: AgEvent): event is AgExtEvent;
export function isExtEvent(event: L.AgEvent): event is L.AgExtEvent;
export function isExtEvent(event: L.AgEvent): boolean {
  return typeof event.type === "string" && EXT_EVENT_TYPE.test(event.type);
}

/** One posture's validator of one named event type, with the semantic rules that type has (none for most). */
export interface KnownEventEntry<E> {
  validate: GeneratedValidator<E>;
  /** The type's fast accept (codegen/emit-fast-accept.ts): `true` only for a value certainly valid and a JSON tree. */
  accept: EventAccept | undefined;
  sites: readonly RuleSite[] | undefined;
}

/**
 * A posture's validators of the named event types, looked up by `type`. The last type looked up is
 * remembered: a stream repeats its types in runs (`text.delta` after `text.delta`), and comparing
 * a string is cheaper than hashing a fresh one, which every `JSON.parse` makes.
 */
export class KnownEventTable<E> {
  readonly #byType: ReadonlyMap<string, KnownEventEntry<E>>;
  #lastType = "";
  #last: KnownEventEntry<E> | undefined;

  /**
   * From a generated `knownEventValidators` table. `postureSites`: AgEvent rules that bind this
   * posture only (the strict table, D21), kept in each type's entry beside the shared ones, so an
   * event reaches all its rules through the one lookup it makes for its validator.
   */
  constructor(
    table: Readonly<Record<string, GeneratedValidator<E>>>,
    accepts: EventAccepts["byType"] = {},
    postureSites: readonly RuleSite[] = [],
  ) {
    const own = sitesByEventType(postureSites);
    this.#byType = new Map(
      Object.entries(table).map(([type, validate]) => {
        const sites = [...(eventRuleSites(type) ?? []), ...(own.get(type) ?? [])];
        return [type, { validate, accept: accepts[type], sites: sites.length === 0 ? undefined : sites }];
      }),
    );
  }

  /** The entry of a named type; undefined for any other string. */
  get(type: string): KnownEventEntry<E> | undefined {
    if (type === this.#lastType) return this.#last;
    const entry = this.#byType.get(type);
    this.#lastType = type;
    this.#last = entry;
    return entry;
  }
}

/** One posture's validators of the known events (`E`: that posture's known-event type): each named type's own, and the ext arm's (§12). */
export interface KnownEventValidators<E> {
  byType: KnownEventTable<E>;
  ext: GeneratedValidator<E>;
  /** The ext arm's fast accept. */
  extAccept?: EventAccept;
}

/** Producer-strict's: the root AgEvent validator words the error for anything else. */
export interface StrictEventValidators extends KnownEventValidators<AgEvent> {
  root: GeneratedValidator<AgEvent>;
}

/**
 * Consumer-lenient's: anything else is checked as an AgUnknownEvent (the lenient root's catch-all
 * arm, which reports the same issues as the root for every value that reaches it).
 */
export interface LenientEventValidators extends KnownEventValidators<LenientKnownEvent> {
  unknown: GeneratedValidator<L.AgUnknownEvent>;
}

// The event validators are the hot path (`validateEvent(JSON.parse(line))`): no closure per call,
// one table lookup per event, the semantic rules found with the validator.

/**
 * Validates one AgEvent (§4) under producer-strict: an unknown type is an error (the root's
 * discriminator names it).
 */
export function validateStrictEventWith(v: StrictEventValidators, x: unknown, opts?: CheckOptions): StrictEventValidation {
  return validateEventWith(v, x, opts, strictEventVerdict);
}

function strictEventVerdict(x: unknown, v: StrictEventValidators): StrictEventValidation {
  const known = checkKnownEvent(v, x);
  if (known !== undefined) return known;
  // An `ext.` type that breaks the name's form (§0.4: lowercase kebab segments, `ext.fooBar.x`) is
  // a malformed extension name, not a type this version lacks: the ext arm words it (`pattern` at
  // /type), where the root would call it an unknown type.
  if (hasExtPrefix(x) && !check(v.ext, x)) return fail(v.ext, "§4");
  if (!check(v.root, x)) return fail(v.root, "§4");
  return { ok: true, event: x, known: true };
}

/**
 * Validates one AgEvent (§4) under consumer-lenient: an unknown type is `ok` with `known: false`
 * and an AgUnknownEvent — skip it (§0.2, §12).
 */
export function validateLenientEventWith(v: LenientEventValidators, x: unknown, opts?: CheckOptions): LenientEventValidation {
  return validateEventWith(v, x, opts, lenientEventVerdict);
}

function lenientEventVerdict(x: unknown, v: LenientEventValidators): LenientEventValidation {
  const known = checkKnownEvent(v, x);
  if (known !== undefined) return known;
  if (!check(v.unknown, x)) return fail(v.unknown, "§4");
  return { ok: true, event: x, known: false };
}

/**
 * Both postures' event path: the fast accept, else what every validator does ({@link guarded}: the
 * §13 walk, then `verdict`, the posture's validators, through a view when D32 asks for one).
 * `verdict` is a module function and `v` its argument: nothing is allocated per call.
 */
function validateEventWith<V extends KnownEventValidators<E>, E, R extends { ok: boolean }>(
  v: V,
  x: unknown,
  opts: CheckOptions | undefined,
  verdict: (x: unknown, v: V) => R | ValidationFailure,
): R | KnownEventValidation<E> | ValidationFailure {
  return acceptedEvent(v, x, opts) ?? guarded(x, opts, "§4", verdict, v);
}

/**
 * The common call — a valid event of a named or `ext.*` type, fresh from `JSON.parse` or plain data
 * — decided in one pass: the type's generated fast accept checks the fields the validator checks
 * and, on the way, what the §13 object walk checks (plain objects, enumerable own fields, JSON
 * leaves, the depth cap), reading each value once and building no JSON Pointer. `undefined` when
 * it is not certain — anything invalid, hostile or unusual — and the caller then takes the walk and
 * the validator, which word the refusal. A throw (a Proxy trap, a getter) is "not certain" too:
 * the walk meets it again and turns it into a typed issue.
 */
function acceptedEvent<E>(
  v: KnownEventValidators<E>,
  x: unknown,
  opts: CheckOptions | undefined,
): KnownEventValidation<E> | ValidationFailure | undefined {
  // A value parsed from capped text (`parsed`) needs no walk, but the accept is still cheaper than
  // the validator for it (`make bench`: "with parsed: true"); anything not an object takes the validator.
  if (typeof x !== "object" || x === null) return undefined;
  // The accepts count the keys `for…in` finds as the object's own: true only while
  // Object.prototype has no enumerable property (a polluted one sends every value to the walk).
  for (const _ in NO_FIELDS) return undefined;
  // A misused option is the caller's error, thrown before anything is read (not an issue of x).
  const maxDepth = maxDepthOf(opts);
  let named: KnownEventEntry<E> | undefined;
  try {
    const type = (x as { type?: unknown }).type;
    if (typeof type !== "string") return undefined;
    named = v.byType.get(type);
    // Any other type tries the `ext.*` arm's accept, which tests the pattern itself (§12): one
    // regular expression per extension event, not two.
    const accept = named !== undefined ? named.accept : v.extAccept;
    if (accept === undefined || !accept(x, 1, maxDepth)) return undefined;
  } catch {
    return undefined;
  }
  if (named === undefined) {
    // An extension event has a semantic rule only if a rule's type guard could name one.
    return EXT_EVENTS_HAVE_RULES
      ? semantic<KnownEventValidation<E>>("AgEvent", x, { ok: true, event: x as E, known: true })
      : { ok: true, event: x as E, known: true };
  }
  if (named.sites === undefined) return { ok: true, event: x as E, known: true };
  const issues = siteIssues(named.sites, x);
  return issues.length === 0 ? { ok: true, event: x as E, known: true } : { ok: false, errors: issues };
}

function hasExtPrefix(x: unknown): boolean {
  const type = typeof x === "object" && x !== null ? (x as { type?: unknown }).type : undefined;
  return typeof type === "string" && type.startsWith("ext.");
}

/** An empty object: `for…in` over it finds only what `Object.prototype` makes enumerable. */
const NO_FIELDS = {};
const EXT_EVENTS_HAVE_RULES = [...SEMANTIC_EVENT_TYPES].some((type) => EXT_EVENT_TYPE.test(type));

/**
 * A value whose `type` is a known one goes straight to its variant: the caller has to read
 * `type` anyway (to tell known from ext from unknown), and the union validator would read it a
 * second time (a megamorphic load across the event shapes) and walk an if-chain of string
 * compares. Same validators, same errors; the union adds no error of its own once the type is
 * known. `undefined`: not an object with a named or ext type — the posture decides.
 */
function checkKnownEvent<E>(v: KnownEventValidators<E>, x: unknown): KnownEventValidation<E> | ValidationFailure | undefined {
  // One plain read, not `"type" in x` first: across the event shapes each is a megamorphic lookup,
  // and an absent `type` reads as undefined all the same (an inherited one the walk has refused).
  const type = typeof x === "object" && x !== null ? (x as { type?: unknown }).type : undefined;
  if (typeof type !== "string") return undefined;
  const named = v.byType.get(type);
  if (named !== undefined) {
    if (!check(named.validate, x)) return fail(named.validate, "§4");
    if (named.sites === undefined) return { ok: true, event: x, known: true };
    const issues = siteIssues(named.sites, x);
    return issues.length === 0 ? { ok: true, event: x, known: true } : { ok: false, errors: issues };
  }
  // `ext.<vendor>.<key>` (§12) goes to the ext validator: the root would reach it after re-testing
  // the pattern behind an if/then/else that allocates on its way; its wrapper errors are the kind
  // toIssues drops, so calling the ext validator directly reports the same issues.
  if (!EXT_EVENT_TYPE.test(type)) return undefined;
  if (!check(v.ext, x)) return fail(v.ext, "§4");
  return semantic<KnownEventValidation<E>>("AgEvent", x, { ok: true, event: x, known: true });
}

/** Validates one AgInput (§3) under producer-strict, including version negotiation (§12). */
export function validateStrictInputWith(v: GeneratedValidator<AgInput>, x: unknown, opts?: CheckOptions): StrictInputValidation {
  return checkInput(v, x, opts, (input) => ({ ok: true, input, known: true }));
}

/** Validates one AgInput (§3) under consumer-lenient: an unknown kind is `ok` with `known: false`. */
export function validateLenientInputWith(v: GeneratedValidator<L.AgInput>, x: unknown, opts?: CheckOptions): LenientInputValidation {
  return checkInput(v, x, opts, (input): KnownInputValidation<LenientKnownInput> | UnknownInputValidation =>
    isKnownInput(input) ? { ok: true, input, known: true } : { ok: true, input, known: false },
  );
}

/** Version negotiation (§12) in both postures, then the semantic layer. */
function checkInput<T extends AgInput | L.AgInput, R extends { ok: true }>(
  v: GeneratedValidator<T>,
  x: unknown,
  opts: CheckOptions | undefined,
  result: (input: T) => R,
): R | ValidationFailure {
  return guarded(x, opts, "§3", (subject) => {
    if (!check(v, subject)) return fail(v, "§3");
    const version = negotiateVersion(subject.version);
    if (!version.ok) return { ok: false, errors: [{ path: "/version", message: version.message, keyword: "version", spec: "§12" }] };
    return semantic("AgInput", subject, result(subject));
  });
}

/** Validates one AgMessage (§3.2). */
export function validateMessageWith<M>(v: GeneratedValidator<M>, x: unknown, opts?: CheckOptions): MessageValidation<M> {
  return guarded(x, opts, "§3.2", (subject) => {
    if (!check(v, subject)) return fail(v, "§3.2");
    return semantic("AgMessage", subject, { ok: true, message: subject });
  });
}

/** Validates one content block (§2) under producer-strict. */
export function validateStrictBlockWith(v: GeneratedValidator<AgBlock>, x: unknown, opts?: CheckOptions): StrictBlockValidation {
  return checkBlock(v, x, opts, (block) => ({ ok: true, block, known: true }));
}

/** Validates one content block (§2) under consumer-lenient: an unknown type is `ok` with `known: false`. */
export function validateLenientBlockWith(v: GeneratedValidator<L.AgBlock>, x: unknown, opts?: CheckOptions): LenientBlockValidation {
  return checkBlock(v, x, opts, (block): KnownBlockValidation<LenientKnownBlock> | UnknownBlockValidation =>
    isKnownBlock(block) ? { ok: true, block, known: true } : { ok: true, block, known: false },
  );
}

function checkBlock<T, R extends { ok: true }>(
  v: GeneratedValidator<T>,
  x: unknown,
  opts: CheckOptions | undefined,
  result: (block: T) => R,
): R | ValidationFailure {
  return guarded(x, opts, "§2", (subject) => {
    if (!check(v, subject)) return fail(v, "§2");
    return semantic("AgBlock", subject, result(subject));
  });
}

/** Validates an AgReduceResult (§5), e.g. a persisted fold read back from storage. */
export function validateReduceResultWith<R>(
  v: GeneratedValidator<R>,
  x: unknown,
  opts?: CheckOptions,
  strictSites?: readonly RuleSite[],
): ReduceResultValidation<R> {
  return guarded(x, opts, "§5", (subject) => {
    if (!check(v, subject)) return fail(v, "§5");
    return postureRules(semantic("AgReduceResult", subject, { ok: true, result: subject }), strictSites, subject);
  });
}

/**
 * Parses one JSON text under size and depth caps (checked before parsing, §13). Bad JSON and an
 * oversized or over-deep text are typed issues.
 */
export function parseCapped(text: string, caps?: Partial<ParseCaps>): { ok: true; value: unknown } | ValidationFailure {
  const c: ParseCaps = {
    maxBytes: resolveCap("caps.maxBytes", caps?.maxBytes, DEFAULT_PARSE_CAPS.maxBytes),
    maxDepth: resolveCap("caps.maxDepth", caps?.maxDepth, DEFAULT_PARSE_CAPS.maxDepth),
  };
  if (text.length > c.maxBytes || utf8Length(text) > c.maxBytes) {
    return { ok: false, errors: [{ path: "", keyword: "cap", spec: "§13", message: `document exceeds the ${c.maxBytes}-byte cap` }] };
  }
  if (jsonDepth(text, c.maxDepth) > c.maxDepth) {
    return {
      ok: false,
      errors: [{ path: "", keyword: "cap", spec: "§13", message: `document nests deeper than the ${c.maxDepth}-level cap` }],
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, errors: [{ path: "", keyword: "json", spec: "§4", message: `not valid JSON: ${(err as Error).message}` }] };
  }
}
