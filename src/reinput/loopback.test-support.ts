/**
 * A loopback (127.0.0.1) provider stand-in, shared by the re-input end-to-end and differential tests
 * and the provider-source bridge and CLI tests (it lives in the lowest layer that uses it, so every
 * room above may import it): request i is answered with answer i (the last one repeats) — a
 * recorded provider stream as SSE or an HTTP error — and every request's path, headers and body are
 * kept. Nothing leaves the machine.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One answer: a recorded stream as SSE (`event:` named by the chunk's type when `named`; a final
 * `data: [DONE]` when `done`; the socket destroyed after `cutAfter` chunks, a connection lost
 * mid-stream) or an error status with its body.
 */
export type ProviderAnswer = { chunks: unknown[]; named?: boolean; done?: boolean; cutAfter?: number } | { status: number; body: string };

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

/** Starts the loopback provider. */
export async function startProviderLoopback(answers: ProviderAnswer[]): Promise<ProviderLoopback> {
  if (answers.length === 0) throw new Error("startProviderLoopback: give at least one answer");
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
      if (answer.done) res.write("data: [DONE]\n\n");
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
