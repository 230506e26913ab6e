/**
 * Which provider facet a native chunk looks like, from the marks each provider's stream carries
 * (§8: the event names and envelope fields of each wire format). Used only to tell a user who
 * passed the wrong `--from` which facet the input probably is; never to choose a facet silently.
 */
import type { FacetName } from "../normalize/index.js";

const ANTHROPIC = new Set(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping"]);
const COHERE = new Set(["message-start", "content-start", "content-delta", "content-end", "tool-plan-delta", "tool-call-start", "tool-call-delta", "tool-call-end", "citation-start", "citation-end", "message-end"]);
const BEDROCK = new Set(["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);

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
  if (chunk.object === "chat.completion.chunk" || Array.isArray(chunk.choices)) return "openai-chat";
  if (Array.isArray(chunk.candidates) || isRecord(chunk.usageMetadata)) return "gemini";
  const keys = Object.keys(chunk);
  if (keys.length === 1 && BEDROCK.has(keys[0]!)) return "bedrock";
  return undefined;
}

const LANGGRAPH_MODES = new Set(["values", "updates", "messages", "custom", "checkpoints", "tasks", "debug"]);
/** The Claude Agent SDK's message types (its vocabulary, not AgJSON's roles). */
const CLAUDE_AGENT_TYPE = /^(?:system|assistant|user|result|stream_event)$/;
const AGENTS_EVENTS = new Set(["raw_model_stream_event", "run_item_stream_event", "agent_updated_stream_event"]);
const A2A_KINDS = new Set(["task", "message", "statusUpdate", "artifactUpdate", "status-update", "artifact-update"]);

/**
 * Which agent-framework or protocol facet a native chunk looks like (§8: each framework's stream
 * shape, as its facet module reads it), for `agjson inspect` without `--from`. Provider chunks are
 * `likelyFacet`'s; this adds the framework families. Undefined when the chunk names none.
 */
export function likelyFramework(chunk: unknown): FacetName | undefined {
  if (Array.isArray(chunk)) {
    const mode = chunk.length >= 3 ? chunk[1] : chunk[0];
    return (chunk.length === 2 || chunk.length === 3) && typeof mode === "string" && LANGGRAPH_MODES.has(mode) ? "langgraph" : undefined;
  }
  if (!isRecord(chunk)) return undefined;
  const type = chunk.type;
  if (isRecord(chunk.payload) && typeof chunk.payload.$case === "string") return "a2a";
  const rpc = isRecord(chunk.result) ? chunk.result : undefined;
  if (chunk.jsonrpc !== undefined && rpc !== undefined && (Object.keys(rpc).some((k) => A2A_KINDS.has(k)) || (typeof rpc.kind === "string" && A2A_KINDS.has(rpc.kind)))) return "a2a";
  if (typeof chunk.invocationId === "string" && "author" in chunk) return "adk";
  if (typeof type === "string") {
    if (typeof chunk.session_id === "string" && CLAUDE_AGENT_TYPE.test(type)) return "claude-agent-sdk";
    if (AGENTS_EVENTS.has(type)) return "openai-agents";
    if (/^[A-Z][A-Z_]+$/.test(type)) return "ag-ui";
    // The AI SDK's fullStream parts carry `text`; its UI message chunks carry `delta` (and `messageId` on start).
    if (type === "text-delta" || type === "reasoning-delta") return "delta" in chunk ? "vercel-ai-ui" : "text" in chunk ? "vercel-ai" : undefined;
    if (type === "start") return "messageId" in chunk ? "vercel-ai-ui" : undefined;
    if (type === "start-step" || type === "finish-step") return "request" in chunk || "response" in chunk ? "vercel-ai" : "vercel-ai-ui";
  }
  if (isRecord(chunk.data) && typeof chunk.data.type === "string" && (chunk.data.type === "model" || chunk.data.type === "response_started" || chunk.data.type === "response_done")) return "openai-agents";
  return undefined;
}
