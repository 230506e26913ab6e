/** Fuzz target: `agjson normalize` for every facet: never throws, and every line it prints is JSON (issue 20). */
import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineOutput } from "../../src/cli/output.js";
import { NORMALIZE_DEFAULT_CAPS, runNormalize } from "../../src/cli/normalize-command.js";
import { FACETS } from "../../src/normalize/index.js";
import { chunks, cliInput, numRuns } from "./cli-input.js";

describe("fuzz: agjson normalize", () => {
  it("any facet, any input: an exit code, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(cliInput, fc.constantFrom(...FACETS), async ([bytes, size], facet) => {
        let text = "";
        const out = new LineOutput(
          new Writable({
            write: (c: Buffer, _e, done) => {
              text += c.toString();
              done();
            },
          }),
        );
        const code = await runNormalize(chunks(bytes, size), facet, NORMALIZE_DEFAULT_CAPS, out, () => {});
        expect([0, 1, 2]).toContain(code);
        for (const line of text.split("\n")) if (line !== "") JSON.parse(line);
      }),
      { numRuns },
    );
  });
});
