/**
 * Fuzz target: `agjson reinput` to every provider, both `--on-invalid` policies: any bytes, and
 * message lists generated from the AgMessage schema in each document shape the command reads, get
 * an exit code and never a throw (a message the target cannot take is a typed ReinputError, exit 1).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDefs } from "../../codegen/bundle.js";
import { loadSchemaSet } from "../../codegen/load.js";
import { runReinput } from "../../src/cli/reinput-command.js";
import { REINPUT_TARGETS } from "../../src/reinput/index.js";
import { schemaArbitrary } from "../schema-arbitrary.js";
import { cliInput, numRuns } from "./cli-input.js";

const enc = new TextEncoder();
const messages = fc.array(schemaArbitrary(allDefs(loadSchemaSet()), "AgMessage"), { maxLength: 6 });
const documents = fc.oneof(
  cliInput.map(([bytes]) => bytes),
  messages.map((m) => enc.encode(JSON.stringify(m))),
  messages.map((m) => enc.encode(JSON.stringify({ messages: m, turns: [] }))),
  messages.map((m) => enc.encode(JSON.stringify({ result: { messages: m } }))),
);

describe("fuzz: agjson reinput", () => {
  for (const to of REINPUT_TARGETS) {
    it(`--to ${to}: any document gets an exit code, never a throw`, async () => {
      await fc.assert(
        fc.asyncProperty(
          documents,
          fc.constantFrom("error", "repair"),
          fc.constantFrom(undefined, "system", "developer"),
          async (bytes, onInvalid, systemRole) => {
            let out = "";
            const code = await runReinput(
              bytes,
              { to, onInvalid, ...(systemRole ? { systemRole } : {}) },
              (t) => void (out += t),
              () => {},
            );
            expect([0, 1]).toContain(code);
            if (code === 0) JSON.parse(out);
            else expect(out).toBe("");
          },
        ),
        { numRuns },
      );
    });
  }
});
