/**
 * The gateway as a `node:http` request listener. The AgInput is checked through the same `Request`
 * front door as the fetch handler (once per request, so its cost does not matter); the event stream,
 * where the per-chunk cost is, runs without Web streams: upstream is requested with `node:http(s)`,
 * each socket chunk is pushed into an `EventValidationCore`, and its output goes straight to
 * `res.write`. Backpressure is the socket's: upstream is paused while the client's socket is full.
 */

import type { Readable } from "node:stream";
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions, type ServerResponse } from "node:http";
import { EventValidationCore, type EventOutput } from "./event-validation-core.js";
import {
  admit,
  corsHeaders,
  createFetchGatewayHandler,
  gatewayContext,
  streamFormatOf,
  streamHeaders,
  streamOptions,
  upstreamFailure,
  upstreamRefusedResponse,
  type Admitted,
  type GatewayContext,
  type GatewayOptions,
} from "./handler.js";
import { ServerLoad } from "./admission.js";
import { buildProblem, problemResponse, type ProblemType } from "./problem.js";
import { createRequestGuard, refuseNodeRequest } from "./request-guard.js";
import { ERROR_BODY_BYTES, ERROR_BODY_MS, readNodeErrorBody, upstreamRefusal } from "./upstream-refusal.js";

/**
 * The request body (or any byte Readable: `agjson acp` reads stdin this way) as a Web stream that
 * respects backpressure (pauses the source when full) and, when
 * cancelled (a refused request), discards the rest instead of erroring — node's `Readable.toWeb`
 * keeps enqueueing after cancel on Node 20.
 */
export function requestBody(req: Readable): ReadableStream<Uint8Array> {
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.on("data", (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.once("end", () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        req.once("error", (error) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        settled = true;
        req.resume();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(":")) continue;
    headers.append(name, raw[i + 1]!);
  }
  return headers;
}

/**
 * A Host header (RFC 9110 §7.2, RFC 3986 §3.2.2): a reg-name, IPv4 or bracketed IPv6 literal, and
 * an optional port. Anything else is refused with 400 before it can reach URL parsing.
 */
const HOST = /^(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*(?::[0-9]*)?$|^\[[0-9A-Fa-f:.]+\](?::[0-9]*)?$/;

/** Why the request line and headers cannot be served (400), or null. */
function malformedRequest(req: IncomingMessage): string | null {
  const host = req.headers.host ?? "localhost";
  if (!HOST.test(host)) return `the Host header ${JSON.stringify(host.slice(0, 100))} is not a host name, address or port (RFC 9110 §7.2)`;
  let authorizations = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() === "authorization") authorizations++;
  // RFC 9110 §5.3: a field that is not a list must not repeat; two credentials are ambiguous.
  if (authorizations > 1) return `the request carries ${authorizations} Authorization headers; send exactly one`;
  try {
    new URL(req.url ?? "/", `http://${host}`);
  } catch {
    return `the request target ${JSON.stringify((req.url ?? "").slice(0, 100))} with Host ${JSON.stringify(host.slice(0, 100))} is not a URL`;
  }
  return null;
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method: req.method ?? "GET",
    headers: toHeaders(req),
    signal,
    ...(hasBody ? { body: requestBody(req), duplex: "half" } : {}),
  } as RequestInit);
}

/** Writes a Web Response to a node ServerResponse, honouring `write()` backpressure. */
export async function writeNodeResponse(response: Response, res: ServerResponse): Promise<void> {
  if (res.destroyed) {
    // The client is gone: nothing can be written, and waiting for 'drain' would wait forever.
    await response.body?.cancel().catch(() => {});
    return;
  }
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel("client disconnected").catch(() => {});
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (gone) return;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const settle = () => {
            res.off("drain", settle);
            res.off("close", settle);
            resolve();
          };
          res.once("drain", settle);
          res.once("close", settle);
        });
        if (gone) return;
      }
    }
    res.end();
  } catch {
    // The body errored (it should not: the validation stream ends with events, not errors).
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

/**
 * Output queued for the client beyond which upstream is paused (until 'drain'): one upstream read.
 * The socket's own high-water mark (16 KiB) is below a single 64 KiB read, so pausing at it paused
 * upstream after nearly every chunk, and the two body pieces of one chunk-encoded read then left
 * in two writes instead of one (strace, three 26 MB streams: 1,588 writev against the
 * pass-through's 1,196; 1,271 with this bound).
 */
const OUTPUT_HIGH_WATER = 64 * 1024;

/**
 * The core's output as the client's socket. Once more than OUTPUT_HIGH_WATER bytes from earlier
 * upstream chunks still wait in it, the driver pauses upstream until 'drain', so what the gateway
 * holds for a slow client is that plus the output of one upstream chunk.
 *
 * Only earlier chunks' output counts: node's HTTP response corks its socket until the next tick,
 * so right after a chunk is written all of it sits in the queue, even when the client is keeping
 * up. Counting it paused upstream after 285 of the 400 reads of a 26 MB stream to a client that
 * kept up (each pause a readStop/readStart and a stall until the flush); not counting it, once.
 */
class ResponseOutput implements EventOutput {
  full = false;
  /** Bytes written for the upstream chunk being pushed. */
  #thisChunk = 0;
  constructor(
    private readonly res: ServerResponse,
    private readonly onClose: () => void,
  ) {}

  /** A new upstream chunk is about to be pushed. */
  beginChunk(): void {
    this.#thisChunk = 0;
  }

  write(bytes: Uint8Array): void {
    this.#thisChunk += bytes.byteLength;
    if (!this.res.write(bytes) && this.res.writableLength - this.#thisChunk > OUTPUT_HIGH_WATER) this.full = true;
  }

  close(): void {
    this.onClose();
  }

  queuedBytes(): number {
    return this.res.writableLength;
  }

  blocked(): boolean {
    return this.full;
  }
}

type UpstreamAnswer = { response: IncomingMessage } | { error: Error };
type RequestFn = (url: URL, options: RequestOptions) => ClientRequest;

let httpsRequest: Promise<RequestFn> | undefined;

/** `node:http`'s or, for an https upstream, `node:https`'s client (loaded on first use). */
function requestFnFor(url: URL): RequestFn | Promise<RequestFn> {
  if (url.protocol !== "https:") return httpRequest;
  return (httpsRequest ??= import("node:https").then((https) => https.request));
}

/** POSTs the AgInput upstream; resolves at the response headers, or with why there are none. */
function requestUpstream(
  ctx: GatewayContext,
  requestFn: RequestFn,
  admitted: Admitted,
  signal: AbortSignal,
  fresh = false,
): { request: ClientRequest; answer: Promise<UpstreamAnswer> } {
  const headers: Record<string, string> = {};
  admitted.headers.forEach((value, name) => {
    headers[name] = value;
  });
  // The event stream is validated and forwarded byte-for-byte (§13.2), so it must arrive unencoded.
  headers["accept-encoding"] = "identity";
  headers["content-length"] = String(admitted.body.byteLength);
  // A retry goes out on a new connection: the pool may hold more sockets the upstream has closed.
  const options: RequestOptions = fresh ? { method: "POST", headers, agent: false } : { method: "POST", headers };
  const request = requestFn(ctx.upstream, options);
  // Errors after the response headers surface on the response; this keeps them from being unhandled.
  request.on("error", () => {});
  const answer = new Promise<UpstreamAnswer>((resolve) => {
    // Waiting for the response headers is bounded by the idle cap; once streaming, the core's idle
    // and wall timers take over. A client that goes away aborts the upstream request.
    const timer = setTimeout(
      () => request.destroy(new Error(`no response headers within ${ctx.caps.idleTimeoutMs} ms`)),
      ctx.caps.idleTimeoutMs,
    );
    const onAbort = () => request.destroy(new Error("client disconnected"));
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = (result: UpstreamAnswer) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    };
    request.once("response", (response) => settle({ response }));
    request.once("error", (error) => settle({ error }));
  });
  request.end(Buffer.from(admitted.body.buffer, admitted.body.byteOffset, admitted.body.byteLength));
  return { request, answer };
}

/**
 * Streams the upstream response through the validation core to the client. Every way the stream
 * can end leads to `res.end()` once: upstream's end (`core.end`), upstream's failure (`core.fail`,
 * a retriable terminal `turn.error`), the core's own end (a cap, a timer, `terminate`: upstream is
 * hung up on). A client that goes away hangs up on upstream too.
 */
function relay(
  ctx: GatewayContext,
  admitted: Admitted,
  upRequest: ClientRequest,
  upResponse: IncomingMessage,
  res: ServerResponse,
  contentType: string,
  format: "sse" | "ndjson",
  load: ServerLoad,
): void {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    upResponse.off("data", onData);
    if (!res.writableEnded) res.end();
  };
  const hangUp = () => {
    finish();
    upRequest.destroy();
  };
  const output = new ResponseOutput(res, hangUp);
  const core = new EventValidationCore(streamOptions(ctx, admitted, format), output);
  core.begin(admitted.validator.validateEvent);
  if (load.streams.has(res)) load.streams.set(res, core);
  ctx.opts.onStream?.(core);
  res.writeHead(200, streamHeaders(contentType));
  res.flushHeaders();

  const onData = (chunk: Buffer) => {
    output.beginChunk();
    core.push(chunk);
    if (output.full && !finished) upResponse.pause();
  };
  res.on("drain", () => {
    output.full = false;
    if (!finished) upResponse.resume();
  });
  res.once("close", () => {
    if (finished) return;
    // The client went away before the stream ended: nothing more can be told, stop the upstream.
    finished = true;
    core.cancel();
    upRequest.destroy();
  });
  upResponse.on("data", onData);
  upResponse.once("end", () => {
    core.end();
    finish();
  });
  upResponse.once("error", (error) => {
    core.fail(error);
    finish();
  });
  upResponse.once("close", () => {
    // A close without 'end' (and without 'error', which settles first) is a cut connection.
    if (finished) return;
    core.fail(new Error("the upstream connection closed before the stream ended"));
    finish();
  });
}

/**
 * A pooled keep-alive connection the upstream closed while it sat idle fails the next request sent
 * on it with a reset before any response byte: nothing reached the upstream's application and
 * nothing reached the client, so the request is sent once more on a new connection (RFC 9112 §9.3.1
 * lets a client retry a request whose connection closed before any response).
 */
function isStalePooledSocket(request: ClientRequest, error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return request.reusedSocket && (code === "ECONNRESET" || code === "EPIPE" || code === "ECONNABORTED");
}

function answerProblem(res: ServerResponse, kind: ProblemType, detail: string, headers: Record<string, string> = {}): Promise<void> {
  return writeNodeResponse(problemResponse(buildProblem(kind, detail), headers), res);
}

async function serve(ctx: GatewayContext, req: IncomingMessage, res: ServerResponse, signal: AbortSignal, load: ServerLoad): Promise<void> {
  // The body deadline runs from the request's arrival; a client that trickles its AgInput is answered
  // 408 and its connection closed, so it cannot hold a connection slot for ever.
  let bodyTimer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    bodyTimer = setTimeout(() => resolve("late"), ctx.caps.bodyTimeoutMs);
  });
  const admitted = await Promise.race([admit(ctx, toRequest(req, signal)), late]);
  clearTimeout(bodyTimer);
  if (admitted === "late") {
    return answerProblem(res, "request-timeout", `the AgInput body did not arrive within ${ctx.caps.bodyTimeoutMs} ms`, {
      connection: "close",
    });
  }
  if (admitted instanceof Response) return writeNodeResponse(admitted, res);
  if (signal.aborted) return;
  const { format, turnId } = admitted;
  const requestFn = await requestFnFor(ctx.upstream);
  let { request, answer } = requestUpstream(ctx, requestFn, admitted, signal);
  let got = await answer;
  if ("error" in got && !signal.aborted && isStalePooledSocket(request, got.error)) {
    ({ request, answer } = requestUpstream(ctx, requestFn, admitted, signal, true));
    got = await answer;
  }
  if ("error" in got) {
    if (signal.aborted) return;
    return writeNodeResponse(
      upstreamFailure(format, turnId, "upstream-unavailable", `the upstream agent host could not be reached: ${got.error.message}`),
      res,
    );
  }
  const upResponse = got.response;
  const status = upResponse.statusCode ?? 0;
  if (status < 200 || status > 299) {
    // The upstream's own 4xx is the client's error: its status and reason pass through; the rest is 502.
    const refusal =
      status >= 400 && status < 500
        ? upstreamRefusal(status, await readNodeErrorBody(upResponse, ERROR_BODY_BYTES, Math.min(ERROR_BODY_MS, ctx.caps.idleTimeoutMs)))
        : null;
    request.destroy();
    if (refusal !== null) return writeNodeResponse(upstreamRefusedResponse(refusal), res);
    return writeNodeResponse(upstreamFailure(format, turnId, "upstream-status", `the upstream agent host answered HTTP ${status}`), res);
  }
  const contentType = upResponse.headers["content-type"] ?? null;
  const upstreamFormat = streamFormatOf(contentType);
  const encoding = (upResponse.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (upstreamFormat === null || encoding !== "identity") {
    request.destroy();
    const what = upstreamFormat === null ? (contentType ?? "without a Content-Type") : `${contentType} with Content-Encoding ${encoding}`;
    return writeNodeResponse(
      upstreamFailure(
        format,
        turnId,
        "upstream-content-type",
        `the upstream agent host answered ${what}, not an identity-encoded event stream`,
      ),
      res,
    );
  }
  if (signal.aborted) {
    request.destroy();
    return;
  }
  relay(ctx, admitted, request, upResponse, res, contentType!, upstreamFormat, load);
}

/** Creates a `node:http` request listener running the gateway. */
export function createGatewayHandler(opts: GatewayOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return gatewayListener(opts);
}

/** The gateway listener; `boundHost`, the interface a server built on it binds, is a Host it answers. */
export function gatewayListener(opts: GatewayOptions, boundHost?: string): (req: IncomingMessage, res: ServerResponse) => void {
  const ctx = gatewayContext(opts);
  // An injected upstream client speaks fetch: such a handler keeps the Web path end to end.
  const viaFetch = opts.fetch ? createFetchGatewayHandler(opts) : null;
  // Past wall time plus one idle period a response is over whatever happened: even a client that
  // stopped reading (so the final turn.error cannot be delivered) loses its connection.
  const hardDeadlineMs = ctx.caps.wallTimeoutMs + ctx.caps.idleTimeoutMs;
  const load = new ServerLoad();
  const guard = createRequestGuard({ allowedHosts: opts.allowedHosts, host: boundHost, cors: opts.cors, token: opts.token });
  return (req, res) => {
    for (const [name, value] of Object.entries(corsHeaders(ctx, req.headers.origin ?? null))) res.setHeader(name, value);
    // Over a global cap a request is refused at once, before its body is read: 503 and Retry-After
    // (RFC 9110 §15.6.4) tell a well-behaved client to come back; the refusal holds nothing.
    const overload = load.overload(ctx.caps, "the gateway");
    if (overload !== null) {
      req.resume();
      void answerProblem(res, "overloaded", `${overload}; retry shortly`, { "retry-after": "1" });
      return;
    }
    const malformed = malformedRequest(req);
    if (malformed !== null) {
      req.resume();
      void answerProblem(res, "bad-request", malformed, { connection: "close" });
      return;
    }
    // A foreign Host (DNS rebinding), a foreign Origin or a missing token: refused unread.
    if (refuseNodeRequest(guard, req, res)) return;
    load.track(res);
    const aborter = new AbortController();
    const deadline = setTimeout(() => res.destroy(), hardDeadlineMs);
    deadline.unref();
    res.once("close", () => {
      clearTimeout(deadline);
      if (!res.writableFinished) aborter.abort(new Error("client disconnected"));
    });
    const served = viaFetch
      ? viaFetch(toRequest(req, aborter.signal)).then((response) => writeNodeResponse(response, res))
      : serve(ctx, req, res, aborter.signal, load);
    served.catch((error: unknown) => {
      if (!res.headersSent) {
        const why = error instanceof Error ? error.message : String(error);
        const problem = buildProblem("gateway-error", `the gateway failed while handling the request: ${why}`);
        res.writeHead(problem.status, { "content-type": "application/problem+json" });
        res.end(JSON.stringify(problem));
      } else {
        res.destroy();
      }
    });
  };
}
