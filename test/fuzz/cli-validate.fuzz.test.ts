/** Fuzz target: `agjson validate` in both postures and every kind: never throws, exit 0, 1 or 2 (issue 20). */
import { Writable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineOutput } from "../../src/cli/output.js";
import { runValidate } from "../../src/cli/validate-command.js";
import { chunks, cliInput, numRuns } from "./cli-input.js";

const nowhere = () => new LineOutput(new Writable({ write: (_c, _e, done) => done() }));

describe("fuzz: agjson validate", () => {
  for (const posture of ["strict", "lenient"] as const) {
    it(`${posture}: any input gets an exit code, never a throw`, async () => {
      await fc.assert(
        fc.asyncProperty(
          cliInput,
          fc.constantFrom("event", "input", "message") as fc.Arbitrary<"event" | "input" | "message">,
          fc.integer({ min: 1, max: 64 }),
          async ([bytes, size], kind, maxErrors) => {
            const code = await runValidate(
              chunks(bytes, size),
              { posture, kind, json: size % 2 === 0, format: "auto", maxErrors, maxRecordBytes: 1 << 20, maxDepth: 64 },
              nowhere(),
              () => {},
            );
            expect([0, 1, 2]).toContain(code);
          },
        ),
        { numRuns },
      );
    });
  }
});
