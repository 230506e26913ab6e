/** Fuzz target: `agjson reduce` (it validates leniently at its trust boundary): never throws (issue 20). */
import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineOutput } from "../../src/cli/output.js";
import { runReduce } from "../../src/cli/reduce-command.js";
import { chunks, cliInput, numRuns } from "./cli-input.js";

describe("fuzz: agjson reduce", () => {
  it("lenient: any input gets one JSON document or a usage error, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(cliInput, async ([bytes, size]) => {
        let text = "";
        const out = new LineOutput(
          new Writable({
            write: (c: Buffer, _e, done) => {
              text += c.toString();
              done();
            },
          }),
        );
        const code = await runReduce(
          chunks(bytes, size),
          { format: "auto", pretty: false, maxErrors: 100, maxRecordBytes: 1 << 20, maxDepth: 64 },
          out,
          () => {},
        );
        expect([0, 1, 2]).toContain(code);
        if (code !== 2) expect(Object.keys(JSON.parse(text))).toContain("result");
      }),
      { numRuns },
    );
  });
});
