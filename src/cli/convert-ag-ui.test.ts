/**
 * `agjson convert --to ag-ui` as a user runs it: the built CLI turns an AgEvent file into AG-UI
 * events (NDJSON, or SSE with --sse) that are exactly what `toAgUi` makes of the same events, each
 * parsed by @ag-ui/core's EventSchemas, the stream passing verifyEvents (docs/bridges/ag-ui.md).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../generated/types.js";
import { schemaFailures, verifyFailure } from "../bridges/ag-ui/ag-ui.test-support.js";
import { sseData } from "../bridges/ag-ui/serve.test-support.js";
import { toAgUi } from "../bridges/ag-ui/to-ag-ui.js";
import type { AgUiEvent } from "../bridges/ag-ui/vocabulary.js";
import { readNativeChunks } from "../normalize/index.js";
import { validateEvent } from "../validate/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const agjson = (args: string[], input?: string) =>
  spawnSync(process.execPath, [`${root}bin/agjson.js`, ...args], { cwd: root, input, encoding: "utf8" });
const SAMPLE = "samples/chat-with-tool.ndjson";

function sampleEvents(): AgLenientEvent[] {
  return readNativeChunks(readFileSync(`${root}${SAMPLE}`, "utf8")).flatMap((x) => {
    const v = validateEvent(x, { posture: "lenient" });
    return v.ok && v.known ? [v.event] : [];
  });
}

describe("agjson convert --to ag-ui", () => {
  it("writes NDJSON: the events toAgUi makes of the file, each schema-valid, the stream verifying", async () => {
    const r = agjson(["convert", "--to", "ag-ui", SAMPLE]);
    expect(r.status).toBe(0);
    const out = r.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as AgUiEvent);
    expect(out).toEqual(toAgUi(sampleEvents()));
    expect(schemaFailures(out)).toEqual([]);
    expect(await verifyFailure(out)).toBeUndefined();
  });

  it("with --sse writes one data: frame per event, the same events", () => {
    const r = agjson(["convert", "--to", "ag-ui", "--sse", SAMPLE]);
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith("data: {")).toBe(true);
    expect(sseData(r.stdout)).toEqual(toAgUi(sampleEvents()));
  });

  it("reads stdin; an invalid record is named on stderr and skipped, the run still closes, exit 1", async () => {
    const r = agjson(
      ["convert", "--to", "ag-ui", "-"],
      `{"type":"turn.start","seq":0,"threadId":"th","turnId":"t"}\n{"type":"text.delta","seq":1,"id":"x","delta":5}\n`,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/record 1: \/delta: must be string \(skipped\)/);
    const out = r.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as AgUiEvent);
    expect(out.map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(out[1]).toMatchObject({ code: "stream-truncated" });
    expect(await verifyFailure(out)).toBeUndefined();
  });
});
