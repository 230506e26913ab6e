/**
 * `agjson proxy` (`startProxy`) at its edges, over real loopback sockets: a client that sends its
 * headers slowly is cut at the header deadline, not up to 30 s later.
 */
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy, type ProxyOptions, type RunningProxy } from "./proxy.js";

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
