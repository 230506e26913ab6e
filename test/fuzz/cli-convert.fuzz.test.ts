/**
 * Fuzz target: `agjson convert` to both bridges (AG-UI, also as SSE, and the AI SDK UI message
 * stream): any input, cut anywhere, gets an exit code and never a throw; every AG-UI NDJSON line it
 * prints is a JSON object with a string `type` (§10 item 20: a refused record changes nothing else).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runConvert } from "../../src/cli/convert-command.js";
import { chunks, cliInput, numRuns } from "./cli-input.js";

describe("fuzz: agjson convert", () => {
  for (const [to, sse] of [
    ["ag-ui", false],
    ["ag-ui", true],
    ["ui-message-stream", true],
  ] as const) {
    it(`--to ${to}${sse && to === "ag-ui" ? " --sse" : ""}: any input gets an exit code, never a throw`, async () => {
      await fc.assert(
        fc.asyncProperty(cliInput, async ([bytes, size]) => {
          let text = "";
          const code = await runConvert(
            chunks(bytes, size),
            to,
            "auto",
            sse,
            (t) => void (text += t),
            () => {},
          );
          expect([0, 1, 2]).toContain(code);
          if (to === "ag-ui" && !sse) {
            for (const line of text.split("\n")) if (line !== "") expect(typeof JSON.parse(line).type).toBe("string");
          } else {
            for (const frame of text.split("\n\n"))
              if (frame !== "") expect(frame.startsWith("data: ") || frame.startsWith("event: ")).toBe(true);
          }
        }),
        { numRuns },
      );
    });
  }
});
