/**
 * A raw provider API as the event source (issue 19: "a normalizer over an upstream"): a loopback
 * provider answers with recorded provider streams (fixtures/providers). Pinned here: the body the
 * provider receives is re-input's request for the thread's conversation — the previous turn's
 * assistant message included, replay blobs intact (§13.2) — the events are the facet's
 * normalization of the recording (§8.0), what the AG-UI `HttpAgent` receives through the AG-UI
 * endpoint is `toAgUi` of them, a provider HTTP error is a typed error (502 problem before the first
 * event), and an input the provider cannot take is refused by name.
 */
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import { afterEach, describe, expect, it } from "vitest";
import type { AgInput, AgLenientEvent, AgMessage as StrictMessage } from "../../../generated/types.js";
import { isKnownBlock, isKnownEvent } from "../../../generated/schema-facts.js";
import type { AgMessage } from "../../../generated/lenient-types.js";
import { normalizeAll, type FacetName } from "../../normalize/index.js";
import { reduce } from "../../reduce/index.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "../../reinput/index.js";
import { anthropicNativeBlocks, responsesNativeItems } from "../../reinput/native-replay.test-support.js";
import { SPEC_VERSION, validateMessage } from "../../validate/index.js";
import { schemaFailures, verifyFailure } from "../ag-ui/ag-ui.test-support.js";
import { createAgUiHandler } from "../ag-ui/handler.js";
import { startAgUiServer } from "../ag-ui/node.js";
import { sseData } from "../ag-ui/serve.test-support.js";
import { toAgUi } from "../ag-ui/to-ag-ui.js";
import type { AgUiEvent } from "../ag-ui/vocabulary.js";
import { createProviderSource, ProviderSourceError, type ProviderSourceIssue } from "./provider-source.js";
import { providerRecording, startProviderLoopback, type ProviderLoopback } from "./provider.test-support.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function provider(...answers: Parameters<typeof startProviderLoopback>[0]): Promise<ProviderLoopback> {
  const p = await startProviderLoopback(answers);
  closers.push(() => p.close());
  return p;
}

const user = (id: string, text: string): StrictMessage => ({ id, role: "user", content: [{ type: "text", text }] });
const start = (threadId: string, turnId: string, messages: StrictMessage[], run?: Extract<AgInput, { kind: "start" }>["run"]): AgInput => ({
  protocol: "agjson",
  version: SPEC_VERSION,
  kind: "start",
  threadId,
  turnId,
  messages,
  ...(run !== undefined ? { run } : {}),
});

/** A source's events; a provider's normalizer emits no type unknown to this version, so each is known or ext. */
async function collect(events: AsyncIterable<AgLenientEvent>): Promise<AgLenientEvent[]> {
  const out: AgLenientEvent[] = [];
  for await (const e of events) out.push(known(e));
  return out;
}

function known(e: AgLenientEvent): AgLenientEvent {
  if (!isKnownEvent(e)) throw new Error(`a provider source yielded the unknown type ${e.type}`);
  return e;
}

/** The assistant messages a recording folds to, as the thread keeps them (§5). */
const folded = (facet: FacetName, chunks: unknown[], threadId: string, turnId: string): AgMessage[] =>
  reduce(normalizeAll(facet, chunks, { threadId, turnId })).result.messages;

/**
 * An Anthropic provider source whose first turn (t1) ends in the recording's tool call; the second
 * request gets a plain text answer. Returns the call the provider made, for a tool-result input.
 */
async function anthropicCallMade() {
  const call = providerRecording("anthropic/anthropic-tool-no-args.chunks.txt");
  const p = await provider(
    { chunks: call, named: true },
    { chunks: providerRecording("anthropic/anthropic-text.chunks.txt"), named: true },
  );
  const source = createProviderSource({ from: "anthropic", url: p.url, model: "claude-sonnet-4-5", onInvalid: "error" });
  const signal = new AbortController().signal;
  await collect(source.run(start("th", "t1", [user("u1", "What time is it?")]), signal));
  const made = folded("anthropic", call, "th", "t1")
    .flatMap((m) => m.content)
    .find((b) => b.type === "tool-call");
  if (made === undefined || !isKnownBlock(made) || made.type !== "tool-call") throw new Error("the recording makes no tool call");
  return { p, source, signal, made };
}

describe("createProviderSource over a loopback provider", () => {
  it("anthropic: two turns — each request is toAnthropic of the conversation, the second carrying the first answer's thinking signature", async () => {
    const turn1 = providerRecording("anthropic/anthropic-combined-context-editing.1.chunks.txt");
    const turn2 = providerRecording("anthropic/anthropic-text.chunks.txt");
    const p = await provider({ chunks: turn1, named: true }, { chunks: turn2, named: true });
    const issues: ProviderSourceIssue[] = [];
    const source = createProviderSource({
      from: "anthropic",
      url: `${p.url}/v1/messages`,
      model: "claude-sonnet-4-5",
      headers: { "x-api-key": "loopback-key", "Anthropic-Version": "2023-06-01" },
      onIssue: (i) => issues.push(i),
    });
    const signal = new AbortController().signal;

    const run = {
      system: "Be brief.",
      maxTokens: 512,
      temperature: 0.2,
      stopSequences: ["END"],
      tools: [
        { name: "get_weather", description: "Weather now", inputSchema: { type: "object", properties: { city: { type: "string" } } } },
      ],
      toolChoice: "auto" as const,
    };
    const events1 = await collect(source.run(start("th", "t1", [user("u1", "Hello")], run), signal));
    expect(events1).toEqual(normalizeAll("anthropic", turn1, { threadId: "th", turnId: "t1" }));
    const events2 = await collect(source.run(start("th", "t2", [user("u2", "And now?")]), signal));
    expect(events2).toEqual(normalizeAll("anthropic", turn2, { threadId: "th", turnId: "t2" }));

    expect(p.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages"]);
    expect(p.requests[0]!.headers).toMatchObject({
      "x-api-key": "loopback-key",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    });
    // Turn 1: the run's system prompt goes to `system`, its knobs to their Anthropic fields.
    const first = toAnthropic([
      { id: "agjson:run-system", role: "system", content: [{ type: "text", text: "Be brief." }] },
      user("u1", "Hello"),
    ]).request;
    expect(p.requests[0]!.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 512,
      stream: true,
      temperature: 0.2,
      stop_sequences: ["END"],
      tool_choice: { type: "auto" },
      tools: [
        { name: "get_weather", description: "Weather now", input_schema: { type: "object", properties: { city: { type: "string" } } } },
      ],
      ...JSON.parse(JSON.stringify(first)),
    });
    // Turn 2: the thread's conversation — the first user message, the folded answer, the new message.
    const conversation = [user("u1", "Hello"), ...folded("anthropic", turn1, "th", "t1"), user("u2", "And now?")];
    expect(p.requests[1]!.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 4096,
      stream: true,
      ...JSON.parse(JSON.stringify(toAnthropic(conversation).request)),
    });
    // …which is the answer as the provider itself sent it: thinking and its signature byte-identical (§13.2).
    const sent = (p.requests[1]!.body as { messages: { role: string; content: { type: string }[] }[] }).messages;
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const native = anthropicNativeBlocks(turn1);
    expect(native.some((b) => b.type === "thinking" && typeof b.signature === "string")).toBe(true);
    expect(sent[1]!.content).toEqual(
      native.map((b) =>
        expect.objectContaining({
          type: b.type,
          ...(b.type === "thinking" ? { thinking: b.thinking, signature: b.signature } : { text: b.text }),
        }),
      ),
    );
    expect(source.conversation("th").map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(issues).toEqual([]);
  });

  it("openai-responses: the second request holds the first answer's output message; run knobs land in Responses fields", async () => {
    const turn1 = providerRecording("openai-responses/openai-phase.1.chunks.txt");
    const turn2 = providerRecording("openai-responses/azure-text.1.chunks.txt");
    const p = await provider({ chunks: turn1, named: true }, { chunks: turn2, named: true });
    const issues: ProviderSourceIssue[] = [];
    const source = createProviderSource({
      from: "openai-responses",
      url: `${p.url}/v1/responses`,
      model: "gpt-5",
      headers: { authorization: "Bearer loopback" },
      onIssue: (i) => issues.push(i),
    });
    const signal = new AbortController().signal;
    const run = {
      model: "gpt-4o",
      maxTokens: 256,
      stopSequences: ["END"],
      reasoning: { mode: "enabled" as const, effort: "low" as const },
      responseFormat: { type: "json_schema" as const, name: "answer", schema: { type: "object" } },
      tools: [{ name: "open_panel", inputSchema: { type: "object" }, uiVisibility: ["app" as const] }],
    };
    expect(await collect(source.run(start("th", "r1", [user("u1", "Hi")], run), signal))).toEqual(
      normalizeAll("openai-responses", turn1, { threadId: "th", turnId: "r1" }),
    );
    expect(await collect(source.run(start("th", "r2", [user("u2", "More")]), signal))).toEqual(
      normalizeAll("openai-responses", turn2, { threadId: "th", turnId: "r2" }),
    );

    // What the run asks that the Responses API has no place for, or this source does not send, is named (§3 AgRunConfig).
    expect(issues.map((i) => (i.kind === "run-config" ? i.message : i.kind))).toEqual([
      'run.model "gpt-4o": this source sends model "gpt-5"',
      "run.tools[0] (open_panel): app-only (uiVisibility), not offered to the model",
      "run.stopSequences: the Responses API has no stop sequences",
    ]);
    expect(p.requests[0]!.body).toEqual({
      model: "gpt-5",
      stream: true,
      max_output_tokens: 256,
      reasoning: { effort: "low" },
      text: { format: { type: "json_schema", name: "answer", schema: { type: "object" } } },
      ...JSON.parse(JSON.stringify(toOpenAIResponses([user("u1", "Hi")]).request)),
    });
    const conversation = [user("u1", "Hi"), ...folded("openai-responses", turn1, "th", "r1"), user("u2", "More")];
    expect(p.requests[1]!.body).toEqual({
      model: "gpt-5",
      stream: true,
      ...JSON.parse(JSON.stringify(toOpenAIResponses(conversation).request)),
    });
    // The output messages the provider sent come back as assistant items with their ids and text.
    const input = (p.requests[1]!.body as { input: { type?: string; role?: string; id?: string; content?: unknown }[] }).input;
    const native = responsesNativeItems(turn1).filter((i) => i.type === "message");
    expect(native.length).toBe(2);
    const replayed = input.filter((i) => i.role === "assistant");
    expect(replayed.map((i) => JSON.stringify(i.content))).toEqual(
      native.map((n) => expect.stringContaining(String((n.content as { text: string }[])[0]!.text).slice(0, 40))),
    );
  });

  it("openai-chat: a tool-result input answering no call is refused with onInvalid error, dropped and reported by default", async () => {
    const chunks = providerRecording("openai-chat/azure-model-router.1.chunks.txt");
    const p = await provider({ chunks }, { chunks });
    const signal = new AbortController().signal;
    // The answer is text only; a tool-result input for a call it never made is a stray result,
    // which re-input refuses, or with the default repair drops and reports (§8 item 7).
    const issues: ProviderSourceIssue[] = [];
    const strict = createProviderSource({ from: "openai-chat", url: `${p.url}/v1/chat/completions`, model: "gpt-4.1", onInvalid: "error" });
    await collect(strict.run(start("th", "c1", [user("u1", "Hi")]), signal));
    const stray: AgInput = {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "tool-result",
      threadId: "th",
      turnId: "c2",
      results: [{ toolCallId: "call_none", content: [{ type: "text", text: "22C" }] }],
    };
    await expect(collect(strict.run(stray, signal))).rejects.toMatchObject({
      name: "ProviderSourceError",
      code: "invalid-conversation",
      message: expect.stringContaining("call_none"),
    });
    const lenient = createProviderSource({
      from: "openai-chat",
      url: `${p.url}/v1/chat/completions`,
      model: "gpt-4.1",
      onIssue: (i) => issues.push(i),
    });
    await collect(lenient.run(start("th", "c1", [user("u1", "Hi")]), signal));
    await collect(lenient.run(stray, signal));
    expect(issues).toEqual([
      expect.objectContaining({
        kind: "reinput",
        turnId: "c2",
        entry: expect.objectContaining({ action: "repaired", reason: "orphan-result" }),
      }),
    ]);
    const conversation = [user("u1", "Hi"), ...folded("openai-chat", chunks, "th", "c1")];
    expect(p.requests.at(-1)!.body).toEqual({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      ...toOpenAIChat(conversation).request,
    });
  });

  it("anthropic: a tool-result input answers the call the provider made, as Anthropic's tool_result", async () => {
    const { p, source, signal, made } = await anthropicCallMade();
    const answer: AgInput = {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "tool-result",
      threadId: "th",
      turnId: "t2",
      results: [{ toolCallId: made.toolCallId, name: made.name, content: [{ type: "text", text: "12:00" }] }],
    };
    await collect(source.run(answer, signal));
    const messages = (p.requests[1]!.body as { messages: { role: string; content: Record<string, unknown>[] }[] }).messages;
    expect(messages.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: made.toolCallId, content: [{ type: "text", text: "12:00" }] }],
    });
    expect(messages[1]!.content).toContainEqual(expect.objectContaining({ type: "tool_use", id: made.toolCallId, name: made.name }));
  });

  it("a tool-result input lands as tool-result blocks carrying the §2.2 shared core verbatim, without the input-only willContinue / scheduling", async () => {
    const { source, signal, made } = await anthropicCallMade();
    const core = {
      toolCallId: made.toolCallId,
      content: [{ type: "text" as const, text: "12:00" }],
      outcome: "ok" as const,
      structuredContent: { t: "12:00" },
      uiData: { clock: true },
      sideData: { raw: 1 },
      _meta: { "acme.dev/trace": "x" },
    };
    const answer: AgInput = {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "tool-result",
      threadId: "th",
      turnId: "t2",
      results: [{ ...core, name: made.name, willContinue: true, scheduling: "when_idle" }],
    };
    await collect(source.run(answer, signal));
    const landed = source.conversation("th").find((m) => m.id === "t2:tool-results");
    expect(landed?.content).toEqual([{ type: "tool-result", ...core }]);
    expect(validateMessage(landed, { posture: "strict" }).ok).toBe(true);
  });

  it("gemini: the model goes in the URL, alt=sse is added, the run knobs land in generationConfig, the second request holds the first answer's parts", async () => {
    const chunks = providerRecording("google/google-text.chunks.txt");
    const p = await provider({ chunks }, { chunks });
    const source = createProviderSource({
      from: "gemini",
      url: `${p.url}/v1beta/models/{model}:streamGenerateContent`,
      model: "gemini-3-pro-preview",
      headers: { "x-goog-api-key": "loopback" },
    });
    const signal = new AbortController().signal;
    const run = {
      maxTokens: 100,
      topP: 0.5,
      stopSequences: ["END"],
      reasoning: { mode: "enabled" as const, budgetTokens: 64 },
      responseFormat: { type: "json_schema" as const, schema: { type: "object" } },
      toolChoice: { type: "tool" as const, name: "f" },
      tools: [{ name: "f", inputSchema: { type: "object" } }],
    };
    expect(await collect(source.run(start("th", "g1", [user("u1", "Count the r's")], run), signal))).toEqual(
      normalizeAll("gemini", chunks, { threadId: "th", turnId: "g1" }),
    );
    await collect(source.run(start("th", "g2", [user("u2", "Sure?")]), signal));
    expect(p.requests.map((r) => r.path)).toEqual([
      "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
      "/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse",
    ]);
    expect(p.requests[0]!.headers["x-goog-api-key"]).toBe("loopback");
    expect(p.requests[0]!.body).toEqual({
      ...toGemini([user("u1", "Count the r's")]).request,
      tools: [{ functionDeclarations: [{ name: "f", parametersJsonSchema: { type: "object" } }] }],
      toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] } },
      generationConfig: {
        maxOutputTokens: 100,
        topP: 0.5,
        stopSequences: ["END"],
        thinkingConfig: { includeThoughts: true, thinkingBudget: 64 },
        responseMimeType: "application/json",
        responseJsonSchema: { type: "object" },
      },
    });
    const conversation = [user("u1", "Count the r's"), ...folded("gemini", chunks, "th", "g1"), user("u2", "Sure?")];
    expect(p.requests[1]!.body).toEqual(JSON.parse(JSON.stringify(toGemini(conversation).request)));
    // The answer's thought signature goes back on the model turn (§13.2).
    expect(JSON.stringify((p.requests[1]!.body as { contents: unknown[] }).contents[1])).toContain("thoughtSignature");
  });

  it("a connection lost mid-stream: the events so far, then ProviderSourceError provider-stream; the partial turn joins the thread", async () => {
    const chunks = providerRecording("anthropic/anthropic-text.chunks.txt");
    const p = await provider({ chunks, named: true, cutAfter: 4 });
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "m" });
    const seen: AgLenientEvent[] = [];
    const run = async () => {
      for await (const e of source.run(start("th", "t1", [user("u1", "Hi")]), new AbortController().signal)) seen.push(known(e));
    };
    await expect(run()).rejects.toMatchObject({ name: "ProviderSourceError", code: "provider-stream" });
    expect(seen).toEqual(normalizeAll("anthropic", chunks.slice(0, 4), { threadId: "th", turnId: "t1" }).slice(0, seen.length));
    expect(seen.map((e) => e.type)).toContain("text.delta");
    const kept = source.conversation("th");
    expect(kept.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(kept[1]!.content).toEqual([expect.objectContaining({ type: "text" })]);
  });

  it("an abort ends the run quietly, without an error", async () => {
    const p = await provider({ chunks: providerRecording("anthropic/anthropic-text.chunks.txt"), named: true, cutAfter: 3 });
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "m" });
    const abort = new AbortController();
    const seen: AgLenientEvent[] = [];
    for await (const e of source.run(start("th", "t1", [user("u1", "Hi")]), abort.signal)) {
      seen.push(known(e));
      abort.abort();
    }
    expect(seen.length).toBeGreaterThan(0);
  });

  it("refuses what a provider cannot take: a resume with no paused turn, surface actions, a second run on a busy thread", async () => {
    const p = await provider({ chunks: providerRecording("anthropic/anthropic-text.chunks.txt"), named: true });
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "m" });
    const signal = new AbortController().signal;
    const resume: AgInput = {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "resume",
      threadId: "th",
      turnId: "t1",
      answers: [{ askId: "a1", status: "resolved" }],
    };
    await expect(collect(source.run(resume, signal))).rejects.toMatchObject({
      code: "nothing-paused",
      fault: "client",
      message: expect.stringContaining("no paused turn"),
    });
    const surface: AgInput = {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "resume",
      threadId: "th",
      turnId: "t1",
      uiActions: [{ surface: "mcp-app", surfaceId: "s1", method: "ui/open-link", params: { url: "https://example.com" } }],
    };
    await expect(collect(source.run(surface, signal))).rejects.toMatchObject({
      code: "unsupported-input",
      message: expect.stringContaining("uiActions"),
    });
    expect(p.requests).toHaveLength(0);
    const busy = source.run(start("th", "t1", [user("u1", "Hi")]), signal)[Symbol.asyncIterator]();
    expect((await busy.next()).value).toMatchObject({ type: "turn.start" });
    expect((await busy.next()).value).toMatchObject({ type: "message.start", role: "assistant" });
    await expect(collect(source.run(start("th", "t2", [user("u2", "Hi again")]), signal))).rejects.toMatchObject({ code: "thread-busy" });
    await busy.return?.(undefined);
    // The run was left early; what it had said joined the thread, closed as a cut stream (INV-FLUSH).
    expect(source.conversation("th").map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("a provider 4xx is a ProviderSourceError carrying the status and the provider's message; the thread is unchanged", async () => {
    const p = await provider({
      status: 401,
      body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
    });
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "m" });
    const failure = collect(source.run(start("th", "t1", [user("u1", "Hi")]), new AbortController().signal));
    await expect(failure).rejects.toBeInstanceOf(ProviderSourceError);
    await expect(failure).rejects.toMatchObject({
      code: "provider-http",
      status: 401,
      message: expect.stringContaining("invalid x-api-key"),
    });
    expect(source.conversation("th")).toEqual([]);
  });
});

describe("the AG-UI endpoint in front of a provider (HttpAgent over loopback)", () => {
  function watcher() {
    const events: AgUiEvent[] = [];
    const subscriber: AgentSubscriber = { onEvent: ({ event }) => void events.push(event as AgUiEvent) };
    return { events, subscriber };
  }

  it("HttpAgent receives toAgUi of the normalized recording; its resent history does not duplicate the thread", async () => {
    const turn1 = providerRecording("anthropic/anthropic-combined-context-editing.1.chunks.txt");
    const turn2 = providerRecording("anthropic/anthropic-text.chunks.txt");
    const p = await provider({ chunks: turn1, named: true }, { chunks: turn2, named: true });
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "claude-sonnet-4-5" });
    const server = await startAgUiServer({ source, port: 0 });
    closers.push(() => server.close());
    const agent = new HttpAgent({ url: server.url, threadId: "th-ui", initialMessages: [{ id: "u1", role: "user", content: "Hello" }] });

    const run1 = watcher();
    await agent.runAgent({ runId: "run-1" }, run1.subscriber);
    const want1 = toAgUi(normalizeAll("anthropic", turn1, { threadId: "th-ui", turnId: "run-1" }), { threadId: "th-ui", runId: "run-1" });
    expect(run1.events).toEqual(want1);
    expect(run1.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["RUN_STARTED", "REASONING_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"]),
    );

    agent.addMessage({ id: "u2", role: "user", content: "And now?" });
    const run2 = watcher();
    await agent.runAgent({ runId: "run-2" }, run2.subscriber);
    expect(run2.events).toEqual(
      toAgUi(normalizeAll("anthropic", turn2, { threadId: "th-ui", turnId: "run-2" }), { threadId: "th-ui", runId: "run-2" }),
    );
    // HttpAgent resent the whole history (its lossy copy); the provider got the thread's own, signature and all.
    const conversation = [user("u1", "Hello"), ...folded("anthropic", turn1, "th-ui", "run-1"), user("u2", "And now?")];
    expect(p.requests[1]!.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 4096,
      stream: true,
      ...JSON.parse(JSON.stringify(toAnthropic(conversation).request)),
    });
    for (const run of [run1, run2]) {
      expect(schemaFailures(run.events)).toEqual([]);
      expect(await verifyFailure(run.events)).toBeUndefined();
    }
  });

  it("a connection lost after the first event ends the AG-UI run in RUN_ERROR (upstream-error), the stream still valid", async () => {
    const p = await provider({ chunks: providerRecording("anthropic/anthropic-text.chunks.txt"), named: true, cutAfter: 4 });
    const issues: string[] = [];
    const handler = await createAgUiHandler({
      source: createProviderSource({ from: "anthropic", url: p.url, model: "m" }),
      onIssue: (m) => issues.push(m),
    });
    const response = await handler(
      new Request("http://agui.invalid/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          threadId: "t",
          runId: "r",
          state: {},
          messages: [{ id: "u", role: "user", content: "Hi" }],
          tools: [],
          context: [],
          forwardedProps: {},
        }),
      }),
    );
    expect(response.status).toBe(200);
    const events = sseData(await response.text()) as AgUiEvent[];
    expect(events.map((e) => e.type)).toContain("TEXT_MESSAGE_CONTENT");
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "upstream-error", message: "the provider's stream broke off" });
    expect(issues).toEqual([expect.stringContaining("anthropic provider http://127.0.0.1:")]);
    expect(await verifyFailure(events)).toBeUndefined();
  });

  it("a provider 4xx before the first event is a 502 problem naming the provider's status; its body goes to the operator", async () => {
    const p = await provider({ status: 400, body: '{"error":{"message":"model not found"}}' });
    const issues: string[] = [];
    const handler = await createAgUiHandler({
      source: createProviderSource({ from: "openai-responses", url: p.url, model: "nope" }),
      onIssue: (m) => issues.push(m),
    });
    const response = await handler(
      new Request("http://agui.invalid/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          threadId: "t",
          runId: "r",
          state: {},
          messages: [{ id: "u", role: "user", content: "Hi" }],
          tools: [],
          context: [],
          forwardedProps: {},
        }),
      }),
    );
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ status: 502, detail: "the provider answered HTTP 400" });
    expect(issues).toEqual([expect.stringContaining('answered 400: {"error":{"message":"model not found"}}')]);
  });
});
