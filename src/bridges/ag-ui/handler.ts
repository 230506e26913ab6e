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
import type { LenientKnownEvent as AgEvent } from "../../validate/index.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import type { AgEventSource } from "../source/index.js";
import { loadAgUiSchemas, RunAgentInputReader, type RunAgentInputReadOptions } from "./input.js";
import { agUiProblem, agUiProblemResponse } from "./problem.js";
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
  /** Called with each accepted input and the fields its projection dropped. */
  onInput?: (input: AgInput, dropped: readonly string[]) => void;
  /** Called when the source fails or an output event is refused (the run ends in RUN_ERROR). */
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

/** The turn.error that ends a run the bridge cannot continue; the encoder turns it into RUN_ERROR. */
function bridgeError(code: string, message: string): AgEvent {
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
  const corsHeaders: Record<string, string> = options.cors !== undefined ? { "access-control-allow-origin": options.cors, ...(options.cors !== "*" ? { vary: "origin" } : {}) } : {};
  const problem = (...args: Parameters<typeof agUiProblem>): Response => agUiProblemResponse(agUiProblem(...args), corsHeaders);

  /** One AG-UI event as SSE bytes, after `EventSchemas` accepts it; undefined when it refuses. */
  const checked = (ev: AgUiEvent): { bytes: Uint8Array } | { refused: string } => {
    const r = schemas.EventSchemas.safeParse(ev);
    if (r.success) return { bytes: encoder.encode(encodeAgUiSse(ev)) };
    const issue = r.error.issues[0];
    return { refused: `the bridge produced a ${ev.type} event @ag-ui/core's EventSchemas refuses${issue ? ` (${issue.path.join("/") || "/"}: ${issue.message})` : ""}` };
  };

  return async (request: Request): Promise<Response> => {
    if (request.method === "OPTIONS" && options.cors !== undefined) {
      return new Response(null, {
        status: 204,
        headers: { ...corsHeaders, "access-control-allow-methods": "POST, OPTIONS", "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "content-type, accept", "access-control-max-age": "600" },
      });
    }
    if (request.method !== "POST") return agUiProblemResponse(agUiProblem("method-not-allowed", `${request.method} is not served here; POST a RunAgentInput`), { ...corsHeaders, allow: options.cors !== undefined ? "POST, OPTIONS" : "POST" });
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") return problem("unsupported-media-type", `content-type is ${type === "" ? "missing" : `"${type}"`}; send the RunAgentInput as application/json`);
    const max = reader.caps.maxBodyBytes;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (Number.isFinite(declared) && declared > max) {
      await request.body?.cancel().catch(() => {});
      return problem("payload-too-large", `the body is ${declared} bytes, over the maxBodyBytes cap of ${max}`, { issues: [{ path: "", message: `the body is ${declared} bytes (cap maxBodyBytes = ${max})`, keyword: "maxBodyBytes" }], limit: { name: "maxBodyBytes", value: max } });
    }
    const bytes = await readCapped(request.body, max);
    if (bytes === undefined) return problem("payload-too-large", `the body is over the maxBodyBytes cap of ${max}`, { issues: [{ path: "", message: `the body exceeds ${max} bytes (cap maxBodyBytes)`, keyword: "maxBodyBytes" }], limit: { name: "maxBodyBytes", value: max } });
    const read = reader.readBytes(bytes);
    if (!read.ok) return agUiProblemResponse(read.problem, corsHeaders);
    options.onInput?.(read.input, read.dropped);

    const abort = new AbortController();
    const onClientGone = (): void => abort.abort();
    request.signal.addEventListener("abort", onClientGone, { once: true });
    const events = options.source.run(read.input, abort.signal)[Symbol.asyncIterator]();
    // The first event decides the status: a source that fails before producing anything (an
    // upstream that refuses the AgInput) is a 502 problem, not an empty 200 stream.
    let first: IteratorResult<AgLenientEvent>;
    try {
      first = await events.next();
    } catch (error) {
      request.signal.removeEventListener("abort", onClientGone);
      const message = error instanceof Error ? error.message : String(error);
      options.onIssue?.(message);
      return problem("upstream-error", message);
    }

    const agUi: AgUiEncoder = createAgUiEncoder({ threadId: read.runAgentInput.threadId, runId: read.runAgentInput.runId, ...(options.carry === false ? { carry: false } : {}) });
    let pending: IteratorResult<AgLenientEvent> | undefined = first;
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
    const stop = (controller: ReadableStreamDefaultController<Uint8Array>, code: string, message: string): false => {
      options.onIssue?.(message);
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
            // Pull source events until one produces output (or the source ends): one chunk per pull.
            for (;;) {
              const next: IteratorResult<AgLenientEvent> = pending ?? (await events.next());
              pending = undefined;
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
            const message = error instanceof Error ? error.message : String(error);
            if (!abort.signal.aborted) stop(controller, "upstream-error", message);
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
      headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", ...corsHeaders },
    });
  };
}
