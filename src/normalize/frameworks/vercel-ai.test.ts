/**
 * Vercel AI SDK tool fields beyond the recordings (§2.2 shared core, §4 tool.start / tool.done,
 * §8.0 no silent drop): a tool's `dynamic`, `title`, `toolMetadata` and `providerMetadata` reach
 * the call and the result on both input shapes, error results included.
 */
import { describe, expect, it } from "vitest";
import { reduce } from "../../reduce/index.js";
import { conformant, of, runFacet } from "../facet.test-support.js";
import { VercelAiFacet, VercelAiUiFacet } from "./vercel-ai.js";

const toolMetadata = { owner: "billing", version: 2 };
const providerMetadata = { openai: { itemId: "fc_1" } };

describe("vercel-ai: tool fields on fullStream parts", () => {
  const events = conformant(
    runFacet(new VercelAiFacet(), [
      { type: "start" },
      { type: "start-step" },
      { type: "tool-input-start", id: "c1", toolName: "lookup", dynamic: true, title: "Look up", toolMetadata, providerMetadata },
      { type: "tool-input-delta", id: "c1", delta: "{}" },
      {
        type: "tool-call",
        toolCallId: "c1",
        toolName: "lookup",
        input: {},
        dynamic: true,
        title: "Look up",
        toolMetadata,
        providerMetadata,
      },
      { type: "tool-result", toolCallId: "c1", toolName: "lookup", input: {}, output: "ok", dynamic: true, toolMetadata, providerMetadata },
      { type: "tool-call", toolCallId: "c2", toolName: "charge", input: {}, dynamic: false, toolMetadata },
      {
        type: "tool-error",
        toolCallId: "c2",
        toolName: "charge",
        input: {},
        error: { message: "declined" },
        dynamic: false,
        toolMetadata,
        providerMetadata,
      },
      { type: "finish-step", finishReason: "tool-calls" },
      { type: "finish", finishReason: "tool-calls" },
    ]),
  );

  it("puts dynamic (false included), title and toolMetadata on tool.start", () => {
    expect(of(events, "tool.start")).toEqual([
      expect.objectContaining({ toolCallId: "c1", dynamic: true, title: "Look up", toolMetadata, providerMetadata }),
      expect.objectContaining({ toolCallId: "c2", dynamic: false, toolMetadata }),
    ]);
  });

  it("puts title, toolMetadata and providerMetadata on tool.args.assembled", () => {
    expect(of(events, "tool.args.assembled")[0]).toEqual(expect.objectContaining({ title: "Look up", toolMetadata, providerMetadata }));
  });

  it("lands dynamic, toolMetadata and providerMetadata on the result block, error results included", () => {
    const results = reduce(events)
      .result.messages.flatMap((m) => m.content)
      .filter((b) => b.type === "tool-result");
    expect(results).toEqual([
      expect.objectContaining({ toolCallId: "c1", outcome: "ok", dynamic: true, toolMetadata, providerMetadata }),
      expect.objectContaining({ toolCallId: "c2", outcome: "error", dynamic: false, toolMetadata, providerMetadata }),
    ]);
  });
});

describe("vercel-ai-ui: tool fields on UI message stream chunks", () => {
  const events = conformant(
    runFacet(new VercelAiUiFacet(), [
      { type: "start" },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c1", toolName: "lookup", dynamic: false, title: "Look up", toolMetadata },
      { type: "tool-input-available", toolCallId: "c1", toolName: "lookup", input: {}, title: "Look up", toolMetadata, providerMetadata },
      { type: "tool-output-available", toolCallId: "c1", output: { n: 1 }, dynamic: false, toolMetadata, providerMetadata },
      {
        type: "tool-input-error",
        toolCallId: "c2",
        toolName: "charge",
        input: {},
        dynamic: true,
        toolMetadata,
        providerMetadata,
        errorText: "bad input",
      },
      { type: "tool-output-error", toolCallId: "c2", errorText: "bad input", dynamic: true, toolMetadata, providerMetadata },
      { type: "finish-step" },
      { type: "finish", finishReason: "tool-calls" },
    ]),
  );

  it("carries the call's fields onto tool.start and tool.args.assembled", () => {
    expect(of(events, "tool.start")).toEqual([
      expect.objectContaining({ toolCallId: "c1", dynamic: false, title: "Look up", toolMetadata }),
      expect.objectContaining({ toolCallId: "c2", dynamic: true, toolMetadata, providerMetadata }),
    ]);
    expect(of(events, "tool.args.assembled")).toEqual([
      expect.objectContaining({ toolCallId: "c1", title: "Look up", toolMetadata, providerMetadata }),
      expect.objectContaining({ toolCallId: "c2", toolMetadata, providerMetadata }),
    ]);
  });

  it("carries providerMetadata, toolMetadata and dynamic of tool-output-* onto tool.done", () => {
    expect(of(events, "tool.done")).toEqual([
      expect.objectContaining({ toolCallId: "c1", outcome: "ok", dynamic: false, toolMetadata, providerMetadata }),
      expect.objectContaining({ toolCallId: "c2", outcome: "error", dynamic: true, toolMetadata, providerMetadata }),
    ]);
  });
});
