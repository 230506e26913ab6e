/**
 * Issue 20 item 15: the gateway under load and abuse. A pooled upstream connection the upstream has
 * closed is retried once on a new one (0 spurious 502s in 10,000 keep-alive requests); a malformed
 * Host is 400, not 500; duplicate Authorization headers are refused; global caps on connections
 * and buffered bytes answer 503 with Retry-After; the body deadline answers 408; OPTIONS is
 * answered (CORS with an origin configured, otherwise 405 with Allow); `agjson proxy` takes flags.
 */
import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../src/gateway/index.js";
import { agjson } from "./support.js";

const input = JSON.stringify({
  protocol: "agjson",
  version: "1.4.0-draft.2",
  kind: "start",
  threadId: "th",
  turnId: "tu",
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
});
const turn = [
  { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
  { type: "turn.done", seq: 1, turnId: "tu", outcome: { type: "success" }, finishReason: "stop" },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join("");

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

async function proxy(upstream: string, extra: Partial<Parameters<typeof startProxy>[0]> = {}): Promise<RunningProxy> {
  const p = await startProxy({ upstream, port: 0, ...extra });
  cleanups.push(() => p.close());
  return p;
}

/** A raw HTTP/1.1 exchange: what the server answers to exactly these bytes. */
function raw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    let got = "";
    socket.on("data", (d) => {
      got += d.toString("utf8");
    });
    socket.on("end", () => resolve(got));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    setTimeout(() => socket.destroy(), 3000);
  });
}

const post = (path: string, headers: string[], body = input) =>
  `POST ${path} HTTP/1.1\r\n${headers.join("\r\n")}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;

describe("gateway under load and abuse", () => {
  it("retries a pooled upstream connection reset before any byte: 0 spurious 502s in 10,000 keep-alive requests", {
    timeout: 300_000,
  }, async () => {
    // An upstream that hangs up on its keep-alive connections right after answering, without saying
    // so (no `Connection: close`), as a host behind an idle-timeout load balancer does.
    const up = await listen((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(turn, () => setImmediate(() => req.socket.destroy()));
      });
    });
    const p = await proxy(up.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    cleanups.push(async () => agent.destroy());
    const statuses = new Map<number, number>();
    let next = 0;
    const one = () =>
      new Promise<void>((resolve, reject) => {
        const req = request(p.url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
          statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
          res.resume();
          res.on("end", resolve);
        });
        req.on("error", reject);
        req.end(input);
      });
    const worker = async () => {
      while (next < 10_000) {
        next++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(Object.fromEntries(statuses)).toEqual({ 200: 10_000 });
  });

  it("a malformed Host is 400 with a problem, not 500; two Authorization headers are refused", async () => {
    const up = await listen((_req, res) => res.end());
    const p = await proxy(up.url);
    for (const host of ["a b", "[::1", "x:y:z", "%zz", "exa\tmple"]) {
      const got = await raw(p.url, post("/", [`host: ${host}`]));
      expect(got, host).toMatch(/^HTTP\/1\.1 400/);
      if (got.includes("problem+json")) expect(got).toContain("bad-request");
    }
    const dup = await raw(p.url, post("/", ["host: localhost", "authorization: Bearer a", "authorization: Bearer b"]));
    expect(dup).toMatch(/^HTTP\/1\.1 400/);
    expect(dup).toContain("Authorization headers; send exactly one");
    const ok = await raw(p.url, post("/", ["host: localhost:8080", "authorization: Bearer a"]));
    expect(ok).not.toMatch(/^HTTP\/1\.1 [45]00/);
  });

  it("over maxConnections a request gets 503 with Retry-After; below it, service resumes", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const up = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "tu" })}\n\n`);
      void held.then(() => res.end());
    });
    const p = await proxy(up.url, { caps: { maxConnections: 2 } });
    const open = [0, 1].map(() => fetch(p.url, { method: "POST", headers: { "content-type": "application/json" }, body: input }));
    const firstTwo = await Promise.all(open);
    expect(firstTwo.map((r) => r.status)).toEqual([200, 200]);
    const third = await fetch(p.url, { method: "POST", headers: { "content-type": "application/json" }, body: input });
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("1");
    expect(await third.json()).toMatchObject({ status: 503, detail: expect.stringContaining("maxConnections") });
    release();
    await Promise.all(firstTwo.map((r) => r.text()));
    await new Promise((r) => setTimeout(r, 50));
    const after = await fetch(p.url, { method: "POST", headers: { "content-type": "application/json" }, body: input });
    expect(after.status).toBe(200);
    await after.text();
  });

  it("over maxBufferedBytes (a client that stopped reading) new requests get 503", async () => {
    const chunk = `data: ${JSON.stringify({ type: "text.delta", seq: 1, id: "t", delta: "x".repeat(60_000) })}\n\n`;
    const up = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "tu" })}\n\n`);
      const pump = () => {
        while (res.write(chunk));
        res.once("drain", pump);
      };
      pump();
    });
    const p = await proxy(up.url, { caps: { maxBufferedBytes: 256 * 1024 } });
    // A client that opens a stream and never reads it.
    const sock = connect(p.port, "127.0.0.1");
    cleanups.push(async () => void sock.destroy());
    sock.write(post("/", ["host: localhost"]).replace("connection: close", "connection: keep-alive"));
    sock.pause();
    await new Promise((r) => setTimeout(r, 500));
    const refused = await fetch(p.url, { method: "POST", headers: { "content-type": "application/json" }, body: input });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.text()).toContain("maxBufferedBytes");
  });

  it("a body that does not arrive within bodyTimeoutMs is answered 408 and the connection closed", async () => {
    const up = await listen((_req, res) => res.end());
    const p = await proxy(up.url, { caps: { bodyTimeoutMs: 200 } });
    const got = await raw(
      p.url,
      `POST / HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"protocol"`,
    );
    expect(got).toMatch(/^HTTP\/1\.1 408/);
    expect(got).toContain("request-timeout");
  });

  it("OPTIONS: 405 with Allow by default; with cors, a preflight 204 and the origin on every response", async () => {
    const up = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(turn);
    });
    const plain = await proxy(up.url);
    const no = await fetch(plain.url, { method: "OPTIONS" });
    expect(no.status).toBe(405);
    expect(no.headers.get("allow")).toBe("POST");
    const cors = await proxy(up.url, { cors: "https://app.example" });
    const pre = await fetch(cors.url, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, authorization",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(pre.headers.get("access-control-allow-methods")).toBe("POST");
    expect(pre.headers.get("access-control-allow-headers")).toBe("content-type, authorization");
    const res = await fetch(cors.url, {
      method: "POST",
      headers: { origin: "https://app.example", "content-type": "application/json" },
      body: input,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await res.text();
    const other = await fetch(cors.url, { method: "OPTIONS", headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("agjson proxy takes the new flags and refuses bad values naming them", () => {
    for (const [args, message] of [
      [["--max-connections", "0"], /--max-connections must be an integer in 1\.\.1000000/],
      [["--max-buffered-bytes", "x"], /--max-buffered-bytes must be an integer/],
      [["--header-timeout-ms", "1e3"], /--header-timeout-ms must be an integer/],
      [["--body-timeout-ms", "-1"], /--body-timeout-ms must be an integer/],
      [["--cors", "not an origin"], /--cors must be an origin/],
    ] as const) {
      const r = agjson(["proxy", "--upstream", "http://127.0.0.1:9/", ...args]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
    }
  });
});
