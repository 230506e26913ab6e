// Bedrock ConverseStream facet: the branches the two recorded streams do not reach (tool use,
// server tools, exceptions, every stopReason, citations, redacted reasoning, late or missing usage).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { BedrockFacet, mapBedrockStopReason } from "./bedrock.js";
import { reduce } from "../../reduce/index.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new BedrockFacet({ turnId: "t" }), chunks);

const text = (i: number, t: string) => ({ contentBlockDelta: { contentBlockIndex: i, delta: { text: t } } });
const stop = (i: number) => ({ contentBlockStop: { contentBlockIndex: i } });
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadInputTokens: 7, cacheWriteInputTokens: 3 };

describe("Bedrock ConverseStream facet", () => {
  it("reassembles a streamed toolUse and ends the turn tool_call with the late usage (§8 item 1)", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "Checking."),
        stop(0),
        { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tooluse_1", name: "get_weather" } } } },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"city":' } } } },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '"Paris"}' } } } },
        stop(1),
        { messageStop: { stopReason: "tool_use" } },
        { metadata: { usage, metrics: { latencyMs: 12 }, trace: { promptRouter: { invokedModelId: "m" } } } },
      ]),
    );
    expect(of(events, "tool.start")).toMatchObject([{ toolCallId: "tooluse_1", name: "get_weather" }]);
    expect(of(events, "tool.args.delta").map((e) => e.delta)).toEqual(['{"city":', '"Paris"}']);
    expect(of(events, "tool.args.assembled")).toMatchObject([{ toolCallId: "tooluse_1", input: { city: "Paris" } }]);
    const mapped = { inputTokens: 10, outputTokens: 5, totalTokens: 15, cacheReadTokens: 7, cacheWriteTokens: 3 };
    expect(of(events, "message.end")).toMatchObject([{ usage: mapped }]);
    expect(of(events, "turn.done")).toMatchObject([{ finishReason: "tool_call", usage: mapped, outcome: { type: "success" } }]);
    expect(of(events, "message.metadata")).toMatchObject([
      {
        metadata: {
          bedrock: { stopReason: "tool_use", usage, metrics: { latencyMs: 12 }, trace: { promptRouter: { invokedModelId: "m" } } },
        },
      },
    ]);
    // The message is sealed only after the usage frame: metadata then message.end, then the turn close.
    expect(events.slice(-3).map((e) => e.type)).toEqual(["message.metadata", "message.end", "turn.done"]);
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["tool_use", "tool_call"],
    ["max_tokens", "token_limit"],
    ["model_context_window_exceeded", "context_window_exceeded"],
    ["guardrail_intervened", "safety_blocked"],
    ["content_filtered", "safety_blocked"],
    ["malformed_tool_use", "malformed_tool_call"],
    ["malformed_model_output", "other"],
    ["a_reason_from_the_future", "other"],
  ])("stopReason %s → finishReason %s; the raw reason rides message.metadata", (reason, expected) => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "x"),
        stop(0),
        { messageStop: { stopReason: reason } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "turn.done")[0]).toMatchObject({ finishReason: expected });
    expect(of(events, "message.metadata")[0]).toMatchObject({ metadata: { bedrock: { stopReason: reason } } });
  });

  it("a missing stopReason is 'unknown'", () => {
    expect(mapBedrockStopReason(undefined)).toBe("unknown");
  });

  it("guardrail and content-filter stops keep the collapsed reason as the safety category (§4 safety_blocked)", () => {
    const events = conformant(
      run([{ messageStart: { role: "assistant" } }, { messageStop: { stopReason: "guardrail_intervened" } }, { metadata: { usage } }]),
    );
    expect(of(events, "turn.done")[0]).toMatchObject({
      finishReason: "safety_blocked",
      safety: [{ category: "guardrail_intervened", blocked: true }],
    });
  });

  it("without the usage frame, flush seals the message with the stop metadata and releases turn.done without usage", () => {
    const events = conformant(
      run([{ messageStart: { role: "assistant" } }, text(0, "Hi"), stop(0), { messageStop: { stopReason: "end_turn" } }]),
    );
    expect(events.map((e) => e.type).slice(-3)).toEqual(["message.metadata", "message.end", "turn.done"]);
    expect(of(events, "turn.done")[0]).not.toHaveProperty("usage");
    expect(of(events, "message.metadata")[0]).toMatchObject({ metadata: { bedrock: { stopReason: "end_turn" } } });
  });

  it("a usage frame before messageStop is shown at once and repeated whole at the seal", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "Hi"),
        { metadata: { usage } },
        stop(0),
        { messageStop: { stopReason: "end_turn" } },
      ]),
    );
    const meta = of(events, "message.metadata");
    expect(meta).toHaveLength(2);
    expect(meta[1]).toMatchObject({ metadata: { bedrock: { stopReason: "end_turn", usage } } });
    expect(of(events, "turn.done")[0]).toMatchObject({ usage: { inputTokens: 10 } });
  });

  it("truncated before messageStop: no synthetic closes, the turn aborts (INV-FLUSH)", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "Hal"),
        { contentBlockStart: { contentBlockIndex: 1, start: { toolUse: { toolUseId: "tu", name: "f" } } } },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolUse: { input: '{"a"' } } } },
      ]),
    );
    expect(events.map((e) => e.type)).not.toContain("text.end");
    expect(events.map((e) => e.type)).not.toContain("tool.args.assembled");
    expect(events.at(-1)).toMatchObject({ type: "turn.abort", reason: "stream-truncated" });
  });

  it("signature fragments concatenate byte-identical; redacted reasoning becomes opaque kind redacted (§10 item 13)", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { text: "Think." } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: "c2lnLW" } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { reasoningContent: { signature: "FydA==" } } } },
        stop(0),
        { contentBlockDelta: { contentBlockIndex: 1, delta: { reasoningContent: { redactedContent: "cmVkYWN0ZWQ=" } } } },
        stop(1),
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "reasoning.opaque")).toMatchObject([
      { kind: "signature", value: "c2lnLWFydA==", provider: "bedrock" },
      { kind: "redacted", value: "cmVkYWN0ZWQ=", provider: "bedrock" },
    ]);
    const blocks = reduce(events).result.messages[0]!.content;
    expect(blocks).toMatchObject([
      { type: "reasoning", text: "Think.", opaque: { kind: "signature", value: "c2lnLWFydA==" } },
      { type: "reasoning", opaque: { kind: "redacted", value: "cmVkYWN0ZWQ=" } },
    ]);
  });

  it("maps every citation location onto text.end.citations; an unknown location degrades visibly", () => {
    const cite = (location: unknown) => ({
      contentBlockDelta: { contentBlockIndex: 0, delta: { citation: { title: "Doc", sourceContent: [{ text: "cited" }], location } } },
    });
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "Grounded."),
        cite({ web: { url: "https://example.com/a", domain: "example.com" } }),
        cite({ documentChar: { documentIndex: 1, start: 3, end: 9 } }),
        cite({ documentPage: { documentIndex: 0, start: 2, end: 4 } }),
        cite({ documentChunk: { documentIndex: 2, start: 0, end: 1 } }),
        cite({ searchResultLocation: { searchResultIndex: 5, start: 1, end: 2 } }),
        cite({ hologram: {} }),
        stop(0),
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "text.end")[0]!.citations).toEqual([
      { citedText: "cited", title: "Doc", kind: "url", url: "https://example.com/a" },
      { citedText: "cited", title: "Doc", kind: "char", indexFrame: "source", documentIndex: 1, startCharIndex: 3, endCharIndex: 9 },
      { citedText: "cited", title: "Doc", kind: "page", indexFrame: "source", documentIndex: 0, startPage: 2, endPage: 4 },
      { citedText: "cited", title: "Doc", kind: "block", indexFrame: "source", documentIndex: 2, startBlockIndex: 0, endBlockIndex: 1 },
      { citedText: "cited", title: "Doc", kind: "block", indexFrame: "source", documentIndex: 5, startBlockIndex: 1, endBlockIndex: 2 },
    ]);
    expect(of(events, "ext.bedrock.unparsed")).toMatchObject([{ reason: "citation with an unknown location" }]);
  });

  it.each([
    ["internalServerException", true],
    ["modelStreamErrorException", false],
    ["validationException", false],
    ["throttlingException", true],
    ["serviceUnavailableException", true],
  ])("%s mid-stream closes the turn with one turn.error (retriable %s)", (name, retriable) => {
    const events = conformant(run([{ messageStart: { role: "assistant" } }, text(0, "Par"), { [name]: { message: `${name} happened` } }]));
    expect(of(events, "turn.error")).toEqual([expect.objectContaining({ code: name, message: `${name} happened`, retriable })]);
    expect(events.map((e) => e.type)).not.toContain("turn.abort");
  });

  it("modelStreamErrorException's original status and message ride the open message's metadata", () => {
    const ex = { message: "model failed", originalStatusCode: 424, originalMessage: "upstream" };
    const events = conformant(run([{ messageStart: { role: "assistant" } }, text(0, "x"), { modelStreamErrorException: ex }]));
    expect(of(events, "message.metadata")).toMatchObject([{ metadata: { bedrock: { modelStreamErrorException: ex } } }]);
  });

  it("an exception before any message carries its extra fields unparsed, never dropped", () => {
    const ex = { message: "bad", originalStatusCode: 400 };
    const events = conformant(run([{ modelStreamErrorException: ex }]));
    expect(events.map((e) => e.type)).toEqual(["turn.start", "ext.bedrock.unparsed", "turn.error"]);
  });

  it("an HTTP error body ends the turn with turn.error", () => {
    const events = conformant(run([{ message: "The security token included in the request is invalid." }]));
    expect(of(events, "turn.error")).toMatchObject([{ message: "The security token included in the request is invalid." }]);
  });

  it("a server tool call and its toolResult block land in the same message (providerExecuted)", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        {
          contentBlockStart: {
            contentBlockIndex: 0,
            start: { toolUse: { toolUseId: "srv_1", name: "nova_grounding", type: "server_tool_use" } },
          },
        },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"q":"x"}' } } } },
        stop(0),
        {
          contentBlockStart: {
            contentBlockIndex: 1,
            start: { toolResult: { toolUseId: "srv_1", type: "nova_grounding_result", status: "success" } },
          },
        },
        { contentBlockDelta: { contentBlockIndex: 1, delta: { toolResult: [{ text: "found" }, { json: { hits: 1 } }] } } },
        stop(1),
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "tool.start")).toMatchObject([{ toolCallId: "srv_1", providerExecuted: true }]);
    expect(of(events, "tool.done")).toEqual([
      expect.objectContaining({
        toolCallId: "srv_1",
        outcome: "ok",
        content: [{ type: "text", text: "found" }],
        structuredContent: { hits: 1 },
        providerMetadata: { type: "nova_grounding_result" },
      }),
    ]);
  });

  it("an image block becomes content.block image with its bytes verbatim", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        { contentBlockStart: { contentBlockIndex: 0, start: { image: { format: "png" } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { image: { source: { bytes: "iVBORw0KGgo=" } } } } },
        stop(0),
        { messageStop: { stopReason: "end_turn" } },
      ]),
    );
    expect(of(events, "content.block")).toMatchObject([
      { block: { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } } },
    ]);
  });

  it("unknown frames, delta members and malformed chunks degrade to ext.bedrock.unparsed; push never throws (§8.0)", () => {
    const events = conformant(
      run([
        null,
        "not json",
        { messageStart: { role: "assistant" } },
        { futureFrame: { x: 1 } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { hologram: "?" } } },
        { contentBlockDelta: { contentBlockIndex: 0 } },
        { contentBlockDelta: 5 },
        { contentBlockStop: { contentBlockIndex: 9 } },
        text(0, "still fine"),
        stop(0),
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "ext.bedrock.unparsed").map((e) => e.reason)).toEqual([
      "not a ConverseStream event frame",
      'got a string ("not json"): push parsed JSON chunks — readNativeChunks(text) or createChunkReader() reads a capture (NDJSON or SSE) into them, or JSON.parse each line',
      "unknown event 'futureFrame'",
      "unknown delta member 'hologram'",
      "contentBlockDelta without a delta",
      "frame 'contentBlockDelta' without an object payload",
      "stop for an unknown content block",
    ]);
    expect(of(events, "text.delta").map((e) => e.delta)).toEqual(["still fine"]);
    expect(of(events, "turn.done")).toHaveLength(1);
  });

  it("two responses in one invoke are two messages of one turn; usage stays per message", () => {
    const events = conformant(
      run([
        { messageStart: { role: "assistant" } },
        text(0, "a"),
        stop(0),
        { messageStop: { stopReason: "tool_use" } },
        { metadata: { usage } },
        { messageStart: { role: "assistant" } },
        text(0, "b"),
        stop(0),
        { messageStop: { stopReason: "end_turn" } },
        { metadata: { usage } },
      ]),
    );
    expect(of(events, "turn.start")).toHaveLength(1);
    expect(of(events, "message.start")).toHaveLength(2);
    expect(of(events, "turn.done")[0]).toMatchObject({ finishReason: "stop" });
    expect(of(events, "turn.done")[0]).not.toHaveProperty("usage");
  });
});
