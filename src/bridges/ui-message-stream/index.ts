/**
 * `agjson/bridges/ui-message-stream`: AgEvent streams (§4), typed as `reduce()` takes them (AgLenientEvent), as the Vercel AI SDK's UI message stream,
 * the wire `useChat` reads. No `ai` import: the chunks are plain objects, tested against the real
 * `readUIMessageStream` and `DefaultChatTransport`. Mapping table: docs/bridges/ui-message-stream.md.
 */
import type { AgLenientEvent } from "../../../generated/types.js";
import type { UIMessageChunk } from "./chunks.js";
import { encodeUIMessageChunk, UI_MESSAGE_STREAM_DONE, UI_MESSAGE_STREAM_HEADERS } from "./sse.js";
import { createUIMessageStreamTransform, type UIMessageStreamOptions } from "./transform.js";

export type * from "./chunks.js";
export { createUIMessageStreamTransform, type UIMessageStreamOptions, type UIMessageStreamTransform } from "./transform.js";
export { encodeUIMessageChunk, UI_MESSAGE_STREAM_DONE, UI_MESSAGE_STREAM_HEADERS } from "./sse.js";

/** Events from a sync or async source, one at a time. */
async function* eventsOf(events: Iterable<AgLenientEvent> | AsyncIterable<AgLenientEvent>): AsyncGenerator<AgLenientEvent> {
  yield* events;
}

/**
 * An AgEvent stream as a `ReadableStream` of UI message chunks — what the AI SDK's
 * `createUIMessageStreamResponse({ stream })` and `readUIMessageStream({ stream })` take.
 */
export function toUIMessageStream(
  events: Iterable<AgLenientEvent> | AsyncIterable<AgLenientEvent>,
  options?: UIMessageStreamOptions,
): ReadableStream<UIMessageChunk> {
  const transform = createUIMessageStreamTransform(options);
  const source = eventsOf(events);
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      // An event may map to no chunk; keep reading until one is enqueued, or the stream would stall.
      for (;;) {
        const next = await source.next();
        const chunks = next.done ? transform.end() : transform.push(next.value);
        for (const c of chunks) controller.enqueue(c);
        if (next.done) return controller.close();
        if (chunks.length > 0) return;
      }
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

/** The SSE body text of a UI message stream, frame by frame, ending with `data: [DONE]`. */
export function toUIMessageStreamSse(
  events: Iterable<AgLenientEvent> | AsyncIterable<AgLenientEvent>,
  options?: UIMessageStreamOptions,
): ReadableStream<string> {
  let done = false;
  const reader = toUIMessageStream(events, options).getReader();
  return new ReadableStream<string>({
    async pull(controller) {
      if (done) return;
      const next = await reader.read();
      if (next.done) {
        done = true;
        controller.enqueue(UI_MESSAGE_STREAM_DONE);
        controller.close();
      } else {
        controller.enqueue(encodeUIMessageChunk(next.value));
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}

/**
 * A `Response` streaming the UI message stream as SSE with the AI SDK's headers — return it from a
 * route handler that `useChat` (DefaultChatTransport) posts to.
 */
export function toUIMessageStreamResponse(
  events: Iterable<AgLenientEvent> | AsyncIterable<AgLenientEvent>,
  init: { status?: number; statusText?: string; headers?: Record<string, string> } & UIMessageStreamOptions = {},
): Response {
  const { status, statusText, headers, ...options } = init;
  const body = toUIMessageStreamSse(events, options).pipeThrough(new TextEncoderStream());
  return new Response(body, {
    status: status ?? 200,
    ...(statusText !== undefined ? { statusText } : {}),
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...(headers ?? {}) },
  });
}
