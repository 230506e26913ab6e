/**
 * An upstream agjson endpoint as an event source: each AgInput is POSTed as JSON and the response
 * (AgEvent SSE or NDJSON, as `agjson proxy` and agent hosts serve it) is parsed and validated.
 */
import type { AgInput } from "../../../generated/types.js";
import type { LenientKnownEvent as AgEvent } from "../../validate/index.js";
import { parseEventStream, type AgEventSource, type AgStreamParseOptions } from "./event-source.js";

/** Options of {@link createUpstreamSource}. */
export interface UpstreamSourceOptions extends AgStreamParseOptions {
  /** Extra request headers (auth, …). */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Error of an upstream that did not answer with a stream. */
export class UpstreamError extends Error {
  override readonly name = "UpstreamError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

async function* bodyChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) yield r.value;
  } finally {
    reader.releaseLock();
  }
}

/** An event source POSTing each AgInput to `url`. */
export function createUpstreamSource(url: string, options: UpstreamSourceOptions = {}): AgEventSource {
  const doFetch = options.fetch ?? fetch;
  return {
    async *run(input: AgInput, signal: AbortSignal): AsyncGenerator<AgEvent> {
      let response: Response;
      try {
        response = await doFetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream, application/x-ndjson", ...(options.headers ?? {}) },
          body: JSON.stringify(input),
          signal,
        });
      } catch (err) {
        if (signal.aborted) return;
        throw new UpstreamError(`upstream ${url} unreachable: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!response.ok || response.body === null) {
        const detail = (await response.text().catch(() => "")).slice(0, 500);
        throw new UpstreamError(`upstream ${url} answered ${response.status}${detail ? `: ${detail}` : ""}`, response.status);
      }
      try {
        yield* parseEventStream(bodyChunks(response.body), options);
      } catch (err) {
        if (signal.aborted) return;
        throw new UpstreamError(`upstream ${url} stream failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  };
}
