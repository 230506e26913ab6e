/**
 * §0.2, §12 additive-minor: a same-major minor may add values to an open enum. For every enum the
 * schema marks `x-agjson-open-enum` (found by walking schema/, so a newly opened enum is covered
 * without a new test), lenient accepts an unknown value and strict rejects it; every enum left
 * closed is still checked by lenient. reduce() keeps an unknown value verbatim.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reduceUntrusted } from "../../src/reduce/untrusted.js";
import { validateEvent } from "../../src/validate/index.js";
import { generatedValidator } from "../../conformance/generated-validators.js";
import { messageEnd, messageStart, turnStart } from "./fidelity-support.js";

const schemaDir = join(import.meta.dirname, "../../schema");
interface EnumSite {
  def: string;
  path: string[];
  open: boolean;
  values: string[];
}

function enumSites(): EnumSite[] {
  const out: EnumSite[] = [];
  for (const f of readdirSync(schemaDir)) {
    const defs = (JSON.parse(readFileSync(join(schemaDir, f), "utf8")) as { $defs: Record<string, unknown> }).$defs;
    for (const [def, node] of Object.entries(defs)) {
      const walk = (n: unknown, path: string[]): void => {
        if (typeof n !== "object" || n === null || Array.isArray(n)) return;
        const rec = n as Record<string, unknown>;
        if (Array.isArray(rec.enum)) out.push({ def, path, open: rec["x-agjson-open-enum"] === true, values: rec.enum.map(String) });
        const props = rec.properties;
        if (typeof props === "object" && props !== null) for (const [k, v] of Object.entries(props)) walk(v, [...path, k]);
      };
      walk(node, []);
    }
  }
  return out;
}

/** The smallest document of `def` with `value` at `path` — taken from a valid fixture of the def. */
function documentWith(site: EnumSite, value: string): unknown | undefined {
  const dir = join(import.meta.dirname, "../../conformance/validate", site.def);
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const f of files) {
    const fx = JSON.parse(readFileSync(join(dir, f), "utf8")) as { document: unknown; strict: string };
    if (fx.strict !== "valid") continue;
    if (site.path.length === 0) return value;
    let node: unknown = structuredClone(fx.document);
    const rootNode = node;
    for (const key of site.path.slice(0, -1))
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    if (typeof node !== "object" || node === null) continue;
    const last = site.path.at(-1)!;
    if (!(last in node)) continue;
    (node as Record<string, unknown>)[last] = value;
    return rootNode;
  }
  return undefined;
}

describe("open and closed enums (§0.2, §12)", () => {
  const sites = enumSites();
  it("the schema marks the decision table's open enums (docs/validation.md)", () => {
    const open = sites.filter((s) => s.open).map((s) => [s.def, ...s.path].join("."));
    expect(open).toEqual(
      expect.arrayContaining(["AgFinishReason", "AgToolOutcome", "AgPromptBlockedReason", "AgTrigger.kind", "AgCodeResultBlock.outcome"]),
    );
    expect(sites.filter((s) => !s.open).map((s) => [s.def, ...s.path].join("."))).toEqual(
      expect.arrayContaining(["AgRole", "AgMemoryScope", "AgDisplayMode"]),
    );
  });

  // Each enum site is exercised on a valid fixture of its def that sets the field; a site without
  // one is named by the last test instead of passing an empty test.
  const unexercised: string[] = [];
  for (const site of sites) {
    const name = [site.def, ...site.path].join(".");
    const doc = documentWith(site, "a-future-value");
    if (doc === undefined) {
      unexercised.push(name);
      continue;
    }
    it(`${name} (${site.open ? "open" : "closed"}): strict rejects an unlisted value, lenient ${site.open ? "accepts" : "rejects"} it`, () => {
      expect(generatedValidator("strict", site.def)(doc)).toBe(false);
      expect(generatedValidator("lenient", site.def)(doc)).toBe(site.open);
      // A listed value stays valid in both postures.
      const listed = documentWith(site, site.values[0]!);
      expect(generatedValidator("strict", site.def)(listed)).toBe(true);
    });
  }
  it("every enum site is exercised from a fixture", () => {
    expect(unexercised).toEqual([]);
  });

  it("reduce() keeps unknown open-enum values verbatim (finishReason, outcome, reason, trigger kind)", () => {
    const out = reduceUntrusted([
      { ...turnStart(0), trigger: { kind: "voice-call" } },
      { type: "prompt.blocked", seq: 1, reason: "jurisdiction" },
      messageStart(2),
      { type: "tool.start", seq: 3, toolCallId: "c", name: "f" },
      { type: "tool.done", seq: 4, toolCallId: "c", content: [], outcome: "timed_out" },
      messageEnd(5),
      { type: "turn.done", seq: 6, turnId: "t1", outcome: { type: "deferred", until: "tomorrow" }, finishReason: "budget_exhausted" },
    ]);
    expect(out.rejected).toEqual([]);
    expect(out.needsResync).toBe(false);
    const turn = out.result.turns[0]!;
    expect(turn.finishReason).toBe("budget_exhausted");
    expect(turn.outcome).toEqual({ type: "deferred", until: "tomorrow" });
    expect(turn.trigger).toEqual({ kind: "voice-call" });
    expect(turn.promptBlocked).toEqual({ reason: "jurisdiction" });
    expect(out.result.messages[0]?.content[1]).toMatchObject({ type: "tool-result", outcome: "timed_out" });
    expect(
      validateEvent(
        { type: "turn.done", seq: 0, turnId: "t", outcome: { type: "success" }, finishReason: "budget_exhausted" },
        { posture: "strict" },
      ).ok,
    ).toBe(false);
  });
});
