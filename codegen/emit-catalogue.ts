/**
 * Emitter: the schema catalogue, a Markdown page listing every `$def` by family with its
 * description, annotations and fields — the reference a reader browses (docs/schema.md links it).
 */
import { FAMILIES, familyFileName, refTarget, type SchemaNode, type SchemaSet } from "./load.js";
import { ANNOTATION_KEYWORDS, OPEN_ENUM_KEYWORD } from "./annotations.js";

function anchor(name: string): string {
  return name.toLowerCase();
}

function link(name: string): string {
  return `[${name}](#${anchor(name)})`;
}

/** A short type expression for one schema node. */
export function typeSummary(s: SchemaNode | undefined): string {
  const ANNOTATIONS = new Set(["title", "description", "$comment", ...ANNOTATION_KEYWORDS]);
  if (!s || Object.keys(s).every((k) => ANNOTATIONS.has(k))) return "any JSON";
  if (typeof s.$ref === "string") {
    const t = refTarget(s.$ref);
    return t ? (t.def === "AgJsonValue" ? "any JSON" : link(t.def)) : s.$ref;
  }
  if ("const" in s) return `\`${JSON.stringify(s.const)}\``;
  if (Array.isArray(s.enum))
    return (
      s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(" \\| ") +
      (s[OPEN_ENUM_KEYWORD] === true ? " (open: lenient accepts any string)" : "")
    );
  const arms = (s.oneOf ?? s.anyOf) as SchemaNode[] | undefined;
  if (arms?.every((a) => "$ref" in a || "type" in a || "enum" in a)) return arms.map((a) => typeSummary(a)).join(" \\| ");
  if (s.type === "array") return `${typeSummary(s.items as SchemaNode | undefined)}[]`;
  if (s.type === "object") {
    if (s.additionalProperties && typeof s.additionalProperties === "object")
      return `map of ${typeSummary(s.additionalProperties as SchemaNode)}`;
    if (s.properties) return "object";
    return s.additionalProperties === false ? "{}" : "object (open)";
  }
  const extras: string[] = [];
  if (typeof s.minimum === "number") extras.push(`≥ ${s.minimum}`);
  if (typeof s.maximum === "number") extras.push(`≤ ${s.maximum}`);
  if (typeof s.pattern === "string") extras.push(`pattern \`${s.pattern}\``);
  if (typeof s.format === "string") extras.push(s.format);
  return `${String(s.type ?? "any")}${extras.length ? ` (${extras.join(", ")})` : ""}`;
}

function describeDef(name: string, def: SchemaNode): string[] {
  const out = [`### ${name}`, "", String(def.description ?? "").replace(/\n/g, " "), ""];
  const notes: string[] = [];
  if (def["x-agjson-profile"]) notes.push(`profile \`${String(def["x-agjson-profile"])}\``);
  if (def["x-agjson-fold"]) notes.push(`fold \`${String(def["x-agjson-fold"])}\``);
  const distinct = def["x-agjson-distinct"] as { rule?: string; spec?: string } | undefined;
  if (distinct) notes.push(`rule \`${String(distinct.rule)}\` (${String(distinct.spec)})`);
  if (def.additionalProperties === false) notes.push("closed");
  if (def.additionalProperties === true) notes.push("open");
  if (notes.length) out.push(`*${notes.join(" · ")}*`, "");
  const arms = (def.oneOf ?? def.anyOf) as SchemaNode[] | undefined;
  if (arms?.every((a) => "$ref" in a)) {
    const tag = (def.discriminator as SchemaNode | undefined)?.propertyName;
    out.push(`One of${tag ? ` (by \`${String(tag)}\`)` : ""}: ${arms.map((a) => typeSummary(a)).join(", ")}.`, "");
  }
  const props = def.properties as Record<string, SchemaNode> | undefined;
  if (props && !arms?.every((a) => "$ref" in a)) {
    const required = new Set((def.required ?? []) as string[]);
    out.push("| field | type | required |", "| --- | --- | --- |");
    for (const [k, v] of Object.entries(props)) out.push(`| \`${k}\` | ${typeSummary(v)} | ${required.has(k) ? "yes" : ""} |`);
    out.push("");
  } else if (!props && !arms) {
    out.push(`Type: ${typeSummary(def)}`, "");
  }
  const rules = [
    def.allOf,
    arms && !arms.every((a) => "$ref" in a) ? arms : undefined,
    def.anyOf && def.oneOf ? def.anyOf : undefined,
    def.not,
  ].filter(Boolean);
  if (rules.length) out.push("Cross-field rules are part of this type; see the schema file.", "");
  return out;
}

export function emitCatalogue(set: SchemaSet, banner: string): string {
  const out = [
    banner,
    "# AgJSON v1 schema catalogue",
    "",
    "Every type of `schema/`, by family. Generated; the schema files are the authority.",
    "",
  ];
  for (const family of FAMILIES) {
    const file = set.files.find((f) => f.family === family)!;
    const defs = (file.schema.$defs ?? {}) as Record<string, SchemaNode>;
    out.push(`- [${family}](#family-${family}) (${Object.keys(defs).length} types)`);
  }
  out.push("");
  for (const family of FAMILIES) {
    const file = set.files.find((f) => f.family === family)!;
    out.push(`## Family: ${family}`, "", `\`schema/${familyFileName(family)}\` — ${String(file.schema.description ?? "")}`, "");
    for (const [name, def] of Object.entries((file.schema.$defs ?? {}) as Record<string, SchemaNode>)) out.push(...describeDef(name, def));
  }
  return out.join("\n").replace(/\n{3,}/g, "\n\n") + "\n";
}
