/**
 * Every problem of one invalid document, up to a limit. The validators stop at the first failing
 * keyword of a branch, so after each round the value at fault is removed from a copy of the
 * document (or, for a value of the wrong type, replaced by an empty one of the right type) and
 * the copy is validated again; a round that finds nothing new (a missing required
 * field cannot be removed) ends the search, and the absence of a removed value is not reported. The first round's issues are the validator's own.
 */
import type { AgValidationIssue } from "../validate/index.js";

type Check = (value: unknown) => { ok: true } | { ok: false; errors: AgValidationIssue[] };

function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Removes the value at JSON Pointer `path` from `doc`; false when there is none to remove. */
function removeAt(doc: unknown, path: string): boolean {
  if (path === "") return false;
  const tokens = path.split("/").slice(1).map(unescapeToken);
  let node: unknown = doc;
  for (let k = 0; k < tokens.length - 1; k++) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[tokens[k]!];
  }
  const last = tokens[tokens.length - 1]!;
  if (typeof node !== "object" || node === null || Array.isArray(node) || !Object.hasOwn(node, last)) return false;
  delete (node as Record<string, unknown>)[last];
  return true;
}

/** A stand-in of the type a `type` issue asks for ("must be integer"), so the field stays present. */
const PLACEHOLDER: Record<string, () => unknown> = { string: () => "", integer: () => 0, number: () => 0, boolean: () => false, object: () => ({}), array: () => [], null: () => null };

function replaceAt(doc: unknown, path: string, value: unknown): boolean {
  const tokens = path.split("/").slice(1).map(unescapeToken);
  if (tokens.length === 0) return false;
  let node: unknown = doc;
  for (let k = 0; k < tokens.length - 1; k++) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as Record<string, unknown>)[tokens[k]!];
  }
  const last = tokens[tokens.length - 1]!;
  if (typeof node !== "object" || node === null || !Object.hasOwn(node, last)) return false;
  (node as Record<string, unknown>)[last] = value;
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
  // A removed value's absence (`missing required field`) is not a further problem of the document.
  const removedPaths: string[] = [];
  const afterRemoval = (i: AgValidationIssue) => !removedPaths.some((p) => i.path === p || i.path.startsWith(p + "/"));
  let issues = first;
  while (out.length < max) {
    let removed = false;
    for (const i of issues) {
      // The discriminator decides which schema applies: without it every other answer changes.
      if (i.keyword === "discriminator") continue;
      if (repair(copy, i)) {
        removedPaths.push(i.path);
        removed = true;
      }
    }
    if (!removed) break;
    const again = check(copy);
    if (again.ok) break;
    const fresh = again.errors.filter(afterRemoval);
    if (!add(fresh)) break;
    issues = fresh;
  }
  return out;
}
