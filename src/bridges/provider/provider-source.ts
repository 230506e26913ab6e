/**
 * A raw provider API as an AgJSON event source (the servers stream from "a normalizer
 * over an upstream"). Each AgInput (§3) extends its thread's conversation — a `start` input's new
 * messages, a `tool-result` input's results as a tool message — and the conversation goes to the
 * provider as a streamed request built by re-input (request.ts); the response is cut into native
 * chunks by the wire framers, normalized by the facet of the same name (§8.0), yielded, and folded
 * (§5 reduce) so the assistant's messages join the thread for the next turn. The provider keeps no
 * state between requests; the thread store (threads.ts) is the conversation's only home.
 */
import type { AgEvent, AgInput } from "../../../generated/types.js";
import type { AgMessage, AgPausedAsk } from "../../../generated/lenient-types.js";
import { isKnownOutcome } from "../../../generated/schema-facts.js";
import { createNormalizer, nativeChunksOf } from "../../normalize/index.js";
import { createReducer } from "../../reduce/index.js";
import { ReinputError, type ReinputReportEntry } from "../../reinput/index.js";
import { AutoFramer, decodeUtf8Strict, type Frame, type StreamFormat } from "../../wire/index.js";
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
  type AgEventSource,
  type AgSourceFault,
  type SourceDeadlines,
} from "../source/index.js";
import { buildProviderRequest, type ProviderApi } from "./request.js";
import {
  clientBlobsDropped,
  newMessages,
  ThreadStore,
  trimConversation,
  DEFAULT_MAX_THREAD_BYTES,
  DEFAULT_MAX_STORE_BYTES,
} from "./threads.js";

/** Why a provider source refused an input or could not stream its answer. */
export type ProviderSourceErrorCode =
  /** The provider answered with an HTTP error status (`status` holds it). */
  | "provider-http"
  /** The provider could not be reached. */
  | "provider-unreachable"
  /** The provider's stream broke off (a read error, or a record over the size cap). */
  | "provider-stream"
  /** The provider was silent past `idleTimeoutMs`, or the run passed `wallTimeoutMs`. */
  | "provider-timeout"
  /** An input kind or field the provider API cannot take (surface actions, a resume of a provider's own approval). */
  | "unsupported-input"
  /** A resume on a thread whose last turn did not pause: there is nothing to answer (§3.1, §7). */
  | "nothing-paused"
  /** The conversation cannot become a request (re-input's ReinputError, with `onInvalid: "error"`). */
  | "invalid-conversation"
  /** A second run on a thread whose run is still streaming. */
  | "thread-busy";

/** What a client is told for each code (the message, the operator's, may hold more). */
const PUBLIC: Record<ProviderSourceErrorCode, string> = {
  "provider-http": "the provider answered with an error",
  "provider-unreachable": "the provider could not be reached",
  "provider-stream": "the provider's stream broke off",
  "provider-timeout": "the provider timed out",
  "unsupported-input": "the provider API cannot take this input",
  "nothing-paused": "the thread has no paused turn to resume",
  "invalid-conversation": "the conversation cannot be sent to the provider",
  "thread-busy": "the thread already has a run streaming",
};

/** The codes that are the client's doing (the servers answer 4xx); the rest are the provider's (502). */
const CLIENT_FAULTS: ReadonlySet<ProviderSourceErrorCode> = new Set([
  "unsupported-input",
  "nothing-paused",
  "invalid-conversation",
  "thread-busy",
]);

/**
 * The typed error of a provider source; the servers answer it as 502 (a client's mistake: 409 /
 * 422) / RUN_ERROR / an ACP error. `message` is the operator's (credentials redacted);
 * `publicMessage` is what a client sees.
 */
export class ProviderSourceError extends AgSourceError {
  override readonly name = "ProviderSourceError";
  declare readonly code: ProviderSourceErrorCode;
  constructor(code: ProviderSourceErrorCode, message: string, status?: number, publicMessage?: string) {
    const fault: AgSourceFault = CLIENT_FAULTS.has(code) ? "client" : "upstream";
    super(code, message, {
      publicMessage:
        publicMessage ??
        (code === "provider-http" && status !== undefined
          ? `the provider answered HTTP ${status}`
          : fault === "client"
            ? message
            : PUBLIC[code]),
      fault,
      ...(status !== undefined ? { status } : {}),
    });
  }
}

/** Something the source changed or left out on the way to the provider, or noticed on the way back. */
export type ProviderSourceIssue =
  | { kind: "reinput"; threadId: string; turnId: string; entry: ReinputReportEntry }
  | { kind: "run-config"; threadId: string; turnId: string; message: string }
  | { kind: "trimmed"; threadId: string; turnId: string; message: string }
  | { kind: "client-blob"; threadId: string; turnId: string; message: string }
  | { kind: "stream"; threadId: string; turnId: string; message: string };

/** Options of {@link createProviderSource}. */
export interface ProviderSourceOptions extends SourceDeadlines {
  /** The provider API the URL speaks; its normalizer facet reads the answer. */
  from: ProviderApi;
  /**
   * The streaming endpoint (e.g. `https://api.anthropic.com/v1/messages`,
   * `https://api.openai.com/v1/responses`). For Gemini, `{model}` in the URL is replaced by the
   * model, and `alt=sse` is added when the URL has no `alt`.
   */
  url: string;
  /** The model every request names (a run's own `run.model` is reported, not sent). */
  model: string;
  /** Request headers: credentials (`x-api-key`, `authorization`, `x-goog-api-key`), API versions. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Anthropic `max_tokens` when a run gives no `maxTokens` (default 4096). */
  defaultMaxTokens?: number;
  /**
   * A conversation the provider would refuse (a call never answered, a stray result): `"repair"`
   * (default) sends re-input's repair and reports it; `"error"` refuses the input.
   */
  onInvalid?: "error" | "repair";
  /** Most threads kept (default 1,000; the least recently used goes first). */
  maxThreads?: number;
  /** Most messages kept per thread (default 1,000; the oldest exchanges go first). */
  maxMessages?: number;
  /**
   * Most bytes (JSON text) of one thread's conversation (default 4 MiB): every turn resends the
   * whole thread, so this also bounds one request; the oldest exchanges go first.
   */
  maxThreadBytes?: number;
  /** Most bytes held for all threads together (default 256 MiB; the least recently used go first). */
  maxStoreBytes?: number;
  /** Largest streamed record, bytes (default 16 MiB). */
  maxRecordBytes?: number;
  /** Re-input's report entries, run configuration left out, trims and stream oddities. */
  onIssue?: (issue: ProviderSourceIssue) => void;
}

/** A provider source, with its threads readable (for tests and diagnostics). */
export interface ProviderSource extends AgEventSource {
  readonly from: ProviderApi;
  /** The conversation held for `threadId` (empty when none). */
  conversation(threadId: string): readonly AgMessage[];
}

/** Default headers each API expects besides the caller's (Anthropic names its API version). */
function defaultHeaders(from: ProviderApi): Record<string, string> {
  return from === "anthropic" ? { "anthropic-version": "2023-06-01" } : {};
}

/** The request URL: Gemini names the model in the path and streams SSE only with `alt=sse`. */
function requestUrl(from: ProviderApi, url: string, model: string): string {
  if (from !== "gemini") return url;
  const u = new URL(url.replaceAll("{model}", encodeURIComponent(model)));
  if (!u.searchParams.has("alt")) u.searchParams.set("alt", "sse");
  return u.href;
}

/** The messages an input adds to its thread; a kind the provider cannot take is a typed error. */
function inputMessages(
  input: AgInput,
  pending: readonly AgPausedAsk[],
  known: (incoming: readonly AgMessage[]) => AgMessage[],
): AgMessage[] {
  switch (input.kind) {
    case "start":
      return known(input.messages);
    case "tool-result":
      // §3 tool-result: client-run results, one tool message answering the calls of the last turn
      // (the entry's tool `name` has no place on a tool-result block, §2; the call it answers names it).
      // §2.2: the block keeps the shared core verbatim; the input-only willContinue / scheduling are
      // the input's, never the block's.
      return [
        {
          id: `${input.turnId}:tool-results`,
          role: "tool",
          turnId: input.turnId,
          threadId: input.threadId,
          content: input.results.map(({ name: _name, willContinue: _w, scheduling: _s, ...r }) => ({ type: "tool-result" as const, ...r })),
        },
      ];
    case "resume": {
      if ((input.uiActions ?? []).length > 0)
        throw new ProviderSourceError(
          "unsupported-input",
          `a provider API has no surface interactions: the resume's ${input.uiActions!.length} uiActions cannot be sent (§3.1)`,
        );
      if (pending.length === 0) {
        throw new ProviderSourceError(
          "nothing-paused",
          `thread "${input.threadId}" has no paused turn: a resume answers the asks of a turn.done paused outcome (§3.1, §7), and the provider's last turn asked nothing. Send a start input with the next message instead.`,
        );
      }
      throw new ProviderSourceError(
        "unsupported-input",
        `thread "${input.threadId}" is paused on ${pending.map((a) => `"${a.askId}"`).join(", ")}, an approval the provider itself requested; answering it needs the provider's own approval item, which re-input does not replay. Send a start input instead.`,
      );
    }
  }
}

/** Creates a provider source (docs/bridges/ag-ui.md and docs/bridges/acp.md "A provider as the source"). */
export function createProviderSource(options: ProviderSourceOptions): ProviderSource {
  const { from, model } = options;
  const doFetch = options.fetch ?? fetch;
  const url = requestUrl(from, options.url, model);
  // Header names are case-insensitive: the caller's `Anthropic-Version` replaces the default, not joins it.
  const headers = new Headers({ "content-type": "application/json", accept: "text/event-stream", ...defaultHeaders(from) });
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  const threads = new ThreadStore({
    maxThreads: options.maxThreads ?? 1000,
    maxMessages: options.maxMessages ?? 1000,
    maxThreadBytes: options.maxThreadBytes ?? DEFAULT_MAX_THREAD_BYTES,
    maxStoreBytes: options.maxStoreBytes ?? DEFAULT_MAX_STORE_BYTES,
  });
  const maxFrameBytes = options.maxRecordBytes ?? 16 << 20;
  const onIssue = options.onIssue ?? (() => undefined);
  const limits = resolveDeadlines(options);
  // The operator's log never shows the credentials: the header values, a Gemini `?key=`.
  const redact = createRedactor(Object.values(options.headers ?? {}));
  const shown = redactUrl(url);

  return {
    from,
    conversation: (threadId) => threads.peek(threadId)?.messages ?? [],
    async *run(input: AgInput, signal: AbortSignal): AsyncGenerator<AgEvent> {
      const { threadId, turnId } = input;
      const thread = threads.get(threadId);
      if (thread.busy)
        throw new ProviderSourceError("thread-busy", `thread "${threadId}" already has a run streaming; wait for it or abort it first`);
      // §13.2: a replay blob goes to a provider only when this source received it from that provider.
      // What the client sends (an AG-UI encryptedValue, a pasted signature) is not the provider's own.
      const added = inputMessages(input, thread.pendingAsks, (incoming) =>
        clientBlobsDropped(newMessages(thread, incoming), (message) => onIssue({ kind: "client-blob", threadId, turnId, message })),
      );
      const conversation = [...thread.messages, ...added];
      let request: ReturnType<typeof buildProviderRequest>;
      try {
        request = buildProviderRequest(from, conversation, input.kind === "start" ? input.run : undefined, {
          model,
          defaultMaxTokens: options.defaultMaxTokens ?? 4096,
          onInvalid: options.onInvalid ?? "repair",
        });
      } catch (err) {
        if (err instanceof ReinputError) throw new ProviderSourceError("invalid-conversation", `thread "${threadId}": ${err.message}`);
        throw err;
      }
      for (const entry of request.report) onIssue({ kind: "reinput", threadId, turnId, entry });
      for (const message of request.unplaced) onIssue({ kind: "run-config", threadId, turnId, message });

      thread.busy = true;
      const deadline = new RunDeadline(signal, limits);
      const failed = (code: "provider-unreachable" | "provider-stream", what: string, err: unknown): ProviderSourceError =>
        deadline.timedOut !== undefined
          ? new ProviderSourceError(
              "provider-timeout",
              `${from} provider ${shown} ${what}: ${deadline.describe()}`,
              undefined,
              `the provider timed out (${deadline.timedOut === "idle" ? "idleTimeoutMs" : "wallTimeoutMs"})`,
            )
          : new ProviderSourceError(code, `${from} provider ${shown} ${what}: ${redact(err instanceof Error ? err.message : String(err))}`);
      const reducer = createReducer();
      let produced = false;
      let normalizer: ReturnType<typeof createNormalizer> | undefined;
      let flushed = false;
      try {
        let response: Response;
        try {
          response = await doFetch(url, { method: "POST", headers, body: JSON.stringify(request.body), signal: deadline.signal });
        } catch (err) {
          if (signal.aborted) return;
          throw failed("provider-unreachable", "unreachable", err);
        }
        deadline.touch();
        if (!response.ok || response.body === null) {
          const detail = redact(await readErrorBody(response, ERROR_BODY_BYTES, Math.min(ERROR_BODY_MS, limits.idleTimeoutMs)));
          throw new ProviderSourceError(
            "provider-http",
            `${from} provider ${shown} answered ${response.status}${detail ? `: ${detail}` : ""}`,
            response.status,
          );
        }

        // Every chunk comes from nativeChunksOf: parsed from capped text, nothing to look up per chunk (§13.2).
        const facet = createNormalizer(from, { threadId, turnId, parsed: true });
        normalizer = facet;
        const ready: AgEvent[] = [];
        let oversized = 0;
        let format: StreamFormat | undefined;
        const onFrame = (frame: Frame): void => {
          if (frame.kind === "oversized") oversized++;
          else if (frame.kind === "event") {
            // A chunk that is not UTF-8 is reported and skipped, as `agjson normalize` does (§4),
            // never decoded to U+FFFD and normalized as if the provider said so.
            const decoded = decodeUtf8Strict(frame.data);
            if (!decoded.ok)
              onIssue({
                kind: "stream",
                threadId,
                turnId,
                message: `${from} provider sent a chunk that is not UTF-8 (invalid UTF-8 at byte ${decoded.offset} of the chunk, §4); skipped`,
              });
            else for (const chunk of nativeChunksOf(decoded.text)) ready.push(...facet.push(chunk));
          }
        };
        const framer = new AutoFramer({ maxFrameBytes }, onFrame, (f) => (format = f));
        const emit = function* (): Generator<AgEvent> {
          while (ready.length > 0) {
            const event = ready.shift()!;
            reducer.push(event);
            produced = true;
            yield event;
          }
        };
        try {
          for await (const bytes of bodyChunks(response.body, deadline)) {
            framer.push(bytes);
            if (oversized > 0)
              throw new ProviderSourceError(
                "provider-stream",
                `${from} provider sent a record over ${maxFrameBytes} bytes (maxRecordBytes)`,
              );
            yield* emit();
          }
        } catch (err) {
          if (signal.aborted) return;
          if (err instanceof ProviderSourceError) throw err;
          throw failed("provider-stream", "stream failed", err);
        }
        // A last SSE event without its blank line is dispatched, not dropped.
        if (format === "sse") framer.push(new TextEncoder().encode("\n\n"));
        const dangling = framer.end();
        if (dangling > 0)
          onIssue({ kind: "stream", threadId, turnId, message: `the stream ended inside a record (${dangling} bytes); dropped` });
        flushed = true;
        ready.push(...facet.flush());
        yield* emit();
      } finally {
        deadline.dispose();
        thread.busy = false;
        // The turn joins the thread once the provider produced anything (a cut-off turn included:
        // INV-FLUSH closed it); a refused request leaves the thread as it was.
        if (produced) {
          // A run its consumer left early (an abort, a client gone) is closed as the normalizer
          // closes a cut stream (INV-FLUSH), so what was said so far joins the thread whole.
          if (!flushed && normalizer !== undefined) for (const event of normalizer.flush()) reducer.push(event);
          const result = reducer.result;
          const turn = result.turns.at(-1);
          const outcome = turn?.outcome;
          thread.pendingAsks = outcome !== undefined && isKnownOutcome(outcome) && outcome.type === "paused" ? [...outcome.asks] : [];
          const { kept, dropped, bytes } = trimConversation(
            [...conversation, ...result.messages],
            threads.limits.maxMessages,
            threads.limits.maxThreadBytes,
          );
          if (dropped > 0)
            onIssue({
              kind: "trimmed",
              threadId,
              turnId,
              message: `the thread passed ${threads.limits.maxMessages} messages or ${threads.limits.maxThreadBytes} bytes (maxMessages, maxThreadBytes): the oldest ${dropped} were dropped`,
            });
          threads.store(thread, kept, bytes);
        }
      }
    },
  };
}
