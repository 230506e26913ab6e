/**
 * The AG-UI HTTP endpoint: a fetch-style handler, Request → Response, that
 * takes a POSTed `RunAgentInput`, projects it to an AgInput (input.ts), runs it against any AgJSON
 * event source (a recorded stream, an upstream agent host) and streams the source's events back as
 * AG-UI SSE through `createAgUiEncoder`. The stream is pulled, one source event at a time, so a slow
 * client slows the source instead of filling a queue; every emitted event is re-checked with
 * `@ag-ui/core`'s `EventSchemas` before it is written (fail closed: a refused event ends the run in
 * RUN_ERROR). The Node `http` adapter is node.ts; docs/bridges/ag-ui.md "Serving AG-UI".
 */
import type { AgInput } from "../../../generated/lenient-types.js";
import type { AgLenientEvent, AgTurnErrorEvent } from "../../../generated/types.js";
import { DEFAULT_CAPS, HARD_CAPS } from "../../gateway/caps.js";
import { corsResponseHeaders } from "../../gateway/origin.js";
import { AgSourceError, publicMessageOf, type AgEventSource } from "../source/index.js";
import { loadAgUiSchemas, RunAgentInputReader, type RunAgentInputReadOptions } from "./input.js";
import { agUiProblem, agUiProblemResponse, type AgUiProblemType } from "./problem.js";
import { encodeAgUiSse } from "./sse.js";
import { createAgUiEncoder, type AgUiEncoder } from "./to-ag-ui.js";
import type { AgUiEvent } from "./vocabulary.js";

/** Options of {@link createAgUiHandler}. */
export interface AgUiHandlerOptions extends RunAgentInputReadOptions {
  /** Where the events come from: each accepted request runs its AgInput against it. */
  source: AgEventSource;
  /** Carry AgJSON-only fields under `metadata.agjson` in the output (default true). */
  carry?: boolean;
  /** Answer CORS preflights and mark responses for this browser origin (or `*`); without it OPTIONS is 405. */
  cors?: string;
  /** Most AG-UI events one response may stream (default 100,000; hard maximum 1,000,000). */
  maxEvents?: number;
  /**
   * The one path served (default `/`); any other is 404. The query string is not part of it.
   */
  path?: string;
  /**
   * Longest wait for the whole RunAgentInput body, ms, from the request's arrival (then 408): the
   * gateway's `bodyTimeoutMs`, same default (30,000) and ceiling.
   */
  bodyTimeoutMs?: number;
  /** Called with each accepted input and the fields its projection dropped. */
  onInput?: (input: AgInput, dropped: readonly string[]) => void;
  /**
   * Called when the source fails or an output event is refused (the run ends in RUN_ERROR, or the
   * request in a problem). The message is the operator's: a source's own failure message (an
   * upstream's status and the start of its error body, credentials redacted); the client is told
   * only a short reason.
   */
  onIssue?: (message: string) => void;
}

/** A fetch-style AG-UI endpoint. */
export type AgUiHandler = (request: Request) => Promise<Response>;

/** Default and hard maximum of {@link AgUiHandlerOptions.maxEvents}. */
export const DEFAULT_MAX_AG_UI_EVENTS = 100_000;
export const HARD_MAX_AG_UI_EVENTS = 1_000_000;

const encoder = new TextEncoder();

/** Reads a body up to `max` bytes; undefined when it is larger (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | undefined> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel("body over the size cap").catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * How a source's failure before the stream is answered: a client's mistake is 4xx (an agent host's
 * own refusal keeps its status, the gateway's upstreamRefusal rule), the rest 502.
 */
function sourceProblem(error: unknown): { kind: AgUiProblemType; status?: number } {
  if (!(error instanceof AgSourceError) || error.fault !== "client") return { kind: "upstream-error" };
  if (error.code === "thread-busy" || error.code === "nothing-paused") return { kind: error.code };
  if (error.code === "upstream-refused" && error.status !== undefined) return { kind: "upstream-refused", status: error.status };
  return { kind: "unsupported-input" };
}

/** The operator's message of any error. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The turn.error that ends a run the bridge cannot continue; the encoder turns it into RUN_ERROR. */
function bridgeError(code: string, message: string): AgTurnErrorEvent {
  return { type: "turn.error", seq: 0, code, message };
}

/** Builds the AG-UI endpoint. Loads `@ag-ui/core`'s schemas up front; rejects when they cannot be. */
export async function createAgUiHandler(options: AgUiHandlerOptions): Promise<AgUiHandler> {
  const schemas = await loadAgUiSchemas();
  const reader = new RunAgentInputReader(schemas, options);
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_AG_UI_EVENTS;
  if (!Number.isInteger(maxEvents) || maxEvents < 1 || maxEvents > HARD_MAX_AG_UI_EVENTS) {
    throw new RangeError(`maxEvents must be an integer from 1 to ${HARD_MAX_AG_UI_EVENTS} (got ${String(options.maxEvents)})`);
  }
  const path = options.path ?? "/";
  if (!path.startsWith("/") || /[?#\s]/.test(path))
    throw new RangeError(`path must be an absolute path such as "/" or "/agent" (got ${JSON.stringify(options.path)})`);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_CAPS.bodyTimeoutMs;
  if (!Number.isInteger(bodyTimeoutMs) || bodyTimeoutMs < 1 || bodyTimeoutMs > HARD_CAPS.bodyTimeoutMs) {
    throw new RangeError(`bodyTimeoutMs must be an integer from 1 to ${HARD_CAPS.bodyTimeoutMs} (got ${String(options.bodyTimeoutMs)})`);
  }

  /** One AG-UI event as SSE bytes, after `EventSchemas` accepts it; undefined when it refuses. */
  const checked = (ev: AgUiEvent): { bytes: Uint8Array } | { refused: string } => {
    const r = schemas.EventSchemas.safeParse(ev);
    if (r.success) return { bytes: encoder.encode(encodeAgUiSse(ev)) };
    const issue = r.error.issues[0];
    return {
      refused: `the bridge produced a ${ev.type} event @ag-ui/core's EventSchemas refuses${issue ? ` (${issue.path.join("/") || "/"}: ${issue.message})` : ""}`,
    };
  };

  return async (request: Request): Promise<Response> => {
    // The gateway's one origin rule (request-guard.ts): the request's Origin is named back when it
    // is the allowed one, compared without case in scheme and host.
    const corsHeaders = corsResponseHeaders(options.cors, request.headers.get("origin"));
    const problem = (...args: Parameters<typeof agUiProblem>): Response => agUiProblemResponse(agUiProblem(...args), corsHeaders);
    if (new URL(request.url).pathname !== path) {
      await request.body?.cancel().catch(() => {});
      return problem("not-found", `this endpoint serves AG-UI at ${path} only`);
    }
    if (request.method === "OPTIONS" && options.cors !== undefined) {
      return new Response(null, {
        status: 204,
        headers: {
          ...corsHeaders,
          "access-control-allow-methods": "POST, OPTIONS",
          "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type, accept",
          "access-control-max-age": "600",
        },
      });
    }
    if (request.method !== "POST")
      return agUiProblemResponse(agUiProblem("method-not-allowed", `${request.method} is not served here; POST a RunAgentInput`), {
        ...corsHeaders,
        allow: options.cors !== undefined ? "POST, OPTIONS" : "POST",
      });
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json")
      return problem(
        "unsupported-media-type",
        `content-type is ${type === "" ? "missing" : `"${type}"`}; send the RunAgentInput as application/json`,
      );
    const max = reader.caps.maxBodyBytes;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && declared > max) {
      await request.body?.cancel().catch(() => {});
      return problem("payload-too-large", `the body is ${declared} bytes, over the maxBodyBytes cap of ${max}`, {
        issues: [{ path: "", message: `the body is ${declared} bytes (cap maxBodyBytes = ${max})`, keyword: "maxBodyBytes" }],
        limit: { name: "maxBodyBytes", value: max },
      });
    }
    // The body deadline runs from the request's arrival, as the gateway's: a client trickling its
    // body is answered 408 and cannot hold a connection for ever.
    let bodyTimer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (bodyTimer = setTimeout(() => resolve("late"), bodyTimeoutMs)));
    const reading = readCapped(request.body, max);
    const bytes = await Promise.race([reading, late]);
    clearTimeout(bodyTimer);
    if (bytes === "late") {
      void reading.catch(() => undefined);
      await request.body?.cancel().catch(() => {});
      return agUiProblemResponse(
        agUiProblem("request-timeout", `timeout: the RunAgentInput body did not arrive within ${bodyTimeoutMs} ms (bodyTimeoutMs)`),
        { ...corsHeaders, connection: "close" },
      );
    }
    if (bytes === undefined)
      return problem("payload-too-large", `the body is over the maxBodyBytes cap of ${max}`, {
        issues: [{ path: "", message: `the body exceeds ${max} bytes (cap maxBodyBytes)`, keyword: "maxBodyBytes" }],
        limit: { name: "maxBodyBytes", value: max },
      });
    const read = reader.readBytes(bytes);
    if (!read.ok) return agUiProblemResponse(read.problem, corsHeaders);
    options.onInput?.(read.input, read.dropped);

    const abort = new AbortController();
    const onClientGone = (): void => abort.abort();
    request.signal.addEventListener("abort", onClientGone, { once: true });
    const events = options.source.run(read.input, abort.signal)[Symbol.asyncIterator]();
    const agUi: AgUiEncoder = createAgUiEncoder({
      threadId: read.runAgentInput.threadId,
      runId: read.runAgentInput.runId,
      ...(options.carry === false ? { carry: false } : {}),
    });
    // The first AG-UI output decides the status: a source that fails before producing any (an
    // upstream that refuses the AgInput) is a problem, and one that ends without producing any (an
    // upstream 200 whose records were all invalid, or none) is a 502, not an empty 200 stream.
    // The client is told the source's short reason; the operator's log gets the whole message.
    let firstOut: AgUiEvent[] = [];
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) {
          request.signal.removeEventListener("abort", onClientGone);
          // A client that went away ended the source: nothing to report.
          if (!abort.signal.aborted) options.onIssue?.("the source ended without a single event the AG-UI stream could carry");
          abort.abort();
          return problem("upstream-error", "the agent answered with nothing usable: no AgEvent");
        }
        firstOut = agUi.push(next.value);
        if (firstOut.length > 0) break;
      }
    } catch (error) {
      request.signal.removeEventListener("abort", onClientGone);
      if (!abort.signal.aborted) options.onIssue?.(messageOf(error));
      abort.abort();
      const { kind, status } = sourceProblem(error);
      return problem(kind, publicMessageOf(error), status === undefined ? {} : { status });
    }

    let pendingOut: AgUiEvent[] | undefined = firstOut;
    let emitted = 0;
    let ended = false;
    const finish = async (): Promise<void> => {
      ended = true;
      request.signal.removeEventListener("abort", onClientGone);
      abort.abort();
      await events.return?.(undefined)?.catch(() => undefined);
    };

    /** Encodes AG-UI events; a refused one, or the event cap, ends the run in RUN_ERROR. */
    const write = (controller: ReadableStreamDefaultController<Uint8Array>, out: AgUiEvent[]): boolean => {
      for (let i = 0; i < out.length; i++) {
        const ev = out[i]!;
        if (++emitted > maxEvents) return stop(controller, "stream-cap", `the response reached the ${maxEvents}-event cap (maxEvents)`);
        const c = checked(ev);
        if ("refused" in c) return stop(controller, "invalid-output", c.refused);
        controller.enqueue(c.bytes);
      }
      return true;
    };
    const stop = (controller: ReadableStreamDefaultController<Uint8Array>, code: string, message: string, log = true): false => {
      if (log) options.onIssue?.(message);
      ended = true;
      for (const ev of [...agUi.push(bridgeError(code, message)), ...agUi.flush()]) {
        const c = checked(ev);
        if ("bytes" in c) controller.enqueue(c.bytes);
      }
      return false;
    };

    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            if (pendingOut !== undefined) {
              const out = pendingOut;
              pendingOut = undefined;
              if (!write(controller, out)) {
                await finish();
                controller.close();
              }
              return;
            }
            // Pull source events until one produces output (or the source ends): one chunk per pull.
            for (;;) {
              const next: IteratorResult<AgLenientEvent> = await events.next();
              if (next.done) {
                write(controller, agUi.flush());
                await finish();
                controller.close();
                return;
              }
              const out = agUi.push(next.value);
              if (out.length === 0) continue;
              if (!write(controller, out)) {
                await finish();
                controller.close();
              }
              return;
            }
          } catch (error) {
            if (ended) return;
            if (!abort.signal.aborted) {
              options.onIssue?.(messageOf(error));
              stop(controller, "upstream-error", publicMessageOf(error), false);
            }
            await finish();
            controller.close();
          }
        },
        async cancel() {
          await finish();
        },
      },
      { highWaterMark: 0 },
    );
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        ...corsHeaders,
      },
    });
  };
}
