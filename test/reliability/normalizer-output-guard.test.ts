/**
 * Issue 20 item 13: normalizers never emit invalid events. The engine's output guard validates
 * every event producer-strict (§0.2); a provider value outside AgJSON degrades to `error` +
 * `ext.<vendor>.unparsed` (§8.0 graceful degradation) and the turn still closes (INV-TURN).
 * Pinned three ways: the guard on the engine directly; every recorded provider stream with fields
 * mutated at random (a property); and, facet by facet, the out-of-range values the issue names —
 * a negative or fractional token count, an out-of-range index, a tool name that is not a string —
 * each carried where a reader sees it, never dropped silently.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NormalizerEngine } from "../../src/normalize/engine.js";
import type { FacetName } from "../../src/normalize/index.js";
import {
  mutationsArb,
  mutate,
  normalizeAll,
  outputProblems,
  pathsOf,
  recordedStreams,
  replaceAt,
  type Recorded,
} from "./normalizer-mutation.js";

const streams = recordedStreams();

/** The engine's output as the wire sees it. */
function wire(e: NormalizerEngine): Record<string, unknown>[] {
  return JSON.parse(JSON.stringify([...e.drain(), ...e.flush()])) as Record<string, unknown>[];
}

const unparsedOf = (events: Record<string, unknown>[], vendor: string) => events.filter((ev) => ev.type === `ext.${vendor}.unparsed`);

describe("the engine's output guard (§0.2, §8.0)", () => {
  it("a negative token count: the close leaves without usage, the count rides unparsed after an error", () => {
    const e = new NormalizerEngine("acme");
    e.openMessage({ id: "m" });
    e.closeMessage("m", { inputTokens: -3, outputTokens: 2 });
    e.endResponse({ finishReason: "stop", usage: { inputTokens: 1, outputTokens: -2 } });
    const events = wire(e);
    expect(outputProblems(events)).toEqual([]);
    const end = events.find((ev) => ev.type === "message.end")!;
    expect(end.usage).toBeUndefined();
    const done = events.find((ev) => ev.type === "turn.done")!;
    expect(done).toMatchObject({ finishReason: "stop", outcome: { type: "success" } });
    expect(done.usage).toBeUndefined();
    const carried = unparsedOf(events, "acme");
    expect(carried.map((ev) => (ev.raw as { fields: unknown }).fields)).toEqual([
      { usage: { inputTokens: -3, outputTokens: 2 } },
      { usage: { inputTokens: 1, outputTokens: -2 } },
    ]);
    expect(events.filter((ev) => ev.type === "error" && ev.code === "invalid_provider_value")).toHaveLength(2);
  });

  it("a turn close whose required field is out of range becomes turn.error: the turn still closes", () => {
    const e = new NormalizerEngine("acme");
    e.openMessage({ id: "m" });
    e.finishTurn({ finishReason: 42 as never });
    const events = wire(e);
    expect(outputProblems(events)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "turn.error", code: "invalid_provider_value" });
    expect(JSON.stringify(unparsedOf(events, "acme"))).toContain('"finishReason":42');
  });

  it("a tool name that is not a string: the call, its arguments and its result ride unparsed; nothing orphaned", () => {
    const e = new NormalizerEngine("acme");
    const id = e.toolStart({ toolCallId: "c1", name: { n: "weather" } });
    e.toolArgsDelta(id, '{"city":');
    e.toolArgsDelta(id, '"Oslo"}');
    e.toolAssemble(id);
    e.toolDone({ toolCallId: id, content: [{ type: "text", text: "sunny" }] });
    const events = wire(e);
    expect(outputProblems(events)).toEqual([]);
    expect(events.some((ev) => typeof ev.type === "string" && ev.type.startsWith("tool."))).toBe(false);
    const carried = JSON.stringify(unparsedOf(events, "acme"));
    for (const part of ['"n":"weather"', '{\\"city\\":\\"Oslo\\"}', '"sunny"']) expect(carried).toContain(part);
  });

  it("an id that is not a string is never put on the wire: one is derived (§0.5)", () => {
    const e = new NormalizerEngine("acme");
    e.openMessage({ id: 7 as never, turnHint: {} as never });
    e.textStart({ id: ["x"] as never });
    const events = wire(e);
    expect(outputProblems(events)).toEqual([]);
    expect(events.every((ev) => ["id", "turnId", "messageId"].every((k) => ev[k] === undefined || typeof ev[k] === "string"))).toBe(true);
  });

  it("an optional field out of range (a fractional candidate index) is taken off the event and carried", () => {
    const e = new NormalizerEngine("acme");
    e.textStart({ candidateIndex: 0.5 });
    const events = wire(e);
    expect(outputProblems(events)).toEqual([]);
    expect(events.find((ev) => ev.type === "text.start")?.candidateIndex).toBeUndefined();
    expect(unparsedOf(events, "acme").map((ev) => ev.raw)).toContainEqual({ event: "text.start", fields: { candidateIndex: 0.5 } });
  });

  it("an unparsed payload no JSON reader could take (a cycle, nesting past §13) is carried as text", () => {
    const e = new NormalizerEngine("acme");
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    let deep: unknown = "leaf";
    for (let i = 0; i < 200; i++) deep = { d: deep };
    e.ensureTurn();
    e.unparsed(deep, "deep");
    e.contentBlock({ type: "data", name: "x", data: cyclic as never });
    const events = JSON.parse(JSON.stringify([...e.drain(), ...e.flush()], (_k, v: unknown) => (v === cyclic ? "[cycle]" : v))) as Record<
      string,
      unknown
    >[];
    expect(outputProblems(events)).toEqual([]);
    expect(unparsedOf(events, "acme").some((ev) => typeof ev.raw === "string" && ev.raw.includes('{"d":{"d":'))).toBe(true);
  });
});

describe("every recorded provider stream, fields mutated at random: strict-valid output, every turn closed (property)", () => {
  it("the corpus is present", () => expect(streams.length).toBeGreaterThan(50));
  for (const r of streams) {
    it(`${r.file} → ${r.facet}`, () => {
      expect(outputProblems(normalizeAll(r.facet, r.chunks).events)).toEqual([]);
      fc.assert(
        fc.property(mutationsArb(r.chunks), (mutations) => {
          const out = normalizeAll(r.facet, mutate(r.chunks, mutations));
          expect(out.threw).toBeUndefined();
          expect(outputProblems(out.events)).toEqual([]);
        }),
        { numRuns: 12 },
      );
    });
  }
});

/** Paths to every value at a key matching `key` (with the chunk it is in). */
function fieldsNamed(r: Recorded, key: RegExp, when: (v: unknown) => boolean): { chunk: number; path: (string | number)[] }[] {
  return r.chunks.flatMap((c, chunk) =>
    pathsOf(c)
      .filter((p) => key.test(String(p.at(-1))) && when(p.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], c)))
      .map((path) => ({ chunk, path })),
  );
}

describe("out-of-range provider values are never dropped silently (§8.0), facet by facet", () => {
  const facets = ["anthropic", "openai-chat", "gemini", "gemini-interactions", "bedrock", "cohere", "openai-responses"];
  const byFacet = (facet: string) => streams.filter((r) => r.facet === facet);
  const cases: [
    string,
    RegExp,
    (v: unknown) => boolean,
    unknown[],
    (r: Recorded, hits: { chunk: number; path: (string | number)[] }[]) => { chunk: number; path: (string | number)[] }[],
  ][] = [
    // The response's final counts: the last chunk carrying usage (an earlier count the provider
    // supersedes is not the turn's usage). A fractional count is in range (§4 AgUsage: number ≥ 0).
    [
      "token count",
      /tokens?$|TokenCount$/i,
      (v) => typeof v === "number",
      [-7331],
      (_r, hits) => {
        const last = Math.max(...hits.map((h) => h.chunk));
        return hits.filter((h) => h.chunk === last);
      },
    ],
    [
      "stream index",
      /^(index|contentBlockIndex|output_index)$/,
      (v) => typeof v === "number",
      [-7331, 13.37],
      (_r, hits) => hits.slice(0, 6),
    ],
    [
      "tool name",
      /^name$/,
      (v) => typeof v === "string",
      [4242],
      (r, hits) => {
        const names = new Set(
          normalizeAll(r.facet, r.chunks)
            .events.filter((ev) => ev.type === "tool.start")
            .map((ev) => ev.name),
        );
        return hits
          .filter((h) => names.has(h.path.reduce<unknown>((n, k) => (n as Record<string | number, unknown>)[k], r.chunks[h.chunk])))
          .slice(0, 4);
      },
    ],
  ];
  for (const facet of facets) {
    for (const [what, key, when, sentinels, pick] of cases) {
      // Bedrock and Gemini Interactions record no tool call: their tool names are pinned below.
      if (what === "tool name" && (facet === "bedrock" || facet === "gemini-interactions")) continue;
      it(`${facet}: a ${what} out of range reaches the wire in an error or ext.<vendor>.unparsed, and every turn closes`, () => {
        let tried = 0;
        for (const r of byFacet(facet)) {
          for (const { chunk, path } of pick(r, fieldsNamed(r, key, when))) {
            if (
              path.some(
                (k) => k === "tool_usage" || k === "copilot_usage" || k === "promptTokensDetails" || k === "candidatesTokensDetails",
              )
            )
              continue;
            // A tool listing is no call: the request's list a Responses stream echoes (response.tools)
            // maps to no event, and an MCP server's list is carried verbatim from its done item.
            if (path.includes("tools")) continue;
            // A Responses item with no streamed content is read whole from its output_item.done
            // (D11): the added item's fields are superseded, as a later usage count supersedes.
            const c = r.chunks[chunk] as { type?: unknown; item?: { type?: unknown } };
            if (c.type === "response.output_item.added" && (c.item?.type === "mcp_approval_request" || c.item?.type === "mcp_list_tools"))
              continue;
            for (const sentinel of sentinels) {
              const chunks = r.chunks.slice();
              chunks[chunk] = replaceAt(chunks[chunk], path, sentinel);
              const out = normalizeAll(r.facet, chunks);
              expect(out.threw).toBeUndefined();
              expect(outputProblems(out.events)).toEqual([]);
              const degraded = out.events.filter(
                (ev) =>
                  ev.type === "error" || (typeof ev.type === "string" && ev.type.endsWith(".unparsed")) || ev.type === "message.metadata",
              );
              expect(JSON.stringify(degraded), `${r.file} chunk ${chunk} ${path.join(".")}=${String(sentinel)}`).toContain(
                String(sentinel),
              );
              tried++;
            }
          }
        }
        expect(tried).toBeGreaterThan(0);
      });
    }
  }
});

describe("tool names that are not strings, in the facets whose recordings hold no tool call (§8.0)", () => {
  const streams: [FacetName, unknown[]][] = [
    [
      "bedrock",
      [
        { messageStart: { role: "assistant" } },
        { contentBlockStart: { contentBlockIndex: 0, start: { toolUse: { toolUseId: "tu", name: 4242 } } } },
        { contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: '{"city":"Oslo"}' } } } },
        { contentBlockStop: { contentBlockIndex: 0 } },
        { messageStop: { stopReason: "tool_use" } },
      ],
    ],
    [
      "gemini-interactions",
      [
        { event_type: "interaction.created", interaction: { id: "v1", status: "in_progress" } },
        { event_type: "step.start", index: 0, step: { id: "c1", type: "function_call", name: 4242, arguments: { city: "Oslo" } } },
        { event_type: "step.stop", index: 0 },
        { event_type: "interaction.completed", interaction: { id: "v1", status: "requires_action" } },
      ],
    ],
  ];
  for (const [facet, chunks] of streams) {
    it(`${facet}: the call rides unparsed with its arguments; no tool event, every turn closes`, () => {
      const out = normalizeAll(facet, chunks);
      expect(out.threw).toBeUndefined();
      expect(outputProblems(out.events)).toEqual([]);
      expect(out.events.some((ev) => String(ev.type).startsWith("tool."))).toBe(false);
      const carried = JSON.stringify(out.events.filter((ev) => String(ev.type).endsWith(".unparsed")));
      expect(carried).toContain("4242");
      expect(carried).toMatch(/Oslo/);
      expect(out.events.filter((ev) => ev.type === "turn.start")).toHaveLength(1);
    });
  }
});
