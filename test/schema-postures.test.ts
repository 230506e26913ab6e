/**
 * The published JSON Schemas of both postures (§0.2, §12; issue 22), checked by a second JSON
 * Schema implementation: Python's `jsonschema` (Draft 2020-12, Debian's python3-jsonschema) reads
 * every conformance fixture
 * against the strict and the lenient schema, per family and bundled, and must agree with the
 * TypeScript validators on every one. Lenient "unknown" (a well-formed value of an unknown type,
 * which a consumer skips) is "valid" to a schema. A missing toolchain fails with the install
 * command.
 *
 * `date-time` is checked too. jsonschema 4.10 checks it only with the `rfc3339_validator` module,
 * which Debian packages from 13 on (python3-rfc3339-validator; scripts/ensure-toolchains.sh
 * installs it where apt has it) but Debian 12 does not. Without it the driver registers RFC 3339
 * §5.6's grammar itself (full-date "T" full-time, with the month's day count, leap years and a
 * leap second), so the test never runs with the format unchecked.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAMILY_ROOT, type Family } from "../codegen/load.js";
import { fixtureDef, verdict } from "../conformance/validate-runner.js";
import { loadValidateFixtures } from "../conformance/validate-fixtures.js";

const ROOT = join(import.meta.dirname, "..");
const PYTHON = "/usr/bin/python3";
const INSTALL = "run `make toolchains` (or: apt-get install -y python3-jsonschema python3-rfc3339-validator)";

/** Every published schema file: generated/schema, both postures (strict's per-family files are schema/'s, rooted). */
function schemaFiles(): string[] {
  const out: string[] = [];
  for (const posture of ["strict", "lenient"]) {
    const dir = join(ROOT, "generated/schema", posture);
    out.push(
      ...readdirSync(dir)
        .filter((f) => f.endsWith(".schema.json"))
        .map((f) => join(dir, f)),
    );
  }
  return out;
}

/** `$def` name → the `$id` of the canonical file defining it. */
function familyIds(): Map<string, string> {
  const ids = new Map<string, string>();
  for (const f of readdirSync(join(ROOT, "schema")).filter((x) => x.endsWith(".schema.json"))) {
    const doc = JSON.parse(readFileSync(join(ROOT, "schema", f), "utf8")) as { $id: string; $defs?: Record<string, unknown> };
    for (const def of Object.keys(doc.$defs ?? {})) ids.set(def, doc.$id);
  }
  return ids;
}

const PY = String.raw`
import json, sys
from jsonschema import Draft202012Validator, FormatChecker, RefResolver
store = {}
for path in sys.argv[1:]:
    doc = json.load(open(path))
    store[doc["$id"]] = doc
checker = FormatChecker()
source = "jsonschema (rfc3339_validator)"
if "date-time" not in checker.checkers:
    import re
    RFC3339 = re.compile(r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$")
    DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    @checker.checks("date-time")
    def rfc3339_date_time(value):
        if not isinstance(value, str):
            return True
        m = RFC3339.match(value)
        if not m:
            return False
        y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
        leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
        if not 1 <= mo <= 12 or not 1 <= d <= (29 if mo == 2 and leap else DAYS[mo - 1]):
            return False
        if h > 23 or mi > 59 or s > 60:
            return False
        return m.group(7) is None or (int(m.group(7)) <= 23 and int(m.group(8)) <= 59)
    source = "RFC 3339 section 5.6 (this driver)"
print(json.dumps({"formats": sorted(checker.checkers), "dateTime": source}))
validators = {}
for line in sys.stdin:
    c = json.loads(line)
    key = (c["schema"], c["def"])
    v = validators.get(key)
    if v is None:
        ref = {"$ref": c["schema"] + ("#/$defs/" + c["def"] if c["def"] else "")}
        v = validators[key] = Draft202012Validator(ref, resolver=RefResolver.from_schema(store[c["schema"]], store=store), format_checker=checker)
    errors = sorted(v.iter_errors(c["document"]), key=lambda e: list(e.absolute_path))
    print(json.dumps({"id": c["id"], "valid": not errors, "error": errors[0].message[:200] if errors else None}))
`;

describe("the published schemas agree with the TypeScript validators (Python jsonschema)", () => {
  it("on every conformance fixture, both postures, per family and bundled, date-time included", () => {
    if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: ${INSTALL}`);
    const fixtures = loadValidateFixtures(join(ROOT, "conformance/validate"));
    const ids = familyIds();
    const prefix = [...ids.values()][0]!.replace(/[^/]+$/, "");
    const cases: { id: string; schema: string; def: string; document: unknown; expect: boolean }[] = [];
    for (const f of fixtures) {
      const def = fixtureDef(f);
      const family = ids.get(def)!.slice(prefix.length);
      // A semantic-layer fixture (docs/validation.md) is schema-valid: its verdict comes from the
      // layer that runs after the schema, which no JSON Schema can state.
      const schemaOnly = f.semantic !== undefined;
      const strict = schemaOnly || verdict(f, "strict") === "valid";
      const lenient = schemaOnly || verdict(f, "lenient") !== "invalid";
      const add = (posture: string, schema: string, expect: boolean) =>
        cases.push({ id: `${f.name} [${posture}]`, schema, def, document: f.document, expect });
      add("strict, per family", ids.get(def)!, strict);
      add("strict, bundled", `${prefix}strict/agjson.schema.json`, strict);
      add("lenient, per family", `${prefix}lenient/${family}`, lenient);
      add("lenient, bundled", `${prefix}lenient/agjson.schema.json`, lenient);
      // A user points a validator at a per-family file itself: its root is the family's type.
      if (FAMILY_ROOT[family.replace(/\.schema\.json$/, "") as Family] === def) {
        cases.push({ id: `${f.name} [strict, file root]`, schema: ids.get(def)!, def: "", document: f.document, expect: strict });
        cases.push({
          id: `${f.name} [lenient, file root]`,
          schema: `${prefix}lenient/${family}`,
          def: "",
          document: f.document,
          expect: lenient,
        });
      }
    }
    const r = spawnSync(PYTHON, ["-c", PY, ...schemaFiles()], {
      input: cases.map((c) => JSON.stringify({ id: c.id, schema: c.schema, def: c.def, document: c.document })).join("\n") + "\n",
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) throw new Error(`jsonschema run failed (${INSTALL}):\n${r.stderr}`);
    const [head, ...lines] = r.stdout.split("\n").filter(Boolean);
    const formats = (JSON.parse(head!) as { formats: string[] }).formats;
    expect(formats, `jsonschema cannot check date-time without an RFC 3339 library: ${INSTALL}`).toContain("date-time");
    const got = new Map(
      lines.map((l) => {
        const v = JSON.parse(l) as { id: string; valid: boolean; error: string | null };
        return [v.id, v];
      }),
    );
    const disagreements = cases.flatMap((c) => {
      const v = got.get(c.id)!;
      return v.valid === c.expect
        ? []
        : [`${c.id}: TypeScript says ${c.expect ? "valid" : "invalid"}, jsonschema ${v.valid ? "valid" : `invalid (${v.error})`}`];
    });
    expect(disagreements, "reproduce: npx vitest run test/schema-postures.test.ts").toEqual([]);
    const rooted = cases.filter((c) => c.def === "").length;
    expect(rooted, "fixtures of each family's root type, checked at the file's root").toBeGreaterThan(fixtures.length / 4);
    expect(cases.length).toBe(fixtures.length * 4 + rooted);
  });
});
