import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { NormalizerEngine } from "./engine.js";
import { createChunkReader, createNormalizer, readNativeChunks } from "./index.js";
import { checkStream } from "./stream-check.test-support.js";
import { validateEvent } from "../validate/index.js";
import { reduce } from "../reduce/index.js";

function types(events: AgEvent[]): string[] {
  return events.map((e) => e.type);
}

function f(ev: AgEvent | undefined, key: string): unknown {
  return (ev as unknown as Record<string, unknown> | undefined)?.[key];
}

describe("NormalizerEngine (§8.0, §5.0)", () => {
  it("synthesizes turn.start and message.start before the first content (INV-TURN)", () => {
    const e = new NormalizerEngine("openai", { threadId: "th", turnId: "t1" });
    const id = e.textStart();
    e.textDelta(id, "hi");
    const out = [...e.drain(), ...e.flush()];
    expect(types(out)).toEqual(["turn.start", "message.start", "text.start", "text.delta", "message.end", "turn.abort"]);
    expect(out[0]).toMatchObject({ threadId: "th", turnId: "t1", seq: 0 });
    expect(out.map((x) => x.seq)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("backfills turnId and messageId on every content event (INV-OWNER)", () => {
    const e = new NormalizerEngine("openai", { turnId: "t" });
    const m = e.openMessage({ id: "m1" });
    const id = e.textStart();
    e.textDelta(id, "x");
    e.textEnd(id);
    for (const ev of e.drain().slice(2)) expect(ev).toMatchObject({ turnId: "t", messageId: m });
  });

  it("mints derived ids ${turnId}:${kind}:${ordinal}, collision-free (INV-BLOCK)", () => {
    const e = new NormalizerEngine("openai", { turnId: "t" });
    expect(e.textStart()).toBe("t:text:0");
    expect(e.textStart()).toBe("t:text:1");
    expect(e.claimId("t:text:2")).toBe("t:text:2");
    expect(e.textStart()).toBe("t:text:3");
    expect(e.toolStart({ name: "f" })).toBe("t:tool-call:0");
  });

  it("suffixes a provider id the invoke already used instead of duplicating it", () => {
    const e = new NormalizerEngine("anthropic");
    expect(e.openMessage({ id: "msg" })).toBe("msg");
    expect(e.openMessage({ id: "msg" })).toBe("msg:1");
  });

  it("de-cumulates cumulative content (INV-DELTA)", () => {
    const e = new NormalizerEngine("openai");
    const id = e.textStart();
    e.textSnapshot(id, "Hel");
    e.textSnapshot(id, "Hello");
    e.textSnapshot(id, "Hello");
    const deltas = e
      .drain()
      .filter((x) => x.type === "text.delta")
      .map((x) => f(x, "delta"));
    expect(deltas).toEqual(["Hel", "lo"]);
  });

  it("reports a non-prefix snapshot visibly instead of guessing", () => {
    const e = new NormalizerEngine("openai");
    const id = e.textStart();
    e.textSnapshot(id, "abc");
    e.textSnapshot(id, "xyz");
    expect(types(e.drain())).toContain("ext.openai.unparsed");
  });

  it("assembles tool args from fragments; an empty buffer is {} and bad JSON degrades", () => {
    const e = new NormalizerEngine("openai");
    const a = e.toolStart({ toolCallId: "a", name: "f" });
    e.toolArgsDelta(a, '{"x":');
    e.toolArgsDelta(a, "1}");
    e.toolAssemble(a);
    const b = e.toolStart({ toolCallId: "b", name: "g" });
    e.toolAssemble(b);
    const c = e.toolStart({ toolCallId: "c", name: "h" });
    e.toolArgsDelta(c, "{oops");
    e.toolAssemble(c);
    const out = e.drain();
    const assembled = out.filter((x) => x.type === "tool.args.assembled").map((x) => f(x, "input"));
    expect(assembled).toEqual([{ x: 1 }, {}, "{oops"]);
    expect(out.some((x) => x.type === "error" && f(x, "code") === "malformed_tool_args")).toBe(true);
  });

  it("INV-FLUSH: message.end in insertion order, then turn.abort stream-truncated, nothing else", () => {
    const e = new NormalizerEngine("openai", { turnId: "t" });
    e.openMessage({ id: "m1", candidateIndex: 0 });
    e.openMessage({ id: "m2", candidateIndex: 1 });
    const id = e.textStart({ candidateIndex: 1 });
    e.textDelta(id, "partial");
    e.toolStart({ toolCallId: "open", name: "f" });
    e.drain();
    const flushed = e.flush();
    expect(types(flushed)).toEqual(["message.end", "message.end", "turn.abort"]);
    expect(flushed.map((x) => f(x, "id"))).toEqual(["m1", "m2", undefined]);
    expect(flushed[2]).toMatchObject({ turnId: "t", reason: "stream-truncated" });
    expect(e.flush()).toEqual([]);
  });

  it("a recorded provider end is released as turn.done at flush, never after an abort", () => {
    const e = new NormalizerEngine("anthropic", { turnId: "t" });
    e.openMessage({ id: "m1" });
    e.closeMessage("m1");
    e.endResponse({ finishReason: "tool_call" });
    e.openMessage({ id: "m2" });
    e.closeMessage("m2");
    e.endResponse({ finishReason: "stop" });
    const out = [...e.drain(), ...e.flush()];
    expect(out.filter((x) => x.type.startsWith("turn.") && x.type !== "turn.start")).toEqual([
      expect.objectContaining({ type: "turn.done", finishReason: "stop", outcome: { type: "success" } }),
    ]);
    expect(checkStream(out)).toEqual([]);
  });

  it("a response started after a recorded end but cut off aborts the turn", () => {
    const e = new NormalizerEngine("anthropic", { turnId: "t" });
    e.openMessage({ id: "m1" });
    e.closeMessage("m1");
    e.endResponse({ finishReason: "tool_call" });
    e.openMessage({ id: "m2" });
    const out = [...e.drain(), ...e.flush()];
    expect(out[out.length - 1]).toMatchObject({ type: "turn.abort", reason: "stream-truncated" });
  });

  it("abortTurn closes open messages then the turn with turn.abort at once; flush adds nothing (§8 item 17)", () => {
    const e = new NormalizerEngine("google", { turnId: "t" });
    e.openMessage({ id: "m1" });
    e.endResponse({ finishReason: "stop" });
    e.abortTurn("cancelled");
    const out = [...e.drain(), ...e.flush()];
    expect(types(out)).toEqual(["turn.start", "message.start", "message.end", "turn.abort"]);
    expect(out[3]).toMatchObject({ turnId: "t", reason: "cancelled" });
    expect(checkStream(out)).toEqual([]);
  });

  it("emits ext payloads spread, relocating envelope keys under shadowed (§12)", () => {
    const e = new NormalizerEngine("google");
    e.ext("unparsed", { raw: 1, seq: 9, type: "x" });
    expect(e.drain()[0]).toEqual({ type: "ext.google.unparsed", raw: 1, shadowed: { seq: 9, type: "x" }, seq: 0 });
  });
});

describe("graceful degradation (§8.0)", () => {
  for (const facet of ["anthropic", "openai-chat", "openai-responses", "gemini"] as const) {
    it(`${facet}: garbage never throws and is carried as ext.<vendor>.unparsed`, () => {
      const n = createNormalizer(facet);
      const out: AgEvent[] = [];
      for (const junk of [null, 42, "x", [], { type: "mystery" }, { choices: [{ delta: { tool_calls: [7] } }] }]) {
        expect(() => out.push(...n.push(junk))).not.toThrow();
      }
      out.push(...n.flush());
      expect(out.some((x) => x.type.endsWith(".unparsed"))).toBe(true);
      expect(checkStream(out)).toEqual([]);
      for (const ev of out) expect(validateEvent(ev, { posture: "strict" }).ok).toBe(true);
    });
  }
});

describe("Gemini facet units", () => {
  it("grounding becomes source events and byte-offset citations; safety lands on turn.done", () => {
    const n = createNormalizer("gemini", { turnId: "t" });
    const out = [
      ...n.push({
        responseId: "r1",
        candidates: [
          {
            content: { role: "model", parts: [{ text: "Héllo world" }] },
            finishReason: "STOP",
            safetyRatings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" }],
            groundingMetadata: {
              groundingChunks: [{ web: { uri: "https://a.example", title: "A" } }, { web: { uri: "https://b.example" } }],
              groundingSupports: [
                { segment: { startIndex: 0, endIndex: 6, text: "Héllo" }, groundingChunkIndices: [1], confidenceScores: [0.9] },
              ],
              searchEntryPoint: { renderedContent: "<div>search</div>" },
              webSearchQueries: ["hello"],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
      }),
      ...n.flush(),
    ];
    const sources = out.filter((x) => x.type === "source");
    expect(sources.map((s) => f(s, "chunkIndex"))).toEqual([0, 1]);
    const end = out.find((x) => x.type === "text.end");
    expect(f(end, "citations")).toEqual([
      expect.objectContaining({
        kind: "offset",
        unit: "byte",
        startIndex: 0,
        endIndex: 6,
        sourceIds: [f(sources[1], "sourceId")],
        confidenceScores: [0.9],
      }),
    ]);
    expect(out.some((x) => x.type === "display.required")).toBe(true);
    expect(out[out.length - 1]).toMatchObject({
      type: "turn.done",
      finishReason: "stop",
      safety: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" }],
      usage: { cumulative: true, inputTokens: 3, outputTokens: 2, totalTokens: 5 },
    });
    for (const ev of out) expect(validateEvent(ev, { posture: "strict" }).ok).toBe(true);
    expect(reduce(out).needsResync).toBe(false);
  });

  it("a blocked prompt emits prompt.blocked and ends safety_blocked", () => {
    const n = createNormalizer("gemini");
    const out = [
      ...n.push({
        promptFeedback: {
          blockReason: "SAFETY",
          safetyRatings: [{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "HIGH", blocked: true }],
        },
      }),
      ...n.flush(),
    ];
    expect(types(out)).toContain("prompt.blocked");
    expect(out[out.length - 1]).toMatchObject({ type: "turn.done", finishReason: "safety_blocked" });
  });
});

describe("chunk reader", () => {
  it("reads NDJSON, raw SSE (skipping event/id lines and [DONE]) and one JSON document", () => {
    expect(readNativeChunks('{"a":1}\n\n{"b":2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(readNativeChunks('event: x\ndata: {"a":1}\n\ndata: [DONE]\n')).toEqual([{ a: 1 }]);
    expect(readNativeChunks('{\n  "error": {"code": 429}\n}\n')).toEqual([{ error: { code: 429 } }]);
    expect(readNativeChunks("not json\n")).toEqual([{ unparsedLine: "not json" }]);
  });

  it("reassembles events split across pushes; the last event needs no blank line (WHATWG SSE, issue 20 item 9)", () => {
    const r = createChunkReader();
    expect(r.push('data: {"a"')).toEqual([]);
    expect(r.push(':1}\r\n\r\ndata: {"b":2}')).toEqual([{ a: 1 }]);
    expect(r.end()).toEqual([{ b: 2 }]);
  });

  it("reads CR-only SSE, multi-line data joined, comments and a BOM like the gateway (issue 20 item 9)", () => {
    expect(readNativeChunks('\uFEFF: hi\rdata: {"a":1}\r\rdata: {"b":\rdata: 2}\r\r')).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
