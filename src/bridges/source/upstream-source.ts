/**
 * An upstream agjson endpoint as an event source: each AgInput is POSTed as JSON and the response
 * (AgEvent SSE or NDJSON, as `agjson proxy` and agent hosts serve it) is parsed and validated. Its
 * waits are bounded as the gateway's are (idle and wall deadlines, guard.ts), an error body is read
 * only as far as it is kept, and a failure tells a client a short reason and the operator the rest,
 * credentials redacted.
 */
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import { parseEventStream, type AgEventSource, type AgStreamParseOptions } from "./event-source.js";
import {
  AgSourceError,
  bodyChunks,
  createRedactor,
  ERROR_BODY_BYTES,
  ERROR_BODY_MS,
  readErrorBody,
  redactUrl,
  resolveDeadlines,
  RunDeadline,
  type SourceDeadlines,
} from "./guard.js";
import { describeRefusal, upstreamRefusal } from "../../gateway/upstream-refusal.js";

/** Options of {@link createUpstreamSource}. */
export interface UpstreamSourceOptions extends AgStreamParseOptions, SourceDeadlines {
  /** Extra request headers (auth, …); their values are redacted from every message. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Why an upstream agjson endpoint failed: stable, for a client; the message is the operator's. */
export type UpstreamErrorCode = "upstream-unreachable" | "upstream-http" | "upstream-refused" | "upstream-stream" | "upstream-timeout";

const PUBLIC: Record<UpstreamErrorCode, string> = {
  "upstream-unreachable": "the agent host could not be reached",
  "upstream-http": "the agent host answered with an error",
  "upstream-refused": "the agent host refused the request",
  "upstream-stream": "the agent host's stream broke off",
  "upstream-timeout": "the agent host timed out",
};

/** Error of an upstream that did not answer with a stream, or whose stream failed. */
export class UpstreamError extends AgSourceError {
  override readonly name = "UpstreamError";
  constructor(
    message: string,
    status?: number,
    code: UpstreamErrorCode = status === undefined ? "upstream-unreachable" : "upstream-http",
    publicMessage?: string,
  ) {
    super(code, message, {
      publicMessage:
        publicMessage ?? (code === "upstream-http" && status !== undefined ? `the agent host answered HTTP ${status}` : PUBLIC[code]),
      // The host refusing the client's request (its 4xx, upstreamRefusal) is the client's error.
      fault: code === "upstream-refused" ? "client" : "upstream",
      ...(status !== undefined ? { status } : {}),
    });
  }
}

/** An event source POSTing each AgInput to `url`. */
export function createUpstreamSource(url: string, options: UpstreamSourceOptions = {}): AgEventSource {
  const doFetch = options.fetch ?? fetch;
  const limits = resolveDeadlines(options);
  const redact = createRedactor(Object.values(options.headers ?? {}));
  const shown = redactUrl(url);
  return {
    async *run(input: AgInput, signal: AbortSignal): AsyncGenerator<AgLenientEvent> {
      const deadline = new RunDeadline(signal, limits);
      const failed = (what: string, err: unknown, code: UpstreamErrorCode): UpstreamError =>
        deadline.timedOut !== undefined
          ? new UpstreamError(
              `upstream ${shown} ${what}: ${deadline.describe()}`,
              undefined,
              "upstream-timeout",
              `the agent host timed out (${deadline.timedOut === "idle" ? "idleTimeoutMs" : "wallTimeoutMs"})`,
            )
          : new UpstreamError(`upstream ${shown} ${what}: ${redact(err instanceof Error ? err.message : String(err))}`, undefined, code);
      try {
        let response: Response;
        try {
          response = await doFetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "text/event-stream, application/x-ndjson", ...(options.headers ?? {}) },
            body: JSON.stringify(input),
            signal: deadline.signal,
          });
        } catch (err) {
          if (signal.aborted) return;
          throw failed("unreachable", err, "upstream-unreachable");
        }
        deadline.touch();
        if (!response.ok || response.body === null) {
          const body = await readErrorBody(response, ERROR_BODY_BYTES, Math.min(ERROR_BODY_MS, limits.idleTimeoutMs));
          const detail = redact(body);
          const message = `upstream ${shown} answered ${response.status}${detail ? `: ${detail}` : ""}`;
          // The gateway's one rule (upstreamRefusal): the host's own 4xx reaches the client with its
          // status and reason (credentials redacted); anything else is the upstream's failure.
          const refusal = upstreamRefusal(response.status, body, redact);
          if (refusal === null) throw new UpstreamError(message, response.status);
          throw new UpstreamError(message, refusal.status, "upstream-refused", describeRefusal(refusal, "the agent host"));
        }
        try {
          yield* parseEventStream(bodyChunks(response.body, deadline), options);
        } catch (err) {
          if (signal.aborted) return;
          throw failed("stream failed", err, "upstream-stream");
        }
      } finally {
        deadline.dispose();
      }
    },
  };
}
