/**
 * Schema facts live in the schema (issue 21 item 3): code reads them from `generated/`, never
 * copies them. This fails when code and schema disagree, three ways:
 * - the generated tables (`generated/schema-facts.ts`, `generated/fold-scaffold.ts`) against the
 *   schema read here directly;
 * - each consumer's behaviour against the table it reads (validate's `known`, version negotiation);
 * - a scan of `src/` for a hand-written array (or `new Set([...])`) holding three or more values of
 *   one schema set: the §4 event types, a tagged union's tags, an enum's values. An object keyed
 *   by event types is not scanned: typed by a generated mapped type (FoldHandlers) the compiler
 *   already checks it against the schema; an array it cannot check.
 * A scan finding that is not a copy (another protocol's vocabulary that happens to share words)
 * goes in EXCEPTIONS with its reason; an exception that no longer matches fails too.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { loadSchemaSet, repoRoot, type SchemaNode } from "../codegen/load.js";
import { allDefs } from "../codegen/bundle.js";
import { loadValidateFixtures } from "../conformance/validate-fixtures.js";
import { FOLD_TABLE, KNOWN_EVENT_TYPES } from "../generated/fold-scaffold.js";
import {
  BLOCK_EVENT_TYPES, BLOCK_KEY_FIELD, BLOCK_TYPES, EVENT_ENVELOPE_FIELDS, EVENT_TYPES_BY_FOLD, INPUT_KINDS,
  OPEN_ENUMS, SCHEMA_ENUMS, SPEC_VERSION, SPEC_VERSION_PATTERN, TAG_VALUES, isEnumValue,
} from "../generated/schema-facts.js";
import { isKnownEventType, negotiateVersion } from "../src/validate/index.js";
import * as lenient from "../src/validate/lenient.js";
import * as strict from "../src/validate/strict.js";

const root = repoRoot();
const set = loadSchemaSet(root);
const defs = allDefs(set);
const props = (def: string): Record<string, SchemaNode> => (defs[def]?.properties ?? {}) as Record<string, SchemaNode>;
const armNames = (union: string): string[] => ((defs[union]?.oneOf ?? []) as SchemaNode[]).map((m) => String(m.$ref).replace("#/$defs/", ""));

/** Every string enum of the schema, and every tagged union's tags (AgKnownEvent's are the §4 event types): the sets the scan looks for. */
function schemaSets(): Map<string, ReadonlySet<string>> {
  const sets = new Map<string, ReadonlySet<string>>();
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (!node || typeof node !== "object") return;
    const n = node as SchemaNode;
    if (Array.isArray(n.enum)) sets.set(`enum ${where}`, new Set(n.enum.filter((v): v is string => typeof v === "string")));
    const disc = n.discriminator as SchemaNode | undefined;
    if (disc && typeof disc.propertyName === "string" && Array.isArray(n.oneOf)) {
      const tag = disc.propertyName;
      sets.set(`tags of ${where}`, new Set((n.oneOf as SchemaNode[]).map((m) => String(props(String(m.$ref).replace("#/$defs/", ""))[tag]?.const))));
    }
    for (const [k, v] of Object.entries(n)) if (k !== "enum" && k !== "const") walk(v, `${where}/${k}`);
  };
  for (const [name, def] of Object.entries(defs)) walk(def, name);
  return sets;
}

describe("the generated schema facts match the schema", () => {
  it("lists every named event type, and the envelope every event shares", () => {
    const events = armNames("AgKnownEvent");
    expect(KNOWN_EVENT_TYPES).toEqual(events.map((d) => props(d).type?.const));
    // §4: every event carries the base envelope of AgExtEvent.
    for (const d of events) expect(Object.keys(props(d)), d).toEqual(expect.arrayContaining([...EVENT_ENVELOPE_FIELDS]));
    expect(EVENT_ENVELOPE_FIELDS).toEqual(Object.keys(props("AgExtEvent")));
  });

  it("groups the event types by their x-agjson-fold kind, and names each block event's key field", () => {
    for (const d of armNames("AgKnownEvent")) {
      const type = String(props(d).type?.const) as keyof typeof FOLD_TABLE;
      const fold = defs[d]?.["x-agjson-fold"] as keyof typeof EVENT_TYPES_BY_FOLD;
      expect(FOLD_TABLE[type], type).toBe(fold);
      expect(EVENT_TYPES_BY_FOLD[fold], type).toContain(type);
    }
    expect(Object.values(EVENT_TYPES_BY_FOLD).flat().sort()).toEqual([...KNOWN_EVENT_TYPES].sort());
    expect(Object.keys(BLOCK_KEY_FIELD)).toEqual(BLOCK_EVENT_TYPES);
    const defOf = new Map(armNames("AgKnownEvent").map((d) => [String(props(d).type?.const), d]));
    for (const type of BLOCK_EVENT_TYPES) {
      // The key field is a field of the event, and a required one wherever the event creates or continues a streaming block.
      const def = defOf.get(type)!;
      const key = BLOCK_KEY_FIELD[type]!;
      expect(Object.keys(props(def)), type).toContain(key);
      if (type !== "content.block") expect(defs[def]?.required, type).toContain(key);
    }
  });

  it("lists every tagged union's tags and every enum's values", () => {
    const sets = schemaSets();
    for (const [union, values] of Object.entries(TAG_VALUES)) expect(new Set(values), union).toEqual(sets.get(`tags of ${union}`));
    expect(BLOCK_TYPES).toBe(TAG_VALUES.AgBlock);
    expect(INPUT_KINDS).toBe(TAG_VALUES.AgInput);
    const enums = [...sets].filter(([name]) => name.startsWith("enum "));
    expect(Object.keys(SCHEMA_ENUMS).length).toBe(enums.length);
    for (const [where, values] of Object.entries(SCHEMA_ENUMS)) {
      const pointer = where.includes("#") ? where.replace("#", "") : where;
      expect(new Set(values), where).toEqual(sets.get(`enum ${pointer}`));
    }
    for (const where of OPEN_ENUMS) expect(Object.keys(SCHEMA_ENUMS)).toContain(where);
    expect(isEnumValue("AgRole", "assistant")).toBe(true);
    expect(isEnumValue("AgRole", "model")).toBe(false);
  });

  it("states the version of the schema files' $id, and AgSpecVersion's pattern", () => {
    for (const f of set.files) expect(String(f.schema.$id), f.path).toContain(`/schema/${SPEC_VERSION}/`);
    expect(SPEC_VERSION_PATTERN.source).toBe(new RegExp(String(defs.AgSpecVersion?.pattern)).source);
  });
});

describe("each consumer agrees with the table it reads", () => {
  const fixtures = loadValidateFixtures(join(root, "conformance/validate"));

  it("validate: an event, block or input is `known` exactly when the tables name its tag (§0.2, §12)", () => {
    let checked = 0;
    for (const f of fixtures) {
      if (f.lenient === "invalid" || f.semantic !== undefined) continue;
      const doc = f.document as Record<string, unknown>;
      const tagged =
        f.kind === "event" && f.def === undefined ? { r: lenient.validateEvent(doc), known: typeof doc.type === "string" && isKnownEventType(doc.type) }
        : f.kind === "block" && f.def === undefined ? { r: lenient.validateBlock(doc), known: (BLOCK_TYPES as readonly unknown[]).includes(doc.type) }
        : f.kind === "input" && f.def === undefined ? { r: lenient.validateInput(doc), known: (INPUT_KINDS as readonly unknown[]).includes(doc.kind) }
        : undefined;
      if (tagged === undefined || !tagged.r.ok) continue;
      expect(tagged.r.known, f.name).toBe(tagged.known);
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
    for (const type of KNOWN_EVENT_TYPES) expect(isKnownEventType(type), type).toBe(true);
    expect(isKnownEventType("ext.acme.thing")).toBe(true);
    expect(isKnownEventType("made.up")).toBe(false);
  });

  it("validate: strict never reports an unknown type; lenient types it as AgUnknownEvent", () => {
    const unknown = { type: "made.up", seq: 0 };
    expect(strict.validateEvent(unknown).ok).toBe(false);
    const r = lenient.validateEvent(unknown);
    expect(r).toEqual({ ok: true, event: unknown, known: false });
  });

  it("version negotiation speaks the schema's major (§12)", () => {
    const major = Number(SPEC_VERSION.split(".")[0]);
    expect(negotiateVersion(SPEC_VERSION).ok).toBe(true);
    expect(negotiateVersion(`${major}.99.0`).ok).toBe(true);
    expect(negotiateVersion(`${major + 1}.0.0`).ok).toBe(false);
  });
});

/** A hand-written list of schema values that is not a copy of the schema, with its reason. */
interface Exception {
  file: string;
  set: string;
  values: string[];
  reason: string;
}

const EXCEPTIONS: Exception[] = [
  {
    file: "src/bridges/acp/content.ts",
    set: "enum AgReasoningConfig/properties/effort",
    values: ["high", "medium", "low"],
    reason: "ACP's own PlanEntryPriority values (its vocabulary, not AgJSON's); they share words with AgReasoningConfig.effort",
  },
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !/\.test\.ts$|\.test-support\.ts$/.test(name)) out.push(p);
  }
  return out;
}

interface Finding {
  file: string;
  line: number;
  set: string;
  values: string[];
}

/** Array literals (a `new Set([...])` holds one) with three or more values of one schema set. */
function handLists(sets: Map<string, ReadonlySet<string>>): Finding[] {
  const findings: Finding[] = [];
  for (const path of sourceFiles(join(root, "src"))) {
    const file = relative(root, path).split("\\").join("/");
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isArrayLiteralExpression(node)) {
        const strings = node.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
        for (const [name, values] of sets) {
          const hits = strings.filter((s) => values.has(s));
          if (hits.length >= 3) findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, set: name, values: hits });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

describe("no module of src/ spells a schema set by hand", () => {
  const findings = handLists(schemaSets());
  const excused = (f: Finding, e: Exception) => e.file === f.file && e.set === f.set && JSON.stringify(e.values) === JSON.stringify(f.values);

  it("finds no hand-written list of three or more event types, tags or enum values", () => {
    const unexcused = findings.filter((f) => !EXCEPTIONS.some((e) => excused(f, e)));
    expect(
      unexcused.map((f) => `${f.file}:${f.line}: ${f.values.length} values of ${f.set} spelled by hand (${f.values.join(", ")}) — read them from generated/schema-facts.ts or generated/fold-scaffold.ts`),
    ).toEqual([]);
  });

  it("keeps no exception that no longer matches (remove it once the list is gone)", () => {
    expect(EXCEPTIONS.filter((e) => !findings.some((f) => excused(f, e))).map((e) => `${e.file}: ${e.set}`)).toEqual([]);
  });

  it("would catch a copied list", () => {
    // The scan itself, on a list it must flag: three block types and three event types.
    const probe = ts.createSourceFile("probe.ts", `const a = new Set(["text", "image", "audio"]); const b = ["text.delta", "text.end", "tool.done"];`, ts.ScriptTarget.Latest, true);
    const sets = schemaSets();
    const flagged: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isArrayLiteralExpression(node)) {
        const strings = node.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
        for (const [name, values] of sets) if (strings.filter((s) => values.has(s)).length >= 3) flagged.push(name);
      }
      ts.forEachChild(node, visit);
    };
    visit(probe);
    expect(flagged).toEqual(expect.arrayContaining(["tags of AgBlock", "tags of AgKnownEvent"]));
  });
});

/** Casts on events outside generated/ (STYLE habit 5: types narrow, never cast); none is excused today, an entry would state its reason. */
const EVENT_CAST_EXCEPTIONS: { file: string; cast: string; reason: string }[] = [];

describe("no cast on an event outside generated/", () => {
  it("src/validate, normalize, bridges, reinput and cli assert no event type with `as`", () => {
    const found: { file: string; cast: string }[] = [];
    for (const dir of ["validate", "normalize", "bridges", "reinput", "cli"]) {
      for (const path of sourceFiles(join(root, "src", dir))) {
        const file = relative(root, path).split("\\").join("/");
        const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
        const visit = (node: ts.Node): void => {
          if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && /\bAg\w*Event(Draft)?\b/.test(node.type.getText(source))) {
            found.push({ file, cast: node.getText(source).replace(/\s+/g, " ") });
          }
          ts.forEachChild(node, visit);
        };
        visit(source);
      }
    }
    const unexcused = found.filter((f) => !EVENT_CAST_EXCEPTIONS.some((e) => e.file === f.file && e.cast === f.cast));
    expect(unexcused).toEqual([]);
    expect(EVENT_CAST_EXCEPTIONS.filter((e) => !found.some((f) => f.file === e.file && f.cast === e.cast))).toEqual([]);
  });
});
