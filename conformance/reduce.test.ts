// The reduce() conformance suite (§10, docs/conformance.md): every fixture under conformance/reduce runs
// through both the batch and the incremental surface (conformance/runner.ts).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { FoldingEventType } from "../generated/fold-scaffold.js";
import { FOLD_HANDLERS } from "../src/reduce/handlers.js";
import { loadReduceFixtures, reportConformance, runReduceFixture } from "./runner.js";
import { conformanceCommand } from "../src/cli/conformance-command.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "reduce");
const fixtures = loadReduceFixtures(ROOT);

describe("reduce conformance fixtures", () => {
  for (const loaded of fixtures) {
    it(loaded.name, () => {
      expect(runReduceFixture(loaded).failures).toEqual([]);
    });
  }
});

describe("fixture coverage", () => {
  const allEvents = fixtures.flatMap(({ fixture }) => fixture.events);
  const typeOf = (event: unknown): unknown => (typeof event === "object" && event !== null ? Reflect.get(event, "type") : undefined);

  it("every folding event type of the §5 table appears in a fixture", () => {
    const seen = new Set(allEvents.map(typeOf));
    const folding = Object.keys(FOLD_HANDLERS) as FoldingEventType[];
    expect(folding.filter((type) => !seen.has(type))).toEqual([]);
  });

  it("every reduce() rule has a negative fixture that expects it", () => {
    const expected = new Set(fixtures.flatMap(({ fixture }) => (fixture.expect.errors ?? []).map((e) => e.invariant)));
    const rules = [
      "INV-TURN",
      "INV-MSG",
      "INV-BLOCK",
      "INV-SEQ",
      "INV-OWNER",
      "REMOVE-NO-REOPEN",
      "MEMORY-PATCH",
      "STATE-DELTA",
      "ARTIFACT",
    ];
    expect(rules.filter((rule) => !expected.has(rule))).toEqual([]);
  });

  it("every §10 item that applies to a fold has a fixture", () => {
    const specs = fixtures.map(({ fixture }) => fixture.spec).join(" | ");
    const items = [1, 2, 3, 5, 6, 8, 12, 13, 14, 16, 17, 19, 20];
    expect(items.filter((item) => !new RegExp(`§10 items? (\\d+, )*${item}\\b`).test(specs))).toEqual([]);
  });

  it("every negative fixture names its errors, and needsResync agrees with them", () => {
    for (const { name, fixture } of fixtures) {
      if (fixture.expect.errors === undefined) continue;
      const gapResolved = fixture.expect.errors.length > 0 && !fixture.expect.needsResync;
      if (!gapResolved) expect(fixture.expect.needsResync, name).toBe(fixture.expect.errors.length > 0);
    }
  });
});

describe("agjson conformance report", () => {
  it("runs the whole suite and ends with the totals line", () => {
    const lines: string[] = [];
    expect(conformanceCommand(ROOT, (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual([`${fixtures.length} passed, 0 failed`]);
  });

  it("runs a single fixture file and reports an unreadable path with exit 2", () => {
    const lines: string[] = [];
    expect(conformanceCommand(join(ROOT, "seq/backward-jump-is-a-new-invoke-and-folds-normally.json"), (line) => lines.push(line))).toBe(0);
    expect(lines).toEqual(["1 passed, 0 failed"]);
    expect(conformanceCommand(join(ROOT, "no-such-dir"), () => undefined)).toBe(2);
  });

  it("prints one line per failure with a reproducing command, then the totals", () => {
    const lines: string[] = [];
    const code = reportConformance(
      [
        { name: "a/ok.json", file: "conformance/reduce/a/ok.json", passed: true, failures: [] },
        { name: "a/bad.json", file: "conformance/reduce/a/bad.json", passed: false, failures: ["reduce(): result differs at /messages"] },
      ],
      (line) => lines.push(line),
    );
    expect(code).toBe(1);
    expect(lines).toEqual([
      "FAIL a/bad.json: reduce(): result differs at /messages — reproduce: npx agjson conformance conformance/reduce/a/bad.json",
      "1 passed, 1 failed",
    ]);
  });
});
