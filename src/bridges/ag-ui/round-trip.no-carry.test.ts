// Issue 19 §1 round trip without the metadata.agjson carry — what a foreign AG-UI peer keeps:
// AgJSON → AG-UI (carry off) → AgJSON over recorded streams of both origins: the AG-UI .NET server
// recordings (fixtures/agui, read in by the ag-ui facet) and provider streams out of the normalizers
// (fixtures/providers, one recording per provider family). The folds agree on text, tool calls and
// results, reasoning (text and opaque blob, §13.2), state and interrupts (§7);
// docs/bridges/ag-ui.md "What does not survive" lists the rest.
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../../generated/types.js";
import { listFixtureFiles, loadFixture } from "../../normalize/fixture-corpus.test-support.js";
import { normalizeAll } from "../../normalize/index.js";
import { reduce } from "../../reduce/index.js";
import { kept, recordedAgUiStreams } from "./ag-ui.test-support.js";
import { toAgUi } from "./to-ag-ui.js";

/** The first recording of each provider family (the folder under fixtures/providers). */
function onePerProvider(): { name: string; events: AgLenientEvent[] }[] {
  const seen = new Set<string>();
  const out: { name: string; events: AgLenientEvent[] }[] = [];
  for (const file of listFixtureFiles()) {
    const family = file.split("/")[0]!;
    if (seen.has(family)) continue;
    seen.add(family);
    const fx = loadFixture(file);
    out.push({ name: `fixtures/providers/${file}`, events: normalizeAll(fx.facet, fx.chunks) });
  }
  return out;
}

const streams = [...recordedAgUiStreams().map((s) => ({ name: s.name, events: normalizeAll("ag-ui", s.events) })), ...onePerProvider()];

describe("AgJSON → AG-UI (no carry) → AgJSON", () => {
  it("runs over about twenty recorded streams of both origins", () => {
    expect(streams.filter((s) => s.name.startsWith("fixtures/agui/")).length).toBeGreaterThanOrEqual(10);
    expect(streams.length).toBeGreaterThanOrEqual(20);
  });

  for (const { name, events } of streams) {
    it(`${name}: the reduced results agree on what a foreign AG-UI peer keeps`, () => {
      expect(events.length).toBeGreaterThan(0);
      const original = reduce(events);
      const back = reduce(normalizeAll("ag-ui", toAgUi(events, { carry: false })));
      expect(back.errors).toEqual([]);
      expect(kept(back.result)).toEqual(kept(original.result));
    });
  }
});

describe("the no-carry corpus", () => {
  it("exercises every kept kind: text, tool calls, results, reasoning with an opaque blob, state, interrupts", () => {
    const all = streams.map((s) => kept(reduce(s.events).result));
    expect(all.filter((k) => k.text !== "").length).toBeGreaterThan(15);
    expect(all.filter((k) => k.toolCalls.length > 0).length).toBeGreaterThan(3);
    expect(all.filter((k) => k.toolResults.length > 0).length).toBeGreaterThan(3);
    expect(all.filter((k) => k.reasoning.some((r) => r.text !== "")).length).toBeGreaterThan(0);
    expect(all.filter((k) => k.reasoning.some((r) => r.opaque !== undefined)).length).toBeGreaterThan(0);
    expect(all.filter((k) => k.state !== undefined).length).toBeGreaterThan(0);
    expect(all.filter((k) => k.asks.length > 0).length).toBeGreaterThan(0);
  });
});
