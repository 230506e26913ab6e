/**
 * The AG-UI endpoint on Node's `http` module: an `(req, res)` listener over the fetch-style handler
 * (handler.ts), and `startAgUiServer`, what `agjson serve --agui` runs. Reading and writing reuse the gateway's
 * public `requestBody` (socket paused while the reader is behind; a refused body is drained) and
 * `writeNodeResponse` (write backpressure, client disconnect cancels the stream).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequestGuard, listen, refuseNodeRequest, requestBody, writeNodeResponse, type RequestGuardOptions } from "../../gateway/index.js";
import { createAgUiHandler, type AgUiHandler, type AgUiHandlerOptions } from "./handler.js";
import { agUiProblem, agUiProblemResponse } from "./problem.js";

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!name.startsWith(":")) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = { method: req.method ?? "GET", headers, signal, ...(hasBody ? { body: requestBody(req), duplex: "half" } : {}) };
  // The path is all the handler needs; the Host header is not trusted to build an absolute URL.
  return new Request(new URL(req.url ?? "/", "http://agui.invalid"), init);
}

/**
 * A Node `http` request listener serving the AG-UI endpoint through `handler`, behind the gateway's
 * request guard: a Host other than localhost, `*.localhost`, an IP literal or `guard.allowedHosts`
 * (DNS rebinding), an Origin other than the server's own or `guard.cors`, or — with `guard.token` —
 * a request without that bearer token is refused 403 / 401 before its body is read. Give `guard.cors`
 * the same origin as the handler's `cors`.
 */
export function toNodeListener(handler: AgUiHandler, guard: RequestGuardOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const gate = createRequestGuard(guard);
  return (req, res) => {
    if (refuseNodeRequest(gate, req, res)) return;
    const gone = new AbortController();
    res.once("close", () => gone.abort());
    void (async () => {
      let response: Response;
      try {
        response = await handler(toRequest(req, gone.signal));
      } catch (error) {
        response = agUiProblemResponse(agUiProblem("bridge-error", error instanceof Error ? error.message : String(error)));
      }
      await writeNodeResponse(response, res);
    })().catch(() => res.destroy());
  };
}

/** Options of {@link startAgUiServer}. */
export interface AgUiServerOptions extends AgUiHandlerOptions {
  /** Port to listen on; default 8788, 0 picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (expose deliberately, e.g. "0.0.0.0"). Its name is a Host the server answers. */
  host?: string;
  /** Host names answered besides localhost, `*.localhost` and IP literals (leading dot: subdomains too; `*`: any). */
  allowedHosts?: readonly string[];
  /** A bearer token every request must carry (`Authorization: Bearer …`; an `HttpAgent` sends it with `headers`). */
  token?: string;
}

/** A running AG-UI server. */
export interface RunningAgUiServer {
  /** The URL an AG-UI `HttpAgent` posts to. */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting connections and ends open ones. */
  close(): Promise<void>;
}

/** Starts an HTTP server whose every POST is an AG-UI run against `options.source`. */
export async function startAgUiServer(options: AgUiServerOptions): Promise<RunningAgUiServer> {
  const { port = 8788, host = "127.0.0.1", allowedHosts, token, ...handlerOptions } = options;
  const server = createServer(toNodeListener(await createAgUiHandler(handlerOptions), { allowedHosts, host, cors: handlerOptions.cors, token }));
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // a run streams for as long as the agent takes; the client's disconnect ends it
  return listen(server, port, host);
}
