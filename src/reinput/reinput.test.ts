/**
 * Re-input behaviour beyond the recorded round trips (issue 18): cross-provider continuation,
 * §2.1 / §10 item 3 tool-result routing, typed errors and reported repairs, §8 item 7 grouping,
 * §10 items 13 and 18 blobs, and input immutability.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgMessage, AgToolResultBlock } from "../../generated/lenient-types.js";
import { providerMeta } from "../../generated/types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import { normalizeAll, readNativeChunks } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import {
  isAnthropicStableRequest,
  ReinputError,
  toAnthropic,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
  type OpenAIResponsesRequest,
} from "./index.js";

const ROOT = join(import.meta.dirname, "../..");
const TARGETS = { anthropic: toAnthropic, "openai-responses": toOpenAIResponses, "openai-chat": toOpenAIChat, gemini: toGemini } as const;

function conversation(facet: Parameters<typeof normalizeAll>[0], file: string): AgMessage[] {
  const chunks = readNativeChunks(readFileSync(join(ROOT, "fixtures/providers", file), "utf8"));
  return reduce(normalizeAll(facet, chunks)).result.messages;
}

function strings(x: unknown, into: string[] = []): string[] {
  if (typeof x === "string") into.push(x);
  else if (Array.isArray(x)) for (const v of x) strings(v, into);
  else if (typeof x === "object" && x !== null) for (const v of Object.values(x)) strings(v, into);
  return into;
}

function blobs(messages: AgMessage[]): string[] {
  const out: string[] = [];
  for (const m of messages)
    for (const b of m.content.filter(isKnownBlock)) {
      if ((b.type === "reasoning" || b.type === "search-result" || b.type === "compaction") && b.opaque) out.push(b.opaque.value);
      if (b.type === "tool-call" && b.signature) out.push(b.signature);
      if (b.type === "tool-result")
        for (const c of b.content) if (isKnownBlock(c) && c.type === "search-result" && c.opaque) out.push(c.opaque.value);
    }
  return out;
}

function deepFreeze<T>(x: T): T {
  if (typeof x === "object" && x !== null) {
    for (const v of Object.values(x)) deepFreeze(v);
    Object.freeze(x);
  }
  return x;
}

const user = (id: string, text: string): AgMessage => ({ id, role: "user", content: [{ type: "text", text }] });

describe("cross-provider continuation: another provider's blobs are never sent (§13.2)", () => {
  const sources = [
    { from: "anthropic" as const, file: "anthropic/anthropic-combined-context-editing.1.chunks.txt" },
    { from: "anthropic" as const, file: "anthropic/anthropic-web-search-tool.1.chunks.txt" },
    { from: "openai-responses" as const, file: "openai-responses/azure-reasoning-encrypted-content.1.chunks.txt" },
    { from: "gemini" as const, file: "google/google-tool-call.chunks.txt" },
    { from: "gemini" as const, file: "google/google-reasoning.chunks.txt" },
  ];
  const owner = { anthropic: "anthropic", "openai-responses": "openai-responses", gemini: "gemini" } as const;
  for (const s of sources) {
    const messages = deepFreeze([user("u0", "Hello"), ...conversation(s.from, s.file)]);
    const secret = blobs(messages);
    for (const [target, convert] of Object.entries(TARGETS)) {
      if (target === owner[s.from]) continue;
      it(`${s.file} → ${target}`, () => {
        expect(secret.length).toBeGreaterThan(0);
        const { request, report } = convert(messages, { onInvalid: "repair" });
        const sent = new Set(strings(request));
        for (const b of secret) expect(sent.has(b), "a foreign blob reached the request").toBe(false);
        expect(
          report.some((e) => e.reason === "foreign-blob" || e.reason === "provider-executed-tool" || e.reason === "reasoning-without-blob"),
        ).toBe(true);
        // The visible answer text still reaches the target.
        const texts = messages.flatMap((m) =>
          m.content.flatMap((b) => (isKnownBlock(b) && b.type === "text" && b.text !== "" ? [b.text] : [])),
        );
        for (const t of texts) expect([...sent].some((x) => x.includes(t.slice(0, 40)))).toBe(true);
      });
    }
  }

  it("ids a target rejects are mapped the same on the call and its result", () => {
    const messages: AgMessage[] = [
      user("u", "weather?"),
      {
        id: "a",
        role: "assistant",
        content: [
          {
            type: "tool-call",
            toolCallId: "turn_x:tool-call:0",
            name: "weather",
            input: { city: "Paris" },
            providerMetadata: providerMeta({ providerCallIndex: 0 }),
          },
        ],
      },
      {
        id: "t",
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "turn_x:tool-call:0", content: [{ type: "text", text: "sunny" }] }],
      },
      { id: "a2", role: "assistant", content: [{ type: "tool-call", toolCallId: "x".repeat(60), name: "weather", input: {} }] },
      { id: "t2", role: "tool", content: [{ type: "tool-result", toolCallId: "x".repeat(60), content: [{ type: "text", text: "rain" }] }] },
    ];
    const a = toAnthropic(messages).request.messages;
    const use = a[1]!.content[0]!;
    const res = a[2]!.content[0]!;
    expect(use.type === "tool_use" && res.type === "tool_result" && use.id === res.tool_use_id && /^[A-Za-z0-9_-]+$/.test(use.id)).toBe(
      true,
    );
    const chat = toOpenAIChat(messages);
    const calls = chat.request.messages.flatMap((m) => (m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : []));
    const answers = chat.request.messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : []));
    expect(answers).toEqual(calls);
    for (const id of calls) expect(id.length).toBeLessThanOrEqual(40);
    expect(new Set(calls).size).toBe(2);
    expect(chat.report.filter((e) => e.reason === "id-remapped").length).toBe(2);
  });
});

describe("tool-result routing (§2.1, §10 item 3): content and structuredContent reach the model; uiData and sideData never do", () => {
  const messages: AgMessage[] = [
    user("u", "look it up"),
    { id: "a", role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", name: "lookup", input: { q: "x" } }] },
    {
      id: "t",
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          content: [{ type: "text", text: "MODEL-TEXT" }],
          structuredContent: { temperature: "MODEL-STRUCTURED" },
          uiData: { html: "VIEW-ONLY" },
          sideData: { secret: "APP-ONLY" },
        },
      ],
    },
  ];
  for (const [target, convert] of Object.entries(TARGETS)) {
    it(target, () => {
      const { request, report } = convert(deepFreeze(messages));
      const sent = strings(request).join("\n");
      expect(sent).toContain("MODEL-TEXT");
      expect(sent).toContain("MODEL-STRUCTURED");
      expect(sent).not.toContain("VIEW-ONLY");
      expect(sent).not.toContain("APP-ONLY");
      expect(
        report
          .filter((e) => e.reason === "model-hidden-channel")
          .map((e) => e.field)
          .sort(),
      ).toEqual(["sideData", "uiData"]);
    });
  }

  it("an MCP requestState (§10 item 18) is the MCP server's: never sent to the model, left byte-identical in the input", () => {
    const state = "opaque-state-÷-blob==";
    const input = deepFreeze<AgMessage[]>([
      user("u", "book it"),
      { id: "a", role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", name: "book", input: {} }] },
      {
        id: "t",
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            outcome: "input_required",
            content: [{ type: "text", text: "Which date?" }],
            pendingInput: { requestState: state, inputKeys: ["date"] },
          },
        ],
      },
    ]);
    for (const convert of Object.values(TARGETS)) {
      const { request, report } = convert(input);
      expect(strings(request)).not.toContain(state);
      expect(strings(request).join()).toContain("Which date?");
      expect(report.some((e) => e.reason === "server-continuation")).toBe(true);
    }
    const r = input[2]!.content[0]!;
    expect(isKnownBlock(r) && r.type === "tool-result" && r.pendingInput?.requestState).toBe(state);
  });

  it("_meta, metadata and messageMetadata are host-only (§12): never sent, and the input is not mutated", () => {
    const input = deepFreeze<AgMessage[]>([
      {
        id: "u",
        role: "user",
        content: [{ type: "text", text: "hi", _meta: { traceparent: "00-TRACE-01", timestamp: "T1" } }],
        metadata: { createdAt: "FLAT-KEY" },
        messageMetadata: { totalTokens: 7 },
      },
    ]);
    const before = JSON.stringify(input);
    for (const convert of Object.values(TARGETS)) {
      const sent = strings(convert(input).request);
      expect(sent).not.toContain("00-TRACE-01");
      expect(sent).not.toContain("FLAT-KEY");
    }
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe("a list the target cannot accept: typed error naming the message, or a reported repair", () => {
  const orphan: AgMessage[] = [
    user("u", "hi"),
    { id: "t9", role: "tool", content: [{ type: "tool-result", toolCallId: "nope", content: [] }] },
  ];
  const unanswered: AgMessage[] = [
    user("u", "hi"),
    { id: "a1", role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", name: "f", input: {} }] },
    user("u2", "and?"),
  ];
  const duplicate: AgMessage[] = [
    user("u", "hi"),
    { id: "a1", role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", name: "f", input: {} }] },
    { id: "t1", role: "tool", content: [{ type: "tool-result", toolCallId: "c1", content: [] }] },
    { id: "t2", role: "tool", content: [{ type: "tool-result", toolCallId: "c1", content: [] }] },
  ];
  for (const [target, convert] of Object.entries(TARGETS)) {
    it(target, () => {
      const fail = (m: AgMessage[]): ReinputError => {
        try {
          convert(m);
        } catch (e) {
          if (e instanceof ReinputError) return e;
          throw e;
        }
        throw new Error("no ReinputError");
      };
      expect(fail(orphan)).toMatchObject({ code: "orphan-result", messageId: "t9", messageIndex: 1, target });
      expect(fail(unanswered)).toMatchObject({ code: "unanswered-call", messageId: "a1", messageIndex: 1 });
      expect(fail(unanswered).message).toContain('before message "u2"');
      expect(fail(duplicate)).toMatchObject({ code: "duplicate-result", messageId: "t2" });
      expect(convert(orphan, { onInvalid: "repair" }).report).toContainEqual(
        expect.objectContaining({ action: "repaired", reason: "orphan-result", messageId: "t9" }),
      );
      expect(convert(unanswered, { onInvalid: "repair" }).report).toContainEqual(
        expect.objectContaining({ action: "repaired", reason: "unanswered-call", messageId: "a1" }),
      );
      expect(convert(duplicate, { onInvalid: "repair" }).report).toContainEqual(
        expect.objectContaining({ action: "repaired", reason: "duplicate-result", messageId: "t2" }),
      );
    });
  }
});

describe("Gemini parallel calls (§8 items 2 and 7, §10 item 15)", () => {
  it("results folded between calls are sent FC1+sig, FC2, FR1, FR2, answered by name and position when Gemini gave no id", () => {
    const call = (n: number, sig?: string) => ({
      type: "tool-call" as const,
      toolCallId: `turn_r:tool-call:${n}`,
      name: `f${n}`,
      input: { n },
      providerMetadata: providerMeta({ providerCallIndex: n }),
      ...(sig ? { signature: sig } : {}),
    });
    const result = (n: number) => ({
      type: "tool-result" as const,
      toolCallId: `turn_r:tool-call:${n}`,
      content: [{ type: "text" as const, text: `r${n}` }],
    });
    const messages: AgMessage[] = [
      user("u", "go"),
      { id: "r", role: "assistant", metadata: { google: {} }, content: [call(0, "SIG-1"), result(0), call(1), result(1)] },
    ];
    const { request } = toGemini(messages);
    expect(request.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          { functionCall: { name: "f0", args: { n: 0 } }, thoughtSignature: "SIG-1" },
          { functionCall: { name: "f1", args: { n: 1 } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "f0", response: { output: "r0" } } },
          { functionResponse: { name: "f1", response: { output: "r1" } } },
        ],
      },
    ]);
  });
});

describe("Anthropic replay blobs (§10 item 13)", () => {
  it("redacted thinking goes back as redacted_thinking with its data byte-identical", () => {
    const data = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP";
    const { request } = toAnthropic([
      user("u", "q"),
      {
        id: "a",
        role: "assistant",
        content: [
          { type: "reasoning", opaque: { kind: "redacted", value: data, provider: "anthropic" } },
          { type: "text", text: "answer" },
        ],
      },
    ]);
    expect(request.messages[1]!.content[0]).toEqual({ type: "redacted_thinking", data });
  });
});

describe("Anthropic server-tool results go back in the block shapes the API takes (@anthropic-ai/sdk params)", () => {
  /** An Anthropic server call `name` and its result, recorded as a `type` block with `structuredContent`. */
  const serverTurn = (name: string, type: string, structuredContent: unknown): AgMessage[] => [
    user("u", "q"),
    {
      id: "a",
      role: "assistant",
      metadata: { anthropic: {} },
      content: [
        { type: "tool-call", toolCallId: "srvtoolu_1", name, providerExecuted: true, input: {} },
        { type: "tool-result", toolCallId: "srvtoolu_1", content: [], structuredContent, providerMetadata: providerMeta({ type }) },
      ],
    },
  ];

  it("a recorded content of the API's shape goes back as recorded, fields it does not type included", () => {
    const content = { type: "advisor_result", text: "use a map", stop_reason: "end_turn" };
    const { request, report } = toAnthropic(serverTurn("advisor", "advisor_tool_result", content));
    expect(request.messages[1]?.content[1]).toEqual({ type: "advisor_tool_result", tool_use_id: "srvtoolu_1", content });
    expect(report).toEqual([]);
  });

  it("a recorded content the API would reject goes back as the tool's unavailable error, reported", () => {
    const { request, report } = toAnthropic(serverTurn("code_execution", "code_execution_tool_result", { type: "code_execution_result" }));
    expect(request.messages[1]?.content[1]).toEqual({
      type: "code_execution_tool_result",
      tool_use_id: "srvtoolu_1",
      content: { type: "code_execution_tool_result_error", error_code: "unavailable" },
    });
    expect(report.map((e) => [e.action, e.reason, e.field])).toEqual([["changed", "converted-block", "structuredContent"]]);
  });

  it("isAnthropicStableRequest: false when an advisor, MCP or compaction block needs the beta client, true otherwise", () => {
    const advisor = { type: "advisor_result", text: "ok" };
    const web = { type: "web_fetch_tool_result_error", error_code: "url_not_accessible" };
    expect(isAnthropicStableRequest(toAnthropic(serverTurn("advisor", "advisor_tool_result", advisor)).request)).toBe(false);
    expect(isAnthropicStableRequest(toAnthropic(serverTurn("web_fetch", "web_fetch_tool_result", web)).request)).toBe(true);
    const compaction: AgMessage = {
      id: "c",
      role: "assistant",
      metadata: { anthropic: {} },
      content: [{ type: "compaction", text: "so far" }],
    };
    expect(isAnthropicStableRequest(toAnthropic([user("u", "q"), compaction]).request)).toBe(false);
  });
});

describe("a web-search result sealed by another provider is not sent to Anthropic (§13.2)", () => {
  it("a search-result whose own opaque names another provider is dropped from web_search_tool_result, reported foreign-blob", () => {
    const own = "ANTHROPIC-SEALED";
    const foreign = "GOOGLE-SEALED";
    const messages = deepFreeze<AgMessage[]>([
      user("u", "search"),
      {
        id: "a",
        role: "assistant",
        metadata: { anthropic: {} },
        content: [
          { type: "tool-call", toolCallId: "srvtoolu_1", name: "web_search", providerExecuted: true, input: { query: "q" } },
          {
            type: "tool-result",
            toolCallId: "srvtoolu_1",
            content: [
              {
                type: "search-result",
                url: "https://a.example/",
                title: "A",
                opaque: { kind: "ciphertext", value: own, provider: "anthropic" },
              },
              {
                type: "search-result",
                url: "https://g.example/",
                title: "G",
                opaque: { kind: "ciphertext", value: foreign, provider: "google" },
              },
            ],
            providerMetadata: providerMeta({ type: "web_search_tool_result" }),
          },
          { type: "text", text: "answer" },
        ],
      },
    ]);
    const { request, report } = toAnthropic(messages);
    const sent = strings(request);
    expect(sent).toContain(own);
    expect(sent).not.toContain(foreign);
    expect(report).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "dropped", reason: "foreign-blob", field: "content[1]" })]),
    );
    expect(JSON.stringify(report)).not.toContain(foreign);
  });
});

describe("programmatic tool calling (OpenAI Responses)", () => {
  it("a programmatic function_call's caller ({type:'program', caller_id}) is kept by the facet and echoed by the replay", () => {
    const { request } = toOpenAIResponses(conversation("openai-responses", "openai-responses/programmatic-tool-calling.1.chunks.txt"), {
      onInvalid: "repair",
    });
    const call = request.input.find((i) => i.type === "function_call");
    expect(call).toMatchObject({ caller: { type: "program", caller_id: "call_voPdoCqf8APY4DMpam3bdmxq" } });
  });
});

describe("OpenAI Responses shell calls, programs and server tool search (§10 round trip; issue 18)", () => {
  const openai = { openai: {} };
  it("a client shell call (local environment) goes back as shell_call, its result as shell_call_output built from its blocks", () => {
    const messages: AgMessage[] = [
      user("u", "list files"),
      {
        id: "a",
        role: "assistant",
        metadata: openai,
        content: [
          {
            type: "tool-call",
            toolCallId: "call_1",
            name: "shell",
            input: { commands: ["ls"], timeout_ms: null },
            itemId: "sh_1",
            providerMetadata: providerMeta({ environment: { type: "local" } }),
          },
        ],
      },
      {
        id: "t",
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            content: [{ type: "code-result", outcome: "failed", output: "ls: denied" }],
            outcome: "error",
            errorText: "exit 1",
          },
        ],
      },
    ];
    const { request, report } = toOpenAIResponses(messages);
    expect(request.input.slice(1)).toEqual([
      {
        type: "shell_call",
        id: "sh_1",
        call_id: "call_1",
        action: { commands: ["ls"], timeout_ms: null },
        status: "completed",
        environment: { type: "local" },
      },
      {
        type: "shell_call_output",
        call_id: "call_1",
        output: [{ stdout: "ls: denied", stderr: "", outcome: { type: "exit", exit_code: 1 } }],
      },
    ]);
    expect(report.filter((e) => e.action === "dropped")).toEqual([]);
  });

  it("a program without its fingerprint cannot be replayed: it and its output are dropped and reported, never sent half", () => {
    const messages: AgMessage[] = [
      user("u", "go"),
      {
        id: "a",
        role: "assistant",
        metadata: openai,
        content: [
          { type: "tool-call", toolCallId: "call_p", name: "program", input: { code: "text(1)" }, itemId: "cm_1", providerExecuted: true },
          {
            type: "tool-result",
            toolCallId: "call_p",
            content: [{ type: "text", text: "1" }],
            providerMetadata: providerMeta({ type: "program_output", itemId: "cmo_1" }),
          },
        ],
      },
    ];
    const { request, report } = toOpenAIResponses(messages);
    expect(request.input.map((i) => i.type)).toEqual(["message"]);
    expect(report.filter((e) => e.reason === "provider-executed-tool").map((e) => e.blockIndex)).toEqual([0, 1]);
  });

  it("another provider's hosted shell call is not sent as OpenAI's", () => {
    const messages: AgMessage[] = [
      user("u", "go"),
      {
        id: "a",
        role: "assistant",
        metadata: { anthropic: {} },
        content: [{ type: "tool-call", toolCallId: "srv_1", name: "shell", input: { commands: ["ls"] }, providerExecuted: true }],
      },
    ];
    const { request, report } = toOpenAIResponses(messages);
    expect(request.input.map((i) => i.type)).toEqual(["message"]);
    expect(report.map((e) => e.reason)).toContain("provider-executed-tool");
  });
});

describe("a hosted web_search_call goes back to Responses only with an action the API accepts (openai SDK ResponseFunctionWebSearch)", () => {
  /** The recorded xAI stream with each web_search_call's `action` replaced by `replace(action)` (removed when undefined). */
  function xaiSearch(replace: (action: unknown) => unknown): AgMessage[] {
    const chunks = readNativeChunks(readFileSync(join(ROOT, "fixtures/providers/xai/xai-x-search-tool.chunks.txt"), "utf8"));
    const edit = (x: unknown): unknown => {
      if (Array.isArray(x)) return x.map(edit);
      if (typeof x !== "object" || x === null) return x;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(x)) out[k] = edit(v);
      if (out.type === "web_search_call") {
        const action = replace(out.action);
        if (action === undefined) delete out.action;
        else out.action = action;
      }
      return out;
    };
    return reduce(normalizeAll("openai-responses", chunks.map(edit))).result.messages;
  }
  const searches = (request: OpenAIResponsesRequest) => request.input.filter((i) => i.type === "web_search_call");

  it("a call with an action is sent with it, as recorded", () => {
    const { request } = toOpenAIResponses(
      xaiSearch((a) => a),
      { onInvalid: "repair" },
    );
    expect(searches(request).length).toBeGreaterThan(0);
    for (const item of searches(request)) expect(item.action).toEqual({ type: "search", query: "", sources: [] });
  });

  it("a call that carried no action is left out and reported, never sent with an invented empty action", () => {
    const { request, report } = toOpenAIResponses(
      xaiSearch(() => undefined),
      { onInvalid: "repair" },
    );
    expect(searches(request)).toEqual([]);
    const dropped = report.filter((e) => e.reason === "provider-executed-tool");
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.some((e) => /no action the API accepts/.test(e.detail))).toBe(true);
  });

  it("an action with queries but no type is sent as the search it was", () => {
    const { request } = toOpenAIResponses(
      xaiSearch(() => undefined).map((m) => ({
        ...m,
        content: m.content.map((c) =>
          c.type === "tool-call" && c.providerExecuted === true ? { ...c, input: { queries: ["agjson"] } } : c,
        ),
      })),
      { onInvalid: "repair" },
    );
    expect(searches(request).length).toBeGreaterThan(0);
    for (const item of searches(request)) expect(item.action).toEqual({ type: "search", queries: ["agjson"] });
  });
});

describe("hosted Responses items go back in the shapes the API's input items take (openai SDK ResponseInputItem)", () => {
  const openai = { openai: {} };
  /** A remote MCP call OpenAI ran, failed with `errorText` (the facet keeps a non-string error as its JSON). */
  function failedMcpCall(errorText: string, status = "failed"): AgMessage[] {
    return [
      user("u", "look it up"),
      {
        id: "a",
        role: "assistant",
        metadata: openai,
        content: [
          {
            type: "tool-call",
            toolCallId: "mcp_1",
            itemId: "mcp_1",
            name: "lookup",
            serverName: "kb",
            providerExecuted: true,
            input: { q: "x" },
          },
          {
            type: "tool-result",
            toolCallId: "mcp_1",
            content: [],
            outcome: "error",
            isError: true,
            errorText,
            providerMetadata: providerMeta({ type: "mcp_call", status }),
          },
        ],
      },
    ];
  }
  const mcpCall = (messages: AgMessage[]) => toOpenAIResponses(messages).request.input.find((i) => i.type === "mcp_call");

  it("an MCP call's error goes back as the error object the API reported, not as its JSON text", () => {
    const error = { type: "mcp_protocol_error", code: -32601, message: "Method not found" };
    expect(mcpCall(failedMcpCall(JSON.stringify(error)))).toMatchObject({ type: "mcp_call", status: "failed", error });
  });

  it("an MCP call's plain error text goes back as a tool-execution error carrying it", () => {
    expect(mcpCall(failedMcpCall("server unreachable"))).toMatchObject({
      error: { type: "mcp_tool_execution_error", content: "server unreachable" },
    });
  });

  it("a recorded status outside the item's set goes back as completed, the status of an item recorded without one", () => {
    expect(mcpCall(failedMcpCall("x", "exploded"))).toMatchObject({ status: "completed" });
  });

  it("a tool of a search listing the API cannot take back is left out and reported; the others go back as recorded", () => {
    const fn = { type: "function", name: "get_weather", parameters: { type: "object" }, strict: true, defer_loading: true };
    const messages: AgMessage[] = [
      user("u", "weather?"),
      {
        id: "a",
        role: "assistant",
        metadata: openai,
        content: [{ type: "tool-call", toolCallId: "call_s", itemId: "tsc_1", name: "tool_search", input: { query: "weather" } }],
      },
      {
        id: "t",
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_s",
            content: [{ type: "data", name: "tools", data: [fn, { type: "tool_reference", functionName: "x" }] }],
          },
        ],
      },
    ];
    const { request, report } = toOpenAIResponses(messages);
    expect(request.input.find((i) => i.type === "tool_search_output")).toMatchObject({ tools: [fn] });
    expect(report.filter((e) => e.field === "tools[1]").map((e) => e.reason)).toEqual(["unsupported-block"]);
  });
});

describe("a shell call recorded from @openai/agents goes back to Responses with its exact per-command output", () => {
  it("normalize → reduce → toOpenAIResponses: shell_call under its sh_ id, shell_call_output with stdout, stderr and exit_code", () => {
    const chunks = readNativeChunks(readFileSync(join(ROOT, "record/recordings/openai-agents/shell-local.native.ndjson"), "utf8"));
    const { request } = toOpenAIResponses(reduce(normalizeAll("openai-agents", chunks)).result.messages);
    const shell = request.input.filter((i) => i.type === "shell_call" || i.type === "shell_call_output");
    expect(shell).toEqual([
      expect.objectContaining({
        type: "shell_call",
        id: "sh_0a1b2c3d4e5f60718293a4b5c6d7e8f9aa00000000000002",
        call_id: "call_Shl0cAl9x8QzRk2mP4tV7wYb",
        action: expect.objectContaining({ commands: ["ls -1 /tmp/agjson-demo", "wc -l /tmp/agjson-demo/notes.txt"] }),
      }),
      {
        type: "shell_call_output",
        call_id: "call_Shl0cAl9x8QzRk2mP4tV7wYb",
        output: [
          { stdout: "ran: ls -1 /tmp/agjson-demo\n", stderr: "", outcome: { type: "exit", exit_code: 0 } },
          { stdout: "ran: wc -l /tmp/agjson-demo/notes.txt\n", stderr: "", outcome: { type: "exit", exit_code: 0 } },
        ],
      },
    ]);
  });
});

describe("tool-result flags reach the model as each target reads them (§2, §2.2: isError derived from outcome)", () => {
  const called: AgMessage[] = [
    user("u", "run it"),
    { id: "a", role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", name: "run", input: {} }] },
  ];
  const withResult = (result: Record<string, unknown>): AgMessage[] =>
    deepFreeze([
      ...called,
      {
        id: "t",
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "call_1", content: [], ...result } as AgMessage["content"][number]],
      },
    ]);

  it("an error result with no content of its own sends its errorText, flagged as an error where the target has a flag", () => {
    const messages = withResult({ outcome: "error", errorText: "BOOM-TEXT" });
    for (const convert of Object.values(TARGETS)) expect(strings(convert(messages).request)).toContain("BOOM-TEXT");
    const anthropic = toAnthropic(messages).request.messages.at(-1)!.content;
    expect(anthropic).toEqual([
      { type: "tool_result", tool_use_id: "call_1", content: [{ type: "text", text: "BOOM-TEXT" }], is_error: true },
    ]);
    const gemini = toGemini(messages).request.contents.at(-1)!.parts[0]!.functionResponse;
    expect(gemini?.response).toEqual({ error: "BOOM-TEXT" });
  });

  it("an error outcome without isError is still an error (isError is derived, §2)", () => {
    const anthropic = toAnthropic(
      withResult({ outcome: "error", errorText: "e", content: [{ type: "text", text: "failed" }] }),
    ).request.messages.at(-1)!.content;
    expect(anthropic).toEqual([expect.objectContaining({ type: "tool_result", is_error: true })]);
  });

  it("a denied result (its own outcome, §2) reaches the model as a refusal, never as success", () => {
    const messages = withResult({ outcome: "denied" });
    const anthropic = toAnthropic(messages).request.messages.at(-1)!.content;
    expect(anthropic).toEqual([expect.objectContaining({ type: "tool_result", is_error: true })]);
    const gemini = toGemini(messages).request.contents.at(-1)!.parts[0]!.functionResponse;
    expect(Object.keys(gemini?.response ?? {})).toEqual(["error"]);
    for (const convert of Object.values(TARGETS)) expect(strings(convert(messages).request).join("\n")).toContain("denied");
  });

  it("a result whose only model-facing channel is structuredContent still reaches the model, on every target", () => {
    const messages = withResult({ structuredContent: { only: "STRUCTURED-ONLY" }, uiData: { view: "VIEW-ONLY" } });
    for (const convert of Object.values(TARGETS)) {
      const sent = strings(convert(messages).request).join("\n");
      expect(sent).toContain("STRUCTURED-ONLY");
      expect(sent).not.toContain("VIEW-ONLY");
    }
    const gemini = toGemini(messages).request.contents.at(-1)!.parts[0]!.functionResponse;
    expect(gemini?.response).toEqual({ output: { only: "STRUCTURED-ONLY" } });
  });

  it("structuredContent already serialized in a text block of content (the MCP convention) is not sent twice", () => {
    const messages = withResult({ content: [{ type: "text", text: '{ "n": 1 }' }], structuredContent: { n: 1 } });
    for (const target of [toAnthropic, toOpenAIResponses, toOpenAIChat]) {
      const { request, report } = target(messages);
      expect(strings(request).filter((s) => s.includes('"n"'))).toHaveLength(1);
      expect(report.some((e) => e.reason === "structured-as-text")).toBe(false);
    }
  });
});

/** The fields every result of the MCP server call below has: its call's id, Anthropic's block type. */
const MCP_RESULT = { type: "tool-result", toolCallId: "mcptoolu_1", providerMetadata: providerMeta({ type: "mcp_tool_result" }) } as const;

/** A conversation whose assistant turn ran an MCP server tool (Anthropic mcp_tool_use) and got `result`. */
function mcpServerCall(result: AgToolResultBlock): AgMessage[] {
  return deepFreeze<AgMessage[]>([
    user("u", "ask the server"),
    {
      id: "a",
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "mcptoolu_1", name: "lookup", serverName: "srv", providerExecuted: true, input: {} },
        result,
      ],
    },
  ]);
}

describe("a provider-executed (server) tool result keeps uiData and sideData from the model too (§2.1)", () => {
  it("Anthropic mcp_tool_result: replayed from content / structuredContent + providerMetadata, never uiData or sideData", () => {
    const messages = mcpServerCall({
      ...MCP_RESULT,
      content: [{ type: "text", text: "SERVER-TEXT" }],
      uiData: { view: "VIEW-ONLY" },
      sideData: { app: "APP-ONLY" },
    });
    const { request } = toAnthropic(messages, { sourceProvider: "anthropic" });
    const sent = strings(request).join("\n");
    expect(sent).toContain("SERVER-TEXT");
    expect(sent).not.toContain("VIEW-ONLY");
    expect(sent).not.toContain("APP-ONLY");
  });

  it("Anthropic mcp_tool_result: an error outcome without isError is sent with is_error true (isError is derived, §2)", () => {
    const messages = mcpServerCall({
      ...MCP_RESULT,
      content: [{ type: "text", text: "unreachable" }],
      outcome: "error",
      errorText: "unreachable",
    });
    const blocks = toAnthropic(messages, { sourceProvider: "anthropic" }).request.messages.at(-1)!.content;
    expect(blocks).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: "mcp_tool_result", tool_use_id: "mcptoolu_1", is_error: true })]),
    );
  });
});

describe("§13.2: a message's provider bags cannot be used to defeat the foreign-blob guard", () => {
  const sealed = (metadata: Record<string, unknown>): AgMessage[] => [
    user("u1", "Hi"),
    {
      id: "a1",
      role: "assistant",
      metadata,
      content: [
        { type: "reasoning", text: "Thinking.", opaque: { kind: "encrypted", value: "GOOGLE-THOUGHT-SIG" } },
        { type: "text", text: "Hello." },
      ],
    },
    user("u2", "Again"),
  ];

  it("an empty anthropic bag beside a google bag: Google's message, its blob never sent to Anthropic", () => {
    const { request, report } = toAnthropic(sealed({ anthropic: {}, google: { modelVersion: "gemini-2.5" } }), { onInvalid: "repair" });
    expect(JSON.stringify(request)).not.toContain("GOOGLE-THOUGHT-SIG");
    expect(report).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "dropped", reason: "foreign-blob", messageId: "a1" })]),
    );
    // Gemini still gets it back as its own.
    expect(JSON.stringify(toGemini(sealed({ anthropic: {}, google: { modelVersion: "gemini-2.5" } })).request)).toContain(
      "GOOGLE-THOUGHT-SIG",
    );
  });

  it("two bags with content: a conflict, sent to neither", () => {
    for (const target of [toAnthropic, toGemini] as const) {
      const { request, report } = target(sealed({ anthropic: { id: "msg_1" }, google: { modelVersion: "gemini-2.5" } }), {
        onInvalid: "repair",
      });
      expect(JSON.stringify(request)).not.toContain("GOOGLE-THOUGHT-SIG");
      expect(report.some((e) => e.reason === "foreign-blob" && e.messageId === "a1")).toBe(true);
    }
  });
});

describe("a text document goes to Anthropic as text, with what a browser has (no Buffer)", () => {
  const doc = (data: string): AgMessage[] => [
    { id: "u1", role: "user", content: [{ type: "document", source: { type: "base64", mediaType: "text/markdown", data } }] },
  ];

  it("decodes the base64 data as UTF-8 without Node's Buffer", () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "Buffer")!;
    delete (globalThis as { Buffer?: unknown }).Buffer;
    try {
      const { request, report } = toAnthropic(doc(btoa(String.fromCharCode(...new TextEncoder().encode("# Notes — café")))));
      expect(request.messages[0]!.content).toEqual([
        { type: "document", source: { type: "text", media_type: "text/plain", data: "# Notes — café" } },
      ]);
      expect(report).toEqual([]);
    } finally {
      Object.defineProperty(globalThis, "Buffer", saved);
    }
  });

  it("data that is not base64 is dropped and reported, never sent as garbage", () => {
    const { request, report } = toAnthropic(doc("not base64!"), { onInvalid: "repair" });
    expect(JSON.stringify(request)).not.toContain("not base64");
    expect(report).toContainEqual(expect.objectContaining({ action: "dropped", reason: "unsupported-block" }));
  });
});
