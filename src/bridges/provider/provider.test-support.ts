/**
 * A loopback (127.0.0.1) provider for the provider-source tests: request i is answered with
 * answer i (the last one repeats) — a recorded provider stream as SSE, written as
 * src/reinput/loopback.test-support.ts writes it, or an HTTP error — and every request's path,
 * headers and body are kept. Nothing leaves the machine.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { readNativeChunks } from "../../normalize/index.js";
import { REPO } from "../ag-ui/ag-ui.test-support.js";

/**
 * One answer: a recorded stream (SSE, `event:` named by the chunk's type when `named`; the socket
 * destroyed after `cutAfter` chunks, a connection lost mid-stream) or an error status.
 */
export type ProviderAnswer = { chunks: unknown[]; named?: boolean; cutAfter?: number } | { status: number; body: string };

export interface ProviderRequestSeen {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ProviderLoopback {
  url: string;
  requests: ProviderRequestSeen[];
  close(): Promise<void>;
}

/** The native chunks of a recording under fixtures/providers. */
export function providerRecording(file: string): unknown[] {
  return readNativeChunks(readFileSync(join(REPO, "fixtures/providers", file), "utf8"));
}

/** Starts the loopback provider. */
export async function startProviderLoopback(answers: ProviderAnswer[]): Promise<ProviderLoopback> {
  const requests: ProviderRequestSeen[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      requests.push({ path: req.url ?? "", headers: req.headers, body: text === "" ? null : JSON.parse(text) });
      const answer = answers[Math.min(requests.length, answers.length) - 1]!;
      if ("status" in answer) {
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(answer.body);
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const [i, c] of answer.chunks.entries()) {
        if (i === answer.cutAfter) {
          res.flushHeaders();
          setTimeout(() => res.destroy(), 20);
          return;
        }
        const type = typeof c === "object" && c !== null && "type" in c && typeof c.type === "string" ? c.type : undefined;
        res.write(`${answer.named && type ? `event: ${type}\n` : ""}data: ${JSON.stringify(c)}\n\n`);
      }
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
