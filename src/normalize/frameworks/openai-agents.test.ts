/**
 * @openai/agents built-in tool results (§8 item 20) beyond the recordings: a failed apply_patch
 * output is an error result that names its error (§2: errorText iff outcome error), and stays
 * strict-valid; derived from the recorded apply-patch run with its output marked failed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reduce } from "../../reduce/index.js";
import { validateEvent } from "../../validate/index.js";
import { normalizeAll, readNativeChunks } from "../index.js";

const recording = join(import.meta.dirname, "../../../record/recordings/openai-agents/apply-patch.native.ndjson");

describe("openai-agents: a failed apply_patch output (§8 item 20)", () => {
  it("is an error result carrying the editor's text as errorText, every event strict-valid", () => {
    const chunks = readNativeChunks(readFileSync(recording, "utf8")).map((c) => {
      const raw = (c as { item?: { rawItem?: { type?: string; status?: string; output?: string } } }).item?.rawItem;
      if (raw?.type === "apply_patch_call_output") {
        raw.status = "failed";
        raw.output = "patch does not apply";
      }
      return c;
    });
    const events = normalizeAll("openai-agents", chunks);
    expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
    const results = reduce(events)
      .result.messages.flatMap((m) => m.content)
      .filter((b) => b.type === "tool-result");
    expect(results).toEqual([
      expect.objectContaining({
        outcome: "error",
        isError: true,
        errorText: "patch does not apply",
        content: [{ type: "text", text: "patch does not apply" }],
      }),
    ]);
  });
});

const hostedRecording = join(import.meta.dirname, "../../../record/recordings/openai-agents/web-search-hosted.native.ndjson");

describe("openai-agents: a failed hosted tool call (§8 item 20, §2.2)", () => {
  it("is an error result that names its error (§2: errorText iff outcome error), every event strict-valid", () => {
    let marked = false;
    const chunks = readNativeChunks(readFileSync(hostedRecording, "utf8")).map((c) => {
      const raw = (c as { name?: string; item?: { rawItem?: { type?: string; status?: string } } }).item?.rawItem;
      if (!marked && (c as { name?: string }).name === "tool_called" && raw?.type === "hosted_tool_call") {
        raw.status = "failed";
        marked = true;
      }
      return c;
    });
    expect(marked).toBe(true);
    const events = normalizeAll("openai-agents", chunks);
    expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
    const failed = reduce(events)
      .result.messages.flatMap((m) => m.content)
      .filter((b) => b.type === "tool-result" && b.outcome === "error");
    expect(failed).toEqual([expect.objectContaining({ outcome: "error", isError: true, errorText: expect.any(String) })]);
  });
});
