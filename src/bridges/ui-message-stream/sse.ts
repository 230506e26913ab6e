/**
 * Serving a UI message stream the way the AI SDK's chat transport reads it: Server-Sent Events,
 * one `data: <chunk JSON>` frame per chunk, `data: [DONE]` at the end, and the
 * `x-vercel-ai-ui-message-stream: v1` header (`ai` 7.x `UI_MESSAGE_STREAM_HEADERS`).
 */
import type { UIMessageChunk } from "./chunks.js";

/** The response headers of a UI message stream (the AI SDK's own set). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
});

/** One chunk as its SSE frame. */
export function encodeUIMessageChunk(chunk: UIMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The frame that ends a UI message stream. */
export const UI_MESSAGE_STREAM_DONE = "data: [DONE]\n\n";
