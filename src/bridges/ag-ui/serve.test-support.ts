/**
 * What the AG-UI server tests share: a recorded three-turn conversation (the sample chat with shared
 * state, then a call paused for approval, then the turn after the resume), a source that records
 * the AgInputs it is run with, and an SSE reader for raw responses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgEvent, AgInput } from "../../../generated/types.js";
import { readNativeChunks } from "../../normalize/index.js";
import { validateEvent } from "../../validate/index.js";
import type { AgEventSource } from "../source/index.js";
import { REPO } from "./ag-ui.test-support.js";

function checked(raw: unknown[]): AgEvent[] {
  return raw.map((x, i) => {
    const v = validateEvent(x, { posture: "strict" });
    if (!v.ok || !v.known)
      throw new Error(`recording event ${i} is not a valid AgEvent: ${JSON.stringify(v.ok ? "unknown type" : v.errors)}`);
    return v.event;
  });
}

/** The approval the second turn pauses on (§7), with the anti-forgery token a resume must echo (§13.1). */
export const ASK = { askId: "ask_delete", kind: "approval", toolCallId: "call_2", message: "Delete notes.txt?", token: "tok-7" } as const;

/** Three recorded top-level turns: text, reasoning, a tool call and its result, shared state; a paused call; the resumed turn. */
export function recordedConversation(): AgEvent[] {
  const sample = readNativeChunks(readFileSync(join(REPO, "samples/chat-with-tool.ndjson"), "utf8"));
  const done = sample.pop();
  let seq = sample.length;
  const e = (x: Record<string, unknown>) => ({ ...x, seq: seq++ });
  const turn1 = [
    ...sample,
    e({ type: "state.snapshot", turnId: "turn_1", snapshot: { city: "Paris", units: "C" } }),
    e({ type: "state.delta", turnId: "turn_1", patch: [{ op: "add", path: "/lastTempC", value: 18 }] }),
    { ...(done as Record<string, unknown>), seq: seq++ },
  ];
  const turn2 = [
    e({ type: "turn.start", threadId: "thread_demo", turnId: "turn_2" }),
    e({ type: "message.start", id: "msg_3", role: "assistant", turnId: "turn_2", threadId: "thread_demo" }),
    e({ type: "tool.start", toolCallId: "call_2", name: "delete_file", turnId: "turn_2" }),
    e({ type: "tool.args.assembled", toolCallId: "call_2", input: { path: "notes.txt" } }),
    e({ type: "message.end", id: "msg_3" }),
    e({ type: "hitl.ask", turnId: "turn_2", ...ASK }),
    e({ type: "turn.done", turnId: "turn_2", outcome: { type: "paused", asks: [ASK] }, finishReason: "paused" }),
  ];
  const turn3 = [
    e({ type: "turn.start", threadId: "thread_demo", turnId: "turn_3" }),
    e({ type: "message.start", id: "msg_4", role: "assistant", turnId: "turn_3", threadId: "thread_demo" }),
    e({ type: "text.start", id: "txt_4", turnId: "turn_3" }),
    e({ type: "text.delta", id: "txt_4", delta: "Deleted notes.txt." }),
    e({ type: "text.end", id: "txt_4" }),
    e({ type: "message.end", id: "msg_4" }),
    e({ type: "turn.done", turnId: "turn_3", outcome: { type: "success" }, finishReason: "stop" }),
  ];
  return checked([...turn1, ...turn2, ...turn3]);
}

/** Wraps a source so a test can see each AgInput the endpoint ran it with. */
export function recordingInputs(source: AgEventSource): { source: AgEventSource; inputs: AgInput[] } {
  const inputs: AgInput[] = [];
  return {
    inputs,
    source: {
      run(input, signal) {
        inputs.push(input);
        return source.run(input, signal);
      },
    },
  };
}

/** The JSON values of the `data:` frames of an SSE body. */
export function sseData(body: string): unknown[] {
  return body
    .split("\n\n")
    .filter((frame) => frame.startsWith("data: "))
    .map((frame) => JSON.parse(frame.slice("data: ".length)));
}
