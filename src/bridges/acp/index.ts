/**
 * `agjson/bridges/acp`: an Agent Client Protocol agent (editors such as Zed) in front of any AgJSON
 * event source. Needs `@agentclientprotocol/sdk` ^2.4 installed (an optional peer dependency of
 * agjson; docs/bridges/acp.md says why). Mapping table: docs/bridges/acp.md.
 */
export { createAcpAgent, stopReasonOf, AGJSON_EVENT_NOTIFICATION, DEFAULT_MAX_ACP_SESSIONS, type AcpAgentOptions } from "./agent.js";
export { serveAcpStdio, type AcpStdio, type AcpStdioEnd } from "./stdio.js";
export { createAcpUpdateMapper, type AcpOutput, type AcpUpdateMapper, type AcpToolCallView } from "./updates.js";
export { agBlockOf, acpContentOf, planEntriesOf } from "./content.js";
// The event sources the agent runs against, also on their own (peer-free) entry, agjson/bridges/source.
export { parseEventStream, createUpstreamSource, UpstreamError, createReplaySource, splitTurns } from "../source/index.js";
export type { AgEventSource, AgSourceIssue, AgStreamParseOptions, UpstreamSourceOptions, ReplaySource } from "../source/index.js";
