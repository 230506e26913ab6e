// The normalizer snapshot suite (§8, §10): every fixture under conformance/normalize is
// pushed through a fresh normalizer and must produce exactly its `expect` events
// (conformance/normalize-runner.ts). Regenerate deliberately, then read the diff:
//   UPDATE_SNAPSHOTS=1 npx vitest run conformance/normalize.test.ts
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../generated/types.js";
import { FACETS } from "../src/normalize/index.js";
import { FAMILY_GAPS, facetFor, listFixtureFiles } from "../src/normalize/fixture-corpus.test-support.js";
import { checkStream } from "../src/normalize/stream-check.test-support.js";
import { reduce } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";
import {
  describeNormalizeFailure,
  formatNormalizeFixture,
  loadNormalizeFixtures,
  parseNormalizeFixture,
  runNormalizeConformance,
  runNormalizeFixture,
  updateNormalizeSnapshots,
  type LoadedNormalizeFixture,
} from "./normalize-runner.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "normalize");

if (process.env.UPDATE_SNAPSHOTS === "1") {
  const changed = updateNormalizeSnapshots(ROOT);
  console.log(`normalize snapshots rewritten: ${changed.length === 0 ? "none changed" : changed.join(", ")}`);
}

const fixtures = loadNormalizeFixtures(ROOT);

describe("normalize conformance fixtures", () => {
  for (const loaded of fixtures) {
    it(`${loaded.name}: ${loaded.fixture.description}`, () => {
      const outcome = runNormalizeFixture(loaded);
      expect(outcome.ok ? [] : [describeNormalizeFailure(outcome)]).toEqual([]);
    });
  }
});

describe("every snapshot is itself a conformant stream", () => {
  // The expectation is a claim about §5.0: check it independently of the normalizer that made it.
  const expected = (loaded: LoadedNormalizeFixture): AgEvent[] =>
    loaded.fixture.expect.map((raw, index) => {
      const checked = validateEvent(raw, { posture: "strict" });
      if (!checked.ok)
        throw new Error(`${loaded.name}: expect[${index}] is not a strict-valid AgEvent: ${checked.errors[0]?.message ?? "?"}`);
      return checked.event;
    });

  for (const loaded of fixtures) {
    it(`${loaded.name}: strict-valid, §5.0 invariants hold, folds without resync`, () => {
      const events = expected(loaded);
      expect(checkStream(events)).toEqual([]);
      const folded = reduce(events);
      expect(folded.errors).toEqual([]);
      expect(folded.needsResync).toBe(false);
    });
  }
});

describe("fixture coverage", () => {
  it("every facet has recorded and hand-written fixtures", () => {
    // Three recorded streams, or every one the shared corpus holds for the facet when it has fewer.
    const corpus = listFixtureFiles().filter((file) => !((file.split("/")[0] ?? "") in FAMILY_GAPS));
    for (const facet of FACETS) {
      const mine = fixtures.filter((f) => f.fixture.facet === facet);
      const available = corpus.filter((file) => facetFor(file) === facet).length;
      const wanted = available > 0 ? Math.min(3, available) : 3;
      expect(mine.filter((f) => f.fixture.nativeFile !== undefined).length, facet).toBeGreaterThanOrEqual(wanted);
      expect(mine.filter((f) => f.fixture.native !== undefined).length, facet).toBeGreaterThanOrEqual(2);
    }
  });

  it("each fixture lives in the folder of its facet", () => {
    expect(fixtures.filter((f) => f.name.split("/")[0] !== f.fixture.facet).map((f) => f.name)).toEqual([]);
  });

  it("every facet has a truncation fixture and an unparsed fixture", () => {
    for (const facet of FACETS) {
      const events = fixtures.filter((f) => f.fixture.facet === facet).flatMap((f) => f.fixture.expect);
      const types = new Set(events.map((e) => (typeof e === "object" && e !== null ? Reflect.get(e, "type") : undefined)));
      expect(types.has("turn.abort"), facet).toBe(true);
      expect(
        [...types].some((t) => typeof t === "string" && t.endsWith(".unparsed")),
        facet,
      ).toBe(true);
    }
  });

  it("files are laid out as the snapshot writer lays them out (regenerating only changes expect)", () => {
    const drift = fixtures.filter((f) => readFileSync(f.file, "utf8") !== formatNormalizeFixture(f.fixture)).map((f) => f.name);
    expect(drift).toEqual([]);
  });
});

describe("normalize runner", () => {
  const inline = (expectEvents: unknown[]): LoadedNormalizeFixture => ({
    name: "anthropic/example.json",
    file: join(ROOT, "anthropic/example.json"),
    fixture: { description: "d", spec: "§8", facet: "anthropic", native: [{ type: "ping" }], expect: expectEvents },
  });

  it("passes an exact match and reports the first differing JSON Pointer otherwise", () => {
    expect(runNormalizeFixture(inline([])).ok).toBe(true);
    const outcome = runNormalizeFixture(inline([{ type: "turn.start", seq: 0 }]));
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toBe("events differ at : array length 0, expected 1");
    expect(describeNormalizeFailure(outcome)).toMatch(
      /^FAIL anthropic\/example\.json: events differ .* — reproduce: node -e .*\| npx agjson normalize --from anthropic -$/,
    );
  });

  it("names a recorded stream's path in the reproducing command, and fails (never skips) when it is missing", () => {
    const loaded: LoadedNormalizeFixture = {
      name: "gemini/missing.json",
      file: join(ROOT, "gemini/missing.json"),
      fixture: { description: "d", spec: "§8", facet: "gemini", nativeFile: "fixtures/providers/google/none.chunks.txt", expect: [] },
    };
    const outcome = runNormalizeFixture(loaded);
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(/nativeFile fixtures\/providers\/google\/none\.chunks\.txt not found/);
    expect(outcome.reproduce).toMatch(/^npx agjson normalize --from gemini \S*fixtures\/providers\/google\/none\.chunks\.txt$/);
  });

  it("rejects malformed fixtures naming the field", () => {
    const parse = (x: unknown): unknown => parseNormalizeFixture(JSON.stringify(x), "x.json");
    const ok = { description: "d", spec: "§8", facet: "gemini", native: [], expect: [] };
    expect(() => parse(ok)).not.toThrow();
    expect(() => parse({ ...ok, facet: "no-such-facet" })).toThrow(/"facet"/);
    expect(() => parse({ ...ok, nativeFile: "a" })).toThrow(/exactly one/);
    expect(() => parse({ ...ok, expect: {} })).toThrow(/"expect"/);
    expect(() => parse({ ...ok, extra: 1 })).toThrow(/"extra" is not a fixture field/);
  });

  it("runs a whole folder", () => {
    const outcomes = runNormalizeConformance(ROOT);
    expect(outcomes.length).toBe(fixtures.length);
    expect(outcomes.filter((o) => !o.ok).map(describeNormalizeFailure)).toEqual([]);
  });
});
