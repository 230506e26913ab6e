/**
 * The gateway as an HTTP handler: validate the client's AgInput, forward it to the upstream agent
 * host, stream the upstream's AgEvents back through the validating transform. A fetch-style handler
 * (`Request` → `Response`) for Web runtimes, and a `node:http` adapter over it.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import { resolveCaps, type GatewayCaps } from "./caps.js";
import {
  createEventValidationStream,
  pipeUpstream,
  type EventValidationStream,
  type GatewayReport,
  type InvalidPolicy,
} from "./event-validation-stream.js";
import { buildGatewayEvent, encodeFrame, type GatewayReason, type StreamFormat } from "./gateway-events.js";
import { validateInputRequest } from "./input-request.js";
import { buildProblem, problemResponse } from "./problem.js";
import { loadDefaultValidator, type GatewayValidator, type Posture } from "./validator.js";

export interface GatewayOptions {
  /** The upstream agent host endpoint that accepts a POSTed AgInput and streams AgEvents. */
  upstream: string | URL;
  /** Validation posture for both directions; `lenient` by default (§0.2, §12). */
  posture?: Posture;
  /** What to do with an invalid streamed event (default `drop`). */
  onInvalid?: InvalidPolicy;
  /** Caps over `DEFAULT_CAPS`. */
  caps?: Partial<GatewayCaps>;
  /** Validators; default `src/validate`. */
  validator?: GatewayValidator;
  /** Client for upstream requests; default the global `fetch`. */
  fetch?: typeof fetch;
  /** Request headers copied to the upstream request (lower-case); default `["authorization"]`. */
  forwardHeaders?: string[];
  /** Called for each frame dropped and each stream ended early. */
  onReport?: (report: GatewayReport) => void;
  /** Called with each response's validation stream (for metrics: `stats`, `bufferedBytes`). */
  onStream?: (stream: EventValidationStream) => void;
}

/** A fetch-style handler: one Request in, one Response out. */
export type FetchGatewayHandler = (request: Request) => Promise<Response>;

const NDJSON_TYPES = new Set(["application/x-ndjson", "application/ndjson", "application/jsonl", "application/x-jsonlines", "application/jsonlines"]);

function streamFormatOf(contentType: string | null): StreamFormat | null {
  const essence = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (essence === "text/event-stream") return "sse";
  if (NDJSON_TYPES.has(essence)) return "ndjson";
  return null;
}

/** The framing a client asked for in Accept; SSE unless it only takes NDJSON. */
function clientFormat(request: Request): StreamFormat {
  const accept = (request.headers.get("accept") ?? "").toLowerCase();
  if (!accept.includes("text/event-stream") && [...NDJSON_TYPES].some((t) => accept.includes(t))) return "ndjson";
  return "sse";
}

const CONTENT_TYPE: Record<StreamFormat, string> = { sse: "text/event-stream; charset=utf-8", ndjson: "application/x-ndjson" };

/**
 * A response for an upstream that failed before streaming: HTTP 502 (so status-checking clients see
 * the failure) whose body is one well-formed terminal `turn.error` naming the input's turn (so
 * stream-parsing clients see it too, INV-TURN §5.0).
 */
function upstreamFailure(format: StreamFormat, turnId: string | undefined, reason: GatewayReason, message: string): Response {
  const event = buildGatewayEvent({
    type: "turn.error",
    seq: 0,
    message,
    reason,
    retriable: true,
    details: { reason },
    ...(turnId === undefined ? {} : { turnId }),
  });
  return new Response(encodeFrame(format, event), {
    status: 502,
    headers: { "content-type": CONTENT_TYPE[format], "cache-control": "no-store" },
  });
}

/** Creates the fetch-style gateway handler (Web runtimes, and the base of the node adapter). */
export function createFetchGatewayHandler(opts: GatewayOptions): FetchGatewayHandler {
  const upstream = new URL(opts.upstream);
  const caps = resolveCaps(opts.caps ?? {});
  const posture = opts.posture ?? "lenient";
  const onInvalid = opts.onInvalid ?? "drop";
  const forwardHeaders = (opts.forwardHeaders ?? ["authorization"]).map((h) => h.toLowerCase());
  const doFetch = opts.fetch ?? fetch;
  let validator: Promise<GatewayValidator> | undefined;
  const getValidator = () => (validator ??= opts.validator ? Promise.resolve(opts.validator) : loadDefaultValidator());

  return async (request) => {
    if (request.method !== "POST") {
      await request.body?.cancel().catch(() => {});
      return problemResponse(buildProblem("method-not-allowed", `${request.method} is not accepted; POST an AgInput`), { allow: "POST" });
    }
    const v = await getValidator();
    const checked = await validateInputRequest(request, { posture, caps, validator: v });
    if (!checked.ok) return checked.response;
    const turnId = typeof checked.input.turnId === "string" ? checked.input.turnId : undefined;
    const format = clientFormat(request);

    const headers = new Headers({
      "content-type": checked.contentType,
      accept: "text/event-stream, application/x-ndjson;q=0.9",
    });
    for (const name of forwardHeaders) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    // Waiting for the upstream's response headers is bounded by the idle cap; once streaming, the
    // validation stream's own idle and wall caps take over. A client that goes away aborts upstream.
    const aborter = new AbortController();
    const onClientGone = () => aborter.abort(request.signal.reason);
    if (request.signal.aborted) onClientGone();
    else request.signal.addEventListener("abort", onClientGone, { once: true });
    const headerTimer = setTimeout(
      () => aborter.abort(new Error(`no response headers within ${caps.idleTimeoutMs} ms`)),
      caps.idleTimeoutMs,
    );
    let upstreamResponse: Response;
    try {
      upstreamResponse = await doFetch(upstream, { method: "POST", headers, body: checked.body, signal: aborter.signal });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const why = aborter.signal.aborted && aborter.signal.reason instanceof Error ? aborter.signal.reason.message : cause instanceof Error ? cause.message : String(cause);
      return upstreamFailure(format, turnId, "upstream-unavailable", `the upstream agent host could not be reached: ${why}`);
    } finally {
      clearTimeout(headerTimer);
    }
    if (!upstreamResponse.ok || upstreamResponse.body === null) {
      await upstreamResponse.body?.cancel().catch(() => {});
      return upstreamFailure(format, turnId, "upstream-status", `the upstream agent host answered HTTP ${upstreamResponse.status}`);
    }
    const upstreamType = upstreamResponse.headers.get("content-type");
    const upstreamFormat = streamFormatOf(upstreamType);
    if (upstreamFormat === null) {
      await upstreamResponse.body.cancel().catch(() => {});
      return upstreamFailure(format, turnId, "upstream-content-type", `the upstream agent host answered ${upstreamType ?? "without a Content-Type"}, not an event stream`);
    }
    const stream = createEventValidationStream({
      posture,
      onInvalid,
      caps,
      format: upstreamFormat,
      validate: v.validateEvent,
      ...(turnId === undefined ? {} : { turnId }),
      ...(opts.onReport ? { onReport: opts.onReport } : {}),
    });
    opts.onStream?.(stream);
    return new Response(pipeUpstream(upstreamResponse.body, stream), {
      status: 200,
      headers: { "content-type": upstreamType!, "cache-control": "no-store", "x-accel-buffering": "no" },
    });
  };
}

/**
 * The request body as a Web stream that respects backpressure (pauses the socket when full) and, when
 * cancelled (a refused request), discards the rest instead of erroring — node's `Readable.toWeb`
 * keeps enqueueing after cancel on Node 20.
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
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

/** Writes a Web Response to a node ServerResponse, honouring `write()` backpressure. */
export async function writeNodeResponse(response: Response, res: ServerResponse): Promise<void> {
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

/** Creates a `node:http` request listener running the gateway. */
export function createGatewayHandler(opts: GatewayOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = createFetchGatewayHandler(opts);
  const caps = resolveCaps(opts.caps ?? {});
  // Past wall time plus one idle period a response is over whatever happened: even a client that
  // stopped reading (so the final turn.error cannot be delivered) loses its connection.
  const hardDeadlineMs = caps.wallTimeoutMs + caps.idleTimeoutMs;
  return (req, res) => {
    const aborter = new AbortController();
    const deadline = setTimeout(() => res.destroy(), hardDeadlineMs);
    deadline.unref();
    res.once("close", () => {
      clearTimeout(deadline);
      if (!res.writableFinished) aborter.abort(new Error("client disconnected"));
    });
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
      method: req.method ?? "GET",
      headers: toHeaders(req),
      signal: aborter.signal,
      ...(hasBody ? { body: requestBody(req), duplex: "half" } : {}),
    } as RequestInit);
    handle(request)
      .then((response) => writeNodeResponse(response, res))
      .catch((error: unknown) => {
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
