// Loopback replay server (docs/record.md "Replay server"): binds 127.0.0.1 only and answers each
// provider streaming request with the scenario's next recorded response, then with a canned final
// text once the scenario has none left. Every request and what it was served is kept for the run log.
import http from "node:http";
import { anthropicMessageOf, cannedResponse, formatOfPath, sseBody } from "./provider-streams.mjs";

/**
 * A response with `cutAfter: n` sends its first n chunks and then drops the connection mid-stream
 * (the stream has no end event); one with `nonStreaming: true` answers a non-streaming request
 * with the whole message the chunks add up to (the SDKs' fallback after a cut stream).
 *
 * @param {{ responses: { format: string, chunks?: object[], httpStatus?: number, body?: object, cutAfter?: number, nonStreaming?: boolean, label: string }[], handleRequest?: Function }} opts
 * @returns {Promise<{ baseUrl: string, port: number, requests: object[], problems: string[], unserved: () => string[], close: () => Promise<void> }>}
 */
export async function startReplayServer({ responses, handleRequest }) {
  const queue = [...responses];
  const requests = [];
  const problems = [];
  const server = http.createServer((req, res) => {
    const bufs = [];
    req.on("data", (d) => bufs.push(d));
    req.on("end", async () => {
      const body = Buffer.concat(bufs).toString("utf8");
      let json;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const entry = { method: req.method, path: req.url.split("?")[0] };
      requests.push(entry);
      try {
        if (handleRequest && (await handleRequest({ req, res, body, json, entry }))) return;
        const format = formatOfPath(req.url);
        if (req.method !== "POST" || !format) return refuse(res, entry, 404, `no provider endpoint at ${req.method} ${entry.path}`);
        const streaming = format === "google" ? /:streamGenerateContent/.test(req.url) : json?.stream === true;
        let next = queue[0];
        if (!streaming && !next?.nonStreaming)
          return refuse(
            res,
            entry,
            400,
            `non-streaming ${format} request: the scenario's next response is ${next ? `a stream (${next.label})` : "none"}`,
          );
        if (streaming && next?.nonStreaming)
          return refuse(res, entry, 400, `streaming ${format} request: the scenario's next response is non-streaming (${next.label})`);
        if (next && next.format !== format) {
          return refuse(
            res,
            entry,
            400,
            `scenario's next response is ${next.format} (${next.label}) but the framework called the ${format} endpoint`,
          );
        }
        if (next) queue.shift();
        else next = { format, chunks: cannedResponse(format, json?.model), label: "canned" };
        if (next.httpStatus) {
          entry.served = next.label;
          res.sendDate = false;
          res.writeHead(next.httpStatus, { "content-type": "application/json", "request-id": "req_replay", "x-request-id": "req_replay" });
          return res.end(JSON.stringify(next.body ?? { error: { type: "replay_error", message: `HTTP ${next.httpStatus}` } }));
        }
        entry.served = next.label;
        res.sendDate = false; // a Date header would land in recordings that echo response headers
        if (next.nonStreaming) {
          res.writeHead(200, { "content-type": "application/json", "request-id": "req_replay", "x-request-id": "req_replay" });
          return res.end(JSON.stringify(anthropicMessageOf(next.chunks)));
        }
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          "request-id": "req_replay",
          "x-request-id": "req_replay",
        });
        if (next.cutAfter === undefined) return res.end(sseBody(format, next.chunks));
        // Mid-stream cut: the chunks so far reach the client, then the stream stalls, open, until
        // the client gives up on it and closes the connection.
        res.write(sseBody(format, next.chunks.slice(0, next.cutAfter)));
      } catch (e) {
        refuse(res, entry, 500, `replay server error: ${e.message}`);
      }
    });
  });
  function refuse(res, entry, status, message) {
    entry.refused = message;
    problems.push(message);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { type: "replay_error", message } }));
  }
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    problems,
    unserved: () => queue.map((r) => r.label),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
