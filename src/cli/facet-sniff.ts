/**
 * Which provider facet a native chunk looks like, from the marks each provider's stream carries
 * (§8: the event names and envelope fields of each wire format). Used only to tell a user who
 * passed the wrong `--from` which facet the input probably is; never to choose a facet silently.
 */
import type { FacetName } from "../normalize/index.js";

const ANTHROPIC = new Set(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping"]);
const COHERE = new Set(["message-start", "content-start", "content-delta", "content-end", "tool-plan-delta", "tool-call-start", "tool-call-delta", "tool-call-end", "citation-start", "citation-end", "message-end"]);
const BEDROCK = new Set(["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);
/** Pydantic AI `AgentStreamEvent` / `AgentRunResultEvent` discriminators (messages.py, run.py `event_kind`). */
const PYDANTIC_AI = new Set(["part_start", "part_delta", "part_end", "final_result", "function_tool_call", "function_tool_result", "output_tool_call", "output_tool_result", "deferred_tool_requests", "deferred_tool_results", "agent_run_result"]);

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export function likelyFacet(chunk: unknown): FacetName | undefined {
  if (!isRecord(chunk)) return undefined;
  const type = chunk.type;
  if (typeof type === "string") {
    if (ANTHROPIC.has(type)) return "anthropic";
    if (type.startsWith("response.")) return "openai-responses";
    if (COHERE.has(type)) return "cohere";
  }
  if (typeof chunk.event_type === "string") return "gemini-interactions";
  if (typeof chunk.event_kind === "string" && PYDANTIC_AI.has(chunk.event_kind)) return "pydantic-ai";
  if (chunk.object === "chat.completion.chunk" || Array.isArray(chunk.choices)) return "openai-chat";
  if (Array.isArray(chunk.candidates) || isRecord(chunk.usageMetadata)) return "gemini";
  const keys = Object.keys(chunk);
  if (keys.length === 1 && BEDROCK.has(keys[0]!)) return "bedrock";
  return undefined;
}
