/**
 * Schema lint: the encoding rules of docs/schema.md and the spec's naming rules (§0.3 dot rule,
 * §0.4 casing), checked on the canonical files. Every finding names the `$def` it is about, so a
 * broken rule is fixed where it is written. `agjson gen` refuses to emit while any finding stands.
 */
import { checkAnnotation, checkSemanticAnnotation, OPEN_ENUM_KEYWORD, SEMANTIC_KEYWORDS } from "./annotations.js";
import { FAMILIES, ID_PREFIX, familyFileName, refTarget, type Family, type SchemaNode, type SchemaSet } from "./load.js";
import { EXPECTED_BLOCK_COUNT, EXPECTED_NAMED_EVENT_COUNT, SPEC_TYPES } from "./spec-types.js";

export interface LintFinding {
  file: string;
  def: string;
  rule: string;
  message: string;
}

/** §0.3: the closed set of lifecycle / payload-naming finals a dotted event `type` may end with. */
export const LIFECYCLE_FINALS = new Set([
  "start",
  "delta",
  "end",
  "done",
  "call",
  "result",
  "ask",
  "error",
  "abort",
  "blocked",
  "required",
  "snapshot",
  "metadata",
  "block",
  "capabilities",
  "action-result",
  "update",
  "remove",
  "write",
  "assembled",
  "opaque",
  "context",
  "display-mode",
  "data-model",
]);
/** §0.3: the only dotless event types. */
export const BARE_NOUN_EVENTS = new Set(["error", "source", "handoff"]);

const FORBIDDEN_KEYWORDS = [
  "if",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
  "prefixItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
];
/** Carve-outs from §0.4's camelCase rule for wire field names. */
const FIELD_NAME_CARVE_OUTS = new Set(["_meta"]);
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const KEBAB_SEGMENT = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** Discriminants whose values §0.4 requires to be dotless-kebab (or dotted-kebab for `type`). */
const KEBAB_DISCRIMINANTS = new Set(["type", "kind", "surface", "a2uiMessage"]);
/** Discriminant values spelled verbatim from a foreign API (§3: OpenAI's responseFormat "json_schema"). */
const VALUE_CARVE_OUTS = new Set(["AgResponseFormat:json_schema"]);
/** Objects that are open by design (docs/schema.md rule 3: the `_meta` and `providerMetadata` bags, `AgAuthConfig`, the `ext.*` event body); every other object must be closed. */
const OPEN_OBJECTS = new Set(["AgMeta", "AgProviderMeta", "AgAuthConfig", "AgExtEvent"]);

export function lintSchemaSet(set: SchemaSet): LintFinding[] {
  const findings: LintFinding[] = [];
  const titles = new Map<string, string>();

  for (const file of set.files) {
    const report = (def: string, rule: string, message: string) => findings.push({ file: file.path, def, rule, message });
    const s = file.schema;
    if (s.$schema !== "https://json-schema.org/draft/2020-12/schema")
      report("(file)", "draft", "$schema must be the draft 2020-12 meta-schema");
    if (s.$id !== ID_PREFIX + familyFileName(file.family)) report("(file)", "id", `$id must be ${ID_PREFIX + familyFileName(file.family)}`);
    for (const k of ["$ref", "oneOf", "anyOf", "allOf", "properties"]) {
      if (k in s)
        report("(file)", "no-root-schema", `the file root must only hold $defs (found ${k}); roots break json-schema-to-typescript`);
    }
    const defs = (s.$defs ?? {}) as Record<string, SchemaNode>;
    for (const [name, def] of Object.entries(defs)) {
      if (def.title !== name) report(name, "title", `title must equal the $defs key (is ${JSON.stringify(def.title)})`);
      const seen = titles.get(name);
      if (seen) report(name, "unique-name", `$def name also defined in ${seen}`);
      titles.set(name, file.path);
      if (typeof def.description !== "string" || def.description.trim().length < 10) {
        report(name, "description", "every $def needs a description taken from the spec");
      }
      walk(def, `#/$defs/${name}`, (node, at) => lintNode(node, at, name, file.family, set, report));
    }
  }

  lintEvents(set, findings);
  lintBlocks(set, findings);
  lintCompleteness(set, findings);
  return findings;
}

function walk(node: unknown, at: string, visit: (node: SchemaNode, at: string) => void): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => walk(n, `${at}/${i}`, visit));
    return;
  }
  if (!node || typeof node !== "object") return;
  const obj = node as SchemaNode;
  visit(obj, at);
  for (const [k, v] of Object.entries(obj)) {
    if (k === "const" || k === "enum" || k === "default" || k === "examples") continue;
    if (k === "properties" || k === "$defs" || k === "patternProperties") {
      for (const [pk, pv] of Object.entries(v as SchemaNode)) walk(pv, `${at}/${k}/${pk}`, visit);
    } else if (typeof v === "object") {
      walk(v, `${at}/${k}`, visit);
    }
  }
}

function lintNode(
  node: SchemaNode,
  at: string,
  def: string,
  family: Family,
  set: SchemaSet,
  report: (def: string, rule: string, message: string) => void,
): void {
  for (const k of FORBIDDEN_KEYWORDS) {
    if (k in node) report(def, "forbidden-keyword", `${at}: "${k}" is not allowed (docs/schema.md rule 7)`);
  }
  for (const k of [OPEN_ENUM_KEYWORD, ...Object.keys(SEMANTIC_KEYWORDS)]) {
    const problem = k in node ? checkSemanticAnnotation(k, node[k], node) : undefined;
    if (problem) report(def, "annotation", `${at}: ${problem}`);
  }
  if ("$ref" in node) {
    const siblings = Object.keys(node).filter((k) => k !== "$ref");
    if (siblings.length > 0) report(def, "ref-siblings", `${at}: $ref has sibling keywords ${siblings.join(", ")}`);
    const ref = String(node.$ref);
    const target = refTarget(ref);
    if (!target) report(def, "ref-form", `${at}: $ref ${ref} must point at a $def, relative ("file.schema.json#/$defs/X" or "#/$defs/X")`);
    else {
      const found = set.defs.get(target.def);
      const expectedFamily = target.file ? FAMILIES.find((f) => familyFileName(f) === target.file) : family;
      if (!found || found.family !== expectedFamily) report(def, "ref-target", `${at}: $ref ${ref} does not resolve`);
    }
  }
  if (Array.isArray(node.allOf)) {
    node.allOf.forEach((m, i) => {
      const member = m as SchemaNode;
      if ("$ref" in member || "properties" in member || "type" in member) {
        report(def, "allof-inheritance", `${at}/allOf/${i}: allOf may only hold constraints (no $ref, properties or type)`);
      }
    });
  }
  // Constraint-only members (`{properties:{outcome:{const:"error"}}}`) are not shapes: no type.
  const isObject = node.type === "object";
  const isUnion = Array.isArray(node.oneOf) && (node.oneOf as SchemaNode[]).every((m) => "$ref" in m);
  if (isObject && !isUnion && !("additionalProperties" in node)) {
    report(def, "additional-properties", `${at}: state additionalProperties explicitly`);
  }
  if (isObject && node.additionalProperties === true && at === `#/$defs/${def}` && !OPEN_OBJECTS.has(def)) {
    report(def, "closed-object", `${at}: only ${[...OPEN_OBJECTS].join(", ")} are open objects (docs/schema.md)`);
  }
  if (node.type === "object" && isUnion && def !== "AgSourcePayload") {
    const disc = node.discriminator as SchemaNode | undefined;
    const tag = disc?.propertyName;
    if (typeof tag !== "string") report(def, "union-discriminator", `${at}: a union of $refs needs "discriminator": {"propertyName": …}`);
    else {
      for (const m of node.oneOf as SchemaNode[]) {
        const target = refTarget(String(m.$ref));
        const variant = target && set.defs.get(target.def)?.schema;
        const props = variant?.properties as Record<string, SchemaNode> | undefined;
        if (!variant || !props?.[tag] || !("const" in props[tag]!)) {
          report(def, "union-variant-tag", `${at}: variant ${m.$ref} needs properties.${tag}.const`);
        } else if (!Array.isArray(variant.oneOf) && !(variant.required as string[] | undefined)?.includes(tag)) {
          report(def, "union-variant-tag", `${at}: variant ${m.$ref} must list ${tag} in required`);
        }
      }
    }
  }
  if (node.properties && typeof node.properties === "object") {
    for (const [pname, pschema] of Object.entries(node.properties as Record<string, SchemaNode>)) {
      if (!CAMEL_CASE.test(pname) && !FIELD_NAME_CARVE_OUTS.has(pname)) {
        report(def, "field-casing", `${at}: field "${pname}" breaks §0.4 camelCase`);
      }
      if (KEBAB_DISCRIMINANTS.has(pname)) {
        const values = "const" in pschema ? [pschema.const] : Array.isArray(pschema.enum) ? pschema.enum : [];
        for (const v of values) {
          if (typeof v !== "string") continue;
          const segments = pname === "type" ? v.split(".") : [v];
          if (!segments.every((seg) => KEBAB_SEGMENT.test(seg)) && !VALUE_CARVE_OUTS.has(`${def}:${v}`)) {
            report(def, "value-casing", `${at}/properties/${pname}: "${v}" breaks §0.4 (kebab-case, no snake_case or camelCase)`);
          }
        }
      }
    }
  }
}

function variantsOf(set: SchemaSet, unionName: string): string[] {
  const union = set.defs.get(unionName)?.schema;
  return ((union?.oneOf ?? []) as SchemaNode[]).map((m) => refTarget(String(m.$ref))?.def ?? "?");
}

function constOf(set: SchemaSet, def: string, prop: string): unknown {
  return ((set.defs.get(def)?.schema.properties ?? {}) as Record<string, SchemaNode>)[prop]?.const;
}

function lintEvents(set: SchemaSet, findings: LintFinding[]): void {
  const file = "schema/event.schema.json";
  const report = (def: string, rule: string, message: string) => findings.push({ file, def, rule, message });
  const event = set.defs.get("AgEvent")?.schema;
  const anyOf = (event?.anyOf ?? []) as SchemaNode[];
  const arms = anyOf.map((m) => refTarget(String(m.$ref))?.def);
  if (!(arms.length === 2 && arms.includes("AgKnownEvent") && arms.includes("AgExtEvent"))) {
    report("AgEvent", "event-union", "AgEvent must be anyOf [AgKnownEvent, AgExtEvent] (docs/schema.md rule 5)");
  }
  const variants = variantsOf(set, "AgKnownEvent");
  if (variants.length !== EXPECTED_NAMED_EVENT_COUNT) {
    report("AgKnownEvent", "event-count", `expected ${EXPECTED_NAMED_EVENT_COUNT} named events (§4), found ${variants.length}`);
  }
  for (const name of [...variants, "AgExtEvent"]) {
    const schema = set.defs.get(name)?.schema;
    if (!schema) continue;
    for (const kw of ["x-agjson-profile", "x-agjson-fold"] as const) {
      if (!(kw in schema)) report(name, "annotation", `event lacks ${kw}`);
      else {
        const problem = checkAnnotation(kw, schema[kw]);
        if (problem) report(name, "annotation", problem);
      }
    }
    const props = (schema.properties ?? {}) as Record<string, SchemaNode>;
    for (const base of ["seq", "id", "turnId", "messageId", "parentId", "_meta"]) {
      if (!props[base]) report(name, "event-base", `event lacks base field ${base} (§4 base, merged into properties)`);
    }
    if (!(schema.required as string[] | undefined)?.includes("seq")) report(name, "event-base", "seq must be required (§4, INV-SEQ)");
    if (name === "AgExtEvent") {
      const pattern = props.type?.pattern;
      if (typeof pattern !== "string" || !pattern.startsWith("^ext\\."))
        report(name, "ext-pattern", "ext event type must be a pattern starting ^ext\\.");
      continue;
    }
    const type = props.type?.const;
    if (typeof type !== "string") continue;
    const expectedName = `Ag${pascal(type)}Event`;
    if (name !== expectedName) report(name, "event-name", `event "${type}" should be named ${expectedName}`);
    if (type.includes(".")) {
      const final = type.slice(type.lastIndexOf(".") + 1);
      if (type.startsWith("ext.")) report(name, "dot-rule", `"${type}": ext.* types belong to AgExtEvent only (§0.3)`);
      else if (!LIFECYCLE_FINALS.has(final))
        report(name, "dot-rule", `"${type}": final segment "${final}" is not in §0.3's closed lifecycle set`);
    } else if (!BARE_NOUN_EVENTS.has(type)) {
      report(name, "dot-rule", `"${type}": a dotless type is a block; only error/source/handoff are bare-noun events (§0.3)`);
    }
  }
}

function lintBlocks(set: SchemaSet, findings: LintFinding[]): void {
  const file = "schema/block.schema.json";
  const report = (def: string, rule: string, message: string) => findings.push({ file, def, rule, message });
  const variants = variantsOf(set, "AgBlock");
  if (variants.length !== EXPECTED_BLOCK_COUNT)
    report("AgBlock", "block-count", `expected ${EXPECTED_BLOCK_COUNT} block kinds (§2), found ${variants.length}`);
  for (const name of variants) {
    const schema = set.defs.get(name)?.schema;
    if (!schema) continue;
    if (!("x-agjson-profile" in schema)) report(name, "annotation", "block lacks x-agjson-profile");
    else {
      const problem = checkAnnotation("x-agjson-profile", schema["x-agjson-profile"]);
      if (problem) report(name, "annotation", problem);
    }
    const type = constOf(set, name, "type");
    if (typeof type !== "string") continue;
    if (type.includes(".") || BARE_NOUN_EVENTS.has(type))
      report(name, "dot-rule", `block type "${type}" must be a dotless noun that is not an event (§0.3)`);
    const expectedName = `Ag${pascal(type)}Block`;
    if (name !== expectedName) report(name, "block-name", `block "${type}" should be named ${expectedName}`);
  }
}

function lintCompleteness(set: SchemaSet, findings: LintFinding[]): void {
  for (const family of FAMILIES) {
    const file = `schema/${familyFileName(family)}`;
    for (const [name, section] of Object.entries(SPEC_TYPES[family])) {
      const found = set.defs.get(name);
      if (!found) findings.push({ file, def: name, rule: "completeness", message: `spec type ${name} (${section}) has no $def` });
      else if (found.family !== family)
        findings.push({ file, def: name, rule: "completeness", message: `${name} belongs in ${file}, found in ${found.family}` });
    }
  }
  for (const [name, { family }] of set.defs) {
    if (!(name in SPEC_TYPES[family])) {
      findings.push({
        file: `schema/${familyFileName(family)}`,
        def: name,
        rule: "completeness",
        message: `$def ${name} is not in codegen/spec-types.ts (add it with its spec section)`,
      });
    }
  }
}

/** `tool.args.delta` → `ToolArgsDelta`, `ui.action-result` → `UiActionResult`. */
export function pascal(wire: string): string {
  return wire
    .split(/[.-]/)
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join("");
}

export function formatFindings(findings: LintFinding[]): string {
  return findings.map((f) => `${f.file} ${f.def}: [${f.rule}] ${f.message}`).join("\n");
}
