/**
 * `agjson/reinput`: a stored conversation (`AgMessage[]` or an `AgReduceResult`) back into the
 * next request of Anthropic Messages, OpenAI Responses, OpenAI Chat Completions or Gemini, with
 * a typed report of everything dropped or changed (§10 round trips; docs/reinput.md).
 */
export { toAnthropic } from "./anthropic.js";
export type * from "./anthropic.js";
export { toOpenAIResponses } from "./openai-responses.js";
export type * from "./openai-responses.js";
export { toOpenAIChat } from "./openai-chat.js";
export type * from "./openai-chat.js";
export { toGemini } from "./gemini.js";
export type * from "./gemini.js";
export type { ReinputOptions, ReinputResult } from "./conversation.js";
export { ReinputError } from "./report.js";
export type { ReinputErrorCode, ReinputReason, ReinputReportEntry, ReinputTarget } from "./report.js";
