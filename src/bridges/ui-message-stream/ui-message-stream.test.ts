/**
 * The UI message stream bridge verified by the AI SDK's own client: every recorded stream goes out
 * as SSE (`toUIMessageStreamResponse`), is read back by `DefaultChatTransport` (which parses each
 * chunk with the SDK's `uiMessageChunkSchema`) and folded by `readUIMessageStream`; the resulting
 * UIMessage parts must equal the reduced AgMessages of the same turn (§5) under the documented
 * mapping (docs/bridges/ui-message-stream.md).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk as AiUIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import type { AgBlock, AgExtEvent, AgKnownEvent, AgToolResultBlock, AgTurnRecord } from "../../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { jsonEqual, reduce, type AgLenientReduceResult } from "../../reduce/index.js";
import { recordedStreams } from "../recorded-streams.test-support.js";
import {
  createUIMessageStreamTransform,
  toUIMessageStream,
  toUIMessageStreamResponse,
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageChunk,
} from "./index.js";
import { sourceUrl } from "./map.js";
import { isKnownBlock, isKnownSource } from "../../../generated/schema-facts.js";

// Compile-time: every chunk this bridge emits is an AI SDK UIMessageChunk.
const assignable = (c: UIMessageChunk): AiUIMessageChunk => c;
void assignable;

/** Reads an AgEvent stream through the real client path; the final snapshot of each UI message by id. */
async function readThroughClient(events: AgLenientEvent[]): Promise<{ messages: Map<string, UIMessage>; errors: unknown[] }> {
  const transport = new DefaultChatTransport<UIMessage>({
    api: "http://agjson.invalid/chat",
    fetch: async () => toUIMessageStreamResponse(events),
  });
  const stream = await transport.sendMessages({
    trigger: "submit-message",
    chatId: "c",
    messageId: undefined,
    messages: [],
    abortSignal: undefined,
  });
  const errors: unknown[] = [];
  const messages = new Map<string, UIMessage>();
  for await (const m of readUIMessageStream<UIMessage>({ stream, onError: (e) => errors.push(e) })) messages.set(m.id, m);
  return { messages, errors };
}

type Part = Record<string, unknown>;

/** A UIMessage part reduced to what the mapping promises (states and UI-only fields dropped). */
function uiPart(p: UIMessage["parts"][number]): Part | undefined {
  if (p.type === "step-start") return undefined;
  if (p.type === "text") return { type: "text", text: p.text };
  if (p.type === "reasoning") return { type: "reasoning", text: p.text };
  if (p.type === "file") return { type: "file", url: p.url, mediaType: p.mediaType };
  if (p.type === "source-url") return { type: "source", sourceId: p.sourceId, url: p.url };
  if (p.type === "source-document") return { type: "source", sourceId: p.sourceId, title: p.title };
  if (p.type === "dynamic-tool" || p.type.startsWith("tool-")) {
    const t = p as {
      toolCallId: string;
      toolName?: string;
      type: string;
      state: string;
      input?: unknown;
      output?: unknown;
      errorText?: string;
    };
    const out: Part = { type: "tool", toolCallId: t.toolCallId, toolName: t.toolName ?? t.type.slice(5) };
    if (t.state !== "input-streaming") out.input = t.input;
    if (t.state === "output-available") out.output = t.output;
    if (t.state === "output-error") out.errorText = t.errorText;
    if (t.state === "output-denied") out.denied = true;
    return out;
  }
  if (p.type.startsWith("data-")) {
    const d = p as { type: string; id?: string; data: unknown };
    return d.type === "data-agjson-tool.done"
      ? { type: d.type, id: d.id }
      : { type: d.type, ...(d.id !== undefined ? { id: d.id } : {}), data: d.data };
  }
  return { type: p.type };
}

/** The §2.1 output rule of the bridge, restated independently. */
function expectedOutput(r: AgToolResultBlock): unknown {
  if (r.structuredContent !== undefined) return r.structuredContent;
  if (r.content.length > 0 && r.content.every((b) => isKnownBlock(b) && b.type === "text"))
    return r.content.map((b) => (isKnownBlock(b) && b.type === "text" ? b.text : "")).join("");
  return r.content;
}

/** The parts the documented mapping promises for the reduced messages of one top-level turn. */
function expectedParts(result: AgLenientReduceResult, turnIds: Set<string>, unowned: boolean): { parts: Part[]; sources: Part[] } {
  const inTurn = (t: string | undefined) => (t === undefined ? unowned : turnIds.has(t));
  const msgs = result.messages.filter((m) => inTurn(m.turnId) && (m.candidateIndex ?? 0) === 0);
  const results = new Map<string, AgToolResultBlock>();
  for (const m of msgs) for (const b of m.content) if (isKnownBlock(b) && b.type === "tool-result") results.set(b.toolCallId, b);
  const calls = new Set<string>();
  for (const m of msgs)
    if (m.role === "assistant") for (const b of m.content) if (isKnownBlock(b) && b.type === "tool-call") calls.add(b.toolCallId);
  const parts: Part[] = [];
  for (const m of msgs) {
    for (const b of m.content) {
      if (m.role !== "assistant") {
        if (isKnownBlock(b) && b.type === "tool-result" && !calls.has(b.toolCallId))
          parts.push({ type: "data-agjson-tool.done", id: b.toolCallId });
        continue;
      }
      const p = blockPart(b, results, calls);
      if (p !== undefined) parts.push(p);
    }
  }
  const sources: Part[] = [];
  for (const t of result.turns.filter((t: AgTurnRecord) => turnIds.has(t.turnId))) {
    for (const s of t.sources ?? [])
      sources.push(
        "url" in s.source && typeof s.source.url === "string"
          ? { type: "source", sourceId: s.sourceId, url: s.source.url }
          : {
              type: "source",
              sourceId: s.sourceId,
              title: ("title" in s.source && s.source.title) || ("filename" in s.source && s.source.filename) || s.sourceId,
            },
      );
  }
  return { parts, sources };
}

function blockPart(b: AgBlock, results: Map<string, AgToolResultBlock>, calls: Set<string>): Part | undefined {
  // A block of a type a later minor added (§0.2, §12) rides whole, as the bridge sends it.
  if (!isKnownBlock(b)) return { type: "data-agjson-block", data: b };
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "reasoning":
      return { type: "reasoning", text: b.text ?? "" };
    case "tool-call": {
      const p: Part = { type: "tool", toolCallId: b.toolCallId, toolName: b.name, input: b.input };
      const r = results.get(b.toolCallId);
      if (r?.outcome === "denied") p.denied = true;
      else if (r?.outcome === "error") p.errorText = r.errorText;
      else if (r !== undefined) p.output = expectedOutput(r);
      return p;
    }
    case "tool-result":
      return calls.has(b.toolCallId) ? undefined : { type: "data-agjson-tool.done", id: b.toolCallId };
    case "data":
      return { type: `data-${b.name}`, ...(b.id !== undefined ? { id: b.id } : {}), data: b.data };
    case "image":
    case "audio":
    case "file":
    case "document": {
      const source = b.source;
      if (isKnownSource(source)) {
        const url = sourceUrl(source);
        if (url !== undefined)
          return {
            type: "file",
            url,
            mediaType: source.mediaType ?? (b.type === "image" ? "image/*" : b.type === "audio" ? "audio/*" : "application/octet-stream"),
          };
      }
      return { type: "data-agjson-block", data: b };
    }
    default:
      return { type: "data-agjson-block", data: b };
  }
}

/** Streams the fold cannot mirror in one append-only UI message (a committed list of known gaps: each is named, none is skipped silently). */
function equalityGap(events: (AgKnownEvent | AgExtEvent)[], reduced: ReturnType<typeof reduce>): string | undefined {
  if (reduced.needsResync || reduced.errors.length > 0)
    return "the fold reports an invariant violation; the UI stream is only required not to break the client";
  if (events.some((e) => e.type === "messages.snapshot"))
    return "messages.snapshot replaces the fold's messages; a UI message stream cannot retract parts (sent as data-agjson-messages.snapshot)";
  if (events.some((e) => e.type === "message.remove"))
    return "message.remove deletes folded messages; a UI message stream cannot retract parts";
  const part = new Map<string, number>();
  for (const e of events) {
    if (e.type === "reasoning.start" && e.partIndex !== undefined) part.set(e.id, Math.max(part.get(e.id) ?? 0, e.partIndex));
    if (e.type === "reasoning.delta" && e.partIndex !== undefined && e.partIndex < (part.get(e.id) ?? 0)) {
      return "reasoning deltas go back to an earlier partIndex: the fold orders parts by partIndex, a UI reasoning part appends in arrival order";
    }
  }
  const opened = new Set(events.flatMap((e) => (e.type === "turn.start" || e.type === "subagent.start" ? [e.turnId] : [])));
  if (events.some((e) => e.type === "subagent.start" && !opened.has(e.parentTurnId)))
    return "a subagent names a parent turn that never opened: its content renders in whichever UI message is open";
  const dataIds = new Map<string, string>();
  for (const e of events) {
    if (e.type !== "content.block" || !isKnownBlock(e.block) || e.block.type !== "data" || e.block.id === undefined) continue;
    if ((dataIds.get(e.block.id) ?? e.block.name) !== e.block.name)
      return "two data blocks share an id under different names: the fold reconciles by id, the AI SDK by (type, id)";
    dataIds.set(e.block.id, e.block.name);
  }
  return undefined;
}

const streams = recordedStreams();

describe("toUIMessageStream over every recorded stream, read by the AI SDK client", () => {
  it("has the corpus", () => {
    expect(streams.length).toBeGreaterThan(150);
  });

  let compared = 0;
  const gaps: string[] = [];
  for (const s of streams) {
    it(s.name, async () => {
      const { messages, errors } = await readThroughClient(s.events);
      // A top-level turn.error is the AI SDK's error chunk, which its reader reports; nothing else may be.
      const nested = new Set(s.events.flatMap((e) => (e.type === "subagent.start" ? [e.turnId] : [])));
      const turnErrors = s.events.filter((e) => e.type === "turn.error" && (e.turnId === undefined || !nested.has(e.turnId)));
      expect(errors.map((e) => (e instanceof Error ? e.message : String(e)))).toEqual(
        turnErrors.map((e) => (e.type === "turn.error" ? e.message : "")),
      );
      const reduced = reduce(s.events);
      const gap = equalityGap(s.events, reduced);
      if (gap !== undefined) {
        gaps.push(s.name);
        return;
      }
      const parents = new Map<string, string>();
      for (const t of reduced.result.turns) if (t.parentTurnId !== undefined) parents.set(t.turnId, t.parentTurnId);
      const top = (t: string): string => (parents.has(t) ? top(parents.get(t)!) : t);
      const tops = [...new Set(reduced.result.turns.map((t) => top(t.turnId)))];
      for (const turnId of tops) {
        const group = new Set(reduced.result.turns.filter((t) => top(t.turnId) === turnId).map((t) => t.turnId));
        const { parts, sources } = expectedParts(reduced.result, group, tops.length === 1);
        const ui = messages.get(turnId);
        const actual = (ui?.parts ?? []).map(uiPart).filter((p): p is Part => p !== undefined);
        // A call never assembled: the fold holds input {} (§5 tool.start), the UI part no input yet.
        for (const [i, p] of actual.entries()) {
          const e = parts[i];
          if (
            p.type === "tool" &&
            e?.type === "tool" &&
            p.toolCallId === e.toolCallId &&
            jsonEqual(e.input, {}) &&
            (!("input" in p) || p.input === undefined)
          ) {
            delete e.input;
            delete p.input;
          }
        }
        // Nested turns interleave (§1.1): the fold groups blocks by message, the UI part list by arrival.
        const order = (list: Part[]) =>
          group.size > 1 ? [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : list;
        expect(order(actual.filter((p) => p.type !== "source")), `turn ${turnId}`).toEqual(order(parts));
        expect(
          actual.filter((p) => p.type === "source"),
          `turn ${turnId} sources`,
        ).toEqual(sources);
      }
      compared++;
    });
  }
  it("compared every provider and sample stream part by part; only conformance edge cases are gaps", () => {
    expect(gaps.filter((g) => !g.startsWith("conformance/"))).toEqual([]);
    expect(compared + gaps.length).toBe(streams.length);
    expect(compared).toBeGreaterThan(130);
  });
});

describe("toUIMessageStream mapping", () => {
  const sample = streams.find((s) => s.name === "samples/chat-with-tool.ndjson")!.events;

  it("maps the sample turn: start/finish by turnId, reasoning with its signature, the tool call with input and output", async () => {
    const chunks: UIMessageChunk[] = [];
    const reader = toUIMessageStream(sample, { passThrough: false }).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks[0]).toEqual({ type: "start", messageId: "turn_1" });
    expect(chunks.find((c) => c.type === "reasoning-end")).toEqual({
      type: "reasoning-end",
      id: "rs_1",
      providerMetadata: { agjson: { opaque: { kind: "signature", value: "EqQBCkYIBxgCKkDemoSignature==", provider: "anthropic" } } },
    });
    expect(chunks.find((c) => c.type === "tool-input-available")).toEqual({
      type: "tool-input-available",
      toolCallId: "call_1",
      toolName: "get_weather",
      input: { city: "Paris" },
    });
    expect(chunks.find((c) => c.type === "tool-output-available")).toEqual({
      type: "tool-output-available",
      toolCallId: "call_1",
      output: { tempC: 18, sky: "rain" },
      providerMetadata: { agjson: { content: [{ type: "text", text: "18°C, light rain" }], outcome: "ok" } },
    });
    expect(chunks.at(-1)).toEqual({ type: "finish", finishReason: "stop" });
    // the ext.* event has no UI home: with passThrough it is a transient data part, else it is not sent
    expect(chunks.some((c) => c.type.startsWith("data-"))).toBe(false);
  });

  it("sends live-only events as transient data-agjson-<type> chunks, which never become parts", async () => {
    const t = createUIMessageStreamTransform();
    const out = sample.flatMap((e) => t.push(e));
    expect(out).toContainEqual({ type: "data-agjson-ext.acme.latency", data: sample[21], transient: true });
    const { messages } = await readThroughClient(sample);
    expect(messages.get("turn_1")!.parts.some((p) => p.type.startsWith("data-"))).toBe(false);
  });

  it("turns a cited text end into AI SDK citations, keeping the AgCitation in providerMetadata", () => {
    const t = createUIMessageStreamTransform({ passThrough: false });
    const end = sample.flatMap((e) => t.push(e)).find((c) => c.type === "text-end" && c.id === "txt_2");
    expect(end).toMatchObject({
      citations: [
        {
          source: { type: "source", sourceType: "url", url: "https://weather.example/paris" },
          startIndex: 6,
          endIndex: 10,
          citedText: "18°C",
        },
      ],
    });
  });

  it("maps an approval ask on a shown tool call to tool-approval-request; the turn pauses with tool-calls", async () => {
    const ev: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
      { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
      { type: "tool.start", seq: 2, toolCallId: "c1", name: "delete_file", requiresApproval: true },
      { type: "tool.args.assembled", seq: 3, toolCallId: "c1", input: { path: "/tmp/x" } },
      { type: "message.end", seq: 4, id: "m1" },
      { type: "hitl.ask", seq: 5, askId: "ask1", kind: "approval", toolCallId: "c1", message: "Delete /tmp/x?" },
      {
        type: "turn.done",
        seq: 6,
        turnId: "t1",
        outcome: { type: "paused", asks: [{ askId: "ask1", kind: "approval", toolCallId: "c1" }] },
        finishReason: "paused",
      },
    ];
    const t = createUIMessageStreamTransform();
    const out = ev.flatMap((e) => t.push(e));
    expect(out).toContainEqual({ type: "tool-approval-request", approvalId: "ask1", toolCallId: "c1", reason: "Delete /tmp/x?" });
    expect(out.at(-1)).toEqual({ type: "finish", finishReason: "tool-calls" });
    const { messages } = await readThroughClient(ev);
    expect(messages.get("t1")!.parts[0]).toMatchObject({ type: "tool-delete_file", state: "approval-requested", approval: { id: "ask1" } });
  });

  it("a content.block tool-call re-stating a shown call REPLACEs it in place, never a second part (§5.0 INV-BLOCK)", async () => {
    const head: AgLenientEvent[] = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
      { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
      { type: "tool.start", seq: 2, toolCallId: "c1", name: "lookup" },
    ];
    const block: AgLenientEvent = {
      type: "content.block",
      seq: 9,
      block: { type: "tool-call", toolCallId: "c1", name: "lookup", input: { q: "y" } },
    };
    const done: AgLenientEvent = { type: "turn.done", seq: 10, turnId: "t1", outcome: { type: "success" }, finishReason: "tool_call" };
    // Still streaming its input: the block's input completes the one part.
    const streaming = await readThroughClient([...head, block, done]);
    expect(streaming.messages.get("t1")!.parts).toMatchObject([
      { type: "tool-lookup", toolCallId: "c1", state: "input-available", input: { q: "y" } },
    ]);
    // The client already has the input (and may have run the call): it is not sent again, the result stays.
    const landed: AgLenientEvent[] = [
      ...head,
      { type: "tool.args.assembled", seq: 3, toolCallId: "c1", input: { q: "x" } },
      { type: "tool.done", seq: 4, toolCallId: "c1", content: [{ type: "text", text: "found" }] },
      block,
      done,
    ];
    const t = createUIMessageStreamTransform();
    const chunks = landed.flatMap((e) => t.push(e));
    expect(chunks.filter((c) => c.type === "tool-input-available")).toHaveLength(1);
    expect(chunks).toContainEqual({ type: "data-agjson-content.block", data: block, transient: true });
    const after = await readThroughClient(landed);
    expect(after.messages.get("t1")!.parts).toMatchObject([
      { type: "tool-lookup", toolCallId: "c1", state: "output-available", output: "found" },
    ]);
  });

  it("ends a turn.error with error + finish(error), a turn.abort with abort, a truncated stream with finish(interrupted)", () => {
    const start: AgLenientEvent = { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" };
    const run = (e: AgLenientEvent[]) => {
      const t = createUIMessageStreamTransform({ passThrough: false });
      return [...e.flatMap((x) => t.push(x)), ...t.end()];
    };
    expect(run([start, { type: "turn.error", seq: 1, turnId: "t1", message: "boom" }]).slice(1)).toEqual([
      { type: "error", errorText: "boom" },
      { type: "finish", finishReason: "error" },
    ]);
    expect(run([start, { type: "turn.abort", seq: 1, turnId: "t1", reason: "user" }]).slice(1)).toEqual([
      { type: "abort", reason: "user" },
    ]);
    expect(run([start]).slice(1)).toEqual([{ type: "finish", finishReason: "interrupted" }]);
  });

  it("a non-terminal error is transient data, never the AI SDK error chunk (which ends useChat's request)", () => {
    const t = createUIMessageStreamTransform();
    expect(t.push({ type: "error", seq: 0, message: "rate limited, retrying" })).toEqual([
      { type: "data-agjson-error", data: { type: "error", seq: 0, message: "rate limited, retrying" }, transient: true },
    ]);
  });

  it("moves flat providerMetadata under agjson (the AI SDK requires provider → object)", () => {
    const t = createUIMessageStreamTransform({ passThrough: false });
    const out = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
      { type: "text.start", seq: 1, id: "x", providerMetadata: { itemId: "msg_1" } },
      { type: "text.start", seq: 2, id: "y", providerMetadata: { openai: { itemId: "msg_2" } } },
    ].flatMap((e) => t.push(e as AgLenientEvent));
    expect(out[1]).toEqual({ type: "text-start", id: "x", providerMetadata: { agjson: { providerMetadata: { itemId: "msg_1" } } } });
    expect(out[2]).toEqual({ type: "text-start", id: "y", providerMetadata: { openai: { itemId: "msg_2" } } });
  });
});

describe("tool-result channels on the UI message stream (§2.1, §10 item 3)", () => {
  const head: AgLenientEvent[] = [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
    { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
    { type: "tool.start", seq: 2, toolCallId: "c1", name: "lookup" },
    { type: "tool.args.assembled", seq: 3, toolCallId: "c1", input: {} },
  ];

  it("output is the model-facing structuredContent; content, uiData and sideData ride providerMetadata.agjson, never the output", () => {
    const done: AgLenientEvent = {
      type: "tool.done",
      seq: 4,
      toolCallId: "c1",
      content: [{ type: "text", text: "MODEL" }],
      structuredContent: { n: 1 },
      uiData: { view: "V" },
      sideData: { app: "A" },
    };
    const t = createUIMessageStreamTransform({ passThrough: false });
    const chunk = [...head, done].flatMap((e) => t.push(e)).find((c) => c.type === "tool-output-available");
    expect(chunk).toEqual({
      type: "tool-output-available",
      toolCallId: "c1",
      output: { n: 1 },
      providerMetadata: { agjson: { content: [{ type: "text", text: "MODEL" }], uiData: { view: "V" }, sideData: { app: "A" } } },
    });
  });

  it("an error result keeps its surface channel: errorText is the chunk's, uiData rides providerMetadata.agjson", () => {
    const done: AgLenientEvent = {
      type: "tool.done",
      seq: 4,
      toolCallId: "c1",
      content: [],
      outcome: "error",
      errorText: "boom",
      isError: true,
      uiData: { view: "V" },
    };
    const t = createUIMessageStreamTransform({ passThrough: false });
    const chunk = [...head, done].flatMap((e) => t.push(e)).find((c) => c.type === "tool-output-error");
    expect(chunk).toEqual({
      type: "tool-output-error",
      toolCallId: "c1",
      errorText: "boom",
      providerMetadata: { agjson: { outcome: "error", isError: true, uiData: { view: "V" } } },
    });
  });

  it("a denied result's fields that tool-output-denied has no slot for (the denial text, uiData) are not dropped silently: the event rides as data", () => {
    const done: AgLenientEvent = {
      type: "tool.done",
      seq: 4,
      toolCallId: "c1",
      outcome: "denied",
      content: [{ type: "text", text: "user said no" }],
      uiData: { view: "V" },
    };
    const t = createUIMessageStreamTransform();
    const out = [...head, done].flatMap((e) => t.push(e));
    expect(out).toContainEqual({ type: "tool-output-denied", toolCallId: "c1" });
    expect(out).toContainEqual({ type: "data-agjson-tool.done", data: done, transient: true });
  });

  it("a bare denied result is tool-output-denied alone", () => {
    const done: AgLenientEvent = { type: "tool.done", seq: 4, toolCallId: "c1", outcome: "denied", content: [] };
    const t = createUIMessageStreamTransform();
    const out = [...head, done].flatMap((e) => t.push(e));
    expect(out.at(-1)).toEqual({ type: "tool-output-denied", toolCallId: "c1" });
    expect(out.some((c) => c.type === "data-agjson-tool.done")).toBe(false);
  });
});

describe("UI message stream over HTTP", () => {
  it("serves SSE with the x-vercel-ai-ui-message-stream header that DefaultChatTransport reads over loopback", async () => {
    const sample = streams.find((s) => s.name === "samples/chat-with-tool.ndjson")!.events;
    const server = createServer(async (_req, res) => {
      const response = toUIMessageStreamResponse(sample);
      const headers: Record<string, string> = {};
      response.headers.forEach((v, k) => (headers[k] = v));
      res.writeHead(response.status, headers);
      const reader = response.body!.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) res.write(r.value);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
      const head = await fetch(url, { method: "POST" });
      expect(head.headers.get("x-vercel-ai-ui-message-stream")).toBe(UI_MESSAGE_STREAM_HEADERS["x-vercel-ai-ui-message-stream"]);
      expect(head.headers.get("content-type")).toBe("text/event-stream");
      const text = await head.text();
      expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
      const transport = new DefaultChatTransport<UIMessage>({ api: url });
      const stream = await transport.sendMessages({
        trigger: "submit-message",
        chatId: "c",
        messageId: undefined,
        messages: [],
        abortSignal: undefined,
      });
      let last: UIMessage | undefined;
      for await (const m of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) last = m;
      expect(last?.id).toBe("turn_1");
      expect(last?.parts.filter((p) => p.type === "text").map((p) => (p.type === "text" ? p.text : ""))).toEqual([
        "Let me check the weather in Paris.",
        "It is 18°C with light rain in Paris.",
      ]);
    } finally {
      server.close();
    }
  });
});
