// Gemini Interactions facet: the branches the six recorded streams do not reach (function calls,
// failed / cancelled / incomplete interactions, error events, thought summaries, non-ASCII
// citations, other built-in tools, media, unknown events and steps, truncation).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { GeminiInteractionsFacet, mapInteractionsStatus, mapInteractionsUsage } from "./gemini-interactions.js";
import { reduce } from "../../reduce/index.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new GeminiInteractionsFacet(), chunks);

const created = (id = "v1_abc") => ({
  event_type: "interaction.created",
  interaction: { id, status: "in_progress", object: "interaction", model: "gemini-2.5-flash" },
});
const start = (index: number, step: Record<string, unknown>) => ({ event_type: "step.start", index, step });
const delta = (index: number, d: Record<string, unknown>) => ({ event_type: "step.delta", index, delta: d });
const stop = (index: number) => ({ event_type: "step.stop", index });
const usage = {
  total_tokens: 133,
  total_input_tokens: 53,
  total_cached_tokens: 4,
  total_output_tokens: 15,
  total_tool_use_tokens: 0,
  total_thought_tokens: 65,
};
const completed = (status: string, extra: Record<string, unknown> = {}) => ({
  event_type: "interaction.completed",
  interaction: { id: "v1_abc", status, usage, object: "interaction", model: "gemini-2.5-flash", service_tier: "standard", ...extra },
});
const mapped = { inputTokens: 53, outputTokens: 15, totalTokens: 133, cacheReadTokens: 4, reasoningTokens: 65, toolUseInputTokens: 0 };

describe("Gemini Interactions facet", () => {
  it("streams a function_call's arguments_delta fragments and ends requires_action as tool_call (§8 item 1)", () => {
    const events = conformant(
      run([
        created(),
        { event_type: "interaction.status_update", interaction_id: "v1_abc", status: "in_progress" },
        start(0, { type: "thought" }),
        delta(0, { type: "thought_signature", signature: "c2lnLTE=" }),
        stop(0),
        start(1, { id: "61nzpsv4", signature: "", type: "function_call", name: "getWeather", arguments: {} }),
        delta(1, { type: "arguments_delta", arguments: '{"location":' }),
        delta(1, { type: "arguments_delta", arguments: '"San Francisco"}', signature: "Zm4tc2ln" }),
        stop(1),
        completed("requires_action"),
      ]),
    );
    expect(events[0]).toMatchObject({ type: "turn.start", turnId: "turn_v1_abc" });
    expect(of(events, "message.start")).toMatchObject([{ id: "v1_abc", model: "gemini-2.5-flash" }]);
    expect(of(events, "reasoning.opaque")).toMatchObject([{ kind: "signature", value: "c2lnLTE=", provider: "google" }]);
    expect(of(events, "tool.start")).toEqual([expect.objectContaining({ toolCallId: "61nzpsv4", name: "getWeather" })]);
    expect(of(events, "tool.start")[0]).not.toHaveProperty("providerExecuted");
    expect(of(events, "tool.args.delta").map((e) => e.delta)).toEqual(['{"location":', '"San Francisco"}']);
    expect(of(events, "tool.args.assembled")).toMatchObject([
      { toolCallId: "61nzpsv4", input: { location: "San Francisco" }, signature: "Zm4tc2ln" },
    ]);
    expect(of(events, "message.end")).toMatchObject([{ usage: mapped }]);
    expect(of(events, "turn.done")).toMatchObject([{ finishReason: "tool_call", outcome: { type: "success" }, usage: mapped }]);
    expect(of(events, "message.metadata")[0]).toMatchObject({
      metadata: { google: { status: "requires_action", usage, service_tier: "standard" } },
    });
  });

  it("a function call sent whole (arguments on the step, no fragments) is assembled from it; completed + call → tool_call", () => {
    const events = conformant(
      run([
        created(),
        start(0, { id: "c1", type: "function_call", name: "lookup", arguments: { q: "x" }, signature: "c2ln" }),
        stop(0),
        completed("completed"),
      ]),
    );
    expect(of(events, "tool.args.delta")).toEqual([]);
    expect(of(events, "tool.args.assembled")).toMatchObject([{ toolCallId: "c1", input: { q: "x" }, signature: "c2ln" }]);
    expect(of(events, "turn.done")[0]).toMatchObject({ finishReason: "tool_call" });
  });

  it.each([
    ["completed", false, "stop"],
    ["completed", true, "tool_call"],
    ["requires_action", false, "tool_call"],
    ["incomplete", false, "token_limit"],
    ["in_progress", false, "unknown"],
    [undefined, false, "unknown"],
  ] as const)("status %s (client call: %s) → finishReason %s", (status, call, expected) => {
    expect(mapInteractionsStatus(status, call)).toBe(expected);
  });

  it("an incomplete interaction ends token_limit with its usage", () => {
    const events = conformant(
      run([created(), start(0, { type: "model_output" }), delta(0, { type: "text", text: "Once upon" }), stop(0), completed("incomplete")]),
    );
    expect(of(events, "turn.done")).toMatchObject([{ finishReason: "token_limit", usage: mapped }]);
  });

  it("a failed interaction is one turn.error carrying its error and usage; the message is sealed with the usage first", () => {
    const events = conformant(
      run([
        created(),
        start(0, { type: "model_output" }),
        delta(0, { type: "text", text: "Partial" }),
        completed("failed", { error: { code: "INTERNAL", message: "backend failure" } }),
      ]),
    );
    const closes = events.filter((e) => e.type.startsWith("turn.") && e.type !== "turn.start");
    expect(closes).toEqual([
      expect.objectContaining({ type: "turn.error", code: "INTERNAL", message: "backend failure", retriable: true, usage: mapped }),
    ]);
    expect(of(events, "text.end")).toHaveLength(1);
    expect(events.slice(-3).map((e) => e.type)).toEqual(["message.metadata", "message.end", "turn.error"]);
  });

  it("a cancelled interaction aborts the turn — never a success (§8 item 17)", () => {
    const events = conformant(
      run([created(), start(0, { type: "model_output" }), delta(0, { type: "text", text: "Hel" }), stop(0), completed("cancelled")]),
    );
    const closes = events.filter((e) => e.type.startsWith("turn.") && e.type !== "turn.start");
    expect(closes).toEqual([expect.objectContaining({ type: "turn.abort", reason: "cancelled" })]);
    expect(of(events, "message.end")).toMatchObject([{ usage: mapped }]);
  });

  it("an error event closes the turn at once; a later terminal for the same interaction is not re-emitted", () => {
    const events = conformant(
      run([
        created(),
        start(0, { type: "model_output" }),
        delta(0, { type: "text", text: "Hi" }),
        { event_type: "error", error: { code: "RESOURCE_EXHAUSTED", message: "quota" } },
        { event_type: "interaction.status_update", interaction_id: "v1_abc", status: "failed" },
        completed("failed"),
      ]),
    );
    const closes = events.filter((e) => e.type.startsWith("turn.") && e.type !== "turn.start");
    expect(closes).toEqual([
      expect.objectContaining({ type: "turn.error", code: "RESOURCE_EXHAUSTED", message: "quota", retriable: true }),
    ]);
    expect(of(events, "turn.start")).toHaveLength(1);
    expect(of(events, "message.metadata")[0]).toMatchObject({
      metadata: { google: { error: { code: "RESOURCE_EXHAUSTED", message: "quota" } } },
    });
  });

  it("an HTTP error body (no event_type) is a turn.error", () => {
    const events = conformant(run([{ error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } }]));
    expect(events.map((e) => e.type)).toEqual(["turn.start", "turn.error"]);
    expect(events[1]).toMatchObject({ code: "429", message: "Resource exhausted", retriable: true });
  });

  it("thought summaries become reasoning text; signature fragments concatenate into one opaque (§8 item 8)", () => {
    const events = conformant(
      run([
        created(),
        start(0, { type: "thought", summary: [{ type: "text", text: "Considering " }] }),
        delta(0, { type: "thought_summary", content: { type: "text", text: "the question." } }),
        delta(0, { type: "thought_summary", content: { type: "image", data: "iVBOR", mime_type: "image/png" } }),
        delta(0, { type: "thought_signature", signature: "AAAA" }),
        delta(0, { type: "thought_signature", signature: "BBBB" }),
        stop(0),
        completed("completed"),
      ]),
    );
    expect(of(events, "reasoning.delta").map((e) => e.delta)).toEqual(["Considering ", "the question."]);
    expect(of(events, "reasoning.opaque")).toMatchObject([{ kind: "signature", value: "AAAABBBB" }]);
    expect(of(events, "ext.google.unparsed")).toHaveLength(1);
    const { result } = reduce(events);
    expect(result.messages[0]!.content[0]).toMatchObject({
      type: "reasoning",
      text: "Considering the question.",
      opaque: { kind: "signature", value: "AAAABBBB" },
    });
  });

  it("citation offsets are UTF-8 bytes of the step text; each URL is one source; file and place citations bind their sources", () => {
    const text = "Café Ünïcode. Second sentence.";
    const sentence = Buffer.byteLength("Café Ünïcode.");
    const events = conformant(
      run([
        created(),
        start(0, { type: "model_output" }),
        delta(0, { type: "text", text: text.slice(0, 7) }),
        delta(0, { type: "text", text: text.slice(7) }),
        delta(0, {
          type: "text_annotation_delta",
          annotations: [
            { type: "url_citation", url: "https://a.example/x", title: "a.example", start_index: 0, end_index: sentence },
            {
              type: "url_citation",
              url: "https://a.example/x",
              title: "a.example",
              start_index: sentence + 1,
              end_index: Buffer.byteLength(text),
            },
            { type: "place_citation", name: "Café Central", url: "https://maps.example/p", place_id: "p1", start_index: 0, end_index: 5 },
            { type: "file_citation", file_name: "notes.pdf", page_number: 3, start_index: 0, end_index: 4 },
            { type: "quote_citation", start_index: 0, end_index: 1 },
          ],
        }),
        stop(0),
        completed("completed"),
      ]),
    );
    const [end] = of(events, "text.end");
    const citations = end!.citations as Record<string, unknown>[];
    expect(citations[0]).toEqual({
      kind: "url",
      url: "https://a.example/x",
      title: "a.example",
      citedText: "Café Ünïcode.",
      startIndex: 0,
      endIndex: sentence,
      unit: "byte",
      bounds: "[start,end)",
      indexFrame: "response",
    });
    expect(citations[1]).toMatchObject({ citedText: "Second sentence." });
    expect(citations[2]).toMatchObject({ kind: "url", url: "https://maps.example/p", title: "Café Central", citedText: "Café" });
    const sources = of(events, "source");
    expect(sources.map((s) => s.source)).toEqual([
      { url: "https://a.example/x", title: "a.example" },
      { url: "https://maps.example/p", title: "Café Central" },
      { type: "document", title: "notes.pdf", filename: "notes.pdf" },
    ]);
    expect(sources[1]).toMatchObject({ providerMetadata: { annotation: { place_id: "p1" } } });
    expect(citations[3]).toMatchObject({
      kind: "offset",
      sourceIds: [sources[2]!.sourceId],
      startIndex: 0,
      endIndex: 4,
      unit: "byte",
      title: "notes.pdf",
    });
    expect(citations).toHaveLength(4);
    expect(of(events, "ext.google.unparsed")).toMatchObject([{ reason: "unknown annotation type 'quote_citation'" }]);
  });

  it("built-in calls and results: code execution → code-result (failed on is_error); a result without call_id answers the open call of its tool", () => {
    const events = conformant(
      run([
        created(),
        start(0, { id: "ce1", type: "code_execution_call", signature: "" }),
        delta(0, { type: "code_execution_call", arguments: { code: "print(1/0)", language: "python" }, signature: "Y2U=" }),
        stop(0),
        start(1, { call_id: "ce1", type: "code_execution_result" }),
        delta(1, { type: "code_execution_result", result: "ZeroDivisionError", is_error: true }),
        stop(1),
        start(2, { id: "u1", type: "url_context_call", arguments: { urls: ["https://x.example"] } }),
        stop(2),
        start(3, { type: "url_context_result", result: [{ url: "https://x.example", status: "success" }] }),
        stop(3),
        start(4, { call_id: "nobody", type: "google_maps_result", result: [] }),
        stop(4),
        start(5, { type: "file_search_result", result: "orphan" }),
        stop(5),
        completed("completed"),
      ]),
    );
    expect(of(events, "tool.start")).toMatchObject([
      { toolCallId: "ce1", name: "code_execution", providerExecuted: true },
      { toolCallId: "u1", name: "url_context", providerExecuted: true },
    ]);
    expect(of(events, "tool.args.assembled")).toMatchObject([
      { toolCallId: "ce1", input: { code: "print(1/0)", language: "python" }, signature: "Y2U=" },
      { toolCallId: "u1", input: { urls: ["https://x.example"] } },
    ]);
    const done = of(events, "tool.done");
    expect(done[0]).toMatchObject({
      toolCallId: "ce1",
      content: [{ type: "code-result", outcome: "failed", output: "ZeroDivisionError" }],
      outcome: "error",
      isError: true,
      errorText: "ZeroDivisionError",
      providerMetadata: { type: "code_execution_result" },
    });
    expect(done[1]).toMatchObject({
      toolCallId: "u1",
      content: [{ type: "data", name: "url_context_result", data: [{ url: "https://x.example", status: "success" }] }],
      outcome: "ok",
    });
    // A call_id the stream never started still names its call (never fabricated, never dropped).
    expect(done[2]).toMatchObject({ toolCallId: "nobody", content: [{ type: "data", name: "google_maps_result", data: [] }] });
    // No call_id and no open call of its tool: the result rides whole as a data block.
    expect(of(events, "content.block")).toMatchObject([
      { block: { type: "data", name: "file_search_result", data: { type: "file_search_result", result: "orphan", is_error: false } } },
    ]);
    expect(of(events, "turn.done")[0]).toMatchObject({ finishReason: "stop" });
  });

  it("a signature on a google_search call or result step is kept, also on a result no call answers (§8 item 8)", () => {
    const events = conformant(
      run([
        created(),
        start(0, { id: "gs1", type: "google_search_call", signature: "c2lnLWNhbGw=" }),
        delta(0, { type: "google_search_call", arguments: { queries: ["q"] } }),
        stop(0),
        start(1, { call_id: "gs1", type: "google_search_result" }),
        delta(1, { type: "google_search_result", result: [{ url: "https://a.example", title: "A" }], signature: "c2lnLXJlcw==" }),
        stop(1),
        start(2, { type: "google_search_result" }),
        delta(2, { type: "google_search_result", result: [], signature: "c2lnLW9ycGhhbg==" }),
        stop(2),
        completed("completed"),
      ]),
    );
    expect(of(events, "tool.args.assembled")).toMatchObject([{ toolCallId: "gs1", input: { queries: ["q"] }, signature: "c2lnLWNhbGw=" }]);
    expect(of(events, "tool.done")).toMatchObject([
      { toolCallId: "gs1", providerMetadata: { type: "google_search_result", signature: "c2lnLXJlcw==" } },
    ]);
    // The result no call answers rides whole as a data block: its signature (sent on a delta) with it.
    expect(of(events, "content.block")).toMatchObject([
      {
        block: {
          type: "data",
          name: "google_search_result",
          data: { type: "google_search_result", result: [], signature: "c2lnLW9ycGhhbg==" },
        },
      },
    ]);
  });

  it("MCP server tools keep their name and server; google search results map url items and the entry point once", () => {
    const html = "<div class=chip>q</div>";
    const events = conformant(
      run([
        created(),
        start(0, { id: "m1", type: "mcp_server_tool_call", name: "list_issues", server_name: "github", arguments: { repo: "a/b" } }),
        stop(0),
        start(1, { call_id: "m1", type: "mcp_server_tool_result", name: "list_issues", server_name: "github", result: "3 open" }),
        stop(1),
        start(2, { id: "g1", type: "google_search_call", search_type: "web_search" }),
        delta(2, { type: "google_search_call", arguments: { queries: ["q"] } }),
        stop(2),
        start(3, { call_id: "g1", type: "google_search_result" }),
        delta(3, {
          type: "google_search_result",
          result: [{ url: "https://r.example", title: "R" }, { search_suggestions: html }, { search_suggestions: html, extra: 1 }],
          is_error: false,
        }),
        stop(3),
        completed("completed"),
      ]),
    );
    expect(of(events, "tool.start")).toMatchObject([
      { toolCallId: "m1", name: "list_issues", serverName: "github", providerExecuted: true },
      { toolCallId: "g1", name: "google_search", providerExecuted: true, providerMetadata: { search_type: "web_search" } },
    ]);
    const done = of(events, "tool.done");
    expect(done[0]).toMatchObject({
      toolCallId: "m1",
      content: [{ type: "text", text: "3 open" }],
      providerMetadata: { type: "mcp_server_tool_result", name: "list_issues", server_name: "github" },
    });
    expect(done[1]).toMatchObject({
      toolCallId: "g1",
      content: [
        { type: "search-result", url: "https://r.example", title: "R" },
        { type: "data", name: "google_search_result", data: { extra: 1 } },
      ],
    });
    expect(of(events, "display.required")).toEqual([expect.objectContaining({ provider: "google", html })]);
  });

  it("media in a model_output step lands as whole blocks; the text block stays one block", () => {
    const events = conformant(
      run([
        created(),
        start(0, { type: "model_output", content: [{ type: "text", text: "Here: " }] }),
        delta(0, { type: "image", data: "iVBORw0KGgo=", mime_type: "image/png" }),
        delta(0, { type: "text", text: "done." }),
        delta(0, { type: "audio", uri: "https://files.example/a.wav", mime_type: "audio/wav" }),
        stop(0),
        completed("completed"),
      ]),
    );
    expect(of(events, "text.delta").map((e) => e.delta)).toEqual(["Here: ", "done."]);
    expect(of(events, "content.block").map((e) => e.block)).toEqual([
      { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
      { type: "audio", source: { type: "url", url: "https://files.example/a.wav", mediaType: "audio/wav" } },
    ]);
  });

  it("unknown events, step types and deltas degrade to ext.google.unparsed, never dropped (§8.0)", () => {
    const events = conformant(
      run([
        created(),
        { event_type: "interaction.heartbeat", at: 1 },
        start(0, { type: "deep_research_plan", plan: ["a"] }),
        delta(0, { type: "plan_delta", text: "b" }),
        stop(0),
        start(1, { type: "model_output" }),
        delta(1, { type: "hologram", data: "x" }),
        delta(1, { type: "text", text: "ok" }),
        stop(1),
        delta(7, { type: "text", text: "stray" }),
        stop(8),
        "not an object",
        completed("completed"),
      ]),
    );
    const unparsed = of(events, "ext.google.unparsed");
    expect(unparsed.map((e) => e.reason)).toEqual([
      "unknown event_type 'interaction.heartbeat'",
      "step type 'deep_research_plan' with no AgJSON mapping",
      "delta type 'plan_delta' not expected in a 'deep_research_plan' step",
      "end of step type 'deep_research_plan'",
      "delta type 'hologram' not expected in a 'model_output' step",
      "step.delta for a step that was never started",
      "step.stop for a step that was never started",
      'got a string ("not an object"): push parsed JSON chunks — readNativeChunks(text) or createChunkReader() reads a capture (NDJSON or SSE) into them, or JSON.parse each line',
    ]);
    expect(unparsed[1]).toMatchObject({ raw: { step: { plan: ["a"] } } });
    expect(of(events, "text.delta").map((e) => e.delta)).toEqual(["ok"]);
    expect(of(events, "turn.done")[0]).toMatchObject({ finishReason: "stop" });
  });

  it("truncated inside a function call: no assembled call, the turn aborts stream-truncated (INV-FLUSH)", () => {
    const events = conformant(
      run([
        created(),
        start(0, { id: "c9", type: "function_call", name: "f", arguments: {} }),
        delta(0, { type: "arguments_delta", arguments: '{"a":' }),
        { event_type: "interaction.status_update", interaction_id: "v1_abc", status: "requires_action" },
      ]),
    );
    expect(of(events, "tool.args.assembled")).toEqual([]);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["message.end", "turn.abort"]);
    expect(events[events.length - 1]).toMatchObject({ reason: "stream-truncated" });
  });

  it('a stateless interaction (id "") gets derived ids; two interactions in one invoke are two messages of one turn', () => {
    const events = conformant(
      run([
        created(""),
        start(0, { type: "model_output" }),
        delta(0, { type: "text", text: "one" }),
        stop(0),
        { ...completed("requires_action"), interaction: { id: "", status: "requires_action", usage } },
        created(""),
        start(0, { type: "model_output" }),
        delta(0, { type: "text", text: "two" }),
        stop(0),
        { ...completed("completed"), interaction: { id: "", status: "completed", usage } },
      ]),
    );
    expect(of(events, "message.start").map((e) => e.id)).toEqual(["turn:turn:0:message:0", "turn:turn:0:message:1"]);
    expect(of(events, "message.end").map((e) => e.usage)).toEqual([mapped, mapped]);
    // A two-response turn: per-response usage stays on message.end, turn.done carries none.
    expect(of(events, "turn.done")).toEqual([expect.objectContaining({ finishReason: "stop" })]);
    expect(of(events, "turn.done")[0]).not.toHaveProperty("usage");
  });

  it("maps usage verbatim, leaving absent counters absent", () => {
    expect(mapInteractionsUsage({ total_tokens: 9, total_input_tokens: 4 })).toEqual({ totalTokens: 9, inputTokens: 4 });
  });
});
