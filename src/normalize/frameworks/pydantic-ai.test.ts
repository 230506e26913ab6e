/**
 * The pydantic-ai facet over the hand-authored streams of fixtures/pydantic-ai (README.md there:
 * written from pydantic/pydantic-ai@4fda38988f2939fa6ea9cdefcf120693e10ef491, nothing recorded), and
 * fromPydanticAiMessages over the message history each run's `agent_run_result` carries: the fold of
 * the stream must hold the framework's final text, tool calls with their inputs, failed results and
 * signatures byte-identical — the same blocks the stored history converts to.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgBlock, AgEvent, AgMessage } from "../../../generated/types.js";
import { reduce } from "../../reduce/index.js";
import { conformant, of, runFacet } from "../facet.test-support.js";
import { createNormalizer, readNativeChunks } from "../index.js";
import { fromPydanticAiMessages } from "./pydantic-ai-messages.js";
import { PydanticAiFacet } from "./pydantic-ai.js";

const DIR = join(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/pydantic-ai");
type Chunk = Record<string, unknown>;

function stream(name: string): Chunk[] {
  return readNativeChunks(readFileSync(join(DIR, `${name}.hand-authored.ndjson`), "utf8")) as Chunk[];
}

function run(chunks: unknown[]): AgEvent[] {
  return conformant(runFacet(createNormalizer("pydantic-ai"), chunks));
}

function folded(chunks: unknown[]): AgMessage[] {
  return reduce(run(chunks)).result.messages as AgMessage[];
}

/** The message history the run's agent_run_result carries (`result._state.message_history`). */
function historyOf(chunks: Chunk[]): unknown[] {
  const last = chunks[chunks.length - 1] as { event_kind: string; result: { _state: { message_history: unknown[] } } };
  expect(last.event_kind).toBe("agent_run_result");
  return last.result._state.message_history;
}

const blocks = (messages: AgMessage[], type: string): Record<string, unknown>[] =>
  messages.flatMap((m) => m.content).filter((b) => b.type === type) as unknown as Record<string, unknown>[];

const STREAMS = readdirSync(DIR)
  .filter((f) => f.endsWith(".hand-authored.ndjson"))
  .map((f) => f.replace(".hand-authored.ndjson", ""));

describe("pydantic-ai facet over the hand-authored streams", () => {
  it("has the streams the issue names", () => {
    expect(STREAMS.sort()).toEqual([
      "approval-required",
      "builtin-web-search",
      "compaction",
      "output-tool",
      "retry-then-call",
      "text",
      "thinking-signature",
      "tool-calls",
      "truncated",
    ]);
  });

  for (const name of STREAMS.filter((n) => n !== "truncated")) {
    it(`${name}: the fold has the blocks the framework's own message history converts to`, () => {
      const chunks = stream(name);
      const fold = folded(chunks);
      const history = fromPydanticAiMessages(historyOf(chunks));
      // Responses are assistant messages with the same blocks, in the same order.
      const content = (ms: AgMessage[], role: string): AgBlock[][] => ms.filter((m) => m.role === role).map((m) => m.content);
      expect(content(fold, "assistant")).toEqual(content(history, "assistant"));
      // Function and output tool results: the same result blocks, in the same order.
      expect(content(fold, "tool").flat()).toEqual(content(history, "tool").flat());
    });
  }

  it("text: the final text is the framework's and the turn closes with the run's output and usage", () => {
    const events = run(stream("text"));
    expect(blocks(reduce(events).result.messages as AgMessage[], "text").map((b) => b.text)).toEqual(["Hello world, from Paris."]);
    expect(of(events, "turn.done")).toEqual([
      expect.objectContaining({
        outcome: { type: "success", result: "Hello world, from Paris." },
        finishReason: "stop",
        usage: { inputTokens: 12, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
      }),
    ]);
  });

  it("thinking (§8 item 9, D27): each signature_delta REPLACES, the block's opaque is the part_end signature byte-identical", () => {
    const chunks = stream("thinking-signature");
    const events = run(chunks);
    const end = chunks.find((c) => c.event_kind === "part_end" && (c.part as Chunk).part_kind === "thinking")!;
    const signature = (end.part as Chunk).signature as string;
    // Never appended: a reasoning.opaque.delta would concatenate the two fragments.
    expect(of(events, "reasoning.opaque.delta")).toEqual([]);
    expect(of(events, "reasoning.opaque").map((e) => e.value)).toEqual(["EqQBCkgIARABGAIiQOBCgk3wHh3Q", signature]);
    const [reasoning] = blocks(reduce(events).result.messages as AgMessage[], "reasoning");
    expect(reasoning).toEqual({
      type: "reasoning",
      text: "The user wants the capital of France. That is Paris.",
      opaque: { kind: "signature", value: signature, provider: "anthropic" },
      provider: "anthropic",
    });
  });

  it("tool calls (§8 item 10): one tool.start per call, after its name and id settled; args as text and as a merged dict", () => {
    const events = run(stream("tool-calls"));
    expect(of(events, "tool.start").map((e) => [e.toolCallId, e.name])).toEqual([
      ["call_wx1", "get_weather"],
      ["call_tm2", "get_time"],
    ]);
    // The generated id the part started with never reaches the wire.
    expect(JSON.stringify(events)).not.toContain("pyd_ai_");
    const calls = blocks(reduce(events).result.messages as AgMessage[], "tool-call");
    expect(calls.map((c) => [c.name, c.input])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_time", { tz: "Europe/Paris", format: "24h" }],
    ]);
    // One round's results share one adopted tool message, as they share one ModelRequest.
    const tool = (reduce(events).result.messages as AgMessage[]).filter((m) => m.role === "tool");
    expect(tool.map((m) => m.content.map((b) => (b as { toolCallId: string }).toolCallId))).toEqual([["call_wx1", "call_tm2"]]);
    expect(blocks(tool, "tool-result")[0]).toEqual(
      expect.objectContaining({ structuredContent: { temp_c: 21, sky: "clear" }, outcome: "ok" }),
    );
  });

  it("a retry prompt is a failed result with its ErrorDetails verbatim (§3); the good call then succeeds", () => {
    const results = blocks(folded(stream("retry-then-call")), "tool-result");
    expect(results.map((r) => [r.toolCallId, r.outcome])).toEqual([
      ["call_r1", "error"],
      ["call_r2", "ok"],
    ]);
    expect(results[0]).toEqual(
      expect.objectContaining({
        errorText: '[{"type":"missing","loc":["city"],"msg":"Field required","input":{"town":"Paris"}}]',
        providerMetadata: { "pydantic/retryErrors": [{ type: "missing", loc: ["city"], msg: "Field required", input: { town: "Paris" } }] },
      }),
    );
  });

  it("a builtin web search is a provider-executed call and result in the response's message, provider_details verbatim (§2)", () => {
    const [message] = folded(stream("builtin-web-search"));
    expect(message!.content.map((b) => b.type)).toEqual(["tool-call", "tool-result", "text"]);
    expect(message!.content[0]).toEqual(expect.objectContaining({ providerExecuted: true, input: { query: "Paris weather today" } }));
    expect(message!.content[1]).toEqual(expect.objectContaining({ providerMetadata: { server_tool_use: { web_search_requests: 1 } } }));
    expect(message!.content[2]).toEqual(expect.objectContaining({ providerMetadata: { citations: 1 } }));
  });

  it("structured output through the output tool: its result in the tool message, the object as the turn's result, the turn stopped", () => {
    const events = run(stream("output-tool"));
    expect(of(events, "turn.done")).toEqual([
      expect.objectContaining({ outcome: { type: "success", result: { city: "Paris", temp_c: 21 } }, finishReason: "stop" }),
    ]);
  });

  it("a tool that needs approval pauses the turn with one approval ask (§7)", () => {
    const events = run(stream("approval-required"));
    const ask = { askId: "call_del1", kind: "approval", toolCallId: "call_del1", metadata: { reason: "deletes a file" } };
    expect(of(events, "hitl.ask")).toEqual([expect.objectContaining(ask)]);
    const done = of(events, "turn.done")[0]!;
    expect(done.finishReason).toBe("paused");
    expect(done.outcome).toEqual(expect.objectContaining({ type: "paused", asks: [ask] }));
  });

  it("a compaction part keeps its encrypted summary byte-identical on the block's opaque (§10 item 13)", () => {
    const [compaction] = blocks(folded(stream("compaction")), "compaction");
    expect(compaction).toEqual({
      type: "compaction",
      opaque: { kind: "ciphertext", value: "gAAAAABoq1-ENCRYPTED-SUMMARY==", provider: "openai" },
      provider: "openai",
      _meta: {
        "pydantic/id": "cmp_68a1",
        "pydantic/provider_details": { type: "compaction", encrypted_content: "gAAAAABoq1-ENCRYPTED-SUMMARY==" },
      },
    });
  });

  it("a run without agent_run_result is truncated: turn.abort, the cut call without tool.args.assembled (INV-FLUSH)", () => {
    const events = run(stream("truncated"));
    expect(events.at(-1)).toEqual(expect.objectContaining({ type: "turn.abort", reason: "stream-truncated" }));
    expect(of(events, "turn.done")).toEqual([]);
    expect(of(events, "tool.start").map((e) => e.toolCallId)).toEqual(["call_t1"]);
    expect(of(events, "tool.args.assembled")).toEqual([]);
  });
});

describe("pydantic-ai facet: what the framework's apply does", () => {
  const part = (args: unknown, id: string, name = "lookup") => ({
    tool_name: name,
    args,
    tool_call_id: id,
    tool_kind: null,
    id: null,
    provider_name: null,
    provider_details: null,
    part_kind: "tool-call",
  });
  const start = (index: number, p: unknown, prev: string | null = null) => ({
    index,
    part: p,
    previous_part_kind: prev,
    event_kind: "part_start",
  });
  const delta = (index: number, d: Record<string, unknown>) => ({
    index,
    delta: {
      tool_name_delta: null,
      args_delta: null,
      tool_call_id: null,
      provider_name: null,
      provider_details: null,
      part_delta_kind: "tool_call",
      ...d,
    },
    event_kind: "part_delta",
  });

  it("holds a call with no part_end until the response ends, then assembles what the deltas built", () => {
    const events = run([
      start(0, part(null, "pyd_ai_x", "look")),
      delta(0, { tool_name_delta: "up" }),
      delta(0, { tool_call_id: "call_real" }),
      delta(0, { args_delta: { a: 1 } }),
      delta(0, { args_delta: { b: 2 } }),
      { part: part({ a: 1, b: 2 }, "call_real"), args_valid: true, event_kind: "function_tool_call" },
    ]);
    expect(of(events, "tool.start").map((e) => [e.toolCallId, e.name])).toEqual([["call_real", "lookup"]]);
    expect(of(events, "tool.args.assembled").map((e) => e.input)).toEqual([{ a: 1, b: 2 }]);
  });

  it("refuses to mix text and dict arguments as the framework does, carrying the delta", () => {
    const events = run([
      start(0, part('{"a":', "c1")),
      delta(0, { args_delta: { b: 2 } }),
      delta(0, { args_delta: " 1}" }),
      { index: 0, part: part('{"a": 1}', "c1"), next_part_kind: null, event_kind: "part_end" },
    ]);
    expect(of(events, "error").map((e) => e.code)).toEqual(["unexpected_model_behavior"]);
    expect(of(events, "tool.args.assembled").map((e) => e.input)).toEqual([{ a: 1 }]);
  });

  it("a new response (no previous_part_kind) is a new message; results of a round share one tool message", () => {
    const ret = (id: string) => ({
      part: {
        tool_name: "lookup",
        content: "ok",
        tool_call_id: id,
        tool_kind: null,
        metadata: { rows: 3 },
        timestamp: "2026-08-22T18:30:00Z",
        outcome: "success",
        part_kind: "tool-return",
      },
      content: "look at this",
      event_kind: "function_tool_result",
    });
    const messages = folded([
      start(0, part("{}", "c1")),
      start(1, part("{}", "c2"), "tool-call"),
      ret("c1"),
      ret("c2"),
      start(0, { content: "done", id: null, provider_name: null, provider_details: null, part_kind: "text" }),
    ]);
    expect(messages.map((m) => m.role)).toEqual(["assistant", "tool", "user", "user", "assistant"]);
    // ToolReturnPart.metadata is app-only: sideData (§2.1).
    expect(blocks(messages, "tool-result")[0]).toEqual(expect.objectContaining({ sideData: { rows: 3 } }));
  });

  it("a part the framework replaces at its own index (OpenAI added → done) is one block with the final content", () => {
    const compaction = (enc: string | null) => ({
      content: null,
      id: "cmp_1",
      provider_name: "openai",
      provider_details: enc === null ? null : { encrypted_content: enc },
      part_kind: "compaction",
    });
    const ret = (content: unknown) => ({
      tool_name: "tool_search",
      content,
      tool_call_id: "ts_1",
      tool_kind: null,
      metadata: null,
      timestamp: "2026-08-22T18:30:00Z",
      outcome: "success",
      provider_name: "openai",
      provider_details: null,
      part_kind: "builtin-tool-return",
    });
    const call = {
      tool_name: "tool_search",
      args: { query: "weather" },
      tool_call_id: "ts_1",
      tool_kind: null,
      id: "tsc_1",
      provider_name: "openai",
      provider_details: null,
      part_kind: "builtin-tool-call",
    };
    const messages = folded([
      start(0, compaction(null)),
      start(0, compaction("gAAAA-final"), "compaction"),
      start(1, call, "compaction"),
      { index: 1, part: call, next_part_kind: "builtin-tool-return", event_kind: "part_end" },
      start(2, ret({ tools: [] }), "builtin-tool-call"),
      start(2, ret({ tools: ["get_weather"] }), "builtin-tool-return"),
      { event_kind: "agent_run_result", result: { output: "ok" } },
    ]);
    expect(messages[0]!.content.map((b) => b.type)).toEqual(["compaction", "tool-call", "tool-result"]);
    expect(blocks(messages, "compaction")[0]!.opaque).toEqual({ kind: "ciphertext", value: "gAAAA-final", provider: "openai" });
    expect(blocks(messages, "tool-result")[0]!.structuredContent).toEqual({ tools: ["get_weather"] });
  });

  it("never throws on arbitrary input (§8.0)", () => {
    for (const chunk of [
      null,
      1,
      [],
      {},
      { event_kind: 5 },
      { event_kind: "part_start" },
      { event_kind: "part_delta", index: -1 },
      { event_kind: "agent_run_result" },
      { event_kind: "function_tool_result", part: {} },
    ]) {
      expect(() => runFacet(new PydanticAiFacet(), [chunk])).not.toThrow();
    }
  });

  it("maps a host-fed exception to turn.error (§8.0 host obligation 1)", () => {
    const events = run([
      start(0, { content: "Hi", id: null, provider_name: null, provider_details: null, part_kind: "text" }),
      { event_kind: "__host_error__", type: "UsageLimitExceeded", message: "The next request would exceed the request_limit of 1" },
    ]);
    expect(of(events, "turn.error")).toEqual([
      expect.objectContaining({ code: "usage_limit", message: "The next request would exceed the request_limit of 1" }),
    ]);
  });
});

describe("fromPydanticAiMessages", () => {
  it("splits a request by role and keeps message-level fields under metadata", () => {
    const history = historyOf(stream("tool-calls"));
    const messages = fromPydanticAiMessages(history, { threadId: "t1" });
    expect(messages.map((m) => [m.role, m.id])).toEqual([
      ["user", "message:0"],
      ["assistant", "chatcmpl-Tc1"],
      ["tool", "message:2"],
      ["assistant", "chatcmpl-Tc2"],
    ]);
    expect(messages[1]).toEqual(
      expect.objectContaining({
        model: "gpt-5.2",
        usage: { inputTokens: 80, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 },
        threadId: "t1",
      }),
    );
    expect((messages[1]!.metadata as Record<string, Record<string, unknown>>)["pydantic/response"]).toEqual(
      expect.objectContaining({ finish_reason: "tool_call", provider_name: "openai" }),
    );
  });

  it("refuses what is not a history, naming the field", () => {
    expect(() => fromPydanticAiMessages({})).toThrow(/the history is an object/);
    expect(() => fromPydanticAiMessages([{ kind: "response" }])).toThrow("[0].parts is missing; every message has a parts array.");
    expect(() => fromPydanticAiMessages([{ kind: "other", parts: [] }])).toThrow(/\[0\]\.kind is/);
  });

  it("carries a part it does not know as provider-raw, never dropping it", () => {
    const unknown = { part_kind: "hologram", content: 1 };
    const [m] = fromPydanticAiMessages([{ kind: "response", parts: [unknown] }]);
    expect(m!.content).toEqual([{ type: "provider-raw", vendor: "pydantic", raw: unknown }]);
  });
});
