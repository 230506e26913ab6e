/**
 * The request types re-input emits are its own structural types (the runtime and the published
 * .d.ts never import a provider SDK); this file pins them to the official SDK request types
 * (`@anthropic-ai/sdk`, `openai`, `@google/genai`, exact devDependency versions): `tsc` fails the
 * day a field drifts (issue 18). Type tests only: vitest checks this file with tsc (`typecheck` in
 * vitest.config.ts), it never runs; sdk-types.test.ts holds the run-time half.
 */
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { BetaContentBlockParam, BetaServerToolUseBlockParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type { Content, Language, Outcome, Part } from "@google/genai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AnthropicContentBlock,
  AnthropicRequest,
  AnthropicServerToolUseBlock,
  AnthropicVerbatimBlock,
  GeminiPart,
  GeminiRequest,
  OpenAIChatMessage,
  OpenAIResponsesInputItem,
  OpenAIResponsesRequest,
} from "./index.js";
import type { toGemini } from "./index.js";

/** The blocks typed field by field (the rest are verbatim server-tool replays, checked by their `type`). */
type AnthropicTypedBlock = Exclude<AnthropicContentBlock, AnthropicVerbatimBlock | AnthropicServerToolUseBlock>;

describe("request types match the official SDKs", () => {
  it("Anthropic Messages (@anthropic-ai/sdk)", () => {
    expectTypeOf<AnthropicTypedBlock>().toExtend<ContentBlockParam>();
    expectTypeOf<{ role: "user" | "assistant"; content: AnthropicTypedBlock[] }>().toExtend<MessageParam>();
    expectTypeOf<NonNullable<AnthropicRequest["system"]>>().toExtend<NonNullable<MessageCreateParamsBase["system"]>>();
    // advisor is a beta server tool; every verbatim block is a block the (beta) API accepts.
    expectTypeOf<AnthropicServerToolUseBlock>().toExtend<BetaServerToolUseBlockParam>();
    expectTypeOf<AnthropicVerbatimBlock["type"]>().toExtend<BetaContentBlockParam["type"]>();
  });

  it("OpenAI Responses (openai)", () => {
    // Every item, hosted and tool-search ones included: the request is the SDK's create() body.
    expectTypeOf<OpenAIResponsesInputItem>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesRequest>().toExtend<Pick<ResponseCreateParamsNonStreaming, "input">>();
  });

  it("OpenAI Chat Completions (openai)", () => {
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParam>();
  });

  it("Gemini (@google/genai)", () => {
    // Every part kind, whole: typed with the SDK's enums (toGemini's `enums` overload) the request
    // is the SDK's Content[]; typed with the JSON strings, those are the enums' string values.
    expectTypeOf<GeminiPart<Outcome, Language>>().toExtend<Part>();
    expectTypeOf<GeminiRequest<Outcome, Language>["contents"]>().toExtend<Content[]>();
    expectTypeOf<NonNullable<GeminiRequest["systemInstruction"]>>().toExtend<Content>();
    expectTypeOf<ReturnType<typeof toGemini<Outcome, Language>>["request"]>().toEqualTypeOf<GeminiRequest<Outcome, Language>>();
    expectTypeOf<NonNullable<GeminiPart["codeExecutionResult"]>["outcome"]>().toExtend<`${Outcome}`>();
    expectTypeOf<NonNullable<GeminiPart["executableCode"]>["language"]>().toExtend<`${Language}`>();
  });
});
