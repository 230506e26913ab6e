/**
 * The ACP agent does not outlive its editor and does not grow without bound (issue 37): stdin
 * closed mid-prompt ends the prompt and aborts its source; a line over the SDK's message cap ends
 * the connection with an error the command reports (not a silent exit 0); sessions past
 * `maxSessions` free the least recently used idle one. In process, over PassThrough stdio.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import { AgSourceError, createUpstreamSource, type AgEventSource } from "../source/index.js";
import { createAcpAgent } from "./agent.js";
import { serveAcpStdio } from "./stdio.js";

/** A source that starts a turn, says one word, then waits (a hanging upstream) until aborted. */
function hangingSource(): AgEventSource & { aborted: Promise<void> } {
  let onAbort!: () => void;
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  return {
    aborted,
    async *run(input: AgInput, signal: AbortSignal): AsyncGenerator<AgLenientEvent> {
      yield { type: "turn.start", seq: 0, threadId: input.threadId, turnId: input.turnId };
      yield { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: input.turnId, threadId: input.threadId };
      yield { type: "text.delta", seq: 2, id: "t1", delta: "Hel" };
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      onAbort();
    },
  };
}

const line = (x: unknown) => `${JSON.stringify(x)}\n`;

describe("agjson acp ends with its editor", () => {
  it("stdin closed mid-prompt: the prompt ends, the source is aborted, serveAcpStdio resolves", async () => {
    const source = hangingSource();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let out = "";
    stdout.on("data", (c: Buffer) => (out += c.toString()));
    const served = serveAcpStdio({ source }, { stdin, stdout });
    stdin.write(
      line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} } }),
    );
    await expect.poll(() => out, { timeout: 5000 }).toContain('"id":1,"result"');
    stdin.write(line({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/", mcpServers: [] } }));
    await expect.poll(() => /"sessionId":"([^"]+)"/.exec(out)?.[1], { timeout: 3000 }).toBeDefined();
    const sessionId = /"sessionId":"([^"]+)"/.exec(out)![1];
    stdin.write(line({ jsonrpc: "2.0", id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "go" }] } }));
    await expect.poll(() => out, { timeout: 3000 }).toContain('"delta":"Hel"');
    stdin.end();
    await expect(
      Promise.race([served, new Promise((_, reject) => setTimeout(() => reject(new Error("serveAcpStdio did not end")), 3000))]),
    ).resolves.toEqual({});
    await source.aborted;
  }, 10_000);

  it("a line over the SDK's 32 MiB message cap: the connection ends with MessageTooLargeError", async () => {
    const stdin = new PassThrough();
    const served = serveAcpStdio({ source: hangingSource() }, { stdin, stdout: new PassThrough() });
    const chunk = Buffer.alloc(1 << 20, 0x61);
    for (let i = 0; i < 33; i++) stdin.write(chunk);
    const end = await served;
    expect(end.error?.name).toBe("MessageTooLargeError");
  }, 20_000);
});

describe("sessions are bounded", () => {
  it("past maxSessions the least recently used idle session is freed; its prompt is then session-not-found", async () => {
    const source: AgEventSource = {
      async *run(input) {
        yield { type: "turn.start", seq: 0, threadId: input.threadId, turnId: input.turnId };
        yield { type: "turn.done", seq: 1, turnId: input.turnId, outcome: { type: "success" }, finishReason: "stop" };
      },
    };
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    const connection = createAcpAgent({ source, maxSessions: 2 }).connect(ndJsonStream(toClient.writable, toAgent.readable));
    let results: unknown[] = [];
    await client({ name: "t" })
      .onNotification(methods.client.session.update, () => undefined)
      .connectWith(ndJsonStream(toAgent.writable, toClient.readable), async (ctx) => {
        await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
        const a = (await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] })).sessionId;
        const b = (await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] })).sessionId;
        // b is used after a, so a is the least recently used when c arrives.
        await ctx.request(methods.agent.session.prompt, { sessionId: b, prompt: [{ type: "text", text: "go" }] });
        const c = (await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] })).sessionId;
        const run = (id: string) =>
          ctx.request(methods.agent.session.prompt, { sessionId: id, prompt: [{ type: "text", text: "go" }] }).then(
            (r) => r.stopReason,
            (e: Error) => e.message,
          );
        results = [await run(a), await run(b), await run(c)];
      });
    await toAgent.writable.close().catch(() => undefined);
    await connection.closed.catch(() => undefined);
    expect(results[0]).toMatch(/not found/);
    expect(results.slice(1)).toEqual(["end_turn", "end_turn"]);
  });

  it("a source error: the client gets the short reason and the code; the log the whole message", async () => {
    const source: AgEventSource = {
      // eslint-disable-next-line require-yield
      // biome-ignore lint/correctness/useYield: a source that never yields is the case under test
      async *run() {
        throw new AgSourceError("provider-http", "anthropic provider http://127.0.0.1:1/?key=*** answered 401: invalid x-api-key", {
          publicMessage: "the provider answered HTTP 401",
          status: 401,
        });
      },
    };
    const logs: string[] = [];
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    const connection = createAcpAgent({ source, log: (l) => logs.push(l) }).connect(ndJsonStream(toClient.writable, toAgent.readable));
    let failure: { message: string; data?: unknown } | undefined;
    await client({ name: "t" }).connectWith(ndJsonStream(toAgent.writable, toClient.readable), async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] });
      await ctx
        .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] })
        .catch((e: { message: string; data?: unknown }) => (failure = e));
    });
    await toAgent.writable.close().catch(() => undefined);
    await connection.closed.catch(() => undefined);
    expect(failure?.message).toContain("the provider answered HTTP 401");
    expect(failure?.data).toMatchObject({ code: "provider-http" });
    expect(`${failure?.message} ${JSON.stringify(failure?.data)}`).not.toContain("127.0.0.1");
    expect(logs.join("\n")).toMatch(/answered 401: invalid x-api-key/);
  });

  it("an agjson host's own 4xx is the client's mistake (-32600) with the host's reason; its 5xx is -32603", async () => {
    const answers: Record<string, { code?: number; message: string; data?: unknown }> = {};
    for (const status of [400, 500]) {
      const host = createServer((req, res) => {
        req.resume();
        req.once("end", () => {
          res.writeHead(status, { "content-type": "application/problem+json" });
          res.end(JSON.stringify({ title: "Refused", status, detail: "the AgInput names no model" }));
        });
      });
      await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
      const source = createUpstreamSource(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
      const toAgent = new TransformStream<Uint8Array, Uint8Array>();
      const toClient = new TransformStream<Uint8Array, Uint8Array>();
      const connection = createAcpAgent({ source, log: () => undefined }).connect(ndJsonStream(toClient.writable, toAgent.readable));
      await client({ name: "t" }).connectWith(ndJsonStream(toAgent.writable, toClient.readable), async (ctx) => {
        await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
        const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] });
        await ctx
          .request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] })
          .catch((e: { code?: number; message: string; data?: unknown }) => (answers[status] = e));
      });
      await toAgent.writable.close().catch(() => undefined);
      await connection.closed.catch(() => undefined);
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
    expect(answers[400]).toMatchObject({ code: -32600, data: { code: "upstream-refused" } });
    expect(answers[400]?.message).toContain("the agent host refused the request (HTTP 400): the AgInput names no model");
    expect(answers[500]).toMatchObject({ code: -32603, data: { code: "upstream-http" } });
    expect(answers[500]?.message).toContain("the agent host answered HTTP 500");
  });
});
