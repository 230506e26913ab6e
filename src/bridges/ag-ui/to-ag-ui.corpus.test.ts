// Issue 19 §1: every AG-UI event toAgUi emits parses with @ag-ui/core's EventSchemas and every
// emitted stream passes @ag-ui/client's verifyEvents — over every recorded stream the project has.
import { describe, expect, it } from "vitest";
import { recordedStreams, schemaFailures, verifyFailure } from "./ag-ui.test-support.js";
import { toAgUi } from "./to-ag-ui.js";

const streams = recordedStreams();

describe("toAgUi over every recorded AgEvent stream", () => {
  it("has the corpus (conformance/reduce, fixtures/providers, samples)", () => {
    expect(streams.length).toBeGreaterThan(150);
  });

  for (const { name, events } of streams) {
    it(`${name}: every event parses with EventSchemas, the stream passes verifyEvents`, async () => {
      for (const carry of [true, false]) {
        const out = toAgUi(events, { carry });
        expect(out.length).toBeGreaterThan(0);
        expect(schemaFailures(out)).toEqual([]);
        expect(await verifyFailure(out)).toBeUndefined();
      }
    });
  }
});
