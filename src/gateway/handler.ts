/**
 * The gateway as an HTTP handler: validate the client's AgInput, forward it to the upstream agent
 * host, stream the upstream's AgEvents back through the validating transform. The fetch-style handler
 * (`Request` → `Response`) for Web runtimes, and the admission and failure rules the node:http
 * handler (`node-handler.ts`) shares with it.
 */

import { resolveCaps, type GatewayCaps } from "./caps.js";
import type {
  EventValidationMonitor,
  EventValidationOptions,
  EventValidationStats,
  GatewayReport,
  InvalidPolicy,
} from "./event-validation-core.js";
import { createEventValidationStream, pipeUpstream } from "./event-validation-stream.js";
import { buildGatewayEvent, encodeFrame, type GatewayReason, type StreamFormat } from "./gateway-events.js";
import { validateInputRequest } from "./input-request.js";
import { buildProblem, problemResponse } from "./problem.js";
import { corsResponseHeaders } from "./origin.js";
import {
  describeRefusal,
  ERROR_BODY_BYTES,
  ERROR_BODY_MS,
  readErrorBody,
  upstreamRefusal,
  type UpstreamRefusal,
} from "./upstream-refusal.js";
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
  /** Called once per validated stream when it closes, with its counters (events, dropped, skipped, …). */
  onSummary?: (stats: EventValidationStats) => void;
  /**
   * Called with each response's validation stream (for metrics: `stats`, `bufferedBytes`, `format`):
   * an `EventValidationStream` in the fetch handler, the `EventValidationCore` the node handler drives.
   */
  onStream?: (stream: EventValidationMonitor) => void;
  /**
   * The browser origin allowed to call the gateway (CORS, Fetch standard), or `*` for any: answers
   * `OPTIONS` preflights with 204 and marks every response. Without it, `OPTIONS` is 405 (`Allow: POST`).
   */
  cors?: string;
  /**
   * Host names the node handler answers besides `localhost`, `*.localhost` and IP literals (a
   * leading dot covers subdomains, `*` turns the check off); any other Host is refused 403 before
   * the body is read, against DNS rebinding (request-guard.ts, docs/gateway.md "Running it safely").
   */
  allowedHosts?: readonly string[];
  /**
   * A bearer token every request must carry (`Authorization: Bearer …`), checked by the node
   * handler. The Authorization header is then this server's own and is not forwarded upstream.
   */
  token?: string;
}

/** A fetch-style handler: one Request in, one Response out. */
export type FetchGatewayHandler = (request: Request) => Promise<Response>;

const NDJSON_TYPES = new Set([
  "application/x-ndjson",
  "application/ndjson",
  "application/jsonl",
  "application/x-jsonlines",
  "application/jsonlines",
]);

export function streamFormatOf(contentType: string | null): StreamFormat | null {
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

export const CONTENT_TYPE: Record<StreamFormat, string> = { sse: "text/event-stream; charset=utf-8", ndjson: "application/x-ndjson" };

/**
 * A response for an upstream that failed before streaming: HTTP 502 (so status-checking clients see
 * the failure) whose body is one well-formed terminal `turn.error` naming the input's turn (so
 * stream-parsing clients see it too, INV-TURN §5.0).
 */
export function upstreamFailure(format: StreamFormat, turnId: string | undefined, reason: GatewayReason, message: string): Response {
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

/**
 * The answer to an upstream's refusal of the client's request (upstream-refusal.ts): the upstream's
 * own 4xx, as an RFC 9457 problem carrying the host's reason, as the gateway's own 4xx refusals are.
 */
export function upstreamRefusedResponse(refusal: UpstreamRefusal): Response {
  return problemResponse(buildProblem("upstream-refused", describeRefusal(refusal), { status: refusal.status }));
}

/** What a handler does when its options say nothing (`agjson proxy`'s defaults too). */
export const GATEWAY_DEFAULTS = { posture: "lenient", onInvalid: "drop" } as const satisfies { posture: Posture; onInvalid: InvalidPolicy };

/** A handler's options resolved once, shared by the fetch and node:http handlers. */
export interface GatewayContext {
  opts: GatewayOptions;
  upstream: URL;
  caps: GatewayCaps;
  posture: Posture;
  onInvalid: InvalidPolicy;
  forwardHeaders: string[];
  getValidator(): Promise<GatewayValidator>;
}

/** Resolves a handler's options; a cap out of range throws here, when the handler is built. */
export function gatewayContext(opts: GatewayOptions): GatewayContext {
  let validator: Promise<GatewayValidator> | undefined;
  return {
    opts,
    upstream: new URL(opts.upstream),
    caps: resolveCaps(opts.caps ?? {}),
    posture: opts.posture ?? GATEWAY_DEFAULTS.posture,
    onInvalid: opts.onInvalid ?? GATEWAY_DEFAULTS.onInvalid,
    // With a token of its own, the client's Authorization is this server's credential: never sent on.
    forwardHeaders: (opts.forwardHeaders ?? ["authorization"])
      .map((h) => h.toLowerCase())
      .filter((h) => opts.token === undefined || h !== "authorization"),
    getValidator: () => (validator ??= opts.validator ? Promise.resolve(opts.validator) : loadDefaultValidator()),
  };
}

/** A request the gateway accepted: what to send upstream, and how to answer the client. */
export interface Admitted {
  validator: GatewayValidator;
  /** The AgInput's exact bytes (§13.2). */
  body: Uint8Array<ArrayBuffer>;
  /** Headers for the upstream request. */
  headers: Headers;
  /** The AgInput's `turnId`, named by a `turn.error` when the stream never opens a turn. */
  turnId: string | undefined;
  /** The framing the client asked for, used when the gateway must answer on its own. */
  format: StreamFormat;
}

/** The CORS response headers for a request from `origin` (request-guard.ts: one origin rule for both). */
export function corsHeaders(ctx: GatewayContext, origin: string | null): Record<string, string> {
  return corsResponseHeaders(ctx.opts.cors, origin);
}

/** A CORS preflight's answer: POST with the headers the client asked to send. */
function preflight(ctx: GatewayContext, request: Request): Response {
  const asked = request.headers.get("access-control-request-headers");
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(ctx, request.headers.get("origin")),
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": asked ?? "content-type, authorization, accept",
      "access-control-max-age": "600",
      allow: "POST, OPTIONS",
    },
  });
}

/** The front door: a refusal (method, RFC 9457 problem) as a Response, or the admitted request. */
export async function admit(ctx: GatewayContext, request: Request): Promise<Response | Admitted> {
  if (request.method === "OPTIONS" && ctx.opts.cors !== undefined) {
    await request.body?.cancel().catch(() => {});
    return preflight(ctx, request);
  }
  if (request.method !== "POST") {
    await request.body?.cancel().catch(() => {});
    return problemResponse(buildProblem("method-not-allowed", `${request.method} is not accepted; POST an AgInput`), {
      allow: ctx.opts.cors === undefined ? "POST" : "POST, OPTIONS",
    });
  }
  const validator = await ctx.getValidator();
  const checked = await validateInputRequest(request, { posture: ctx.posture, caps: ctx.caps, validator });
  if (!checked.ok) return checked.response;
  const headers = new Headers({
    "content-type": checked.contentType,
    accept: "text/event-stream, application/x-ndjson;q=0.9",
  });
  for (const name of ctx.forwardHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return {
    validator,
    body: checked.body,
    headers,
    turnId: typeof checked.input.turnId === "string" ? checked.input.turnId : undefined,
    format: clientFormat(request),
  };
}

/** The validation-stream options of one response. */
export function streamOptions(ctx: GatewayContext, admitted: Admitted, format: StreamFormat): EventValidationOptions {
  return {
    posture: ctx.posture,
    onInvalid: ctx.onInvalid,
    caps: ctx.caps,
    format,
    validate: admitted.validator.validateEvent,
    ...(admitted.turnId === undefined ? {} : { turnId: admitted.turnId }),
    ...(ctx.opts.onReport ? { onReport: ctx.opts.onReport } : {}),
    ...(ctx.opts.onSummary ? { onSummary: ctx.opts.onSummary } : {}),
  };
}

/** Response headers of a validated stream: the upstream's own Content-Type, never cached or buffered. */
export function streamHeaders(contentType: string): Record<string, string> {
  return { "content-type": contentType, "cache-control": "no-store", "x-accel-buffering": "no" };
}

/** Creates the fetch-style gateway handler (Web runtimes; the node handler uses it when `fetch` is injected). */
export function createFetchGatewayHandler(opts: GatewayOptions): FetchGatewayHandler {
  const ctx = gatewayContext(opts);
  const handle = fetchHandler(ctx);
  if (opts.cors === undefined) return handle;
  return async (request) => {
    const response = await handle(request);
    const extra = corsHeaders(ctx, request.headers.get("origin"));
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) if (!headers.has(name)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  };
}

function fetchHandler(ctx: GatewayContext): FetchGatewayHandler {
  const opts = ctx.opts;
  const doFetch = opts.fetch ?? fetch;

  return async (request) => {
    const admitted = await admit(ctx, request);
    if (admitted instanceof Response) return admitted;
    const { format, turnId } = admitted;
    // Waiting for the upstream's response headers is bounded by the idle cap; once streaming, the
    // validation stream's own idle and wall caps take over. A client that goes away aborts upstream.
    const aborter = new AbortController();
    const onClientGone = () => aborter.abort(request.signal.reason);
    if (request.signal.aborted) onClientGone();
    else request.signal.addEventListener("abort", onClientGone, { once: true });
    const headerTimer = setTimeout(
      () => aborter.abort(new Error(`no response headers within ${ctx.caps.idleTimeoutMs} ms`)),
      ctx.caps.idleTimeoutMs,
    );
    let upstreamResponse: Response;
    try {
      upstreamResponse = await doFetch(ctx.upstream, {
        method: "POST",
        headers: admitted.headers,
        body: admitted.body,
        signal: aborter.signal,
      });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const why =
        aborter.signal.aborted && aborter.signal.reason instanceof Error
          ? aborter.signal.reason.message
          : cause instanceof Error
            ? cause.message
            : String(cause);
      return upstreamFailure(format, turnId, "upstream-unavailable", `the upstream agent host could not be reached: ${why}`);
    } finally {
      clearTimeout(headerTimer);
    }
    if (!upstreamResponse.ok || upstreamResponse.body === null) {
      // The upstream's own 4xx is the client's error: its status and reason pass through; the rest is 502.
      const refusal =
        upstreamResponse.status >= 400 && upstreamResponse.status < 500
          ? upstreamRefusal(
              upstreamResponse.status,
              await readErrorBody(upstreamResponse, ERROR_BODY_BYTES, Math.min(ERROR_BODY_MS, ctx.caps.idleTimeoutMs)),
            )
          : null;
      await upstreamResponse.body?.cancel().catch(() => {});
      if (refusal !== null) return upstreamRefusedResponse(refusal);
      return upstreamFailure(format, turnId, "upstream-status", `the upstream agent host answered HTTP ${upstreamResponse.status}`);
    }
    const upstreamType = upstreamResponse.headers.get("content-type");
    const upstreamFormat = streamFormatOf(upstreamType);
    if (upstreamFormat === null) {
      await upstreamResponse.body.cancel().catch(() => {});
      return upstreamFailure(
        format,
        turnId,
        "upstream-content-type",
        `the upstream agent host answered ${upstreamType ?? "without a Content-Type"}, not an event stream`,
      );
    }
    const stream = createEventValidationStream(streamOptions(ctx, admitted, upstreamFormat));
    opts.onStream?.(stream);
    return new Response(pipeUpstream(upstreamResponse.body, stream), { status: 200, headers: streamHeaders(upstreamType!) });
  };
}
