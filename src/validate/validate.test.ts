import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as lenientValidators from "../../generated/validators/lenient.js";
import { EXT_EVENT_TYPE, KNOWN_EVENT_TYPES } from "../../generated/fold-scaffold.js";
import { toIssues } from "./issues.js";
import { jsonDepth, negotiateVersion, parseCapped, utf8Length, validateEvent, validateEventText, validateInput } from "./index.js";

// Issue 3: caps are checked before the schema and give a typed error, never a crash (§13).
describe("caps", () => {
  it("refuses an oversized text before parsing it", () => {
    const r = validateEventText(JSON.stringify({ type: "text.delta", seq: 0, id: "t", delta: "x".repeat(2000) }), {
      caps: { maxBytes: 1000 },
    });
    expect(r).toEqual({ ok: false, errors: [{ path: "", keyword: "cap", spec: "§13", message: "document exceeds the 1000-byte cap" }] });
  });

  it("counts bytes, not UTF-16 units", () => {
    expect(utf8Length("é€😀")).toBe(2 + 3 + 4);
    const text = JSON.stringify({ type: "text.delta", seq: 0, id: "t", delta: "€".repeat(300) });
    expect(validateEventText(text, { caps: { maxBytes: text.length + 10 } }).ok).toBe(false);
  });

  it("refuses a 100k-deep text by a linear scan, not recursion", () => {
    const deep = `{"type":"state.snapshot","seq":0,"snapshot":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const r = validateEventText(deep, { caps: { maxBytes: 1 << 20 } });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ keyword: "cap", message: "document nests deeper than the 64-level cap" });
    expect(jsonDepth('{"a":"[[[[","b":[[1]]}')).toBe(3);
  });

  it("reports bad JSON as a typed issue", () => {
    const r = parseCapped('{"type": ');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.keyword).toBe("json");
  });

  it("never throws on a parsed object nested beyond the stack", () => {
    let content: unknown = [{ type: "text", text: "leaf" }];
    for (let i = 0; i < 20_000; i++) content = [{ type: "tool-result", toolCallId: "c", content }];
    const event = { type: "tool.done", seq: 0, toolCallId: "c", content };
    const r = validateEvent(event, { posture: "strict" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.keyword).toBe("cap");
  });

  it("accepts anything that is not JSON-shaped without throwing", () => {
    for (const x of [undefined, null, 1, "s", [], () => 1, Symbol("s"), new Map()]) {
      expect(validateEvent(x).ok).toBe(false);
    }
  });
});

describe("version negotiation (§12)", () => {
  it("accepts same-major versions, prereleases included, and rejects other majors naming both", () => {
    expect(negotiateVersion("1.0.0-draft.1").ok).toBe(true);
    expect(negotiateVersion("1.7.2").ok).toBe(true);
    const two = negotiateVersion("2.0.0");
    expect(two.ok).toBe(false);
    if (!two.ok) expect(two.message).toMatch(/"2\.0\.0".*1\.0\.0-draft\.1/);
    expect(negotiateVersion("1.0").ok).toBe(false);
  });

  it("is applied by validateInput in both postures", () => {
    const input = { protocol: "agjson", version: "3.1.0", kind: "resume", threadId: "th", turnId: "t", answers: [] };
    for (const posture of ["strict", "lenient"] as const) {
      const r = validateInput(input, { posture });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ path: "/version", keyword: "version", spec: "§12" })]);
    }
  });
});

describe("issues", () => {
  it("give one precise issue per fault, with the pointer of the field", () => {
    const r = validateEvent({ type: "content.block", seq: 3, block: { type: "text", text: 7 } }, { posture: "lenient" });
    expect(r).toEqual({ ok: false, errors: [{ path: "/block/text", message: "must be string", keyword: "type", spec: "§4" }] });
  });

  it("escape pointer tokens (RFC 6901)", () => {
    const r = validateEvent({ type: "text.delta", seq: 0, id: "t", delta: "x", "a/b~c": 1 }, { posture: "strict" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.path).toBe("/a~1b~0c");
  });
});

// Issue 21 item 3: agjson/validate/lenient and agjson/validate/strict are one module written twice
// (each imports only its own posture's generated validators, so a bundle of one holds none of the
// other; a shared factory returning both postures' functions would defeat that tree-shaking).
// This keeps them twins: strict.ts is lenient.ts with the posture's name swapped, comments aside,
// less the one line that exports lenient's unknown arms.
describe("the posture entry points", () => {
  const code = (file: string): string[] =>
    readFileSync(new URL(file, import.meta.url), "utf8")
      .split("\n")
      .filter((l) => !/^\s*(\/\*\*|\*|\/\/)/.test(l) && l.trim() !== "");

  it("are the same module but for the posture", () => {
    const lenient = code("./lenient.ts").filter((l) => !/Unknown\w*Validation/.test(l));
    const asStrict = lenient.map((l) =>
      l
        .replace(/lenient/g, "strict")
        .replace(/Lenient/g, "Strict")
        .replace("validateAgUnknownEvent", "validateAgEvent")
        .replace("unknown: ", "root: "),
    );
    // The one difference: strict passes its producer-only rule table (docs/spec-decisions.md D21).
    const strict = code("./strict.ts")
      .filter((l) => !l.includes("import { strictRuleSites }"))
      .map((l) => l.replace(/, strictRuleSites\.\w+\)/, ")"));
    expect(strict).toEqual(asStrict);
  });

  // Lenient checks a value that is not an object with a named or ext type against AgEvent's
  // catch-all arm, not the root: the same issues for every such value (§0.2, §12).
  it("lenient: the unknown-event arm reports what the root would", () => {
    const known = new Set<string>(KNOWN_EVENT_TYPES);
    const fallsThrough = (x: unknown): boolean => {
      const t = typeof x === "object" && x !== null && "type" in x ? x.type : undefined;
      return !(typeof t === "string" && (known.has(t) || EXT_EVENT_TYPE.test(t)));
    };
    const verdict = (v: typeof lenientValidators.validateAgUnknownEvent | typeof lenientValidators.validateAgEvent, x: unknown): unknown =>
      v(x) ? "ok" : toIssues(v.errors, "§4");
    const value = fc.oneof(
      fc.anything(),
      fc.record(
        {
          type: fc.oneof(fc.string(), fc.anything()),
          seq: fc.oneof(fc.integer({ min: -2 }), fc.anything()),
          id: fc.anything(),
          turnId: fc.anything(),
          parentId: fc.anything(),
          _meta: fc.anything(),
        },
        { requiredKeys: [] },
      ),
    );
    let reached = 0;
    fc.assert(
      fc.property(value, (x) => {
        if (!fallsThrough(x)) return;
        reached++;
        expect(verdict(lenientValidators.validateAgUnknownEvent, x)).toEqual(verdict(lenientValidators.validateAgEvent, x));
      }),
      { numRuns: Number(process.env.AGJSON_FUZZ_RUNS ?? 2000) },
    );
    expect(reached).toBeGreaterThan(0);
  });
});

describe("an ext.* type whose name breaks §0.4's form (§12)", () => {
  it.each(["ext.fooBar.x", "ext.foo_bar.x", "ext.Acme.x", "ext.acme"])(
    "%s: strict refuses the name itself (pattern at /type), lenient skips it as unknown",
    (type) => {
      const strict = validateEvent({ type, seq: 1 }, { posture: "strict" });
      expect(strict.ok ? [] : strict.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual([
        { path: "/type", keyword: "pattern" },
      ]);
      expect(validateEvent({ type, seq: 1 })).toMatchObject({ ok: true, known: false });
    },
  );

  it("a type outside ext.* is still an unknown type under strict", () => {
    const r = validateEvent({ type: "widget.spin", seq: 1 }, { posture: "strict" });
    expect(r.ok ? [] : r.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual([{ path: "/type", keyword: "discriminator" }]);
  });
});
