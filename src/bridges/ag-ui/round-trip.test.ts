// Issue 19 §1 round trip: AgJSON → AG-UI → AgJSON keeps text, tool calls and results, reasoning,
// state and interrupts — over every recorded stream that folds cleanly. With the metadata.agjson
// carry the fold is identical (INV-FOLD equality) for every stream that also meets the §5.0 producer
// invariants (a stream that leaves a turn open comes back closed by INV-FLUSH); without the carry
// (what a foreign AG-UI peer keeps) the kept set above survives. docs/bridges/ag-ui.md lists the rest.
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { normalizeAll } from "../../normalize/index.js";
import { checkStream } from "../../normalize/stream-check.js";
import { reduce } from "../../reduce/index.js";
import { firstDifference } from "../../../conformance/runner.js";
import { kept, recordedStreams } from "./ag-ui.test-support.js";
import { toAgUi } from "./to-ag-ui.js";

function roundTrip(events: AgEvent[], carry: boolean): AgEvent[] {
  return normalizeAll("ag-ui", toAgUi(events, { carry }));
}

const clean = recordedStreams().filter((s) => {
  if (s.events.length === 0) return false;
  const folded = reduce(s.events);
  return !folded.needsResync && folded.errors.length === 0;
});

describe("AgJSON → AG-UI → AgJSON", () => {
  const exact = clean.filter((s) => checkStream(s.events).length === 0);
  it("runs over the recorded streams that fold cleanly and meet the §5.0 producer invariants", () => {
    expect(exact.length).toBeGreaterThan(60);
  });

  for (const { name, events } of exact) {
    it(`${name}: the fold after the round trip (with the metadata.agjson carry) is identical (INV-FOLD)`, () => {
      const original = reduce(events).result;
      const carried = reduce(roundTrip(events, true));
      expect(carried.errors).toEqual([]);
      expect(firstDifference(carried.result, original)).toBeUndefined();
      expect(kept(carried.result)).toEqual(kept(original));
    });
  }
});
