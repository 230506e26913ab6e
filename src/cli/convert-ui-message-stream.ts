/**
 * The `ui-message-stream` target of `agjson convert`: AgEvents in, the AI SDK UI message stream out
 * as the SSE body a chat route returns (docs/bridges/ui-message-stream.md).
 */
import type { AgLenientEvent } from "../../generated/types.js";
import { createUIMessageStreamTransform, encodeUIMessageChunk, UI_MESSAGE_STREAM_DONE } from "../bridges/ui-message-stream/index.js";

/** One output protocol of `agjson convert`: a stateful text transform per input stream. */
export interface ConvertTarget {
  /** The `--to` value. */
  name: string;
  description: string;
  /** `sse`: frame the output as SSE where the protocol also has a plain form (`--sse`). */
  create(opts: { sse: boolean }): ConvertStream | Promise<ConvertStream>;
}

/** Thrown by a target's `create` when an optional peer it loads is not installed; the message names the install command. */
export class MissingPeerError extends Error {}

/** The stateful transform of one input stream: output text per event, and at the end. */
export interface ConvertStream {
  push(event: AgLenientEvent): string[];
  end(): string[];
}

export const uiMessageStreamTarget: ConvertTarget = {
  name: "ui-message-stream",
  description: "Vercel AI SDK UI message stream, as SSE (data: <chunk>, data: [DONE])",
  create() {
    const transform = createUIMessageStreamTransform();
    return {
      push: (event) => transform.push(event).map(encodeUIMessageChunk),
      end: () => [...transform.end().map(encodeUIMessageChunk), UI_MESSAGE_STREAM_DONE],
    };
  },
};
