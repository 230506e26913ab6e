/**
 * `agjson/reinput`: a stored conversation (`AgMessage[]` or an `AgReduceResult`) back into the
 * next request of Anthropic Messages, OpenAI Responses, OpenAI Chat Completions or Gemini, with
 * a typed report of everything dropped or changed (§10 round trips; docs/reinput.md).
 */
export { isAnthropicStableRequest, toAnthropic } from "./anthropic.js";
export type * from "./anthropic.js";
export { toOpenAIResponses } from "./openai-responses.js";
export type * from "./openai-responses.js";
export { toOpenAIChat } from "./openai-chat.js";
export type * from "./openai-chat.js";
export { toGemini } from "./gemini.js";
export type * from "./gemini.js";
export type { OpenAISystemRole, ReinputInvalidPolicy, ReinputOptions, ReinputResult } from "./conversation.js";
export { OPENAI_SYSTEM_ROLES, REINPUT_INVALID_POLICIES } from "./conversation.js";
export { REINPUT_TARGETS, ReinputError } from "./report.js";
export type { ReinputErrorCode, ReinputReason, ReinputReportEntry, ReinputTarget } from "./report.js";
import { toAnthropic } from "./anthropic.js";
import { toOpenAIResponses } from "./openai-responses.js";
import { toOpenAIChat } from "./openai-chat.js";
import { toGemini } from "./gemini.js";
import type { ReinputTarget } from "./report.js";

/** Each target's function, a full record over `REINPUT_TARGETS`: a target without one does not compile. */
export const REINPUT_BY_TARGET = {
  anthropic: toAnthropic,
  "openai-responses": toOpenAIResponses,
  "openai-chat": toOpenAIChat,
  gemini: toGemini,
} as const satisfies Record<ReinputTarget, unknown>;
