/**
 * Every problem of one invalid document, up to a limit. The validators stop at the first failing
 * keyword of a branch, so after each round the value at fault is removed from a copy of the
 * document (or, for a value of the wrong type, replaced by an empty one of the right type), a
 * missing required field is filled with a stand-in (null, then an empty value of the type the
 * next round asks for), and the copy is validated again. A round that finds nothing new ends the
 * search; the absence of a removed value and whatever is wrong with a stand-in are not reported.
 * The first round's issues are the validator's own.
 */
import type { AgValidationIssue } from "../validate/index.js";

type Check = (value: unknown) => { ok: true } | { ok: false; errors: AgValidationIssue[] };

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The object holding the value JSON Pointer `path` names, and that value's key; undefined for "" or a path through a non-object. */
function parentOf(doc: unknown, path: string): { node: Record<string, unknown>; key: string } | undefined {
  const tokens = path.split("/").slice(1).map(unescapeToken);
  if (tokens.length === 0) return undefined;
  let node: unknown = doc;
  for (let k = 0; k < tokens.length - 1; k++) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[tokens[k]!];
  }
  return typeof node === "object" && node !== null ? { node: node as Record<string, unknown>, key: tokens[tokens.length - 1]! } : undefined;
}

/** Removes the value at JSON Pointer `path` from `doc`; false when there is none to remove. */
function removeAt(doc: unknown, path: string): boolean {
  const at = parentOf(doc, path);
  if (at === undefined || Array.isArray(at.node) || !Object.hasOwn(at.node, at.key)) return false;
  delete at.node[at.key];
  return true;
}

/** A stand-in of the type a `type` issue asks for ("must be integer"), so the field stays present. */
const PLACEHOLDER: Record<string, () => unknown> = {
  string: () => "",
  integer: () => 0,
  number: () => 0,
  boolean: () => false,
  object: () => ({}),
  array: () => [],
  null: () => null,
};

function replaceAt(doc: unknown, path: string, value: unknown): boolean {
  const at = parentOf(doc, path);
  if (at === undefined || !Object.hasOwn(at.node, at.key)) return false;
  at.node[at.key] = value;
  return true;
}

/** Takes the issue's value out of the way: a stand-in of the right type, else removed. */
function repair(doc: unknown, issue: AgValidationIssue): boolean {
  if (issue.keyword === "type") {
    const wanted = /must be (\w+)/.exec(issue.message)?.[1];
    const make = wanted === undefined ? undefined : PLACEHOLDER[wanted];
    if (make !== undefined) return replaceAt(doc, issue.path, make());
  }
  return removeAt(doc, issue.path);
}

/**
 * Fills the missing field a `required` issue points at with null, so that the next round validates
 * what follows it (the round after replaces the null by an empty value of the type asked for).
 */
function fillMissing(doc: unknown, path: string): boolean {
  const at = parentOf(doc, path);
  if (at === undefined || Array.isArray(at.node) || Object.hasOwn(at.node, at.key)) return false;
  at.node[at.key] = null;
  return true;
}

/**
 * Rounds per listed problem, at the most: a round either lists a problem or settles a stand-in (its
 * null replaced by a typed value, or taken out again), and a field is filled once. Each round
 * validates the whole copy, so the bound keeps a document of many problems near `max` validations.
 */
const ROUNDS_PER_PROBLEM = 3;

/**
 * The issues of the document `text` (already known invalid: `first`), at most `max`. `text` is
 * parsed again for a private copy to cut down; its depth was checked before the first parse.
 */
export function allIssues(text: string, first: AgValidationIssue[], check: Check, max: number): AgValidationIssue[] {
  const out: AgValidationIssue[] = [];
  const seen = new Set<string>();
  const add = (issues: AgValidationIssue[]): boolean => {
    let added = false;
    for (const i of issues) {
      const key = `${i.path}\u0000${i.message}`;
      if (seen.has(key) || out.length >= max) continue;
      seen.add(key);
      out.push(i);
      added = true;
    }
    return added;
  };
  add(first);
  const copy: unknown = JSON.parse(text);
  // A removed value's absence (`missing required field`) is not a further problem of the document,
  // and neither is anything wrong with a stand-in this search filled in.
  const removedPaths: string[] = [];
  const filled = new Set<string>();
  const under = (path: string, roots: Iterable<string>) => {
    for (const p of roots) if (path === p || path.startsWith(p + "/")) return true;
    return false;
  };
  let issues = first;
  const rounds = ROUNDS_PER_PROBLEM * max + 8;
  for (let round = 0; round < rounds && out.length < max; round++) {
    let changed = false;
    for (const i of issues) {
      // The discriminator decides which schema applies: without it every other answer changes.
      if (i.keyword === "discriminator") continue;
      if (i.keyword === "required") {
        if (!filled.has(i.path) && fillMissing(copy, i.path)) {
          filled.add(i.path);
          changed = true;
        }
        continue;
      }
      if (repair(copy, i)) {
        if (!under(i.path, filled)) removedPaths.push(i.path);
        changed = true;
      }
    }
    if (!changed) break;
    const again = check(copy);
    if (again.ok) break;
    const fresh = again.errors.filter((i) => !under(i.path, removedPaths));
    const reportable = fresh.filter((i) => !under(i.path, filled));
    // Nothing new to report and nothing of a stand-in's left to settle: the search is over.
    if (!add(reportable) && reportable.length === fresh.length) break;
    issues = fresh;
  }
  return out;
}
