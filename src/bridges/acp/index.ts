/**
 * `agjson/bridges/acp`: an Agent Client Protocol agent (editors such as Zed) in front of any AgJSON
 * event source. Needs `@agentclientprotocol/sdk` ^2.4 installed (an optional peer dependency of
 * agjson; docs/bridges/acp.md says why). Mapping table: docs/bridges/acp.md.
 */
export { createAcpAgent, stopReasonOf, AGJSON_EVENT_NOTIFICATION, type AcpAgentOptions } from "./agent.js";
export { serveAcpStdio } from "./stdio.js";
export { createAcpUpdateMapper, type AcpOutput, type AcpUpdateMapper, type AcpToolCallView } from "./updates.js";
export { agBlockOf, acpContentOf, planEntriesOf } from "./content.js";
export { parseEventStream, type AgEventSource, type AgSourceIssue, type AgStreamParseOptions } from "./event-source.js";
export { createUpstreamSource, UpstreamError, type UpstreamSourceOptions } from "./upstream-source.js";
export { createReplaySource, splitTurns, type ReplaySource } from "./replay-source.js";
