import { describe, expect, it } from "vitest";
import { loadSchemaSet } from "./load.js";
import { formatFindings, lintSchemaSet } from "./lint.js";
import { canonicalAjv, metaValidate } from "./canonical-ajv.js";

// biome-ignore lint/suspicious/noExplicitAny: the tests plant arbitrary schema changes by hand
type SchemaMutable = Record<string, any>;

// §0.3, §0.4, docs/schema.md: the canonical files obey every encoding rule.
describe("schema lint", () => {
  const set = loadSchemaSet();

  it("finds no rule broken in schema/", () => {
    const findings = lintSchemaSet(set);
    expect(formatFindings(findings)).toBe("");
  });

  it("passes the draft 2020-12 meta-schema", () => {
    expect(metaValidate(set)).toEqual([]);
  });

  it("compiles every $def with discriminators on", () => {
    const { validatorFor } = canonicalAjv(set);
    for (const name of set.defs.keys()) expect(() => validatorFor(name), name).not.toThrow();
  });
});

/** A deep copy of the schema set with one `$def` changed, for the negative cases below. */
function mutated(change: (defs: Map<string, { schema: SchemaMutable }>) => void) {
  const set = loadSchemaSet();
  const copy = structuredClone(set);
  // `defs` points into the files; rebuild it over the copied files so edits land in both.
  copy.defs = new Map();
  for (const file of copy.files) {
    for (const [name, def] of Object.entries((file.schema.$defs ?? {}) as SchemaMutable)) {
      copy.defs.set(name, { family: file.family, schema: def });
    }
  }
  change(copy.defs as never);
  return lintSchemaSet(copy);
}

describe("schema lint catches each broken rule, naming the $def", () => {
  const cases: [string, string, (d: Map<string, { schema: SchemaMutable }>) => void][] = [
    ["annotation", "AgTextDeltaEvent", (d) => delete d.get("AgTextDeltaEvent")!.schema["x-agjson-fold"]],
    ["annotation", "AgToolStartEvent", (d) => (d.get("AgToolStartEvent")!.schema["x-agjson-profile"] = "BASIC")],
    ["dot-rule", "AgTextDeltaEvent", (d) => (d.get("AgTextDeltaEvent")!.schema.properties.type.const = "text.chunk")],
    ["dot-rule", "AgHandoffEvent", (d) => (d.get("AgHandoffEvent")!.schema.properties.type.const = "transfer")],
    ["value-casing", "AgTextStartEvent", (d) => (d.get("AgTextStartEvent")!.schema.properties.type.const = "text.tool_start")],
    ["field-casing", "AgUsage", (d) => (d.get("AgUsage")!.schema.properties.input_tokens = { type: "number" })],
    ["title", "AgUsage", (d) => (d.get("AgUsage")!.schema.title = "Usage")],
    ["forbidden-keyword", "AgChoice", (d) => (d.get("AgChoice")!.schema.if = { required: ["value"] })],
    ["ref-siblings", "AgChoice", (d) => (d.get("AgChoice")!.schema.properties.value = { $ref: "#/$defs/AgJsonValue", description: "x" })],
    ["allof-inheritance", "AgSafety", (d) => (d.get("AgSafety")!.schema.allOf = [{ $ref: "#/$defs/AgChoice" }])],
    ["additional-properties", "AgSafety", (d) => delete d.get("AgSafety")!.schema.additionalProperties],
    ["union-discriminator", "AgOutcome", (d) => delete d.get("AgOutcome")!.schema.discriminator],
    ["description", "AgTrigger", (d) => delete d.get("AgTrigger")!.schema.description],
    ["event-base", "AgTextEndEvent", (d) => delete d.get("AgTextEndEvent")!.schema.properties.parentId],
    ["completeness", "AgTrigger", (d) => d.delete("AgTrigger")],
  ];
  it.each(cases)("%s on %s", (rule, def, change) => {
    const findings = mutated(change);
    expect(
      findings.some((f) => f.rule === rule && f.def === def),
      formatFindings(findings),
    ).toBe(true);
  });
});
