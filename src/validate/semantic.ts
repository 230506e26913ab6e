/**
 * The semantic layer: the rules JSON Schema cannot state (a field compared with another, a key
 * unique among some items of an array), run after schema validation in both postures. The rules
 * are annotations in schema/ (`x-agjson-distinct`, `x-agjson-unique`); `agjson gen` lists every
 * place each can occur under each root (`generated/semantic-rules.ts`), and this walks those
 * places only. docs/validation.md lists the rules with their §.
 */
import { RULE_SITES, type RuleSite, type RuleStep, type SemanticRule } from "../../generated/semantic-rules.js";
import { pointerToken, type AgValidationIssue } from "./issues.js";
import { isRecord } from "../json-guards.js";

/** A document root the semantic layer knows (a family root `$def`). */
export type SemanticRoot = "AgEvent" | "AgInput" | "AgMessage" | "AgBlock" | "AgReduceResult";

/**
 * An event's sites by its `type` (every AgEvent site starts with a guard on the variant's tag), so
 * an event whose type has no rule — nearly all of a stream — costs one map lookup.
 */
const EVENT_SITES: ReadonlyMap<string, readonly RuleSite[]> = sitesByEventType(RULE_SITES.AgEvent ?? []);

/**
 * AgEvent rule sites grouped by the event type their guard names, each path relative to the event,
 * so a validator reaches an event's rules with the one lookup it makes for its schema.
 */
export function sitesByEventType(sites: readonly RuleSite[]): ReadonlyMap<string, readonly RuleSite[]> {
  const byType = new Map<string, RuleSite[]>();
  for (const site of sites) {
    const first = site.path[0];
    if (first === undefined || !("tag" in first) || first.tag !== "type") {
      throw new Error(`semantic rule ${site.rule.rule} on AgEvent is not under a type guard; the event index needs one`);
    }
    const list = byType.get(first.value) ?? [];
    list.push({ ...site, path: site.path.slice(1) });
    byType.set(first.value, list);
  }
  return byType;
}

/** Event types with a semantic rule: a byte-level fast path must leave them to the validator. */
export const SEMANTIC_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_SITES.keys());

/** The rule sites of one event type (under its type guard); undefined when it has none. */
export function eventRuleSites(type: string): readonly RuleSite[] | undefined {
  return EVENT_SITES.get(type);
}

/** The issues the rules at `sites` find in `doc`, which passed its schema; [] when none. */
export function siteIssues(sites: readonly RuleSite[], doc: unknown): AgValidationIssue[] {
  const issues: AgValidationIssue[] = [];
  for (const site of sites) walk(doc, site.path, 0, "", site.rule, issues);
  return issues;
}

/** The issues the semantic rules find in a document that passed its schema; [] when none. */
export function semanticIssues(root: SemanticRoot, doc: unknown): AgValidationIssue[] {
  let sites: readonly RuleSite[] | undefined;
  if (root === "AgEvent") {
    const type = isRecord(doc) ? doc.type : undefined;
    sites = typeof type === "string" ? EVENT_SITES.get(type) : undefined;
  } else sites = RULE_SITES[root];
  return sites === undefined || sites.length === 0 ? [] : siteIssues(sites, doc);
}

/**
 * The issues of `sites` (paths from the document root; AgEvent sites under their type guard) in
 * `doc`; [] when there are none. The strict posture runs its own table (`STRICT_RULE_SITES`)
 * through this, so the lenient posture never loads it.
 */
export function issuesAt(sites: readonly RuleSite[] | undefined, doc: unknown): AgValidationIssue[] {
  return sites === undefined || sites.length === 0 ? [] : siteIssues(sites, doc);
}

function walk(
  node: unknown,
  path: readonly RuleStep[],
  at: number,
  pointer: string,
  rule: SemanticRule,
  issues: AgValidationIssue[],
): void {
  if (at === path.length) {
    check(node, pointer, rule, issues);
    return;
  }
  const step = path[at]!;
  if ("each" in step) {
    if (!Array.isArray(node)) return;
    for (let i = 0; i < node.length; i++) walk(node[i], path, at + 1, `${pointer}/${i}`, rule, issues);
  } else if ("tag" in step) {
    if (isRecord(node) && node[step.tag] === step.value) walk(node, path, at + 1, pointer, rule, issues);
  } else if (isRecord(node) && Object.hasOwn(node, step.key)) {
    walk(node[step.key], path, at + 1, `${pointer}/${pointerToken(step.key)}`, rule, issues);
  }
}

function check(node: unknown, pointer: string, rule: SemanticRule, issues: AgValidationIssue[]): void {
  if (rule.kind === "distinct") {
    if (!isRecord(node)) return;
    const [own, other] = rule.fields;
    const a = node[own];
    if (a !== undefined && a === node[other]) {
      issues.push({
        path: `${pointer}/${pointerToken(other)}`,
        keyword: rule.rule,
        spec: rule.spec,
        message: `${rule.message} (both are ${JSON.stringify(a)})`,
      });
    }
    return;
  }
  if (!Array.isArray(node)) return;
  const first = new Map<unknown, number>();
  for (let i = 0; i < node.length; i++) {
    const item = node[i];
    if (!isRecord(item) || !Object.entries(rule.where).every(([k, v]) => item[k] === v)) continue;
    const key = item[rule.key];
    if (key === undefined) continue;
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, i);
    else
      issues.push({
        path: `${pointer}/${i}/${pointerToken(rule.key)}`,
        keyword: rule.rule,
        spec: rule.spec,
        message: `${rule.message} (${JSON.stringify(key)} is also at ${pointer}/${earlier})`,
      });
  }
}
