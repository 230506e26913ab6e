/**
 * End to end on loopback (issue 18): each official SDK client sends agjson's re-input request to
 * a 127.0.0.1 server that checks the body and answers with a recorded stream; the answer is
 * normalized and the two-turn conversation reduces cleanly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI, type Content } from "@google/genai";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import type { AgMessage } from "../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { normalizeAll, readNativeChunks, type FacetName } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "./index.js";
import { startProviderLoopback, type ProviderLoopback } from "./loopback.test-support.js";

const ROOT = join(import.meta.dirname, "../..");
const chunks = (file: string): unknown[] => readNativeChunks(readFileSync(join(ROOT, "fixtures/providers", file), "utf8"));

/** Turn 1 from a recording, then the client's answer to every call it made, then a new question. */
function firstTurn(facet: FacetName, file: string): { events: AgLenientEvent[]; messages: AgMessage[] } {
  const events = normalizeAll(facet, chunks(file));
  const messages = [...reduce(events).result.messages];
  const last = messages[messages.length - 1];
  const calls = (last?.content ?? []).flatMap((b) => (b.type === "tool-call" && b.providerExecuted !== true ? [b] : []));
  if (calls.length > 0) {
    messages.push({
      id: "tool-results",
      role: "tool",
      content: calls.map((c) => ({ type: "tool-result", toolCallId: c.toolCallId, content: [{ type: "text", text: "22°C, sunny" }] })),
    });
  }
  messages.push({ id: "next", role: "user", content: [{ type: "text", text: "Thanks. And tomorrow?" }] });
  return { events, messages };
}

/** The second turn's native chunks as the SDK yielded them, normalized and folded after the first. */
function reducesCleanly(facet: FacetName, first: AgLenientEvent[], answer: unknown[]): void {
  const second = normalizeAll(facet, answer);
  const { result, needsResync, errors } = reduce([...first, ...second]);
  expect(errors).toEqual([]);
  expect(needsResync).toBe(false);
  expect(result.turns.length).toBe(2);
  expect(result.messages.length).toBeGreaterThanOrEqual(2);
}

let server: ProviderLoopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("official SDK clients send the re-input request over loopback", () => {
  it("@anthropic-ai/sdk messages.create(stream) ← toAnthropic", async () => {
    const { events, messages } = firstTurn("anthropic", "anthropic/anthropic-combined-context-editing.1.chunks.txt");
    const { request } = toAnthropic(messages);
    // The body goes as JSON, as on the wire (verbatim server-tool blocks are typed by `type` only).
    const body: Anthropic.MessageCreateParamsStreaming = {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      stream: true,
      ...JSON.parse(JSON.stringify(request)),
    };
    server = await startProviderLoopback([{ chunks: chunks("anthropic/anthropic-text.chunks.txt"), named: true }]);
    const client = new Anthropic({ apiKey: "loopback", baseURL: server.url, maxRetries: 0 });
    const stream = await client.messages.create(body);
    const answer: unknown[] = [];
    for await (const ev of stream) answer.push(JSON.parse(JSON.stringify(ev)));
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.body).toMatchObject({ messages: JSON.parse(JSON.stringify(request.messages)) });
    reducesCleanly("anthropic", events, answer);
  });

  it("openai responses.create(stream) ← toOpenAIResponses", async () => {
    const { events, messages } = firstTurn("openai-responses", "openai-responses/azure-reasoning-encrypted-content.1.chunks.txt");
    // The recording holds two responses without the client's results between: repaired and reported.
    const { request, report } = toOpenAIResponses(messages, { onInvalid: "repair" });
    expect(new Set(report.filter((e) => e.action === "repaired").map((e) => e.reason))).toEqual(new Set(["unanswered-call"]));
    server = await startProviderLoopback([{ chunks: chunks("openai-responses/azure-text.1.chunks.txt"), named: true }]);
    const client = new OpenAI({ apiKey: "loopback", baseURL: `${server.url}/v1`, maxRetries: 0 });
    // The body goes as JSON, as on the wire (hosted items and tool listings are typed by `type` only).
    const body: OpenAI.Responses.ResponseCreateParamsStreaming = {
      model: "gpt-5",
      store: false,
      include: ["reasoning.encrypted_content"],
      stream: true,
      ...JSON.parse(JSON.stringify(request)),
    };
    const stream = await client.responses.create(body);
    const answer: unknown[] = [];
    for await (const ev of stream) answer.push(JSON.parse(JSON.stringify(ev)));
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/responses");
    expect(sent.body).toMatchObject({ input: JSON.parse(JSON.stringify(request.input)), store: false });
    expect(sent.body).not.toHaveProperty("previous_response_id");
    reducesCleanly("openai-responses", events, answer);
  });

  it("openai chat.completions.create(stream) ← toOpenAIChat", async () => {
    const { events, messages } = firstTurn("openai-chat", "openai-chat/openai-text.chunks.txt");
    const { request } = toOpenAIChat(messages);
    server = await startProviderLoopback([{ chunks: chunks("openai-chat/azure-model-router.1.chunks.txt"), done: true }]);
    const client = new OpenAI({ apiKey: "loopback", baseURL: `${server.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: "gpt-4o", stream: true, ...request });
    const answer: unknown[] = [];
    for await (const ev of stream) answer.push(JSON.parse(JSON.stringify(ev)));
    const sent = server.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({ messages: JSON.parse(JSON.stringify(request.messages)) });
    reducesCleanly("openai-chat", events, answer);
  });

  it("@google/genai models.generateContentStream ← toGemini", async () => {
    const { events, messages } = firstTurn("gemini", "google/google-tool-call.chunks.txt");
    const { request } = toGemini([{ id: "sys", role: "system", content: [{ type: "text", text: "Be brief." }] }, ...messages]);
    server = await startProviderLoopback([{ chunks: chunks("google/google-text.chunks.txt") }]);
    const client = new GoogleGenAI({ apiKey: "loopback", httpOptions: { baseUrl: server.url } });
    // The SDK types code outcome/language as TS enums: the contents go as JSON, as on the wire.
    const contents: Content[] = JSON.parse(JSON.stringify(request.contents));
    const stream = await client.models.generateContentStream({
      model: "gemini-2.5-flash",
      contents,
      config: { ...(request.systemInstruction ? { systemInstruction: request.systemInstruction } : {}) },
    });
    const answer: unknown[] = [];
    for await (const ev of stream) answer.push(JSON.parse(JSON.stringify(ev)));
    const sent = server.requests[0]!;
    expect(sent.path).toMatch(/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse/);
    // Every part, thoughtSignature included, reaches the wire as re-input built it.
    expect(sent.body).toMatchObject({
      contents: JSON.parse(JSON.stringify(request.contents)),
      systemInstruction: { parts: [{ text: "Be brief." }] },
    });
    reducesCleanly("gemini", events, answer);
  });
});
