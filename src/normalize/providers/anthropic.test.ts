// Anthropic facet: the §8 item 4 branch the recorded streams do not reach — a message_delta whose
// usage names a running total `null` (the SDK's MessageDeltaUsage types each total `number | null`).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { AnthropicFacet } from "./anthropic.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new AnthropicFacet(), chunks);

describe("Anthropic facet", () => {
  it("a null running total in message_delta usage keeps the total message_start gave, verbatim and cumulative (§8 item 4)", () => {
    const events = conformant(
      run([
        {
          type: "message_start",
          message: {
            id: "msg_null_usage",
            type: "message",
            role: "assistant",
            model: "claude-sonnet-4-5",
            content: [],
            stop_reason: null,
            usage: { input_tokens: 120, cache_creation_input_tokens: 7, cache_read_input_tokens: 30, output_tokens: 1 },
          },
        },
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
        { type: "content_block_stop", index: 0 },
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: {
            input_tokens: null,
            cache_creation_input_tokens: null,
            cache_read_input_tokens: null,
            output_tokens: 9,
            server_tool_use: null,
          },
        },
        { type: "message_stop" },
      ]),
    );
    const usage = { cumulative: true, inputTokens: 120, outputTokens: 9, cacheReadTokens: 30, cacheWriteTokens: 7 };
    expect(of(events, "message.end")[0]!.usage).toEqual(usage);
    expect(of(events, "turn.done")[0]!.usage).toEqual(usage);
    expect(of(events, "message.metadata")[0]).toMatchObject({
      metadata: {
        anthropic: { usage: { input_tokens: 120, cache_creation_input_tokens: 7, cache_read_input_tokens: 30, output_tokens: 9 } },
      },
    });
  });
});
