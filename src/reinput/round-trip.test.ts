/**
 * Issue 18 round trip: every recorded provider stream whose provider has a target is normalized,
 * reduced and re-input; the request must carry what the provider itself sent — every signature,
 * encrypted_content, thoughtSignature and item id byte-identical, text and tool arguments equal
 * (§8 items 2, 7, 8; §10 items 4, 13, 15; §13.2).
 */
import { describe, expect, it } from "vitest";
import { normalizeAll } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import { toAnthropic } from "./anthropic.js";
import { toOpenAIResponses } from "./openai-responses.js";
import { toGemini } from "./gemini.js";
import { toOpenAIChat } from "./openai-chat.js";
import { validateInput } from "../validate/validate.js";
import type { AgEvent } from "../../generated/types.js";
import {
  anthropicNativeBlocks,
  chatNativeMessages,
  geminiNativeParts,
  recordedStreams,
  responsesNativeItems,
  truncated,
} from "./native-replay.test-support.js";

type Json = Record<string, unknown>;

/** Drops null-valued fields and empty citation lists (the wire's "absent", §8 item 13), recursively. */
function canon(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canon);
  if (typeof x !== "object" || x === null) return x;
  const out: Json = {};
  for (const [k, v] of Object.entries(x)) {
    if (v === null || (k === "citations" && Array.isArray(v) && v.length === 0)) continue;
    out[k] = canon(v);
  }
  return out;
}

/** Citation location types Anthropic documents; the facet reports any other as unparsed (§8.0). */
const KNOWN_CITATIONS = new Set([
  "char_location",
  "page_location",
  "content_block_location",
  "web_search_result_location",
  "search_result_location",
]);

function knownCitations(b: Json): Json {
  if (!Array.isArray(b.citations)) return b;
  return {
    ...b,
    citations: b.citations.filter((c: unknown) => typeof c === "object" && c !== null && KNOWN_CITATIONS.has(String((c as Json).type))),
  };
}

function reduced(facet: Parameters<typeof normalizeAll>[0], chunks: unknown[]) {
  const { result, needsResync, errors } = reduce(normalizeAll(facet, chunks));
  expect(needsResync, JSON.stringify(errors)).toBe(false);
  return result;
}

describe("anthropic: normalize → reduce → toAnthropic replays what Anthropic sent", () => {
  for (const s of recordedStreams("anthropic")) {
    it(s.name, () => {
      const { request, report } = toAnthropic(reduced("anthropic", s.chunks), { onInvalid: "repair" });
      // The only repairs are the client results a recording never holds.
      expect(report.filter((e) => e.action === "repaired" && e.reason !== "unanswered-call")).toEqual([]);
      const native = anthropicNativeBlocks(s.chunks)
        .filter((b) => !(b.type === "text" && b.text === ""))
        .map(knownCitations)
        .map(canon);
      const ours = request.messages
        .filter((m) => m.role === "assistant")
        .flatMap((m) => m.content)
        .map(canon);
      expect(ours).toEqual(native);
    });
  }
});

/** The fields of a Responses item that must survive: ids and blobs byte-identical, text and arguments equal. */
function projectItem(item: Json): Json {
  const parsed = (x: unknown): unknown => (typeof x === "string" ? JSON.parse(x) : x);
  switch (item.type) {
    case "message":
      return {
        type: item.type,
        id: item.id,
        phase: item.phase ?? null,
        content: (item.content as Json[]).map((c) => ({ type: c.type, text: c.text ?? c.refusal })),
      };
    case "reasoning": {
      // Open Responses streams raw reasoning_text content; AgJSON holds one text and sends it as the summary.
      const text = (parts: unknown): string => (Array.isArray(parts) ? parts.map((x: Json) => String(x.text)).join("") : "");
      return {
        type: item.type,
        id: item.id,
        encrypted_content: item.encrypted_content ?? null,
        text: text(item.summary) || text(item.content),
      };
    }
    case "function_call":
      return {
        type: item.type,
        id: item.id,
        call_id: item.call_id,
        name: item.name,
        arguments: parsed(item.arguments),
        caller: item.caller ?? null,
      };
    case "custom_tool_call":
      return { type: item.type, id: item.id, call_id: item.call_id, name: item.name, input: item.input };
    case "local_shell_call":
      return { type: item.type, id: item.id, call_id: item.call_id, action: item.action };
    case "apply_patch_call":
      return { type: item.type, id: item.id, call_id: item.call_id, operation: item.operation };
    case "web_search_call":
      return { type: item.type, id: item.id, action: item.action };
    case "file_search_call":
      return { type: item.type, id: item.id, queries: item.queries };
    case "code_interpreter_call":
      return { type: item.type, id: item.id, code: item.code, container_id: item.container_id, outputs: item.outputs };
    case "image_generation_call":
      return { type: item.type, id: item.id, result: item.result };
    case "mcp_call":
      return {
        type: item.type,
        id: item.id,
        name: item.name,
        server_label: item.server_label,
        arguments: parsed(item.arguments),
        output: item.output ?? null,
      };
    case "compaction":
      return { type: item.type, encrypted_content: item.encrypted_content };
    case "tool_search_call":
      return { type: item.type, id: item.id, call_id: item.call_id ?? null, execution: item.execution, arguments: item.arguments };
    case "tool_search_output":
      return { type: item.type, id: item.id, call_id: item.call_id ?? null, execution: item.execution, tools: item.tools };
    case "shell_call":
      return { type: item.type, id: item.id, call_id: item.call_id, action: item.action, environment: item.environment ?? null };
    case "shell_call_output":
      return { type: item.type, id: item.id, call_id: item.call_id, output: item.output };
    case "program":
      return { type: item.type, id: item.id, call_id: item.call_id, code: item.code, fingerprint: item.fingerprint };
    case "program_output":
      return { type: item.type, id: item.id, call_id: item.call_id, result: item.result };
    default:
      return canon(item) as Json;
  }
}

/** Native item kinds re-input does not replay (reported as dropped): an approval request is answered, not echoed. */
const NOT_REPLAYED = new Set(["mcp_approval_request"]);
/** Outputs a client sends for its own calls; the provider's own outputs carry an item id (local_shell_call_output's `id` is its call's). */
const CLIENT_OUTPUTS = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "apply_patch_call_output",
  "tool_search_output",
  "shell_call_output",
]);
const clientOutput = (i: { type: string }): boolean => i.type === "local_shell_call_output" || (CLIENT_OUTPUTS.has(i.type) && !("id" in i));

function replayed(item: Json): boolean {
  return !NOT_REPLAYED.has(String(item.type));
}

describe("openai-responses: normalize → reduce → toOpenAIResponses replays the output items", () => {
  for (const s of recordedStreams("openai-responses")) {
    // Item ids rotating between output_item.added and .done (GitHub Copilot) and a tool search's
    // call_id changing by .done replay under the final ids (docs/spec-decisions.md D11).
    it(s.name, () => {
      const { request, report } = toOpenAIResponses(reduced("openai-responses", s.chunks), { onInvalid: "repair" });
      expect(report.filter((e) => e.action === "repaired" && e.reason !== "unanswered-call")).toEqual([]);
      const native = responsesNativeItems(s.chunks).filter(replayed).map(projectItem);
      const ours = request.input
        .filter((i) => !clientOutput(i) && !("role" in i && i.role !== "assistant") && !("role" in i && !("id" in i)))
        .map((i) => projectItem({ ...i }));
      // A truncated stream's unfinished item is kept by INV-FLUSH and replayed after the finished ones.
      expect(truncated(s.chunks) ? ours.slice(0, native.length) : ours).toEqual(native);
    });
  }
});

describe("gemini: normalize → reduce → toGemini puts every thoughtSignature back (§8 items 2, 7, 8; §10 items 4, 15)", () => {
  for (const s of recordedStreams("gemini")) {
    it(s.name, () => {
      const { request } = toGemini(reduced("gemini", s.chunks), { onInvalid: "repair" });
      const native = geminiNativeParts(s.chunks);
      const model = request.contents.filter((c) => c.role === "model").flatMap((c) => c.parts);
      const signatures = (parts: Json[]): unknown[] =>
        parts.flatMap((p) => (typeof p.thoughtSignature === "string" ? [p.thoughtSignature] : []));
      // Every signature, byte-identical and in order; a call's signature on that very call.
      expect(signatures(model.map((p) => ({ ...p })))).toEqual(signatures(native));
      // D18: each signature goes back on the kind of part it came on; one on an empty answer part
      // of its own, on such a part (not the answer text, not a thought).
      const signedKinds = (parts: Json[]): string[] =>
        parts.flatMap((p) =>
          typeof p.thoughtSignature !== "string"
            ? []
            : [
                p.functionCall
                  ? "call"
                  : p.thought === true
                    ? "thought"
                    : p.text === ""
                      ? "empty-text"
                      : typeof p.text === "string"
                        ? "text"
                        : "other",
              ],
        );
      expect(signedKinds(model.map((p) => ({ ...p })))).toEqual(signedKinds(native));
      // A call cut off mid-arguments is kept unassembled (INV-FLUSH): only its name is compared.
      const cut = truncated(s.chunks);
      const calls = (parts: Json[]): unknown[] =>
        parts.flatMap((p) => {
          const fc = p.functionCall as Json | undefined;
          return fc ? [{ name: fc.name, args: cut ? null : fc.args, signature: p.thoughtSignature ?? null }] : [];
        });
      expect(calls(model.map((p) => ({ ...p })))).toEqual(calls(native));
      const text = (parts: Json[], thought: boolean): string =>
        parts
          .filter((p) => typeof p.text === "string" && (p.thought === true) === thought)
          .map((p) => p.text)
          .join("");
      expect(
        text(
          model.map((p) => ({ ...p })),
          false,
        ),
      ).toBe(text(native, false));
      expect(
        text(
          model.map((p) => ({ ...p })),
          true,
        ),
      ).toBe(text(native, true));
      // Parallel calls of one turn are answered in one user turn, in call order (FC1, FC2, FR1, FR2).
      request.contents.forEach((c, i) => {
        const fcs = c.parts.flatMap((p) => (p.functionCall ? [p.functionCall.name] : []));
        if (c.role !== "model" || fcs.length === 0) return;
        const next = request.contents[i + 1];
        expect(next?.role).toBe("user");
        expect(next?.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.name] : []))).toEqual(fcs);
      });
    });
  }
});

describe("openai-chat: normalize → reduce → toOpenAIChat replays content and tool calls", () => {
  for (const s of recordedStreams("openai-chat")) {
    it(s.name, () => {
      const { request } = toOpenAIChat(reduced("openai-chat", s.chunks), { onInvalid: "repair" });
      // A call cut off mid-arguments is kept unassembled (INV-FLUSH): only its id and name are compared.
      const cut = truncated(s.chunks);
      const args = (text: unknown): unknown => (cut ? null : text === "" ? {} : JSON.parse(String(text)));
      const native = chatNativeMessages(s.chunks)
        .map((m) => ({
          content: m.content,
          tool_calls: (m.tool_calls as Json[]).map((c) => ({ id: c.id, name: c.name, arguments: args(c.arguments) })),
        }))
        .filter((m) => m.content !== "" || m.tool_calls.length > 0);
      const ours = request.messages.flatMap((m) =>
        m.role === "assistant"
          ? [
              {
                content: m.content ?? "",
                tool_calls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: args(c.function.arguments) })),
              },
            ]
          : [],
      );
      expect(truncated(s.chunks) ? ours.slice(0, native.length) : ours).toEqual(native);
    });
  }
});

describe("§10 item 5: an Anthropic url / file source and a base64 one survive normalize → reduce → toAnthropic", () => {
  it("claude-agent-sdk tool_result images and documents keep their source (no silent url/file drop, §2 AgSource)", () => {
    const sdk = (type: string, message: Json, extra: Json = {}): Json => ({
      type,
      message,
      parent_tool_use_id: null,
      session_id: "s",
      uuid: `u-${type}-${JSON.stringify(message).length}`,
      ...extra,
    });
    const resultContent = [
      { type: "image", source: { type: "file", file_id: "file_IMG" } },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "document", source: { type: "file", file_id: "file_DOC" } },
      { type: "document", source: { type: "url", url: "https://example.com/a.pdf" } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBERi0x" } },
    ];
    const chunks = [
      sdk("assistant", {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "tool_use", id: "toolu_1", name: "fetch", input: {} }],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
      sdk("user", { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: resultContent }] }),
      sdk("assistant", {
        id: "msg_2",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5",
        content: [{ type: "text", text: "Done." }],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
      {
        type: "result",
        subtype: "success",
        is_error: false,
        num_turns: 1,
        stop_reason: "end_turn",
        session_id: "s",
        usage: { input_tokens: 2, output_tokens: 2 },
        modelUsage: {},
        permission_denials: [],
        uuid: "u-result",
        result: "ok",
      },
    ];
    const { request, report } = toAnthropic(reduced("claude-agent-sdk", chunks));
    const results = request.messages.flatMap((m) => m.content).flatMap((b) => (b.type === "tool_result" ? [b] : []));
    expect(results.map((r) => r.content)).toEqual([resultContent]);
    expect(report.filter((e) => e.reason === "converted-block" || e.reason === "unsupported-block")).toEqual([]);
  });
});

/** A Gemini streamGenerateContent chunk of one candidate. */
const geminiChunk = (parts: Json[], extra: Json = {}): Json => ({
  candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
  responseId: "resp_1",
  modelVersion: "gemini-3-pro-preview",
});

describe("§10 item 4c: a Google-Search-grounded Gemini turn keeps its thoughtSignature through normalize → reduce → toGemini", () => {
  it("the signature rides a reasoning block's opaque (not a call) and goes back byte-identical on an empty part of its own, after the answer, where it came (D18)", () => {
    const sig = "CmIBjz1rX0+/grounded==";
    const grounding = {
      webSearchQueries: ["capital of france"],
      groundingChunks: [{ web: { uri: "https://example.com/paris", title: "example.com" } }],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: 24, text: "Paris is the capital." }, groundingChunkIndices: [0] }],
      searchEntryPoint: { renderedContent: "<div>chip</div>" },
    };
    const chunks = [
      geminiChunk([{ text: "Paris is the capital." }]),
      geminiChunk([{ text: "", thoughtSignature: sig }], { finishReason: "STOP", groundingMetadata: grounding }),
    ];
    const result = reduced("gemini", chunks);
    const blocks = result.messages.flatMap((m) => m.content);
    expect(blocks.filter((b) => b.type === "tool-call")).toEqual([]);
    expect(blocks.flatMap((b) => (b.type === "reasoning" ? [b.opaque] : []))).toEqual([
      { kind: "signature", value: sig, provider: "google" },
    ]);
    expect(result.turns[0]?.displayRequired).toEqual([{ provider: "google", html: "<div>chip</div>" }]);
    const { request } = toGemini(result);
    expect(request.contents.filter((c) => c.role === "model").flatMap((c) => c.parts)).toEqual([
      { text: "Paris is the capital." },
      { text: "", thoughtSignature: sig },
    ]);
  });
});

describe("D18: a Gemini signature on an empty part of its own goes back on such a part, where it came", () => {
  it("after a thought part: not moved onto the thought", () => {
    const sig = "EqMBCqABthought-then-empty==";
    const chunks = [
      geminiChunk([{ text: "Counting letters.", thought: true }]),
      geminiChunk([{ text: "", thoughtSignature: sig }], { finishReason: "STOP" }),
    ];
    const { request } = toGemini(reduced("gemini", chunks));
    expect(request.contents.filter((c) => c.role === "model").flatMap((c) => c.parts)).toEqual([
      { text: "Counting letters.", thought: true },
      { text: "", thoughtSignature: sig },
    ]);
  });

  it("a signature on a non-empty answer part stays on the answer text", () => {
    const sig = "EqMBCqABsigned-text==";
    const chunks = [geminiChunk([{ text: "Three." }]), geminiChunk([{ text: " Done.", thoughtSignature: sig }], { finishReason: "STOP" })];
    const { request } = toGemini(reduced("gemini", chunks));
    expect(request.contents.filter((c) => c.role === "model").flatMap((c) => c.parts)).toEqual([
      { text: "Three. Done.", thoughtSignature: sig },
    ]);
  });
});

describe("§10 item 15: a 2-call parallel Gemini turn goes back FC1+sig, FC2, FR1, FR2 after normalize → reduce", () => {
  it("results recorded in the other order are answered in call order, in one user content, the signature on the first call only", () => {
    const sig = "EqUCCqICAb4+9vsh/parallel==";
    const chunks = [
      geminiChunk(
        [
          { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: sig },
          { functionCall: { name: "time", args: { city: "Paris" } } },
        ],
        { finishReason: "STOP" },
      ),
    ];
    const result = reduced("gemini", chunks);
    const calls = result.messages.flatMap((m) => m.content).flatMap((b) => (b.type === "tool-call" ? [b] : []));
    expect(calls.map((c) => [c.name, c.signature ?? null, c.providerCallIndex])).toEqual([
      ["weather", sig, 0],
      ["time", null, 1],
    ]);
    const answer = (i: number, text: string) => ({
      type: "tool-result" as const,
      toolCallId: calls[i]!.toolCallId,
      content: [{ type: "text" as const, text }],
    });
    const messages = [...result.messages, { id: "results", role: "tool" as const, content: [answer(1, "12:00"), answer(0, "sunny")] }];
    const { request } = toGemini(messages);
    expect(request.contents).toEqual([
      {
        role: "model",
        parts: [
          { functionCall: { name: "weather", args: { city: "Paris" } }, thoughtSignature: sig },
          { functionCall: { name: "time", args: { city: "Paris" } } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "weather", response: { output: "sunny" } } },
          { functionResponse: { name: "time", response: { output: "12:00" } } },
        ],
      },
    ]);
  });
});

describe("§10 items 13 and 17: Anthropic signature fragments and redacted thinking survive normalize → reduce → toAnthropic", () => {
  it("a 2-fragment signature is reassembled byte-identical, redacted data is kept, each on its reasoning block", () => {
    const chunks = [
      {
        type: "message_start",
        message: { id: "msg_1", model: "claude-sonnet-4-5", role: "assistant", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
      },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Let me think." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "ErUBCkYIBRgCIkD/+part1" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "part2+/==" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "redacted_thinking", data: "EmwKAhgBEgy3va3p/redacted==" } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "Answer." } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ];
    const result = reduced("anthropic", chunks);
    expect(result.messages.flatMap((m) => m.content).flatMap((b) => (b.type === "reasoning" ? [b.opaque] : []))).toEqual([
      { kind: "signature", value: "ErUBCkYIBRgCIkD/+part1part2+/==", provider: "anthropic" },
      { kind: "redacted", value: "EmwKAhgBEgy3va3p/redacted==", provider: "anthropic" },
    ]);
    const { request } = toAnthropic(result);
    expect(request.messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "Let me think.", signature: "ErUBCkYIBRgCIkD/+part1part2+/==" },
          { type: "redacted_thinking", data: "EmwKAhgBEgy3va3p/redacted==" },
          { type: "text", text: "Answer." },
        ],
      },
    ]);
  });
});

describe("§10 item 18: an MCP MRTR requestState survives emit → reduce → re-input byte-identical", () => {
  it("kept on the folded result, never sent to any model, echoed in a fresh AgInput that validates", () => {
    const requestState = "eyJzdGVwIjoyfQ==.c2lnbmVk/+÷";
    const events: AgEvent[] = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
      { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
      { type: "tool.start", seq: 2, toolCallId: "call_1", name: "book" },
      { type: "tool.args.assembled", seq: 3, toolCallId: "call_1", input: { what: "flight" } },
      { type: "message.end", seq: 4, id: "m1" },
      {
        type: "tool.done",
        seq: 5,
        toolCallId: "call_1",
        messageId: "call_1:result",
        outcome: "input_required",
        content: [{ type: "text", text: "Which date?" }],
        pendingInput: { requestState, inputKeys: ["date"] },
      },
      { type: "turn.done", seq: 6, turnId: "t1", outcome: { type: "success" }, finishReason: "tool_call" },
    ];
    const { result, needsResync, errors } = reduce(events);
    expect(needsResync, JSON.stringify(errors)).toBe(false);
    const folded = result.messages.flatMap((m) => m.content).find((b) => b.type === "tool-result");
    expect(folded?.type === "tool-result" && folded.pendingInput).toEqual({ requestState, inputKeys: ["date"] });
    for (const convert of [toAnthropic, toOpenAIResponses, toOpenAIChat, toGemini]) {
      const { request, report } = convert(result);
      expect(JSON.stringify(request)).not.toContain(JSON.stringify(requestState).slice(1, -1));
      expect(report.some((e) => e.reason === "server-continuation")).toBe(true);
    }
    // Resume is a fresh AgInput echoing the folded requestState (§3.1).
    const pendingInput = folded?.type === "tool-result" ? folded.pendingInput : undefined;
    const resume = {
      protocol: "agjson",
      version: "1.0.0-draft.1",
      threadId: "th",
      turnId: "t2",
      kind: "tool-result",
      results: [{ toolCallId: "call_1", outcome: "input_required", content: [{ type: "text", text: "2026-05-01" }], pendingInput }],
    };
    const checked = validateInput(resume, { posture: "strict" });
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    expect(JSON.parse(JSON.stringify(resume)).results[0].pendingInput.requestState).toBe(requestState);
  });
});
