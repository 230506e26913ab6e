/**
 * A loopback (127.0.0.1) provider stand-in for the end-to-end and differential tests: it records
 * each POSTed body and answers with a recorded stream as SSE. Nothing leaves the machine.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Captured {
  path: string;
  body: unknown;
}

export interface Loopback {
  url: string;
  requests: Captured[];
  close(): Promise<void>;
}

/** Starts a server that answers every POST with `chunks` as SSE (named events when `named`). */
export async function startLoopback(chunks: unknown[], opts: { named?: boolean; done?: boolean } = {}): Promise<Loopback> {
  const requests: Captured[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      requests.push({ path: req.url ?? "", body: text === "" ? null : JSON.parse(text) });
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const c of chunks) {
        const type = typeof c === "object" && c !== null && "type" in c && typeof c.type === "string" ? c.type : undefined;
        res.write(`${opts.named && type ? `event: ${type}\n` : ""}data: ${JSON.stringify(c)}\n\n`);
      }
      if (opts.done) res.write("data: [DONE]\n\n");
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** Starts a server that records each POSTed body and answers 500 (the body is all a test needs). */
export async function startCapture(): Promise<Loopback> {
  const requests: Captured[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      requests.push({ path: req.url ?? "", body: text === "" ? null : JSON.parse(text) });
      res.writeHead(500, { "content-type": "application/json" });
      res.end('{"error":{"message":"loopback capture"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
