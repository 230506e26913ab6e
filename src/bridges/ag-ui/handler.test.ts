// Issue 19 §1 "A server": the AG-UI endpoint takes RunAgentInput over HTTP and streams AG-UI SSE
// from an AgJSON event source — tested with the real @ag-ui/client HttpAgent over loopback (a
// recorded stream, and an upstream agjson agent host), and with raw requests for the refusals.
import { createServer, type Server } from "node:http";
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AgBlock } from "../../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { isKnownBlock } from "../../../generated/schema-facts.js";
import { reduce } from "../../reduce/index.js";
import { createReplaySource, createUpstreamSource, splitTurns, type AgEventSource } from "../source/index.js";
import { schemaFailures, verifyFailure } from "./ag-ui.test-support.js";
import { createAgUiHandler } from "./handler.js";
import { startAgUiServer, type AgUiServerOptions, type RunningAgUiServer } from "./node.js";
import { ASK, recordedConversation, recordingInputs, sseData } from "./serve.test-support.js";
import type { AgUiEvent } from "./vocabulary.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function serve(options: Omit<AgUiServerOptions, "port">): Promise<RunningAgUiServer> {
  const server = await startAgUiServer({ ...options, port: 0 });
  closers.push(() => server.close());
  return server;
}

/** A subscriber that keeps every event the client saw, and how each run finished. */
function watcher() {
  const events: AgUiEvent[] = [];
  const finished: Parameters<NonNullable<AgentSubscriber["onRunFinishedEvent"]>>[0][] = [];
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => void events.push(event as AgUiEvent),
    onRunFinishedEvent: (params) => void finished.push(params),
  };
  return { events, finished, subscriber };
}

const textOf = (blocks: readonly AgBlock[]) => blocks.map((b) => (isKnownBlock(b) && b.type === "text" ? b.text : "")).join("");

/** What a front end should render for a recorded turn, read off the recording's fold (§5). */
function expected(events: readonly AgLenientEvent[], turnId: string) {
  const { result } = reduce(events);
  const messages = result.messages.filter((m) => m.turnId === turnId);
  const blocks = messages.flatMap((m) => m.content).filter(isKnownBlock);
  return {
    texts: messages
      .filter((m) => m.role === "assistant")
      .map((m) => textOf(m.content))
      .filter((t) => t !== ""),
    calls: blocks.flatMap((b) => (b.type === "tool-call" ? [{ id: b.toolCallId, name: b.name, input: b.input }] : [])),
    results: blocks.flatMap((b) => (b.type === "tool-result" ? [{ toolCallId: b.toolCallId, text: textOf(b.content) }] : [])),
    state: result.state,
  };
}

/** The same, read off the client's own view after a run. */
function rendered(agent: HttpAgent) {
  return {
    texts: agent.messages.flatMap((m) => (m.role === "assistant" && typeof m.content === "string" && m.content !== "" ? [m.content] : [])),
    calls: agent.messages.flatMap((m) =>
      m.role === "assistant"
        ? (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) as unknown }))
        : [],
    ),
    results: agent.messages.flatMap((m) =>
      m.role === "tool" ? [{ toolCallId: m.toolCallId, text: typeof m.content === "string" ? m.content : "" }] : [],
    ),
    state: agent.state,
  };
}

describe("AG-UI endpoint × @ag-ui/client HttpAgent (loopback)", () => {
  it("replays a recorded conversation: messages, tool calls and state as recorded; an interrupt, then a resume with the echoed token", async () => {
    const recording = recordedConversation();
    const { source, inputs } = recordingInputs(createReplaySource(recording));
    const server = await serve({ source });
    const agent = new HttpAgent({
      url: server.url,
      threadId: "th-client",
      initialMessages: [{ id: "u1", role: "user", content: "Weather in Paris?" }],
    });

    const run1 = watcher();
    await agent.runAgent({ runId: "run-1" }, run1.subscriber);
    expect(inputs[0]).toMatchObject({
      kind: "start",
      threadId: "th-client",
      turnId: "run-1",
      messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
    });
    expect(run1.events[0]).toMatchObject({ type: "RUN_STARTED", threadId: "th-client", runId: "run-1" });
    expect(run1.finished.map((f) => f.outcome)).toEqual(["success"]);
    const want1 = expected(recording, "turn_1");
    expect(want1.texts.length).toBeGreaterThan(0);
    expect(want1.calls.length).toBe(1);
    expect(rendered(agent)).toEqual(want1);
    expect(run1.events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "REASONING_MESSAGE_CONTENT",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_RESULT",
        "STATE_SNAPSHOT",
        "STATE_DELTA",
        "RUN_FINISHED",
      ]),
    );

    const run2 = watcher();
    await agent.runAgent({ runId: "run-2" }, run2.subscriber);
    const paused = run2.finished[0];
    if (paused?.outcome !== "interrupt") throw new Error(`run 2 finished ${paused?.outcome}`);
    expect(paused.interrupts).toEqual([
      expect.objectContaining({
        id: ASK.askId,
        toolCallId: ASK.toolCallId,
        message: ASK.message,
        metadata: { agjson: expect.objectContaining({ token: ASK.token, ask: expect.objectContaining({ kind: "approval" }) }) },
      }),
    ]);

    const run3 = watcher();
    const interrupt = paused.interrupts[0]!;
    await agent.runAgent(
      {
        runId: "run-3",
        resume: [
          { interruptId: interrupt.id, status: "resolved", payload: { approved: true }, metadata: { agjson: { token: ASK.token } } },
        ],
      },
      run3.subscriber,
    );
    expect(inputs[2]).toMatchObject({
      kind: "resume",
      turnId: "run-3",
      answers: [{ askId: ASK.askId, status: "resolved", reply: { approved: true }, token: ASK.token }],
    });
    expect(run3.finished.map((f) => f.outcome)).toEqual(["success"]);
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: expected(recording, "turn_3").texts[0] });
    expect(expected(recording, "turn_3").texts).toEqual(["Deleted notes.txt."]);
    for (const run of [run1, run2, run3]) {
      expect(schemaFailures(run.events)).toEqual([]);
      expect(await verifyFailure(run.events)).toBeUndefined();
    }
  });

  it("forwards to an upstream agjson agent host: the host gets the projected AgInput, the client the host's stream", async () => {
    const recording = recordedConversation();
    const turn = splitTurns(recording)[0]!;
    const posted: unknown[] = [];
    const upstream: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        posted.push(JSON.parse(body));
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        for (const e of turn) res.write(`${JSON.stringify(e)}\n`);
        res.end();
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    const address = upstream.address();
    if (address === null || typeof address === "string") throw new Error("upstream not on TCP");
    const server = await serve({ source: createUpstreamSource(`http://127.0.0.1:${address.port}/`) });
    const agent = new HttpAgent({
      url: server.url,
      initialMessages: [{ id: "u1", role: "user", content: "Weather?" }],
      initialState: { units: "C" },
    });
    const run = watcher();
    await agent.runAgent(
      { runId: "run-up", tools: [{ name: "confirm", description: "ask the user", parameters: { type: "object" } }] },
      run.subscriber,
    );
    expect(posted).toEqual([
      expect.objectContaining({
        protocol: "agjson",
        kind: "start",
        turnId: "run-up",
        state: { units: "C" },
        messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "Weather?" }] }],
        run: { tools: [{ name: "confirm", description: "ask the user", inputSchema: { type: "object" }, source: { type: "frontend" } }] },
      }),
    ]);
    expect(rendered(agent)).toEqual(expected(turn, "turn_1"));
    expect(await verifyFailure(run.events)).toBeUndefined();
  });

  it("answers the upstream's own 4xx problem+json with its reason when it refuses the AgInput, and the client's run fails", async () => {
    const upstream: Server = createServer((_req, res) => {
      res.writeHead(400, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: "AgInput does not validate", detail: "/messages/0/content: must be array" }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    const address = upstream.address();
    if (address === null || typeof address === "string") throw new Error("upstream not on TCP");
    const server = await serve({ source: createUpstreamSource(`http://127.0.0.1:${address.port}/`) });
    const r = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ threadId: "t", runId: "r", messages: [] }),
    });
    // A client error from the agent host is the client's (the gateway's upstreamRefusal rule): 4xx stays 4xx.
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(await r.json()).toMatchObject({
      status: 400,
      type: expect.stringMatching(/\/upstream-refused$/),
      detail: "the agent host refused the request (HTTP 400): /messages/0/content: must be array",
    });
    // HttpAgent logs the failure before it rejects; the log is the client's, not under test here.
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await expect(new HttpAgent({ url: server.url }).runAgent({ runId: "r2" })).rejects.toThrow(/HTTP 400/);
    } finally {
      log.mockRestore();
    }
  });
});

describe("AG-UI endpoint: refusals and bounded output", () => {
  const post = (url: string, body: string, type = "application/json") =>
    fetch(url, { method: "POST", headers: { "content-type": type }, body });
  const ok = JSON.stringify({ threadId: "t", runId: "r", messages: [] });

  it("refuses as problem+json: 405 with Allow, 415, 413 naming maxBodyBytes, 400 naming the field", async () => {
    const server = await serve({ source: createReplaySource(recordedConversation()), caps: { maxBodyBytes: 2000 } });
    const get = await fetch(server.url);
    expect([get.status, get.headers.get("allow"), get.headers.get("content-type")]).toEqual([405, "POST", "application/problem+json"]);
    expect((await post(server.url, ok, "text/plain")).status).toBe(415);
    const big = await post(server.url, JSON.stringify({ threadId: "t", runId: "r", messages: [], state: "x".repeat(5000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ limit: { name: "maxBodyBytes", value: 2000 }, issues: [{ keyword: "maxBodyBytes" }] });
    const bad = await post(server.url, JSON.stringify({ threadId: "t", runId: "r", messages: [{ id: "m", role: "user" }] }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ issues: [{ path: "/messages/0/content" }] });
  });

  it("answers CORS preflights only when configured", async () => {
    const server = await serve({ source: createReplaySource(recordedConversation()), cors: "https://app.example" });
    const pre = await fetch(server.url, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const r = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://app.example" },
      body: ok,
    });
    expect(r.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await r.body?.cancel();
    // A request from no browser (no Origin) is named no origin.
    const plain = await post(server.url, ok);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    await plain.body?.cancel();
  });

  it("ends the run in RUN_ERROR (and still verifies) when the source fails mid-stream or the event cap is reached", async () => {
    const turn = splitTurns(recordedConversation())[0]!;
    const failing: AgEventSource = {
      async *run() {
        yield* turn.slice(0, 8);
        throw new Error("upstream connection reset");
      },
    };
    const issues: string[] = [];
    const broken = await serve({ source: failing, onIssue: (m) => issues.push(m) });
    const a = sseData(await (await post(broken.url, ok)).text()) as AgUiEvent[];
    // The client is told a short reason; what the error says (it may name internals) is the operator's.
    expect(a.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "upstream-error", message: "the agent behind this endpoint failed" });
    expect(await verifyFailure(a)).toBeUndefined();
    expect(issues).toEqual(["upstream connection reset"]);

    const capped = await serve({ source: createReplaySource(turn), maxEvents: 5 });
    const b = sseData(await (await post(capped.url, ok)).text()) as AgUiEvent[];
    expect(b.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "stream-cap" });
    expect(b.length).toBeLessThanOrEqual(5 + 4);
    expect(await verifyFailure(b)).toBeUndefined();
  });

  it("pulls the source only as the client reads, and aborts it when the client goes away", async () => {
    const turn = splitTurns(recordedConversation())[0]!;
    let pulled = 0;
    let aborted = false;
    const endless: AgEventSource = {
      async *run(_input, signal) {
        signal.addEventListener("abort", () => void (aborted = true));
        yield turn[0]!;
        for (let i = 0; !signal.aborted; i++) {
          pulled++;
          yield { type: "text.delta", seq: i + 1, id: "x", delta: "more " };
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
      },
    };
    const server = await serve({ source: endless });
    const client = new AbortController();
    const r = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json" }, body: ok, signal: client.signal });
    const reader = r.body!.getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    client.abort();
    await reader.cancel().catch(() => undefined);
    for (let i = 0; i < 100 && !aborted; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(aborted).toBe(true);
    const atAbort = pulled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBe(atAbort);
    expect(pulled).toBeLessThan(100);
  });

  it("works as a bare fetch handler (Request → Response), and caps a chunked body it reads without a length", async () => {
    const handler = await createAgUiHandler({ source: createReplaySource(recordedConversation()), caps: { maxBodyBytes: 1024 } });
    const r = await handler(
      new Request("http://agui.invalid/", { method: "POST", headers: { "content-type": "application/json" }, body: ok }),
    );
    expect(r.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const events = sseData(await r.text()) as AgUiEvent[];
    expect(events[0]).toMatchObject({ type: "RUN_STARTED", threadId: "t", runId: "r" });
    expect(await verifyFailure(events)).toBeUndefined();

    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent++;
        controller.enqueue(new TextEncoder().encode(" ".repeat(512)));
        if (sent > 100) controller.close();
      },
    });
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunked,
      duplex: "half",
    };
    const big = await handler(new Request("http://agui.invalid/", init));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ limit: { name: "maxBodyBytes", value: 1024 } });
    expect(sent).toBeLessThan(10);
  });
});
