// OpenAI Chat facet: the §4 costUsd note for the compatible vendors that report a cost (OpenRouter's
// `usage.cost`, in USD); none of the recorded streams carries one.
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { OpenAiChatFacet } from "./openai-chat.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new OpenAiChatFacet(), chunks);

const base = { id: "gen-cost-01", object: "chat.completion.chunk", created: 1, model: "openai/gpt-4o-mini" };

describe("OpenAI Chat facet", () => {
  it("the chunk's own unmapped fields ride message.metadata (§0.2): the last non-null value, never an inherited one", () => {
    const last = Object.assign(Object.create({ inherited: "no" }) as object, {
      ...base,
      system_fingerprint: "fp_2",
      service_tier: null,
      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
    });
    const events = run([
      {
        ...base,
        system_fingerprint: "fp_1",
        service_tier: "default",
        choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }],
      },
      last,
      { ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    ]);
    expect(of(events, "message.metadata")[0]!.metadata).toEqual({
      openai: { system_fingerprint: "fp_2", service_tier: "default", usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    });
    expect(of(events, "turn.done")).toHaveLength(1);
  });

  it("a reported usage.cost rides costUsd verbatim; never computed (§4 costUsd)", () => {
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 12,
      cost: 0.0000123,
      is_byok: false,
      cost_details: { upstream_inference_cost: null },
    };
    const events = conformant(
      run([
        { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] },
        { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        { ...base, choices: [], usage },
      ]),
    );
    const mapped = { inputTokens: 10, outputTokens: 2, totalTokens: 12, costUsd: 0.0000123 };
    expect(of(events, "message.end")[0]!.usage).toEqual(mapped);
    expect(of(events, "turn.done")[0]!.usage).toEqual(mapped);
    // The raw usage (cost_details, is_byok) still rides message.metadata verbatim.
    expect(of(events, "message.metadata")[0]).toMatchObject({ metadata: { openai: { usage } } });
  });

  it("usage with no cost has no costUsd", () => {
    const events = conformant(
      run([
        { ...base, choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: "stop" }] },
        { ...base, choices: [], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } },
      ]),
    );
    expect(of(events, "message.end")[0]!.usage).toEqual({ inputTokens: 3, outputTokens: 1, totalTokens: 4 });
  });
});
