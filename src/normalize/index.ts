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
import { DEFAULT_PARSE_CAPS, jsonDepth } from "../validate/caps.js";
import { InputFramer } from "../wire/input-framer.js";

export type { Normalizer, NormalizerOptions } from "./engine.js";
export { NormalizerEngine } from "./engine.js";
export { ProviderFacet } from "./facet.js";
export { hostErrorLine, normalizeOpenAiAgentsRun, type AgentsStreamedRun } from "./openai-agents-host.js";
export { LANGGRAPH_INTERRUPT_ID_KEY, LangGraphResumeError, langGraphAskId, langGraphInterruptId, toLangGraphResume } from "./langgraph-resume.js";

/** The provider facets this package normalizes. */
export const FACETS = ["anthropic", "openai-responses", "openai-chat", "gemini", "bedrock", "cohere", "gemini-interactions", "claude-agent-sdk", "langgraph", "adk", "openai-agents", "vercel-ai", "vercel-ai-ui", "a2a", "ag-ui"] as const;

/** A facet name: one provider API or agent framework whose stream a Normalizer reads (§8.0). */
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
  // An own entry only: `factories[facet]` for "constructor" or "toString" is Object.prototype's,
  // which returned the options object or a string as if it were a Normalizer.
  const factory = typeof facet === "string" && Object.hasOwn(factories, facet) ? factories[facet] : undefined;
  if (!factory) {
    throw new Error(`No normalizer for facet '${String(facet)}'. Use one of: ${Object.keys(factories).join(", ")}.`);
  }
  return factory(checkedOptions(opts));
}

/**
 * The options as the facets may read them. An id that is not a string is refused here, naming it:
 * a `threadId` of 42 made `turn.start` fail the output guard, so the stream carried no turn.start
 * and every later event had no owning turn (INV-TURN, INV-OWNER); a `turnId` object became
 * "[object Object]" inside every derived id (§1.2, §0.5: ids are strings).
 */
function checkedOptions(opts: NormalizerOptions): NormalizerOptions {
  if (typeof opts !== "object" || opts === null) throw new TypeError(`createNormalizer(): the options are ${opts === null ? "null" : typeof opts}; give an object ({ threadId?, turnId? }) or leave them out.`);
  for (const key of ["threadId", "turnId"] as const) {
    const value: unknown = opts[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(`createNormalizer(): ${key} is ${typeof value === "object" ? (value === null ? "null" : "an object") : `a ${typeof value}`}; give a string (§1.2: every id is a string), or leave it out.`);
    }
  }
  return opts;
}

/** A reader of recorded or live provider output: feed text as it arrives, get back each complete native chunk. */
export interface ChunkReader {
  /** Feeds more input text; returns the chunks completed by it. */
  push(text: string): unknown[];
  /** Ends the input; returns a trailing chunk that had no final newline. */
  end(): unknown[];
}

/** Deepest native chunk parsed; a deeper one is carried as `{ unparsedLine }` (§13: no recursion on hostile depth). */
const NATIVE_MAX_DEPTH = DEFAULT_PARSE_CAPS.maxDepth;

/**
 * The native chunks of one record's text: the parsed JSON, or `{ unparsedLine }` for text that is
 * not JSON or nests deeper than `maxDepth`, so the facet degrades it visibly (§8.0) instead of
 * losing it. An SSE event whose `data:` lines join (WHATWG) into no JSON value, but whose lines each
 * are one, is taken line by line: captures that omit the blank line between events stay readable.
 */
export function nativeChunksOf(text: string, maxDepth = NATIVE_MAX_DEPTH): unknown[] {
  const line = text.trim();
  if (line === "" || line === "[DONE]") return [];
  if (jsonDepth(line, maxDepth) <= maxDepth) {
    try {
      return [JSON.parse(line)];
    } catch {
      // not one JSON value: below
    }
  }
  if (line.includes("\n")) {
    const parts = line.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "[DONE]");
    const parsed = parts.map((p) => nativeChunksOf(p, maxDepth)[0]);
    if (parsed.every((c) => !(typeof c === "object" && c !== null && "unparsedLine" in c))) return parsed;
  }
  return [{ unparsedLine: line }];
}

/**
 * Reads chunk-per-line JSON (NDJSON), raw SSE and JSON documents alike, with the wire module's
 * framers (the gateway's: SSE per WHATWG with CR, LF or CRLF line ends, multi-line `data:` joined,
 * comments, `event:`/`id:`/`retry:` fields and a BOM handled; the framing sniffed from the first
 * significant bytes). An SSE `data:` payload yields its chunk, the `[DONE]` sentinel is skipped, and
 * text that is not JSON comes back as `{ unparsedLine }`.
 */
export function createChunkReader(): ChunkReader {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let out: unknown[] = [];
  let sse = false;
  const framer = new InputFramer(
    "auto",
    { maxFrameBytes: NATIVE_MAX_FRAME_BYTES },
    (frame) => {
      if (frame.kind === "event") out.push(...nativeChunksOf(decoder.decode(frame.data)));
      else if (frame.kind === "oversized") out.push({ unparsedLine: `(a chunk of more than ${NATIVE_MAX_FRAME_BYTES} bytes, not kept)` });
    },
    (format) => {
      sse = format === "sse";
    },
    "ndjson",
  );
  const take = () => {
    const chunks = out;
    out = [];
    return chunks;
  };
  return {
    push(text) {
      framer.push(encoder.encode(text));
      return take();
    },
    end() {
      // A recording's last SSE event often lacks its blank line; it is dispatched, not dropped.
      if (sse) framer.push(encoder.encode("\n\n"));
      framer.end();
      return take();
    },
  };
}

/** Largest native chunk the reader holds (inline media can be large). */
const NATIVE_MAX_FRAME_BYTES = 64 * 1024 * 1024;

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
