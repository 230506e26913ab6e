/**
 * Emitter: the table of the semantic layer — the rules JSON Schema cannot state (two fields of one
 * object compared, uniqueness by a key among some items of an array), each an `x-agjson-distinct`
 * or `x-agjson-unique` annotation on the node it constrains (annotations.ts). For every family
 * root it lists each place such a node can occur in a document of that root, as a path of steps
 * (a field, every array item, a union variant's tag), so `src/validate/semantic.ts` checks exactly
 * those places after schema validation, in both postures (or producer-strict only, `posture: "strict"`). A rule added to the schema reaches every
 * root that can hold it, with no hand-written list to forget.
 */
import { SEMANTIC_KEYWORDS, type DistinctRule, type SemanticKeyword, type UniqueRule } from "./annotations.js";
import { closure, type Defs } from "./bundle.js";
import type { SchemaNode } from "./load.js";

/** One step from an object or array to the next node: a field, every item, or a variant's tag. */
export type RuleStep = { key: string } | { each: true } | { tag: string; value: string };

export type SemanticRule = ({ kind: "distinct" } & DistinctRule) | ({ kind: "unique" } & UniqueRule);

/** One place a rule applies: the path from the document root, and the `$def` that declares it. */
export interface RuleSite {
  path: RuleStep[];
  def: string;
  rule: SemanticRule;
}

const KEYWORDS = Object.keys(SEMANTIC_KEYWORDS) as SemanticKeyword[];

function ruleOf(node: SchemaNode): SemanticRule[] {
  const out: SemanticRule[] = [];
  for (const k of KEYWORDS) {
    const v = node[k];
    if (v === undefined) continue;
    if (k === "x-agjson-distinct") out.push({ kind: "distinct", ...(v as DistinctRule) });
    else out.push({ kind: "unique", ...(v as UniqueRule) });
  }
  return out;
}

function containsRule(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsRule);
  if (!node || typeof node !== "object") return false;
  const n = node as SchemaNode;
  if (KEYWORDS.some((k) => k in n)) return true;
  return Object.entries(n).some(([k, v]) => k !== "const" && k !== "enum" && containsRule(v));
}

const defName = (ref: unknown): string | undefined => (typeof ref === "string" && ref.startsWith("#/$defs/") ? ref.slice(8) : undefined);

/** Every site of every rule reachable from `root`, in schema order, without duplicates. */
export function ruleSites(defs: Defs, root: string): RuleSite[] {
  const reaches = new Map<string, boolean>();
  const relevant = (name: string): boolean => {
    let r = reaches.get(name);
    if (r === undefined) {
      r = closure(defs, [name]).some((d) => containsRule(defs[d]));
      reaches.set(name, r);
    }
    return r;
  };
  const sites: RuleSite[] = [];
  const seen = new Set<string>();
  const visit = (node: unknown, path: RuleStep[], owner: string, stack: readonly string[]): void => {
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    const n = node as SchemaNode;
    for (const rule of ruleOf(n)) {
      const key = JSON.stringify([path, rule.rule]);
      if (seen.has(key)) continue;
      seen.add(key);
      sites.push({ path, def: owner, rule });
    }
    const ref = defName(n.$ref);
    if (ref !== undefined && defs[ref] && !stack.includes(ref) && relevant(ref)) visit(defs[ref], path, ref, [...stack, ref]);
    const props = n.properties as Record<string, unknown> | undefined;
    if (props) for (const [k, v] of Object.entries(props)) visit(v, [...path, { key: k }], owner, stack);
    if (n.items && typeof n.items === "object") visit(n.items, [...path, { each: true }], owner, stack);
    const tag = (n.discriminator as SchemaNode | undefined)?.propertyName;
    for (const arms of [n.oneOf, n.anyOf, n.allOf]) {
      if (!Array.isArray(arms)) continue;
      for (const arm of arms as SchemaNode[]) {
        const armDef = defName(arm.$ref);
        const value =
          typeof tag === "string" && armDef ? ((defs[armDef]?.properties ?? {}) as Record<string, SchemaNode>)[tag]?.const : undefined;
        visit(arm, typeof value === "string" ? [...path, { tag: tag as string, value }] : path, owner, stack);
      }
    }
    for (const k of ["then", "else"]) if (n[k]) visit(n[k], path, owner, stack);
    if (n.additionalProperties && typeof n.additionalProperties === "object" && containsRule(n.additionalProperties)) {
      throw new Error(`emit-semantic-rules: a rule under additionalProperties of ${owner} has no path step; add one`);
    }
  };
  visit(defs[root], [], root, [root]);
  return sites;
}

/** `generated/semantic-rules.ts`: per root, the sites; event sites also keyed by their `type`. */
export function emitSemanticRules(defs: Defs, roots: string[], banner: string): string {
  const out: string[] = [banner];
  out.push(
    "/** One step from a node to the next: a field, every array item, or a guard on a union variant's tag. */",
    "export type RuleStep = { readonly key: string } | { readonly each: true } | { readonly tag: string; readonly value: string };",
    "",
    "/** A rule JSON Schema cannot state (docs/validation.md). */",
    "export type SemanticRule =",
    '  | { readonly kind: "distinct"; readonly fields: readonly [string, string]; readonly spec: string; readonly rule: string; readonly message: string }',
    '  | { readonly kind: "unique"; readonly key: string; readonly where: Readonly<Record<string, string>>; readonly posture?: "strict"; readonly spec: string; readonly rule: string; readonly message: string };',
    "",
    "/** One place a rule applies in a document of its root; `def` is the `$def` that declares it. */",
    "export interface RuleSite {",
    "  readonly path: readonly RuleStep[];",
    "  readonly def: string;",
    "  readonly rule: SemanticRule;",
    "}",
    "",
    "/** Every rule site of each family root (x-agjson-distinct / x-agjson-unique in schema/), both postures. */",
    "export const RULE_SITES: { readonly [root: string]: readonly RuleSite[] } = {",
  );
  const strictOnly = (s: RuleSite): boolean => s.rule.kind === "unique" && s.rule.posture === "strict";
  const table = (keep: (s: RuleSite) => boolean, all: boolean): void => {
    for (const root of roots) {
      const sites = ruleSites(defs, root).filter(keep);
      if (!all && sites.length === 0) continue;
      out.push(`  ${JSON.stringify(root)}: [`);
      for (const s of sites) out.push(`    ${JSON.stringify(s)},`);
      out.push("  ],");
    }
    out.push("};", "");
  };
  table((s) => !strictOnly(s), true);
  // A table of its own, so that a consumer of the lenient posture alone bundles none of it.
  out.push(
    '/** The rule sites that bind producer-strict only (`posture: "strict"`): consumer-lenient accepts the document. */',
    "export const strictRuleSites: { readonly [root: string]: readonly RuleSite[] } = {",
  );
  table(strictOnly, false);
  return out.join("\n");
}
