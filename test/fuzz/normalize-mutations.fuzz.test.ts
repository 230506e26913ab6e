/**
 * Fuzz target: every facet over its recorded provider streams with fields mutated (issue 20 item
 * 13). Never throws; every output event is strict-valid (§0.2), seq is contiguous (INV-SEQ) and
 * every opened turn closes exactly once (INV-TURN, INV-FLUSH).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mutationsArb, mutate, normalizeAll, outputProblems, recordedStreams } from "../reliability/normalizer-mutation.js";
import { numRuns } from "./cli-input.js";

const streams = recordedStreams();

describe("fuzz: normalizers over mutated provider streams", () => {
  it("strict-valid output, every turn closed, no throw", () => {
    const input = fc.constantFrom(...streams).chain((r) => fc.tuple(fc.constant(r), mutationsArb(r.chunks, 6)));
    fc.assert(
      fc.property(input, ([r, mutations]) => {
        const out = normalizeAll(r.facet, mutate(r.chunks, mutations));
        expect(out.threw).toBeUndefined();
        expect(outputProblems(out.events)).toEqual([]);
      }),
      { numRuns },
    );
  });
});
