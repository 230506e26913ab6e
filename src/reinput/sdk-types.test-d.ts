/**
 * The request types re-input emits are its own structural types (the runtime and the published
 * .d.ts never import a provider SDK); this file pins them to the official SDK request types
 * (`@anthropic-ai/sdk`, `openai`, `@google/genai`, exact devDependency versions): `tsc` fails the
 * day a field drifts (issue 18). Type tests only: vitest checks this file with tsc (`typecheck` in
 * vitest.config.ts), it never runs; sdk-types.test.ts holds the run-time half.
 */
import type { ContentBlockParam, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import type {
  BetaContentBlockParam,
  MessageCreateParamsNonStreaming as BetaMessageCreateParamsNonStreaming,
} from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type { Content, Language, Outcome, Part } from "@google/genai";
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions/completions";
import type { ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AnthropicBetaOnlyBlock,
  AnthropicContentBlock,
  AnthropicRequest,
  AnthropicStableContentBlock,
  AnthropicStableRequest,
  GeminiPart,
  GeminiRequest,
  OpenAIChatMessage,
  OpenAIChatRequest,
  OpenAIResponsesInputItem,
  OpenAIResponsesRequest,
} from "./index.js";
import type { toGemini } from "./index.js";

describe("request types match the official SDKs", () => {
  it("Anthropic Messages (@anthropic-ai/sdk)", () => {
    // Every block, the server-tool replays included: the request is the beta client's create() body.
    expectTypeOf<AnthropicContentBlock>().toExtend<BetaContentBlockParam>();
    expectTypeOf<AnthropicRequest>().toExtend<Pick<BetaMessageCreateParamsNonStreaming, "messages" | "system">>();
    // Without the beta-only blocks (isAnthropicStableRequest) it is the stable client's body...
    expectTypeOf<AnthropicStableContentBlock>().toExtend<ContentBlockParam>();
    expectTypeOf<AnthropicStableRequest>().toExtend<Pick<MessageCreateParamsNonStreaming, "messages" | "system">>();
    // ...and each beta-only block is one the stable types do not take: the day they do, it moves.
    expectTypeOf<Extract<AnthropicBetaOnlyBlock, ContentBlockParam>>().toBeNever();
  });

  it("OpenAI Responses (openai)", () => {
    // Every item, hosted and tool-search ones included: the request is the SDK's create() body.
    expectTypeOf<OpenAIResponsesInputItem>().toExtend<ResponseInputItem>();
    expectTypeOf<OpenAIResponsesRequest>().toExtend<Pick<ResponseCreateParamsNonStreaming, "input">>();
  });

  it("OpenAI Chat Completions (openai)", () => {
    expectTypeOf<OpenAIChatMessage>().toExtend<ChatCompletionMessageParam>();
    expectTypeOf<OpenAIChatRequest>().toExtend<Pick<ChatCompletionCreateParamsNonStreaming, "messages">>();
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
