/**
 * The AG-UI endpoint on Node's `http` module: an `(req, res)` listener over the fetch-style handler
 * (handler.ts), and `startAgUiServer`, what `agjson serve --agui` runs. Reading and writing reuse the gateway's
 * public `requestBody` (socket paused while the reader is behind; a refused body is drained) and
 * `writeNodeResponse` (write backpressure, client disconnect cancels the stream). The server holds
 * the gateway's line (docs/gateway.md "Caps", same names and defaults): at most `maxConnections`
 * requests and `maxBufferedBytes` of output at once (then 503), headers within `headerTimeoutMs`,
 * the body within `bodyTimeoutMs` (408), and no response past `wallTimeoutMs` + `idleTimeoutMs`.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import {
  createDeadlineServer,
  createRequestGuard,
  listen,
  refuseNodeRequest,
  requestBody,
  resolveCaps,
  ServerLoad,
  writeNodeResponse,
  type GatewayCaps,
  type RequestGuardOptions,
} from "../../gateway/index.js";
import { createAgUiHandler, type AgUiHandler, type AgUiHandlerOptions } from "./handler.js";
import { agUiProblem, agUiProblemResponse } from "./problem.js";
import { AG_UI_SERVER_DEFAULTS } from "./input-caps.js";

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!name.startsWith(":")) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(hasBody ? { body: requestBody(req), duplex: "half" } : {}),
  };
  // The path is all the handler needs; the Host header is not trusted to build an absolute URL.
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://agui.invalid");
  } catch {
    url = new URL("http://agui.invalid/\u0000invalid-target");
  }
  return new Request(url, init);
}

/** The server caps of the AG-UI endpoint: the gateway's, by the same names (docs/bridges/ag-ui.md "Running it safely"). */
export type AgUiServerCaps = Pick<
  GatewayCaps,
  "maxConnections" | "maxBufferedBytes" | "headerTimeoutMs" | "bodyTimeoutMs" | "idleTimeoutMs" | "wallTimeoutMs"
>;

/** Options of {@link toNodeListener}. */
export interface AgUiNodeListenerOptions extends RequestGuardOptions {
  /** Caps over the gateway's defaults; out of range throws when the listener is made. */
  caps?: Partial<AgUiServerCaps>;
}

/**
 * A Node `http` request listener serving the AG-UI endpoint through `handler`, behind the gateway's
 * request guard: a Host other than localhost, `*.localhost`, an IP literal or `options.allowedHosts`
 * (DNS rebinding), an Origin other than the server's own or `options.cors`, or — with
 * `options.token` — a request without that bearer token is refused 403 / 401 before its body is
 * read. Give `options.cors` the same origin as the handler's `cors`. Over a cap, 503.
 */
export function toNodeListener(
  handler: AgUiHandler,
  options: AgUiNodeListenerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const caps = resolveCaps(options.caps ?? {});
  const load = new ServerLoad();
  // Past wall time plus one idle period a response is over whatever happened: even a client that
  // stopped reading (so the final RUN_ERROR cannot be delivered) loses its connection.
  const hardDeadlineMs = caps.wallTimeoutMs + caps.idleTimeoutMs;
  const gate = createRequestGuard(options);
  return (req, res) => {
    if (refuseNodeRequest(gate, req, res)) return;
    // Over a global cap a request is refused at once, before its body is read: 503 and Retry-After
    // (RFC 9110 §15.6.4), as the gateway refuses it.
    const overload = load.overload(caps, "the AG-UI endpoint");
    if (overload !== null) {
      req.resume();
      void writeNodeResponse(agUiProblemResponse(agUiProblem("overloaded", `${overload}; retry shortly`), { "retry-after": "1" }), res);
      return;
    }
    load.track(res);
    const gone = new AbortController();
    const deadline = setTimeout(() => res.destroy(), hardDeadlineMs);
    deadline.unref();
    res.once("close", () => {
      clearTimeout(deadline);
      gone.abort();
    });
    void (async () => {
      let response: Response;
      try {
        response = await handler(toRequest(req, gone.signal));
      } catch {
        // The message may name internals: the client gets the problem type, nothing more.
        response = agUiProblemResponse(agUiProblem("bridge-error", "the AG-UI endpoint failed while handling the request"));
      }
      await writeNodeResponse(response, res);
    })().catch(() => res.destroy());
  };
}

/** Options of {@link startAgUiServer}. */
export interface AgUiServerOptions extends AgUiHandlerOptions {
  /** Port to listen on; default `AG_UI_SERVER_DEFAULTS.port` (8788), 0 picks a free one. */
  port?: number;
  /** Interface to bind; default 127.0.0.1 (expose deliberately, e.g. "0.0.0.0"). Its name is a Host the server answers. */
  host?: string;
  /** Host names answered besides localhost, `*.localhost` and IP literals (leading dot: subdomains too; `*`: any). */
  allowedHosts?: readonly string[];
  /** A bearer token every request must carry (`Authorization: Bearer …`; an `HttpAgent` sends it with `headers`). */
  token?: string;
  /**
   * The server's caps and deadlines, the gateway's by name and default: `maxConnections` (1,024),
   * `maxBufferedBytes` (256 MiB), `headerTimeoutMs` (10 s), `bodyTimeoutMs` (30 s), and the response
   * deadline `wallTimeoutMs` (10 min) + `idleTimeoutMs` (60 s). The source's own deadlines are its options.
   */
  serverCaps?: Partial<AgUiServerCaps>;
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

/** Starts an HTTP server whose every POST to its path is an AG-UI run against `options.source`. */
export async function startAgUiServer(options: AgUiServerOptions): Promise<RunningAgUiServer> {
  const {
    port = AG_UI_SERVER_DEFAULTS.port,
    host = AG_UI_SERVER_DEFAULTS.host,
    allowedHosts,
    token,
    serverCaps = {},
    ...handlerOptions
  } = options;
  const caps = resolveCaps(serverCaps);
  // The header deadline is the server's (node answers 408 and closes); the body deadline is the
  // handler's own (408 problem), with the server's whole-request timer as the outer bound. Neither
  // limits the response: a run streams until the source's deadlines or the hard deadline end it.
  const server = createDeadlineServer(
    caps,
    toNodeListener(await createAgUiHandler({ bodyTimeoutMs: caps.bodyTimeoutMs, ...handlerOptions }), {
      caps: serverCaps,
      allowedHosts,
      host,
      cors: handlerOptions.cors,
      token,
    }),
  );
  const running = await listen(server, port, host);
  const path = handlerOptions.path ?? "/";
  return { ...running, url: new URL(path, running.url).href };
}
