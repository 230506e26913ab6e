/**
 * The Python and Go types, proved by running them: every valid fixture of conformance/validate/
 * goes through `generated/python` with /usr/bin/python3 and through `generated/go` with `go run`
 * (one process each, documents fed as NDJSON) and must come back deep-equal; unknown fields and an
 * unknown event type must round-trip unchanged.
 * Missing toolchains fail with the install command; nothing is skipped silently.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const PYTHON = "/usr/bin/python3";
const INSTALL = "run `make toolchains` (or: apt-get install -y python3-jsonschema python3-dateutil golang-go)";

/** The root `$def` of each fixture `kind` (docs/schema.md). */
const KIND_ROOT: Record<string, string> = {
  event: "AgEvent",
  block: "AgBlock",
  message: "AgMessage",
  input: "AgInput",
  "reduce-result": "AgReduceResult",
};

interface Fixture {
  file: string;
  kind: string;
  def?: string;
  document: unknown;
  strict: string;
  lenient: string;
  semantic?: string;
}

function fixtures(): Fixture[] {
  const out: Fixture[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, name.name);
      if (name.isDirectory()) walk(p);
      else if (name.name.endsWith(".json"))
        out.push({ file: relative(ROOT, p), ...(JSON.parse(readFileSync(p, "utf8")) as Omit<Fixture, "file">) });
    }
  };
  walk(join(ROOT, "conformance/validate"));
  return out;
}

/** The `$def` a fixture is read as: its `def`, else its family's root type. */
const defOf = (f: Fixture): string | undefined => f.def ?? KIND_ROOT[f.kind];

interface Case {
  id: string;
  def: string;
  document: unknown;
}
interface Result {
  id: string;
  ok: boolean;
  document?: unknown;
  variant?: string;
  unknowns?: number;
  error?: string;
}

function goBinary(): string | undefined {
  for (const p of ["/usr/bin/go", "/usr/lib/go/bin/go", "/usr/local/go/bin/go"]) if (existsSync(p)) return p;
  const which = spawnSync("sh", ["-c", "command -v go"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : undefined;
}

function requirePython(modules: string[]): void {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: ${INSTALL}`);
  const r = spawnSync(PYTHON, ["-c", modules.map((m) => `import ${m}`).join("; ") || "pass"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${PYTHON} cannot import ${modules.join(", ")}: ${INSTALL}\n${r.stderr}`);
}

const PY_DRIVER = String.raw`
import dataclasses, json, sys
import agjson_types as t

def unknowns(v):
    """How many Unknown… holders the parsed value contains, at any depth."""
    if type(v).__name__.startswith("Unknown"):
        return 1
    if dataclasses.is_dataclass(v):
        return sum(unknowns(getattr(v, f.name)) for f in dataclasses.fields(v) if f.name != "extras")
    if isinstance(v, list):
        return sum(unknowns(x) for x in v)
    if isinstance(v, dict):
        return sum(unknowns(x) for x in v.values())
    return 0

for line in sys.stdin:
    c = json.loads(line)
    try:
        v = t.parse_def(c["def"], c["document"])
        print(json.dumps({"id": c["id"], "ok": True, "variant": type(v).__name__, "unknowns": unknowns(v), "document": t.to_json(v)}))
    except Exception as e:
        print(json.dumps({"id": c["id"], "ok": False, "error": f"{type(e).__name__}: {e}"}))
`;

const GO_DRIVER = `package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"

	"${"silverprotocol.io/agjson"}/agjson"
)

type input struct {
	ID       string          \`json:"id"\`
	Def      string          \`json:"def"\`
	Document json.RawMessage \`json:"document"\`
}

type output struct {
	ID       string          \`json:"id"\`
	OK       bool            \`json:"ok"\`
	Variant  string          \`json:"variant,omitempty"\`
	Document json.RawMessage \`json:"document,omitempty"\`
	Error    string          \`json:"error,omitempty"\`
}

// variant names the Go type a union decoded into (the Value of its wrapper), or the type itself.
func variant(v interface{}) string {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Struct {
		if f := rv.FieldByName("Value"); f.IsValid() && f.Kind() == reflect.Interface && !f.IsNil() {
			return reflect.Indirect(f.Elem()).Type().Name()
		}
		return rv.Type().Name()
	}
	return rv.Type().String()
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var c input
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		v, err := agjson.DecodeDef(c.Def, c.Document)
		if err != nil {
			_ = out.Encode(output{ID: c.ID, Error: err.Error()})
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			_ = out.Encode(output{ID: c.ID, Error: "marshal: " + err.Error()})
			continue
		}
		_ = out.Encode(output{ID: c.ID, OK: true, Variant: variant(v), Document: b})
	}
}
`;

function parseResults(stdout: string): Map<string, Result> {
  return new Map(
    stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => {
        const r = JSON.parse(l) as Result;
        return [r.id, r];
      }),
  );
}

function runPython(cases: Case[]): Map<string, Result> {
  requirePython([]);
  const r = spawnSync(PYTHON, ["-c", PY_DRIVER], {
    input: cases.map((c) => JSON.stringify(c)).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 256 << 20,
    env: { ...process.env, PYTHONPATH: join(ROOT, "generated/python"), PYTHONDONTWRITEBYTECODE: "1" },
  });
  if (r.status !== 0) throw new Error(`the Python round trip failed to run (${PYTHON}):\n${r.stderr}`);
  return parseResults(r.stdout);
}

let goWork: string | undefined;

/** Builds the Go driver once against a copy of generated/go (generated/ holds only generated files). */
function buildGo(): string {
  const go = goBinary();
  if (!go) throw new Error(`go is missing: ${INSTALL}`);
  goWork = mkdtempSync(join(tmpdir(), "agjson-go-"));
  cpSync(join(ROOT, "generated/go"), goWork, { recursive: true });
  mkdirSync(join(goWork, "cmd/roundtrip"), { recursive: true });
  writeFileSync(join(goWork, "cmd/roundtrip/main.go"), GO_DRIVER);
  const env = {
    ...process.env,
    GOFLAGS: "-mod=mod",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    GOCACHE: process.env.GOCACHE ?? join(tmpdir(), "agjson-go-cache"),
  };
  const vet = spawnSync(go, ["vet", "./..."], { cwd: goWork, encoding: "utf8", env });
  if (vet.status !== 0) throw new Error(`go vet rejects generated/go:\n${vet.stderr}`);
  const bin = join(goWork, "roundtrip");
  const b = spawnSync(go, ["build", "-o", bin, "./cmd/roundtrip"], { cwd: goWork, encoding: "utf8", env });
  if (b.status !== 0) throw new Error(`go build of generated/go failed:\n${b.stderr}`);
  return bin;
}

function runGo(bin: string, cases: Case[]): Map<string, Result> {
  const r = spawnSync(bin, [], { input: cases.map((c) => JSON.stringify(c)).join("\n") + "\n", encoding: "utf8", maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`the Go round trip failed to run:\n${r.stderr}`);
  return parseResults(r.stdout);
}

const VALID: Case[] = fixtures()
  .filter((f) => f.strict === "valid" && defOf(f))
  .map((f) => ({ id: f.file, def: defOf(f)!, document: f.document }));

/** Lenient-posture cases: unknown fields and unknown types, at the top and nested. */
const UNKNOWN: (Case & { variant: string })[] = [
  {
    id: "unknown-field",
    def: "AgEvent",
    variant: "AgTextDeltaEvent",
    document: {
      type: "text.delta",
      seq: 7,
      id: "b1",
      messageId: "m1",
      delta: "hi",
      "x-vendor": { trace: [1, 2.5, null, true], deep: { a: "b" } },
    },
  },
  {
    id: "unknown-event-type",
    def: "AgEvent",
    variant: "UnknownEvent",
    document: { type: "future.thing", seq: 8, payload: { nested: [{ k: 1 }] }, flag: false },
  },
  { id: "ext-event", def: "AgEvent", variant: "AgExtEvent", document: { type: "ext.acme.trace", seq: 9, span: { id: "s1" } } },
  {
    id: "unknown-nested-block-and-field",
    def: "AgMessage",
    variant: "AgMessage",
    document: {
      id: "m1",
      role: "assistant",
      content: [
        { type: "hologram", frames: 3 },
        { type: "text", text: "x", glow: { level: 2 } },
      ],
      mood: "calm",
    },
  },
];

function mismatches(results: Map<string, Result>, cases: Case[]): string[] {
  const bad: string[] = [];
  for (const c of cases) {
    const r = results.get(c.id);
    if (!r) bad.push(`${c.id}: no output`);
    else if (!r.ok) bad.push(`${c.id}: ${r.error}`);
    // A known document held as Unknown… would round-trip trivially, proving nothing.
    else if (!("variant" in c) && (r.variant?.startsWith("Unknown") || r.unknowns))
      bad.push(`${c.id}: parsed to an Unknown… holder (${r.variant}, ${r.unknowns ?? "?"} nested)`);
    else {
      try {
        expect(r.document).toEqual(c.document);
      } catch {
        bad.push(`${c.id}: came back different:\n  in:  ${JSON.stringify(c.document)}\n  out: ${JSON.stringify(r.document)}`);
      }
    }
  }
  return bad;
}

const REPRO = "npm run build && node bin/agjson.js gen && npx vitest run test/other-languages.test.ts";

describe("Python types (generated/python/agjson_types.py)", () => {
  it(`round-trip every valid fixture (${VALID.length}) unchanged`, () => {
    const bad = mismatches(runPython(VALID), VALID);
    expect(bad, `reproduce: ${REPRO}\n${bad.join("\n")}`).toEqual([]);
  });

  it("keep unknown fields and unknown types (lenient posture, §0.2)", () => {
    const results = runPython(UNKNOWN);
    expect(mismatches(results, UNKNOWN)).toEqual([]);
    for (const c of UNKNOWN) expect(results.get(c.id)?.variant, c.id).toBe(c.variant);
    expect(results.get("unknown-nested-block-and-field")?.unknowns).toBe(1);
  });
});

describe("Go types (generated/go)", () => {
  let bin = "";
  beforeAll(() => {
    bin = buildGo();
  }, 300_000);
  afterAll(() => {
    if (goWork) rmSync(goWork, { recursive: true, force: true });
  });

  it(`round-trip every valid fixture (${VALID.length}) unchanged`, () => {
    const bad = mismatches(runGo(bin, VALID), VALID);
    expect(bad, `reproduce: ${REPRO}\n${bad.join("\n")}`).toEqual([]);
  });

  it("keep unknown fields and unknown types (lenient posture, §0.2)", () => {
    const results = runGo(bin, UNKNOWN);
    expect(mismatches(results, UNKNOWN)).toEqual([]);
    for (const c of UNKNOWN) expect(results.get(c.id)?.variant, c.id).toBe(c.variant);
  });
});

// The second JSON Schema implementation (Python jsonschema) checks both published postures in
// test/schema-postures.test.ts.

describe("the other-languages model (codegen/other-languages/model.ts)", () => {
  const tagged = (tag: string, value: string, extra: Record<string, unknown> = {}) => ({
    type: "object",
    properties: { [tag]: { const: value }, ...extra },
    required: [tag],
    additionalProperties: false,
  });

  it("reads the untagged AgSourcePayload: tagless → the url payload, nested AgSource tags → AgSource", async () => {
    const { buildModel } = await import("../codegen/other-languages/model.js");
    const model = buildModel({
      AgSource: { type: "object", oneOf: [{ $ref: "#/$defs/AgUrlSource" }], discriminator: { propertyName: "type" } },
      AgUrlSource: tagged("type", "url", { url: { type: "string" } }),
      AgSourcePayload: {
        type: "object",
        oneOf: [{ $ref: "#/$defs/AgSource" }, { $ref: "#/$defs/AgUrlSourcePayload" }, { $ref: "#/$defs/AgDocumentSourcePayload" }],
      },
      AgUrlSourcePayload: {
        type: "object",
        properties: { url: { type: "string" } },
        required: ["url"],
        not: { required: ["type"] },
        additionalProperties: false,
      },
      AgDocumentSourcePayload: tagged("type", "document"),
    });
    const u = model.unions.find((x) => x.name === "AgSourcePayload")!;
    expect(u.tag).toBe("type");
    expect(u.absent).toEqual({ k: "record", name: "AgUrlSourcePayload" });
    expect(u.cases).toEqual([
      { value: "url", target: { k: "union", name: "AgSource" } },
      { value: "document", target: { k: "record", name: "AgDocumentSourcePayload" } },
    ]);
    expect(model.unions.find((x) => x.name === "AgSource")!.memberOf).toEqual(["AgSourcePayload"]);
  });

  it("refuses a variant without its tag const, naming the $def and the tag", async () => {
    const { buildModel } = await import("../codegen/other-languages/model.js");
    expect(() =>
      buildModel({
        AgThing: { type: "object", oneOf: [{ $ref: "#/$defs/AgA" }], discriminator: { propertyName: "kind" } },
        AgA: { type: "object", properties: { kind: { type: "string" } }, additionalProperties: false },
      }),
    ).toThrow("$defs/AgA is a variant of AgThing but has no properties.kind.const");
  });

  it("refuses property names that collide in Go or Python", async () => {
    const { buildModel } = await import("../codegen/other-languages/model.js");
    const { renderGo } = await import("../codegen/other-languages/go.js");
    const { renderPython } = await import("../codegen/other-languages/python.js");
    const model = buildModel({
      AgX: { type: "object", properties: { turnId: { type: "string" }, turn_id: { type: "string" } }, additionalProperties: false },
    });
    expect(() => renderPython(model, "", () => "schema/x.json", {})).toThrow(
      "AgX.turn_id and another property both map to the attribute turn_id",
    );
    expect(() => renderGo(model, "", () => "schema/x.json", {}, "m")).toThrow("AgX.turn_id maps to the field TurnID, already taken");
  });
});
