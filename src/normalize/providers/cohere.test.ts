// Cohere v2 chat facet: the branches the three recorded streams do not reach (argument fragments,
// citations after content-end, every finish reason, ERROR/TIMEOUT, unknown events, truncation).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { CohereFacet } from "./cohere.js";
import { reduce } from "../../reduce/index.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new CohereFacet(), chunks);

const start = (id = "msg-1") => ({
  id,
  type: "message-start",
  delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
});
const contentStart = (index: number, type: "text" | "thinking") => ({
  type: "content-start",
  index,
  delta: { message: { content: { type, [type]: "" } } },
});
const textDelta = (index: number, text: string) => ({ type: "content-delta", index, delta: { message: { content: { text } } } });
const contentEnd = (index: number) => ({ type: "content-end", index });
const usage = {
  billed_units: { input_tokens: 3, output_tokens: 4, search_units: 1 },
  tokens: { input_tokens: 300, output_tokens: 8 },
  cached_tokens: 256,
};
const end = (finish_reason: string, extra: Record<string, unknown> = {}) => ({
  type: "message-end",
  delta: { finish_reason, usage, ...extra },
});

describe("Cohere v2 chat facet", () => {
  it("plans, then reassembles argument fragments of two calls keyed by tool index (§8 items 1, 5)", () => {
    const call = (index: number, id: string, name: string) => ({
      type: "tool-call-start",
      index,
      delta: { message: { tool_calls: { id, type: "function", function: { name, arguments: "" } } } },
    });
    const args = (index: number, a: string) => ({
      type: "tool-call-delta",
      index,
      delta: { message: { tool_calls: { function: { arguments: a } } } },
    });
    const events = conformant(
      run([
        start(),
        { type: "tool-plan-delta", delta: { message: { tool_plan: "I will look" } } },
        { type: "tool-plan-delta", delta: { message: { tool_plan: " it up." } } },
        call(0, "weather_1", "weather"),
        args(0, '{"location":'),
        args(0, ' "Paris"}'),
        { type: "tool-call-end", index: 0 },
        call(1, "time_1", "currentTime"),
        { type: "tool-call-end", index: 1 },
        end("TOOL_CALL"),
      ]),
    );
    // The plan is reasoning marked toolPlan, ended when the calls begin.
    expect(of(events, "reasoning.start")).toMatchObject([{ providerMetadata: { toolPlan: true } }]);
    expect(of(events, "reasoning.delta").map((e) => e.delta)).toEqual(["I will look", " it up."]);
    expect(events.findIndex((e) => e.type === "reasoning.end")).toBeLessThan(events.findIndex((e) => e.type === "tool.start"));
    expect(of(events, "tool.args.assembled")).toMatchObject([
      { toolCallId: "weather_1", input: { location: "Paris" } },
      { toolCallId: "time_1", input: {} },
    ]);
    expect(of(events, "turn.done")).toMatchObject([{ finishReason: "tool_call" }]);
    expect(reduce(events).result.messages[0]!.content.map((b) => b.type)).toEqual(["reasoning", "tool-call", "tool-call"]);
  });

  it.each([
    ["COMPLETE", "stop"],
    ["STOP_SEQUENCE", "stop"],
    ["MAX_TOKENS", "token_limit"],
    ["TOOL_CALL", "tool_call"],
    ["SOMETHING_NEW", "other"],
  ])("finish_reason %s → turn.done finishReason %s", (reason, expected) => {
    const events = conformant(run([start(), contentStart(0, "text"), textDelta(0, "x"), contentEnd(0), end(reason)]));
    expect(of(events, "turn.done")).toMatchObject([{ finishReason: expected, outcome: { type: "success" } }]);
    expect(of(events, "message.metadata")[0]).toMatchObject({ metadata: { cohere: { finish_reason: reason } } });
  });

  it("usage maps verbatim (tokens, cached_tokens); billed_units ride message.metadata with the raw usage", () => {
    const events = conformant(run([start(), contentStart(0, "text"), textDelta(0, "x"), contentEnd(0), end("COMPLETE")]));
    const mapped = { inputTokens: 300, outputTokens: 8, cacheReadTokens: 256 };
    expect(of(events, "message.end")).toMatchObject([{ usage: mapped }]);
    expect(of(events, "turn.done")[0]!.usage).toEqual(mapped);
    expect(of(events, "message.metadata")[0]).toMatchObject({ metadata: { cohere: { usage } } });
  });

  it.each([
    ["ERROR", false],
    ["TIMEOUT", true],
  ])("finish_reason %s is a terminal turn.error carrying the error text and the accrued usage", (reason, retriable) => {
    const events = conformant(run([start(), contentStart(0, "text"), textDelta(0, "Part"), end(reason, { error: "internal failure" })]));
    expect(of(events, "turn.error")).toEqual([
      expect.objectContaining({
        code: reason,
        message: "internal failure",
        retriable,
        usage: { inputTokens: 300, outputTokens: 8, cacheReadTokens: 256 },
      }),
    ]);
    expect(events.map((e) => e.type)).not.toContain("turn.done");
  });

  it("citations after content-end attach to the text block's held text.end; sources are emitted once (§5 text.end)", () => {
    const doc = { type: "document", id: "doc:0", document: { id: "doc:0", text: "AI provides automation.", title: "benefits.txt" } };
    const tool = { type: "tool", id: "weather_1:0", tool_output: { temperature: 20 } };
    const citation = (c: Record<string, unknown>) => ({ type: "citation-start", index: 0, delta: { message: { citations: c } } });
    const events = conformant(
      run([
        start(),
        contentStart(0, "thinking"),
        { type: "content-delta", index: 0, delta: { message: { content: { thinking: "Look at the docs." } } } },
        contentEnd(0),
        contentStart(1, "text"),
        textDelta(1, "It is 20°C; AI gives automation."),
        contentEnd(1),
        citation({ start: 6, end: 10, text: "20°C", sources: [tool], type: "TEXT_CONTENT" }),
        { type: "citation-end", index: 0 },
        citation({ start: 21, end: 31, text: "automation", sources: [doc, tool], type: "TEXT_CONTENT", content_index: 1 }),
        { type: "citation-end", index: 1 },
        citation({ start: 0, end: 4, text: "Look", sources: [doc], type: "THINKING_CONTENT" }),
        end("COMPLETE"),
      ]),
    );
    expect(of(events, "source")).toEqual([
      expect.objectContaining({ sourceId: "weather_1:0", source: { type: "document" }, providerMetadata: { citationSource: tool } }),
      expect.objectContaining({
        sourceId: "doc:0",
        source: { type: "document", title: "benefits.txt" },
        providerMetadata: { citationSource: doc },
      }),
    ]);
    const textEnd = of(events, "text.end");
    expect(textEnd).toHaveLength(1);
    expect(textEnd[0]!.citations).toEqual([
      {
        citedText: "20°C",
        kind: "offset",
        startIndex: 6,
        endIndex: 10,
        sourceIds: ["weather_1:0"],
        unit: "char",
        bounds: "[start,end)",
        indexFrame: "response",
      },
      {
        citedText: "automation",
        kind: "offset",
        startIndex: 21,
        endIndex: 31,
        sourceIds: ["doc:0", "weather_1:0"],
        unit: "char",
        bounds: "[start,end)",
        indexFrame: "response",
        partIndex: 1,
        title: "benefits.txt",
      },
    ]);
    // Thinking content has no citation carrier: its citations ride the message metadata verbatim.
    expect(of(events, "message.metadata")[0]).toMatchObject({
      metadata: { cohere: { thinking_citations: [{ type: "THINKING_CONTENT", text: "Look" }] } },
    });
    const { result } = reduce(events);
    expect(result.messages[0]!.content[1]).toMatchObject({
      type: "text",
      citations: [{ sourceIds: ["weather_1:0"] }, { sourceIds: ["doc:0", "weather_1:0"] }],
    });
    expect(result.turns[0]!.sources?.map((s) => s.sourceId)).toEqual(["weather_1:0", "doc:0"]);
  });

  it("a citation with no text block to attach to, or without offsets, degrades visibly", () => {
    const events = conformant(
      run([
        start(),
        { type: "citation-start", index: 0, delta: { message: { citations: { start: 0, end: 1, text: "x", sources: [] } } } },
        contentStart(0, "text"),
        textDelta(0, "y"),
        { type: "citation-start", index: 1, delta: { message: { citations: { text: "y", sources: [] } } } },
        contentEnd(0),
        end("COMPLETE"),
      ]),
    );
    expect(of(events, "ext.cohere.unparsed").map((e) => e.reason)).toEqual([
      "citation for no text block",
      "citation without start/end offsets",
    ]);
  });

  it("truncated after content-end: the held text.end is released at flush with its citations, then the turn aborts", () => {
    const events = conformant(
      run([
        start(),
        contentStart(0, "text"),
        textDelta(0, "Paris."),
        contentEnd(0),
        {
          type: "citation-start",
          index: 0,
          delta: {
            message: { citations: { start: 0, end: 5, text: "Paris", sources: [{ type: "document", id: "d1", document: { id: "d1" } }] } },
          },
        },
      ]),
    );
    expect(events.map((e) => e.type).slice(-4)).toEqual(["source", "text.end", "message.end", "turn.abort"]);
    expect(of(events, "text.end")[0]!.citations).toHaveLength(1);
  });

  it("truncated mid tool call: no tool.args.assembled from partial arguments (INV-FLUSH)", () => {
    const events = conformant(
      run([
        start(),
        {
          type: "tool-call-start",
          index: 0,
          delta: { message: { tool_calls: { id: "c1", type: "function", function: { name: "f", arguments: '{"a":' } } } },
        },
        contentStart(0, "text"),
        textDelta(0, "open"),
      ]),
    );
    expect(events.map((e) => e.type)).not.toContain("tool.args.assembled");
    expect(events.map((e) => e.type)).not.toContain("text.end");
    expect(events.at(-1)).toMatchObject({ type: "turn.abort", reason: "stream-truncated" });
  });

  it("debug and unknown events, malformed chunks and stray deltas degrade to ext.cohere.unparsed; push never throws (§8.0)", () => {
    const events = conformant(
      run([
        start(),
        { type: "debug", prompt: "<raw prompt>" },
        { type: "future-event", x: 1 },
        42,
        { nothing: true },
        { type: "tool-call-delta", index: 7, delta: { message: { tool_calls: { function: { arguments: "{}" } } } } },
        { type: "content-start", index: 0, delta: { message: { content: { type: "hologram" } } } },
        contentStart(1, "text"),
        textDelta(1, "ok"),
        { type: "content-delta", index: 1, delta: { message: { content: { thinking: "wrong kind" } } } },
        contentEnd(1),
        end("COMPLETE"),
      ]),
    );
    expect(of(events, "ext.cohere.unparsed").map((e) => e.reason)).toEqual([
      "unmapped event type 'debug'",
      "unmapped event type 'future-event'",
      "not a Cohere stream event object",
      "event without a type",
      "tool-call-delta for an unknown tool call",
      "unknown content type 'hologram'",
      "content-delta without the text of its block",
    ]);
    expect(of(events, "turn.done")).toHaveLength(1);
  });

  it("an HTTP error body ends the turn with turn.error", () => {
    const events = conformant(run([{ id: "e1", message: "invalid request: model not found" }]));
    expect(events.map((e) => e.type)).toEqual(["turn.start", "turn.error"]);
    expect(of(events, "turn.error")[0]).toMatchObject({ message: "invalid request: model not found" });
  });

  it("a second message-start opens the next message of the same turn; usage stays per message", () => {
    const events = conformant(
      run([
        start("m1"),
        contentStart(0, "text"),
        textDelta(0, "a"),
        contentEnd(0),
        end("TOOL_CALL"),
        start("m2"),
        contentStart(0, "text"),
        textDelta(0, "b"),
        contentEnd(0),
        end("COMPLETE"),
      ]),
    );
    expect(of(events, "message.start").map((e) => e.id)).toEqual(["m1", "m2"]);
    expect(of(events, "turn.done")).toHaveLength(1);
    expect(of(events, "turn.done")[0]).not.toHaveProperty("usage");
  });
});
