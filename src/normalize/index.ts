/**
 * Normalizers (spec §8): one per provider facet, each a fresh stateful instance per invoke.
 * `createNormalizer(facet)` is the public entry; `readNativeChunks` / `createChunkReader` turn
 * recorded or live provider output (chunk-per-line or raw SSE) into the native chunks to push.
 */
import { AdkFacet } from "./frameworks/adk.js";
import { AgUiFacet } from "./protocols/ag-ui.js";
import { AnthropicFacet } from "./providers/anthropic.js";
import { BedrockFacet } from "./providers/bedrock.js";
import { ClaudeAgentSdkFacet } from "./frameworks/claude-agent-sdk.js";
import { CohereFacet } from "./providers/cohere.js";
import type { Normalizer, NormalizerOptions } from "./engine.js";
import { markParsedChunk } from "./engine.js";
import { GeminiFacet } from "./providers/gemini.js";
import { GeminiInteractionsFacet } from "./providers/gemini-interactions.js";
import { LangGraphFacet } from "./frameworks/langgraph.js";
import { PydanticAiFacet } from "./frameworks/pydantic-ai.js";
import { OpenAiChatFacet } from "./providers/openai-chat.js";
import { OpenAiResponsesFacet } from "./providers/openai-responses.js";
import { OpenAiAgentsFacet } from "./frameworks/openai-agents.js";
import { VercelAiFacet, VercelAiUiFacet } from "./frameworks/vercel-ai.js";
import { A2aFacet } from "./protocols/a2a.js";
import { DEFAULT_PARSE_CAPS, jsonDepth } from "../validate/caps.js";
import { InputFramer } from "../wire/input-framer.js";
import { parseKeepingExact } from "../wire/exact-numbers.js";
import { isObject, obj } from "./util.js";

export type { Normalizer, NormalizerOptions } from "./engine.js";
export { NormalizerEngine } from "./engine.js";
export { ProviderFacet } from "./facet.js";
export { fromPydanticAiMessages } from "./frameworks/pydantic-ai-messages.js";
export { hostErrorLine, normalizeOpenAiAgentsRun, type AgentsStreamedRun } from "./frameworks/openai-agents-host.js";
export {
  LANGGRAPH_INTERRUPT_ID_KEY,
  LangGraphResumeError,
  langGraphAskId,
  langGraphInterruptId,
  toLangGraphResume,
} from "./frameworks/langgraph-resume.js";

/**
 * One facet: which kind of source it reads, how to make its Normalizer, and the marks of its
 * native chunks (§8: each wire format's own event names and envelope fields).
 */
/**
 * What a facet reads: a model provider's streaming API, an agent framework's stream, or an agent
 * protocol's wire (AG-UI, A2A: `src/normalize/protocols/`), in the order `--from` help lists them.
 */
export const FACET_KINDS = ["provider", "framework", "protocol"] as const;
export type FacetKind = (typeof FACET_KINDS)[number];

export interface FacetRow {
  /** Which of FACET_KINDS it reads; the folder under src/normalize/ it lives in says the same. */
  kind: FacetKind;
  /** A fresh Normalizer for one invoke (§8.0 Lifetime). */
  create: (opts: NormalizerOptions) => Normalizer;
  /**
   * True when a native chunk carries a mark of this facet's stream that no other facet's stream
   * carries. Used only to tell a user who passed the wrong `--from` which facet the input probably
   * is; never to choose a facet silently. A chunk every facet may see (a host's `__host_error__`
   * line, `{ unparsedLine }`) marks none.
   */
  looksLike: (chunk: unknown) => boolean;
}

const typeOf = (c: unknown): string | undefined => (isObject(c) && typeof c.type === "string" ? c.type : undefined);
const typeIn = (set: ReadonlySet<string>) => (c: unknown) => set.has(typeOf(c) ?? "");
/** An AI SDK part of `type` whose payload field `key` is a string: the two AI SDK streams name their payloads differently. */
const partWith = (types: readonly string[], key: string) => (c: unknown) =>
  types.includes(typeOf(c) ?? "") && typeof (c as Record<string, unknown>)[key] === "string";
const either =
  (...tests: ((c: unknown) => boolean)[]) =>
  (c: unknown) =>
    tests.some((t) => t(c));

const ANTHROPIC_TYPES = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
]);
const COHERE_TYPES = new Set([
  "message-start",
  "content-start",
  "content-delta",
  "content-end",
  "tool-plan-delta",
  "tool-call-start",
  "tool-call-delta",
  "tool-call-end",
  "citation-start",
  "citation-end",
  "message-end",
]);
const BEDROCK_KEYS = new Set(["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);
const LANGGRAPH_MODES = new Set(["values", "updates", "messages", "custom", "checkpoints", "tasks", "debug"]);
const OPENAI_AGENTS_TYPES = new Set(["raw_model_stream_event", "run_item_stream_event", "agent_updated_stream_event"]);
/** `streamText().fullStream` parts the UI message stream does not have. */
const AI_SDK_FULL_TYPES = new Set(["tool-call", "tool-result", "tool-error", "tool-input-end"]);
/** UI message stream chunks `fullStream` does not have. */
const AI_SDK_UI_TYPES = new Set([
  "tool-input-available",
  "tool-input-error",
  "tool-output-available",
  "tool-output-error",
  "source-url",
  "source-document",
  "message-metadata",
]);
const A2A_KINDS = ["task", "statusUpdate", "artifactUpdate"];
/** Pydantic AI `AgentStreamEvent` / `AgentRunResultEvent` discriminators (messages.py, run.py `event_kind`). */
const PYDANTIC_AI_KINDS = new Set([
  "part_start",
  "part_delta",
  "part_end",
  "final_result",
  "function_tool_call",
  "function_tool_result",
  "output_tool_call",
  "output_tool_result",
  "deferred_tool_requests",
  "deferred_tool_results",
  "agent_run_result",
]);

/**
 * Every facet this package implements, one row each: `FACETS`, `FacetName`, `createNormalizer`, the
 * CLI's `--from` choices and help, and its wrong-`--from` hint all read this table, so a facet is
 * added by adding its row.
 */
export const FACET_TABLE = {
  anthropic: { kind: "provider", create: (o) => new AnthropicFacet(o), looksLike: typeIn(ANTHROPIC_TYPES) },
  "openai-responses": {
    kind: "provider",
    create: (o) => new OpenAiResponsesFacet(o),
    looksLike: (c) => typeOf(c)?.startsWith("response.") === true,
  },
  "openai-chat": {
    kind: "provider",
    create: (o) => new OpenAiChatFacet(o),
    looksLike: (c) => isObject(c) && (c.object === "chat.completion.chunk" || Array.isArray(c.choices)),
  },
  // An ADK event carries a Gemini response's fields (`content`, `usageMetadata`) inside an event of its own.
  gemini: {
    kind: "provider",
    create: (o) => new GeminiFacet(o),
    looksLike: (c) => isObject(c) && (Array.isArray(c.candidates) || isObject(c.usageMetadata)) && typeof c.invocationId !== "string",
  },
  bedrock: {
    kind: "provider",
    create: (o) => new BedrockFacet(o),
    looksLike: (c) => isObject(c) && Object.keys(c).length === 1 && BEDROCK_KEYS.has(Object.keys(c)[0]!),
  },
  cohere: { kind: "provider", create: (o) => new CohereFacet(o), looksLike: typeIn(COHERE_TYPES) },
  "gemini-interactions": {
    kind: "provider",
    create: (o) => new GeminiInteractionsFacet(o),
    looksLike: (c) => isObject(c) && typeof c.event_type === "string",
  },
  "claude-agent-sdk": {
    kind: "framework",
    create: (o) => new ClaudeAgentSdkFacet(o),
    looksLike: (c) => isObject(c) && typeof c.type === "string" && typeof c.session_id === "string",
  },
  langgraph: {
    kind: "framework",
    create: (o) => new LangGraphFacet(o),
    looksLike: (c) => Array.isArray(c) && (LANGGRAPH_MODES.has(String(c[1])) || (c.length === 2 && LANGGRAPH_MODES.has(String(c[0])))),
  },
  adk: {
    kind: "framework",
    create: (o) => new AdkFacet(o),
    looksLike: (c) => isObject(c) && typeof c.invocationId === "string" && typeof c.author === "string",
  },
  "openai-agents": { kind: "framework", create: (o) => new OpenAiAgentsFacet(o), looksLike: typeIn(OPENAI_AGENTS_TYPES) },
  "vercel-ai": {
    kind: "framework",
    create: (o) => new VercelAiFacet(o),
    looksLike: either(
      typeIn(AI_SDK_FULL_TYPES),
      partWith(["text-delta", "reasoning-delta"], "text"),
      partWith(["tool-input-start", "tool-input-delta"], "id"),
    ),
  },
  "vercel-ai-ui": {
    kind: "framework",
    create: (o) => new VercelAiUiFacet(o),
    looksLike: either(
      typeIn(AI_SDK_UI_TYPES),
      (c) => typeOf(c)?.startsWith("data-") === true,
      partWith(["text-delta", "reasoning-delta"], "delta"),
      partWith(["tool-input-start", "tool-input-delta"], "toolCallId"),
    ),
  },
  a2a: {
    kind: "protocol",
    create: (o) => new A2aFacet(o),
    looksLike: (c) =>
      isObject(c) && (c.jsonrpc === "2.0" || typeof obj(c, "payload")?.$case === "string" || A2A_KINDS.some((k) => isObject(c[k]))),
  },
  "ag-ui": { kind: "protocol", create: (o) => new AgUiFacet(o), looksLike: (c) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(typeOf(c) ?? "") },
  "pydantic-ai": {
    kind: "framework",
    create: (o) => new PydanticAiFacet(o),
    looksLike: (c) => isObject(c) && typeof c.event_kind === "string" && PYDANTIC_AI_KINDS.has(c.event_kind),
  },
} as const satisfies Record<string, FacetRow>;

/** A facet name: one provider API or agent framework whose stream a Normalizer reads (§8.0). */
export type FacetName = keyof typeof FACET_TABLE;

/** The facets this package normalizes, in `FACET_TABLE` order. */
export const FACETS: readonly FacetName[] = Object.freeze(Object.keys(FACET_TABLE) as FacetName[]);

/** True when `name` is a facet this package implements. */
export function isFacetName(name: string): name is FacetName {
  return typeof name === "string" && Object.hasOwn(FACET_TABLE, name);
}

/** A fresh Normalizer for one invoke of the named provider facet (§8.0 Lifetime). */
export function createNormalizer(facet: FacetName, opts: NormalizerOptions = {}): Normalizer {
  // An own entry only (isFacetName): `FACET_TABLE["constructor"]` is Object.prototype's, which
  // returned the options object or a string as if it were a Normalizer.
  if (!isFacetName(facet)) {
    throw new Error(`No normalizer for facet '${String(facet)}'. Use one of: ${FACETS.join(", ")}.`);
  }
  return FACET_TABLE[facet].create(checkedOptions(opts));
}

/**
 * The options as the facets may read them. An id that is not a string is refused here, naming it:
 * a `threadId` of 42 made `turn.start` fail the output guard, so the stream carried no turn.start
 * and every later event had no owning turn (INV-TURN, INV-OWNER); a `turnId` object became
 * "[object Object]" inside every derived id (§1.2, §0.5: ids are strings).
 */
function checkedOptions(opts: NormalizerOptions): NormalizerOptions {
  if (typeof opts !== "object" || opts === null)
    throw new TypeError(
      `createNormalizer(): the options are ${opts === null ? "null" : typeof opts}; give an object ({ threadId?, turnId?, parsed? }) or leave them out.`,
    );
  for (const key of ["threadId", "turnId"] as const) {
    const value: unknown = opts[key];
    if (value !== undefined && typeof value !== "string") {
      throw new TypeError(
        `createNormalizer(): ${key} is ${typeof value === "object" ? (value === null ? "null" : "an object") : `a ${typeof value}`}; give a string (§1.2: every id is a string), or leave it out.`,
      );
    }
  }
  // `parsed` turns a check off: only a real boolean may say so ("false" is a true-ish string).
  const parsed: unknown = opts.parsed;
  if (parsed !== undefined && typeof parsed !== "boolean")
    throw new TypeError(
      `createNormalizer(): parsed is ${parsed === null ? "null" : `a ${typeof parsed}`}; give true or false, or leave it out.`,
    );
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
 * `keepExact`: a number a double cannot write back keeps its text for `stringifyExact` (§13.2;
 * `agjson normalize` writes the events so).
 */
export function nativeChunksOf(text: string, maxDepth = NATIVE_MAX_DEPTH, opts: { keepExact?: boolean } = {}): unknown[] {
  const line = text.trim();
  if (line === "" || line === "[DONE]") return [];
  if (jsonDepth(line, maxDepth) <= maxDepth) {
    try {
      return [markParsedChunk(opts.keepExact === true ? parseKeepingExact(line) : (JSON.parse(line) as unknown))];
    } catch {
      // not one JSON value: below
    }
  }
  if (line.includes("\n")) {
    const parts = line
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && l !== "[DONE]");
    const parsed = parts.map((p) => nativeChunksOf(p, maxDepth, opts)[0]);
    if (parsed.every((c) => !(typeof c === "object" && c !== null && "unparsedLine" in c))) return parsed;
  }
  return [markParsedChunk({ unparsedLine: line })];
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
      else if (frame.kind === "oversized")
        out.push(markParsedChunk({ unparsedLine: `(a chunk of more than ${NATIVE_MAX_FRAME_BYTES} bytes, not kept)` }));
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
      return (Array.isArray(parsed) ? parsed : [parsed]).map((c: unknown) => markParsedChunk(c));
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
