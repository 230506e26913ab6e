/**
 * `agjson proxy` (`startProxy`) at its edges, over real loopback sockets: a client that sends its
 * headers slowly is cut at the header deadline, not up to 30 s later; an upstream agjson host's own
 * 4xx reaches the client as that 4xx with the host's reason, and its 5xx as a 502.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy, type ProxyOptions, type RunningProxy } from "./proxy.js";
import { startLoopbackUpstream } from "./upstream.test-support.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function proxy(opts: Partial<ProxyOptions> & Pick<ProxyOptions, "upstream">): Promise<RunningProxy> {
  const p = await startProxy({ port: 0, ...opts });
  closers.push(() => p.close());
  return p;
}

describe("request deadlines are kept on time", () => {
  it("a client trickling its headers is answered 408 and closed near headerTimeoutMs, well before node's 30 s check", async () => {
    const p = await proxy({ upstream: "http://127.0.0.1:9/", caps: { headerTimeoutMs: 1000 } });
    const socket = connect(p.port, "127.0.0.1");
    let answer = "";
    socket.on("data", (c: Buffer) => (answer += c.toString()));
    socket.on("error", () => {});
    const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now())));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    const started = Date.now();
    socket.write("POST / HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    // One header line every 200 ms, never the blank line that ends them (a slow-loris client).
    let n = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed) socket.write(`x-slow-${n++}: 1\r\n`);
    }, 200);
    closers.push(async () => {
      clearInterval(trickle);
      socket.destroy();
    });
    // Generous: the bound only tells "at the deadline" (1 s + one check) from "at node's 30 s check".
    const at = await Promise.race([closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 8000))]);
    expect(at).not.toBe("open");
    expect((at as number) - started).toBeLessThan(8000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 12_000);
});

/** A loopback upstream answering every request with `handler`; its URL. */
async function upstream(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const up = await startLoopbackUpstream(handler);
  closers.push(up.close);
  return up.url;
}

const agInput = JSON.stringify({
  protocol: "agjson",
  version: "1.0.0-draft.1",
  kind: "start",
  threadId: "t1",
  turnId: "u1",
  messages: [{ id: "m1", role: "user", content: [{ type: "text", text: "hi" }] }],
});

const post = (url: string) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: agInput });

/** The proxy both ways: the node:http upstream client, and the fetch handler (an injected `fetch`). */
const PATHS = [
  ["node:http", {}],
  ["fetch", { fetch: (input: string | URL | Request, init?: RequestInit) => fetch(input, init) }],
] as const;

// Each case starts a proxy and its upstream per status; the first loads the validator.
describe("an upstream agjson host's own 4xx is the client's error (upstream-refusal.ts)", { timeout: 20_000 }, () => {
  it.each(PATHS)(
    "%s: 400, 401, 404, 413, 429 pass through as problems with the host's reason, bounded and escaped",
    async (_name, extra) => {
      for (const status of [400, 401, 404, 413, 429]) {
        const detail = `refused \u001b[2J\nforged \u2028${"z".repeat(1000)}`;
        const url = await upstream((_req, res) => {
          res.writeHead(status, { "content-type": "application/problem+json" });
          res.end(JSON.stringify({ type: "https://agent.example/problems/x", title: "Refused", status, detail }));
        });
        const p = await proxy({ upstream: url, ...extra });
        const r = await post(p.url);
        expect(r.status, String(status)).toBe(status);
        expect(r.headers.get("content-type")).toBe("application/problem+json");
        const problem = (await r.json()) as { type: string; status: number; detail: string };
        expect(problem.type).toMatch(/\/upstream-refused$/);
        expect(problem.status).toBe(status);
        const head = "refused \u001b[2J\nforged \u2028";
        expect(problem.detail).toBe(
          `the upstream agent host refused the request (HTTP ${status}): refused \\u001b[2J\\nforged \\u2028${"z".repeat(300 - head.length)}…`,
        );
      }
    },
  );

  it.each(PATHS)("%s: a 5xx, a hop 4xx (408, 421) and a 4xx body that never ends are 502, the last at once", async (_name, extra) => {
    for (const status of [500, 503, 408, 421]) {
      const url = await upstream((_req, res) => {
        res.writeHead(status, { "content-type": "application/problem+json" });
        res.end(JSON.stringify({ title: "x", status, detail: "not the client's" }));
      });
      const r = await post((await proxy({ upstream: url, ...extra })).url);
      expect(r.status, String(status)).toBe(502);
      expect(await r.text()).toContain(`"reason":"upstream-status"`);
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    const endless = await upstream((_req, res) => {
      res.writeHead(400, { "content-type": "application/problem+json" });
      res.write('{"title":"Refused","detail":"too long: ');
      timer = setInterval(() => res.write("w".repeat(16 * 1024)), 5);
      res.once("close", () => clearInterval(timer));
    });
    closers.push(async () => clearInterval(timer));
    const r = await post((await proxy({ upstream: endless, ...extra })).url);
    expect(r.status).toBe(400);
    // Read to 2 KiB only: the reason is the start of the detail, marked cut.
    expect(((await r.json()) as { detail: string }).detail).toMatch(
      /^the upstream agent host refused the request \(HTTP 400\): too long: w+…$/,
    );
  });

  it.each(PATHS)("%s: a 4xx body that stalls is read for no longer than the idle cap", async (_name, extra) => {
    const url = await upstream((_req, res) => {
      res.writeHead(422, { "content-type": "application/problem+json" });
      res.write('{"title":"Refused","detail":"stal');
    });
    const r = await post((await proxy({ upstream: url, caps: { idleTimeoutMs: 300 }, ...extra })).url);
    expect(r.status).toBe(422);
    expect(((await r.json()) as { detail: string }).detail).toBe("the upstream agent host refused the request (HTTP 422): stal…");
  });
});
