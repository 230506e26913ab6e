/**
 * The AG-UI server holds `agjson proxy`'s line (issue 37): a failing upstream or provider tells the
 * client a short reason and the operator the rest with credentials redacted; an error body is read
 * only as far as it is kept and only for so long; the gateway's caps and deadlines (same names) bound
 * every wait; an upstream 200 with nothing usable is a 502; a client's mistake is 4xx; repeated
 * records are dropped; invalid ones summarised; one path is served. Every upstream and provider is a
 * loopback stand-in on port 0; every deadline is short.
 */
import { connect } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createProviderSource } from "../provider/index.js";
import { createUpstreamSource, MAX_LISTED_ISSUES, splitTurns, type AgSourceIssue } from "../source/index.js";
import { verifyFailure } from "./ag-ui.test-support.js";
import { startAgUiServer, type AgUiServerOptions, type RunningAgUiServer } from "./node.js";
import { recordedConversation, sseData } from "./serve.test-support.js";
import { startLoopbackUpstream, type LoopbackUpstream } from "../../gateway/upstream.test-support.js";
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

/** A loopback upstream answering with `handler`; `closed` counts responses whose connection closed. */
async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LoopbackUpstream> {
  const up = await startLoopbackUpstream(handler);
  closers.push(up.close);
  return up;
}

const input = (threadId = "t", runId = "r", extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    threadId,
    runId,
    state: {},
    messages: [{ id: "u", role: "user", content: "Hi" }],
    tools: [],
    context: [],
    forwardedProps: {},
    ...extra,
  });
const post = (url: string, body = input()) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
const ndjson = (events: readonly unknown[]) => events.map((e) => JSON.stringify(e)).join("\n") + "\n";

describe("failures: a short reason for the client, the rest (redacted) for the operator", () => {
  it("an agjson upstream's 500 echoing a key: the client sees neither the URL nor the body; the log has both, redacted", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end("boom: Authorization: Bearer sk-live-abcdef123456 at /srv/app/server.js:42");
    });
    const issues: string[] = [];
    const server = await serve({
      source: createUpstreamSource(`${up.url}?key=SECRETKEY123&v=1`, { headers: { "x-api-key": "hdr-secret-9876" } }),
      onIssue: (m) => issues.push(m),
    });
    const r = await post(server.url);
    expect(r.status).toBe(502);
    const problem = await r.json();
    expect(problem).toMatchObject({ type: expect.stringMatching(/\/upstream-error$/), detail: "the agent host answered HTTP 500" });
    expect(JSON.stringify(problem)).not.toMatch(/SECRETKEY|sk-live|srv\/app|127\.0\.0\.1/);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/answered 500: boom/);
    expect(issues[0]).toMatch(/key=\*\*\*&v=\*\*\*/);
    expect(issues[0]).not.toMatch(/SECRETKEY|sk-live-abcdef|hdr-secret/);
  });

  it("a provider (Gemini, key in the URL) that fails mid-stream: RUN_ERROR says a short reason, the log no key", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "Hel" }] } }] })}\n\n`);
      setTimeout(() => res.destroy(), 20);
    });
    const issues: string[] = [];
    const source = createProviderSource({
      from: "gemini",
      url: `${up.url}/{model}:streamGenerateContent?key=AIzaSyTHISISASECRETKEY00`,
      model: "gemini-2.5-flash",
    });
    const server = await serve({ source, onIssue: (m) => issues.push(m) });
    const events = sseData(await (await post(server.url)).text()) as AgUiEvent[];
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "upstream-error", message: "the provider's stream broke off" });
    expect(JSON.stringify(events)).not.toMatch(/AIza|127\.0\.0\.1/);
    expect(issues.join("\n")).toMatch(/key=\*\*\*/);
    expect(issues.join("\n")).not.toMatch(/AIzaSyTHISIS/);
    expect(await verifyFailure(events)).toBeUndefined();
  });
});

describe("an agent host's own 4xx is the client's error (the gateway's upstreamRefusal rule)", () => {
  it("400, 401, 404, 413, 429 pass through with the host's problem reason, redacted, bounded and escaped; hop 4xx and 5xx are 502", async () => {
    const detail = "bad token hdr-secret-9876\u001b[31m\nforged line \u202e" + "x".repeat(5000);
    for (const status of [400, 401, 404, 413, 429]) {
      const up = await upstream((_req, res) => {
        res.writeHead(status, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ type: "about:blank", title: "Refused", status, detail }));
      });
      const issues: string[] = [];
      const server = await serve({
        source: createUpstreamSource(up.url, { headers: { "x-api-key": "hdr-secret-9876" } }),
        onIssue: (m) => issues.push(m),
      });
      const r = await post(server.url);
      expect(r.status, String(status)).toBe(status);
      const problem = (await r.json()) as { type: string; status: number; detail: string };
      expect(problem.type).toMatch(/\/upstream-refused$/);
      expect(problem.status).toBe(status);
      // Redacted, then cut at 300 characters, then escaped (the control, newline and bidi override).
      const head = "bad token ***\u001b[31m\nforged line \u202e";
      expect(problem.detail).toBe(
        `the agent host refused the request (HTTP ${status}): bad token ***\\u001b[31m\\nforged line \\u202e${"x".repeat(300 - head.length)}…`,
      );
      expect(problem.detail.length).toBeLessThan(400);
      expect(problem.detail).not.toMatch(/hdr-secret|127\.0\.0\.1|[\u0000-\u001f\u202e]/);
      expect(issues[0]).toMatch(new RegExp(`answered ${status}`));
    }
    for (const status of [407, 408, 421, 426, 500, 503]) {
      const up = await upstream((_req, res) => {
        res.writeHead(status, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ title: "Refused", status, detail: "not the client's" }));
      });
      const server = await serve({ source: createUpstreamSource(up.url) });
      const r = await post(server.url);
      expect(r.status, String(status)).toBe(502);
      // fetch itself turns a 407 into a network error ("could not be reached"): a 502 all the same.
      expect(await r.json()).toMatchObject({ type: expect.stringMatching(/\/upstream-error$/) });
    }
  });

  it("a 4xx problem cut at the 2 KiB read still gives its reason; a 4xx without one gives its status", async () => {
    const cut = await upstream((_req, res) => {
      res.writeHead(400, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: "Refused", detail: "the AgInput does not validate", issues: "y".repeat(10_000) }));
    });
    const a = await post((await serve({ source: createUpstreamSource(cut.url) })).url);
    expect([a.status, ((await a.json()) as { detail: string }).detail]).toEqual([
      400,
      "the agent host refused the request (HTTP 400): the AgInput does not validate",
    ]);
    const plain = await upstream((_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not Found</h1>");
    });
    const b = await post((await serve({ source: createUpstreamSource(plain.url) })).url);
    expect([b.status, ((await b.json()) as { detail: string }).detail]).toEqual([404, "the agent host refused the request (HTTP 404)"]);
  });
});

describe("an upstream's error body is read only as far as it is kept, only for so long", () => {
  it("an error body that never ends: a 502 at once, the upstream hung up on", async () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const up = await upstream((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      timer = setInterval(() => res.write("x".repeat(64 * 1024)), 1);
      res.once("close", () => clearInterval(timer));
    });
    closers.push(async () => clearInterval(timer));
    const issues: string[] = [];
    const server = await serve({ source: createUpstreamSource(up.url, { idleTimeoutMs: 5000 }), onIssue: (m) => issues.push(m) });
    const r = await post(server.url);
    expect(r.status).toBe(502);
    await r.body?.cancel();
    // What was kept is the start of the body, at most 2 KiB of it.
    expect(issues[0]!.length).toBeLessThan(2048 + 200);
    await expect.poll(() => up.closed(), { timeout: 3000 }).toBe(1);
  });

  it("an error body that stalls: bounded by the idle deadline", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      res.write("overloaded, and then nothing");
    });
    const issues: string[] = [];
    const server = await serve({ source: createUpstreamSource(up.url, { idleTimeoutMs: 150 }), onIssue: (m) => issues.push(m) });
    const r = await post(server.url);
    expect(r.status).toBe(502);
    expect(await r.json()).toMatchObject({ detail: "the agent host answered HTTP 503" });
    expect(issues[0]).toMatch(/answered 503: overloaded, and then nothing/);
  });
});

describe("the gateway's caps and deadlines", () => {
  it("an upstream that never answers: idleTimeoutMs, and the message says timeout", async () => {
    const up = await upstream(() => undefined);
    const issues: string[] = [];
    const server = await serve({ source: createUpstreamSource(up.url, { idleTimeoutMs: 150 }), onIssue: (m) => issues.push(m) });
    const r = await post(server.url);
    expect(r.status).toBe(502);
    expect(await r.json()).toMatchObject({ detail: "the agent host timed out (idleTimeoutMs)" });
    expect(issues[0]).toMatch(/timeout: the upstream sent nothing for 150 ms \(idleTimeoutMs\)/);
  });

  it("an upstream that keeps talking forever: wallTimeoutMs ends the run in RUN_ERROR saying timeout", async () => {
    const turn = splitTurns(recordedConversation())[0]!;
    let timer: ReturnType<typeof setInterval> | undefined;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(ndjson(turn.slice(0, 4)));
      timer = setInterval(() => res.write("\n"), 20);
      res.once("close", () => clearInterval(timer));
    });
    closers.push(async () => clearInterval(timer));
    const server = await serve({ source: createUpstreamSource(up.url, { wallTimeoutMs: 300 }) });
    const events = sseData(await (await post(server.url)).text()) as AgUiEvent[];
    expect(events.at(-1)).toMatchObject({ type: "RUN_ERROR", message: "the agent host timed out (wallTimeoutMs)" });
    expect(await verifyFailure(events)).toBeUndefined();
  });

  it("a body that trickles: 408 after bodyTimeoutMs; over maxConnections: 503 with Retry-After", async () => {
    const server = await serve({
      source: createUpstreamSource("http://127.0.0.1:9/"),
      serverCaps: { bodyTimeoutMs: 200, maxConnections: 1 },
    });
    const { port } = new URL(server.url);
    const socket = connect(Number(port), "127.0.0.1");
    closers.push(async () => void socket.destroy());
    let answer = "";
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(`POST / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"threadId":`);
    // While the slow body holds the one connection slot, another request is refused.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = await post(server.url);
    expect([second.status, second.headers.get("retry-after")]).toEqual([503, "1"]);
    expect(await second.json()).toMatchObject({
      type: expect.stringMatching(/\/overloaded$/),
      detail: expect.stringMatching(/maxConnections/),
    });
    await expect.poll(() => answer, { timeout: 3000 }).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toMatch(/timeout: the RunAgentInput body did not arrive within 200 ms/);
  });
});

describe("request headers that never end", () => {
  it("headerTimeoutMs: the connection is answered 408 and closed", async () => {
    const server = await serve({ source: createUpstreamSource("http://127.0.0.1:9/"), serverCaps: { headerTimeoutMs: 200 } });
    const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
    closers.push(async () => void socket.destroy());
    let answer = "";
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write("POST / HTTP/1.1\r\nhost: x\r\n");
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 5000);
});

describe("an upstream 200 with nothing usable is a 502", () => {
  it("an agjson upstream whose every record is invalid", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end('{"type":"text.delta"}\nnot json\n');
    });
    const server = await serve({ source: createUpstreamSource(up.url) });
    const r = await post(server.url);
    expect(r.status).toBe(502);
    expect(await r.json()).toMatchObject({
      type: expect.stringMatching(/\/upstream-error$/),
      detail: expect.stringMatching(/nothing usable/),
    });
  });

  it("a provider answering 200 with an empty body", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end();
    });
    const server = await serve({ source: createProviderSource({ from: "openai-chat", url: up.url, model: "m" }) });
    expect((await post(server.url)).status).toBe(502);
  });
});

describe("a client's mistake is 4xx; one path is served", () => {
  it("a second run on a busy thread is 409 thread-busy; a resume with nothing paused is 409 nothing-paused", async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }] })}\n\n`,
      );
    });
    const server = await serve({ source: createProviderSource({ from: "openai-chat", url: up.url, model: "m" }) });
    const first = await post(server.url, input("busy", "r1"));
    expect(first.status).toBe(200);
    const second = await post(server.url, input("busy", "r2"));
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ type: expect.stringMatching(/\/thread-busy$/) });
    await first.body?.cancel();
    const resume = await post(server.url, input("idle", "r3", { resume: [{ interruptId: "a", status: "resolved" }] }));
    expect(resume.status).toBe(409);
    expect(await resume.json()).toMatchObject({
      type: expect.stringMatching(/\/nothing-paused$/),
      detail: expect.stringMatching(/no paused turn/),
    });
  });

  it("answers its one path; any other is 404", async () => {
    const server = await serve({ source: createUpstreamSource("http://127.0.0.1:9/"), path: "/agent" });
    expect(server.url).toMatch(/\/agent$/);
    const other = await post(new URL("/elsewhere", server.url).href);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ type: expect.stringMatching(/\/not-found$/) });
    expect((await post(new URL("/", server.url).href)).status).toBe(404);
  });
});

describe("what an upstream sends twice or wrong", () => {
  it("each record sent twice (the same seq): passed on once, no doubled text, one RUN_STARTED", async () => {
    const turn = splitTurns(recordedConversation())[0]!;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(ndjson(turn.flatMap((e) => [e, e])));
    });
    const server = await serve({ source: createUpstreamSource(up.url) });
    const doubled = sseData(await (await post(server.url)).text()) as AgUiEvent[];
    const upOnce = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(ndjson(turn));
    });
    const once = sseData(await (await post((await serve({ source: createUpstreamSource(upOnce.url) })).url)).text()) as AgUiEvent[];
    expect(doubled.filter((e) => e.type === "RUN_STARTED")).toHaveLength(1);
    expect(doubled).toEqual(once);
  });

  it("a flood of invalid records: the first few listed, the rest summarised in one issue", async () => {
    const turn = splitTurns(recordedConversation())[0]!;
    const up = await upstream((_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end("{}\n".repeat(500) + ndjson(turn));
    });
    const issues: AgSourceIssue[] = [];
    const server = await serve({ source: createUpstreamSource(up.url, { onIssue: (i) => issues.push(i) }) });
    const r = await post(server.url);
    expect(r.status).toBe(200);
    await r.text();
    expect(issues).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(issues.at(-1)!.message).toMatch(/480 more records dropped or skipped/);
  });
});
