// The Claude Agent SDK's non-streaming fallback (record/recordings/claude-agent-sdk/stream-cut-fallback,
// recorded from the real SDK: the replay stalls the provider stream after four chunks, the CLI gives
// up on it, ends the partial with a `message_stop` naming the blocks it abandoned, retries without
// streaming and delivers the response as whole `assistant` frames, one per block). Every block the
// whole response holds that the stream did not deliver lands, in order, with its ids; nothing that
// streamed lands twice (§8.0: nothing the source sends is dropped; INV-DELTA; §4 tool.args.assembled).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgBlock } from "../generated/lenient-types.js";
import type { AgLenientEvent } from "../generated/types.js";
import { normalizeAll, readNativeChunks } from "../src/normalize/index.js";
import { checkStream } from "../src/normalize/stream-check.test-support.js";
import { reduce } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";

const RECORDING = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "record",
  "recordings",
  "claude-agent-sdk",
  "stream-cut-fallback.native.ndjson",
);

interface Frame {
  type: string;
  message?: { id?: string; content?: { type: string; id?: string; tool_use_id?: string; text?: string; input?: unknown }[] };
  abandoned_blocks?: { api_message_id: string; from_block_index: number };
}

function fold(chunks: unknown[]) {
  const events = normalizeAll("claude-agent-sdk", chunks) as AgLenientEvent[];
  return { events, folded: reduce(events) };
}

const textOf = (blocks: readonly AgBlock[]) => blocks.map((b) => (b.type === "text" ? b.text : "")).join("");

describe("Claude Agent SDK: a stream cut short, then the whole response (the SDK's non-streaming fallback)", () => {
  const chunks = readNativeChunks(readFileSync(RECORDING, "utf8")) as Frame[];
  const { events, folded } = fold(chunks);
  const cut = chunks.find((c) => c.abandoned_blocks !== undefined)!.abandoned_blocks!;
  // The whole response as the SDK delivered it: every block of its `assistant` frames, in order.
  const whole = chunks
    .filter((c) => c.type === "assistant" && c.message?.id === cut.api_message_id)
    .flatMap((c) => c.message?.content ?? []);
  const answer = whole
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("");

  it("the recording is the case: the stream abandoned block 0 on, the whole frames hold a server tool call, its result and a long answer", () => {
    expect(cut.from_block_index).toBe(0);
    expect(whole.slice(0, 2).map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result"]);
    expect(answer.length).toBeGreaterThan(1000);
  });

  it("strict-valid, §5.0 invariants, folds cleanly", () => {
    expect(events.flatMap((e) => (validateEvent(e, { posture: "strict" }).ok ? [] : [`${e.seq} ${e.type}`]))).toEqual([]);
    expect(checkStream(events)).toEqual([]);
    expect(folded.errors).toEqual([]);
  });

  it("the fold holds the whole answer, its blocks in the response's order with their ids", () => {
    const message = folded.result.messages.find((m) => m.id === cut.api_message_id)!;
    expect(textOf(message.content)).toBe(answer);
    const kinds = message.content.map((b) => (b.type === "tool-call" || b.type === "tool-result" ? `${b.type}:${b.toolCallId}` : b.type));
    const expected = whole.map((b) =>
      b.type === "server_tool_use" ? `tool-call:${b.id}` : b.type === "web_search_tool_result" ? `tool-result:${b.tool_use_id}` : b.type,
    );
    expect(kinds).toEqual(expected);
    const call = message.content.find((b) => b.type === "tool-call");
    expect(call?.type === "tool-call" ? call.input : undefined).toEqual(whole[0]!.input);
  });

  it("nothing lands twice: one tool.start per call, every character of the answer streamed once, no malformed arguments", () => {
    const starts = events.filter((e) => e.type === "tool.start").map((e) => (e.type === "tool.start" ? e.toolCallId : ""));
    expect(starts).toEqual([...new Set(starts)]);
    expect(
      events
        .filter((e) => e.type === "text.delta")
        .map((e) => (e.type === "text.delta" ? e.delta : ""))
        .join(""),
    ).toBe(answer);
    expect(events.filter((e) => e.type === "error").map((e) => (e.type === "error" ? e.code : ""))).not.toContain("malformed_tool_args");
  });

  it("a text block cut mid-way is completed by its whole frame, and a block that streamed whole is not repeated", () => {
    const meta = { session_id: "s", parent_tool_use_id: null };
    const ev = (event: object) => ({ type: "stream_event", event, ...meta });
    const frame = (text: string) => ({
      type: "assistant",
      message: { id: "m1", role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" },
      ...meta,
    });
    const stream = [
      ev({ type: "message_start", message: { id: "m1", role: "assistant", model: "claude", content: [], usage: {} } }),
      ev({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      ev({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello. " } }),
      ev({ type: "content_block_stop", index: 0 }),
      ev({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
      ev({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Wor" } }),
      { ...ev({ type: "message_stop" }), abandoned_blocks: { api_message_id: "m1", from_block_index: 1 } },
      frame("Hello. "),
      frame("World!"),
      { type: "result", subtype: "success", is_error: false, result: "World!", ...meta },
    ];
    const { events: out, folded: f } = fold(stream);
    expect(checkStream(out)).toEqual([]);
    const message = f.result.messages.find((m) => m.id === "m1")!;
    expect(message.content.map((b) => (b.type === "text" ? b.text : b.type))).toEqual(["Hello. ", "World!"]);
    expect(out.filter((e) => e.type === "text.delta").map((e) => (e.type === "text.delta" ? e.delta : ""))).toEqual([
      "Hello. ",
      "Wor",
      "ld!",
    ]);
  });
});
