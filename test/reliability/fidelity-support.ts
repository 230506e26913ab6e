/** Shared helpers of the fidelity reliability suite: a gateway run in memory, event builders. */
import { createEventValidationStream, type EventValidationOptions } from "../../src/gateway/event-validation-stream.js";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

/** Runs NDJSON `lines` through the validating gateway; returns the events it wrote. */
export async function throughGateway(lines: string[], opts: EventValidationOptions = {}): Promise<Record<string, unknown>[]> {
  const stream = createEventValidationStream({ format: "ndjson", ...opts });
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const line of lines) c.enqueue(enc.encode(`${line}\n`));
      c.close();
    },
  });
  const reader = source.pipeThrough(stream).getReader();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += dec.decode(value, { stream: true });
  }
  return text
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const turnStart = (seq: number, turnId = "t1") => ({ type: "turn.start", seq, threadId: "th", turnId });
export const messageStart = (seq: number, id = "m1", turnId = "t1") => ({
  type: "message.start",
  seq,
  id,
  role: "assistant",
  turnId,
  threadId: "th",
});
export const textStart = (seq: number, id = "b1") => ({ type: "text.start", seq, id });
export const textDelta = (seq: number, delta: unknown, id = "b1") => ({ type: "text.delta", seq, id, delta });
export const textEnd = (seq: number, id = "b1") => ({ type: "text.end", seq, id });
export const messageEnd = (seq: number, id = "m1") => ({ type: "message.end", seq, id });
export const turnDone = (seq: number, turnId = "t1", finishReason = "stop") => ({
  type: "turn.done",
  seq,
  turnId,
  outcome: { type: "success" },
  finishReason,
});

import { validateEvent } from "../../src/validate/index.js";
import type { AgEvent } from "../../generated/types.js";

/** Narrows test-built values to AgEvents by validating them (strict), never by a cast. */
export function asEvents(values: readonly unknown[]): AgEvent[] {
  return values.map((value, i) => {
    const v = validateEvent(value, { posture: "strict" });
    if (!v.ok) throw new Error(`test event ${i} is invalid: ${JSON.stringify(v.errors)}`);
    return v.event;
  });
}
