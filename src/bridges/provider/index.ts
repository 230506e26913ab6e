/**
 * `agjson/bridges/provider`: a raw provider API (Anthropic Messages, OpenAI Responses, OpenAI Chat
 * Completions, Gemini) as an AgJSON event source for the AG-UI endpoint and the ACP agent:
 * re-input builds each request from the thread's conversation, the facet of the same
 * name normalizes the streamed answer (§8.0). docs/bridges/ag-ui.md and docs/bridges/acp.md.
 */
export {
  createProviderSource,
  ProviderSourceError,
  type ProviderSource,
  type ProviderSourceErrorCode,
  type ProviderSourceIssue,
  type ProviderSourceOptions,
} from "./provider-source.js";
export {
  buildProviderRequest,
  isProviderApi,
  PROVIDER_APIS,
  RUN_SYSTEM_MESSAGE_ID,
  type ProviderApi,
  type ProviderRequest,
  type ProviderRequestOptions,
} from "./request.js";
export {
  clientBlobsDropped,
  DEFAULT_MAX_STORE_BYTES,
  DEFAULT_MAX_THREAD_BYTES,
  messageBytes,
  newMessages,
  ThreadStore,
  trimConversation,
  type ProviderThread,
  type ThreadStoreLimits,
} from "./threads.js";
