/**
 * Normalizers (spec §8): one per provider facet, each a fresh stateful instance per invoke.
 * `createNormalizer(facet)` is the public entry; `readNativeChunks` / `createChunkReader` turn
 * recorded or live provider output (chunk-per-line or raw SSE) into the native chunks to push.
 */
import { AdkFacet } from "./adk.js";
import { AgUiFacet } from "./ag-ui.js";
import { AnthropicFacet } from "./anthropic.js";
import { BedrockFacet } from "./bedrock.js";
import { ClaudeAgentSdkFacet } from "./claude-agent-sdk.js";
import { CohereFacet } from "./cohere.js";
import type { Normalizer, NormalizerOptions } from "./engine.js";
import { GeminiFacet } from "./gemini.js";
import { GeminiInteractionsFacet } from "./gemini-interactions.js";
import { LangGraphFacet } from "./langgraph.js";
import { OpenAiChatFacet } from "./openai-chat.js";
import { OpenAiResponsesFacet } from "./openai-responses.js";
import { OpenAiAgentsFacet } from "./openai-agents.js";
import { VercelAiFacet, VercelAiUiFacet } from "./vercel-ai.js";
import { A2aFacet } from "./a2a.js";

export type { Normalizer, NormalizerOptions } from "./engine.js";
export { NormalizerEngine } from "./engine.js";
export { ProviderFacet } from "./facet.js";
export { hostErrorLine, normalizeOpenAiAgentsRun, type AgentsStreamedRun } from "./openai-agents-host.js";

/** The provider facets this package normalizes. */
export const FACETS = ["anthropic", "openai-responses", "openai-chat", "gemini", "bedrock", "cohere", "gemini-interactions", "claude-agent-sdk", "langgraph", "adk", "openai-agents", "vercel-ai", "vercel-ai-ui", "a2a", "ag-ui"] as const;

/** A provider facet name (DESIGN §5 `FacetName`). */
export type FacetName = (typeof FACETS)[number];

/** True when `name` is a facet this package implements. */
export function isFacetName(name: string): name is FacetName {
  return (FACETS as readonly string[]).includes(name);
}

const factories: Partial<Record<FacetName, (opts: NormalizerOptions) => Normalizer>> = {
  anthropic: (opts) => new AnthropicFacet(opts),
  "openai-chat": (opts) => new OpenAiChatFacet(opts),
  "openai-responses": (opts) => new OpenAiResponsesFacet(opts),
  gemini: (opts) => new GeminiFacet(opts),
  bedrock: (opts) => new BedrockFacet(opts),
  cohere: (opts) => new CohereFacet(opts),
  "gemini-interactions": (opts) => new GeminiInteractionsFacet(opts),
  "claude-agent-sdk": (opts) => new ClaudeAgentSdkFacet(opts),
  langgraph: (opts) => new LangGraphFacet(opts),
  adk: (opts) => new AdkFacet(opts),
  "openai-agents": (opts) => new OpenAiAgentsFacet(opts),
  "vercel-ai": (opts) => new VercelAiFacet(opts),
  "vercel-ai-ui": (opts) => new VercelAiUiFacet(opts),
  a2a: (opts) => new A2aFacet(opts),
  "ag-ui": (opts) => new AgUiFacet(opts),
};

/** A fresh Normalizer for one invoke of the named provider facet (§8.0 Lifetime). */
export function createNormalizer(facet: FacetName, opts: NormalizerOptions = {}): Normalizer {
  const factory = factories[facet];
  if (!factory) {
    throw new Error(`No normalizer for facet '${facet}'. Use one of: ${Object.keys(factories).join(", ")}.`);
  }
  return factory(opts);
}

/** A line-oriented reader: feed text as it arrives, get back each complete native chunk. */
export interface ChunkReader {
  /** Feeds more input text; returns the chunks completed by it. */
  push(text: string): unknown[];
  /** Ends the input; returns a trailing chunk that had no final newline. */
  end(): unknown[];
}

/**
 * Reads chunk-per-line JSON (NDJSON) and raw SSE alike: an SSE `data:` line yields its payload,
 * `event:`/`id:`/`retry:`/comment lines and the `[DONE]` sentinel are skipped, and a line that is
 * not JSON is returned as `{ unparsedLine }` so the facet degrades it visibly instead of losing it.
 */
export function createChunkReader(): ChunkReader {
  let buffer = "";
  const parseLine = (raw: string): unknown[] => {
    let line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return [];
    if (line.startsWith(":") || /^(event|id|retry):/.test(line)) return [];
    if (line.startsWith("data:")) {
      line = line.slice(5);
      if (line.startsWith(" ")) line = line.slice(1);
      if (line.trim() === "[DONE]") return [];
    }
    try {
      return [JSON.parse(line)];
    } catch {
      return [{ unparsedLine: line }];
    }
  };
  return {
    push(text) {
      buffer += text;
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      return lines.flatMap(parseLine);
    },
    end() {
      const rest = buffer;
      buffer = "";
      return parseLine(rest);
    },
  };
}

/** All native chunks of a complete recorded stream (NDJSON, SSE, one JSON document, or a JSON array of chunks). */
export function readNativeChunks(text: string): unknown[] {
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      // several documents (NDJSON): fall through to line reading
    }
  }
  const reader = createChunkReader();
  return [...reader.push(text), ...reader.end()];
}

/** Normalizes a whole recorded stream in one call: every chunk pushed, then flush. */
export function normalizeAll(facet: FacetName, chunks: Iterable<unknown>, opts: NormalizerOptions = {}) {
  const n = createNormalizer(facet, opts);
  const events = [];
  for (const c of chunks) events.push(...n.push(c));
  events.push(...n.flush());
  return events;
}
