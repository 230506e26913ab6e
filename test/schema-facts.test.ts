/**
 * Schema facts live in the schema: code reads them from `generated/`, never copies them. This fails
 * when code and schema disagree, three ways:
 * - the generated tables (`generated/schema-facts.ts`, `generated/fold-scaffold.ts`) against the
 *   schema read here directly;
 * - each consumer's behaviour against the table it reads (validate's `known`, version negotiation);
 * - a scan of `src/` for a hand-written array (or `new Set([...])`) holding three or more values of
 *   one schema set — the §4 event types, a tagged union's tags, an enum's values — or three or more
 *   field names of one schema type. An object keyed by event types is not scanned: typed by a
 *   generated mapped type (FoldHandlers) the compiler already checks it against the schema; an
 *   array it cannot check.
 * A scan finding that is not a copy goes in an exception list with its reason: another protocol's
 * vocabulary that happens to share words (EXCEPTIONS, FOREIGN_FIELDS), or the fields a module maps
 * into its protocol's own slots, typed against the generated fields (MAPPED_FIELDS). An exception
 * that no longer matches fails too.
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
  BLOCK_EVENT_TYPES,
  BLOCK_KEY_FIELD,
  BLOCK_TYPES,
  DEF_FIELDS,
  EVENT_ENVELOPE_FIELDS,
  EVENT_FIELDS,
  EVENT_TYPES_BY_FOLD,
  INPUT_KINDS,
  OPEN_ENUMS,
  SCHEMA_ENUMS,
  SPEC_VERSION,
  SPEC_VERSION_PATTERN,
  TAG_VALUES,
  fieldsOtherThan,
  isEnumValue,
} from "../generated/schema-facts.js";
import { isKnownEventType, negotiateVersion } from "../src/validate/index.js";
import * as lenient from "../src/validate/lenient.js";
import * as strict from "../src/validate/strict.js";

const root = repoRoot();
const set = loadSchemaSet(root);
const defs = allDefs(set);
const props = (def: string): Record<string, SchemaNode> => (defs[def]?.properties ?? {}) as Record<string, SchemaNode>;
const armNames = (union: string): string[] =>
  ((defs[union]?.oneOf ?? []) as SchemaNode[]).map((m) => String(m.$ref).replace("#/$defs/", ""));

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
      sets.set(
        `tags of ${where}`,
        new Set((n.oneOf as SchemaNode[]).map((m) => String(props(String(m.$ref).replace("#/$defs/", ""))[tag]?.const))),
      );
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

  it("lists every event type's fields and every other object $def's, in schema order", () => {
    const events = armNames("AgKnownEvent");
    expect(Object.keys(EVENT_FIELDS)).toEqual(KNOWN_EVENT_TYPES);
    for (const d of events) expect(EVENT_FIELDS[props(d).type?.const as keyof typeof EVENT_FIELDS], d).toEqual(Object.keys(props(d)));
    const objects = Object.keys(defs).filter((d) => !events.includes(d) && Object.keys(props(d)).length > 0);
    expect(Object.keys(DEF_FIELDS)).toEqual(objects);
    for (const d of objects) expect(DEF_FIELDS[d as keyof typeof DEF_FIELDS], d).toEqual(Object.keys(props(d)));
    // What a consumer copies beside the fields it maps: the rest, in schema order.
    expect(fieldsOtherThan(EVENT_FIELDS["text.delta"], ["type", "seq", "delta"])).toEqual([
      "id",
      "turnId",
      "messageId",
      "parentId",
      "_meta",
      "providerMetadata",
    ]);
    expect(fieldsOtherThan(DEF_FIELDS.AgHandoffRecord, [])).toEqual(["kind", "fromAgentId", "toAgentId", "toAgentName"]);
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

  it("bounds every seq as the code's safe-integer checks assume (§5.0 INV-SEQ: 0..Number.MAX_SAFE_INTEGER)", () => {
    // The gateway, the normalizer engine and the fold read and advance seq with Number.isSafeInteger
    // and Number.MAX_SAFE_INTEGER instead of a generated bound: this holds them to the schema's.
    const seqs: SchemaNode[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== "object") return;
      const n = node as SchemaNode;
      const seq = (n.properties as Record<string, SchemaNode> | undefined)?.seq;
      if (seq) seqs.push(seq);
      for (const v of Object.values(n)) walk(v);
    };
    for (const def of Object.values(defs)) walk(def);
    expect(seqs.length).toBeGreaterThanOrEqual(KNOWN_EVENT_TYPES.length);
    for (const seq of seqs)
      expect({ type: seq.type, minimum: seq.minimum, maximum: seq.maximum }).toEqual({
        type: "integer",
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
      });
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
        f.kind === "event" && f.def === undefined
          ? { r: lenient.validateEvent(doc), known: typeof doc.type === "string" && isKnownEventType(doc.type) }
          : f.kind === "block" && f.def === undefined
            ? { r: lenient.validateBlock(doc), known: (BLOCK_TYPES as readonly unknown[]).includes(doc.type) }
            : f.kind === "input" && f.def === undefined
              ? { r: lenient.validateInput(doc), known: (INPUT_KINDS as readonly unknown[]).includes(doc.kind) }
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

/**
 * A hand-written list of field names that is not a copy of a schema type's fields: another
 * protocol's own field names that share words with AgJSON's, with its reason.
 */
interface ForeignFields {
  file: string;
  /** The constant the lists initialize, or the function they are an argument of. */
  site: string;
  reason: string;
}

const FOREIGN_FIELDS: ForeignFields[] = [
  {
    file: "src/bridges/ag-ui/input.ts",
    site: "MESSAGE_KEYS",
    reason:
      "AG-UI's message fields per role (toolCalls, encryptedValue, activityType, …): its vocabulary; id, role, content are AgMessage's words too",
  },
  {
    file: "src/bridges/ag-ui/input.ts",
    site: "TOP_LEVEL",
    reason: "RunAgentInput's fields (AG-UI's vocabulary); threadId, state, messages are AgStartInput's words too",
  },
  {
    file: "src/normalize/providers/gemini-interactions.ts",
    site: "omit",
    reason:
      "a Gemini Interactions function-call step's own fields (arguments, server_name, …): its vocabulary; type, id, name, signature are AgJSON's words too",
  },
  {
    file: "src/normalize/providers/openai-chat.ts",
    site: "MAPPED_KEYS",
    reason:
      "an OpenAI Chat Completions chunk's top-level fields (object, created, choices, …): its vocabulary; id, model, usage are AgMessage's words too",
  },
];

/**
 * Lists that name the fields a module maps itself (its protocol's slots), not a schema fact: a
 * constant, or every array argument of one function, typed against the generated fields
 * (`FieldOf<…>`) so the compiler refuses a name the schema does not have. Every field such a list
 * does not name is carried, so a field the schema adds is never lost — which is why such a list is
 * never derived from the schema (a derived "what I map" list would swallow a new field). The
 * `except` of `fieldsOtherThan(fields, except)` (generated/schema-facts.ts) is one everywhere: the
 * compiler checks it against the generated fields it subtracts from.
 */
interface MappedFields {
  file: string;
  /** The constant the list initializes, or the function it is an argument of. */
  site: string;
  reason: string;
}

const MAPPED_FIELDS: MappedFields[] = [
  {
    file: "src/bridges/ag-ui/to-ag-ui.ts",
    site: "rest",
    reason:
      "rest(ev, omit): `omit` is what the AG-UI event states in its own slots (AG-UI's vocabulary), typed FieldOf<E> of the event; the rest rides metadata.agjson",
  },

  {
    file: "src/bridges/ag-ui/carry.ts",
    site: "BLOCK_OWN",
    reason: "the envelope fields AG-UI's block events state themselves (AG-UI's vocabulary), typed as generated envelope fields",
  },
  {
    file: "src/bridges/ag-ui/carry.ts",
    site: "AG_UI_OWN",
    reason:
      "per event type, what its AG-UI event states in its own slots (AG-UI's vocabulary), satisfies FieldOf<AgEventByType[K]>; toAgUi carries the rest, the ag-ui facet reads back the rest",
  },
  {
    file: "src/bridges/ag-ui/carry.ts",
    site: "INTERRUPT_OWN",
    reason: "the AgPausedAsk fields an AG-UI Interrupt states in its own slots (AG-UI's vocabulary), shared by toAgUi and the ag-ui facet",
  },
  {
    file: "src/bridges/ag-ui/input.ts",
    site: "ANSWER_READ_BACK",
    reason:
      "the AgHitlAnswer fields §3.1 lets a resume bring back from metadata.agjson, each read with its type: a choice of the spec, not all of AgHitlAnswer",
  },
  {
    file: "src/bridges/provider/threads.ts",
    site: "CLIENT_BLOB_FIELDS",
    reason:
      "the replay-load-bearing block fields §13.2 names (sealed reasoning, signatures, item ids, provider metadata), typed FieldOf<AgKnownBlock>: a choice of the spec, stripped from what a client sends a provider source",
  },
  {
    file: "src/bridges/ui-message-stream/transform.ts",
    site: "RESULT_OWN",
    reason:
      "what the AI SDK's tool-output chunks state themselves (its vocabulary), typed against the result's generated fields; the rest rides providerMetadata.agjson",
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

/** The field names of every object schema: each `$def`'s `properties`, and every object schema inside a `$def`. */
function fieldSets(): Map<string, ReadonlySet<string>> {
  const sets = new Map<string, ReadonlySet<string>>();
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (!node || typeof node !== "object") return;
    const n = node as SchemaNode;
    if (n.properties && typeof n.properties === "object") sets.set(`fields of ${where}`, new Set(Object.keys(n.properties)));
    for (const [k, v] of Object.entries(n)) if (k !== "enum" && k !== "const") walk(v, `${where}/${k}`);
  };
  for (const [name, def] of Object.entries(defs)) walk(def, name);
  return sets;
}

interface Finding {
  file: string;
  line: number;
  set: string;
  values: string[];
}

interface FieldFinding {
  file: string;
  line: number;
  /** The schema type most of the list's names are fields of (the first such, in schema order). */
  set: string;
  /** The list's string elements, in order. */
  values: string[];
  /** The constant the list initializes (directly or through `new Set(…)`), or the function it is an argument of. */
  site: string | undefined;
}

/** The constant an expression initializes, through `new Set(…)`, object literals and `as`/`satisfies`. */
function declaredIn(node: ts.Node): string | undefined {
  let at: ts.Node = node.parent;
  while (
    ts.isNewExpression(at) ||
    ts.isPropertyAssignment(at) ||
    ts.isObjectLiteralExpression(at) ||
    ts.isAsExpression(at) ||
    ts.isSatisfiesExpression(at)
  )
    at = at.parent;
  return ts.isVariableDeclaration(at) && ts.isIdentifier(at.name) ? at.name.text : undefined;
}

/** The name a call is made by: `f(…)` → f, `this.f(…)` / `x.f(…)` → f. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

/**
 * Array literals (a `new Set([...])` holds one) with three or more values of one schema set, and
 * those with three or more field names of one schema type (each list once, under the type it
 * names most fields of). The `except` of `fieldsOtherThan` is not a copy: the compiler checks it
 * against the generated fields it subtracts from.
 */
function scan(
  file: string,
  source: ts.SourceFile,
  sets: Map<string, ReadonlySet<string>>,
  fields: Map<string, ReadonlySet<string>>,
): { values: Finding[]; fields: FieldFinding[] } {
  const found: { values: Finding[]; fields: FieldFinding[] } = { values: [], fields: [] };
  const visit = (node: ts.Node): void => {
    if (ts.isArrayLiteralExpression(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      const strings = node.elements.filter(ts.isStringLiteralLike).map((e) => e.text);
      for (const [name, values] of sets) {
        const hits = strings.filter((s) => values.has(s));
        if (hits.length >= 3) found.values.push({ file, line, set: name, values: hits });
      }
      const parent = node.parent;
      const call = ts.isCallExpression(parent) && parent.arguments.includes(node) ? calleeName(parent) : undefined;
      const subtracted = call === "fieldsOtherThan" && ts.isCallExpression(parent) && parent.arguments[1] === node;
      const site = call ?? declaredIn(node);
      let best: { set: string; hits: number } | undefined;
      for (const [name, names] of fields) {
        const hits = new Set(strings.filter((s) => names.has(s))).size;
        if (hits >= 3 && (best === undefined || hits > best.hits)) best = { set: name, hits };
      }
      if (best !== undefined && !subtracted) found.fields.push({ file, line, set: best.set, values: strings, site });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function scanSources(): { values: Finding[]; fields: FieldFinding[] } {
  const sets = schemaSets();
  const fields = fieldSets();
  const all: { values: Finding[]; fields: FieldFinding[] } = { values: [], fields: [] };
  for (const path of sourceFiles(join(root, "src"))) {
    const file = relative(root, path).split("\\").join("/");
    const found = scan(file, ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true), sets, fields);
    all.values.push(...found.values);
    all.fields.push(...found.fields);
  }
  return all;
}

describe("no module of src/ spells a schema set by hand", () => {
  const found = scanSources();
  const findings = found.values;
  const excused = (f: Finding, e: Exception) =>
    e.file === f.file && e.set === f.set && JSON.stringify(e.values) === JSON.stringify(f.values);
  const mapped = (f: FieldFinding, e: { file: string; site: string }) => e.file === f.file && e.site === f.site;

  it("finds no hand-written list of three or more event types, tags or enum values", () => {
    const unexcused = findings.filter((f) => !EXCEPTIONS.some((e) => excused(f, e)));
    expect(
      unexcused.map(
        (f) =>
          `${f.file}:${f.line}: ${f.values.length} values of ${f.set} spelled by hand (${f.values.join(", ")}) — read them from generated/schema-facts.ts or generated/fold-scaffold.ts`,
      ),
    ).toEqual([]);
  });

  it("finds no hand-written list of three or more fields of one schema type", () => {
    const unexcused = found.fields.filter((f) => ![...FOREIGN_FIELDS, ...MAPPED_FIELDS].some((e) => mapped(f, e)));
    expect(
      unexcused.map(
        (f) =>
          `${f.file}:${f.line}: ${f.set} spelled by hand (${f.values.join(", ")}) — read them from EVENT_FIELDS / DEF_FIELDS in generated/schema-facts.ts (fieldsOtherThan for the ones a module does not map itself)`,
      ),
    ).toEqual([]);
  });

  it("keeps no exception that no longer matches (remove it once the list is gone)", () => {
    expect(EXCEPTIONS.filter((e) => !findings.some((f) => excused(f, e))).map((e) => `${e.file}: ${e.set}`)).toEqual([]);
    expect(
      [...FOREIGN_FIELDS, ...MAPPED_FIELDS].filter((e) => !found.fields.some((f) => mapped(f, e))).map((e) => `${e.file}: ${e.site}`),
    ).toEqual([]);
  });

  it("would catch a copied list", () => {
    // The scan itself, on lists it must flag: three block types, three event types, and the
    // fields of a record — as an array, as a Set, and as an argument — but not the `except` of
    // fieldsOtherThan, which the compiler checks against the generated fields.
    const probe = ts.createSourceFile(
      "probe.ts",
      [
        `const a = new Set(["text", "image", "audio"]); const b = ["text.delta", "text.end", "tool.done"];`,
        `const c = ["kind", "fromAgentId", "toAgentId"]; const d = new Set(["sourceId", "chunkIndex", "providerMetadata"]);`,
        `pick(event, ["target", "passed", "guardrailName"]);`,
        `fieldsOtherThan(EVENT_FIELDS["tool.start"], ["type", "seq", "toolCallId", "name"]);`,
      ].join("\n"),
      ts.ScriptTarget.Latest,
      true,
    );
    const probed = scan("probe.ts", probe, schemaSets(), fieldSets());
    expect(probed.values.map((f) => f.set)).toEqual(expect.arrayContaining(["tags of AgBlock", "tags of AgKnownEvent"]));
    expect(probed.fields.map((f) => [f.line, f.values.join(","), f.site])).toEqual([
      [2, "kind,fromAgentId,toAgentId", "c"],
      [2, "sourceId,chunkIndex,providerMetadata", "d"],
      [3, "target,passed,guardrailName", "pick"],
    ]);
    expect(probed.fields.map((f) => f.set)).toEqual([
      "fields of AgHandoffEvent",
      "fields of AgSourceEvent",
      "fields of AgGuardrailResultEvent",
    ]);
  });
});

/** Casts on events outside generated/ (types narrow, never cast: issue 21 item 6); none is excused today, an entry would state its reason. */
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
