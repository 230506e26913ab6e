/**
 * `agjson/bridges/source`: where a bridge's AgEvents come from. An `AgEventSource` answers one
 * AgInput with an AgEvent stream; the ACP agent, the AG-UI server and `agjson serve`/`agjson acp`
 * all run against one. Two sources live here — an agjson endpoint over HTTP
 * (`createUpstreamSource`: SSE or NDJSON back, every record validated lenient at this trust
 * boundary, §5) and a recording played back one top-level turn per input (`createReplaySource`) —
 * and `agjson/bridges/provider` adds a raw provider API. No peer dependency: this entry loads
 * neither `@ag-ui/core` nor the ACP SDK.
 */
export { MAX_LISTED_ISSUES, parseEventStream, type AgEventSource, type AgSourceIssue, type AgStreamParseOptions } from "./event-source.js";
export { createUpstreamSource, UpstreamError, type UpstreamErrorCode, type UpstreamSourceOptions } from "./upstream-source.js";
export { createReplaySource, REPLAY_EXHAUSTED, splitTurns, type ReplaySource } from "./replay-source.js";
export {
  AgSourceError,
  bodyChunks,
  createRedactor,
  ERROR_BODY_BYTES,
  ERROR_BODY_MS,
  publicMessageOf,
  readErrorBody,
  redactUrl,
  resolveDeadlines,
  RunDeadline,
  type AgSourceFault,
  type SourceDeadlines,
} from "./guard.js";
