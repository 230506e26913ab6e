/**
 * Issue 20 item 6, as a class: a value the spec gives a top-level field is there, not only in a bag
 * (§2 tool-call `providerCallIndex`, `itemId`), and a block's `itemId` agrees with its
 * `providerMetadata.itemId`; an OpenAI Responses item whose id (or call_id) changes between
 * `output_item.added` and `.done` keeps the final one in both places (docs/spec-decisions.md D11).
 *
 * Every recorded provider stream and every framework recording is normalized and folded and every
 * block checked; every recorded Responses stream is also replayed with its ids rotated on every event but `.done` (what GitHub
 * Copilot does), and the fold must name the `.done` ids.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgKnownBlock } from "../../generated/lenient-types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { listFixtureFiles, loadFixture } from "../../src/normalize/fixture-corpus.test-support.js";
import { createNormalizer, isFacetName, readNativeChunks, type FacetName } from "../../src/normalize/index.js";
import { checkStream } from "../../src/normalize/stream-check.test-support.js";
import { reduce } from "../../src/reduce/index.js";
import { validateEvent } from "../../src/validate/index.js";

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

function normalize(facet: FacetName, chunks: unknown[]): AgLenientEvent[] {
  const n = createNormalizer(facet);
  return [...chunks.flatMap((c) => n.push(c)), ...n.flush()];
}

function blocksOf(events: AgLenientEvent[]): AgKnownBlock[] {
  const { result, errors } = reduce(events);
  expect(errors).toEqual([]);
  // The recordings hold only block types this version knows; an unknown one would fail the count.
  const blocks = result.messages.flatMap((m) => m.content);
  expect(blocks.filter((b) => !isKnownBlock(b))).toEqual([]);
  return blocks.filter(isKnownBlock);
}

/** Problems of the class on one block: a bag value that disagrees with, or stands in for, its field. */
function fieldProblems(b: AgKnownBlock): string[] {
  const out: string[] = [];
  if (b.type !== "reasoning" && b.type !== "tool-call") return out;
  const bagItemId = b.providerMetadata?.itemId;
  if (bagItemId !== undefined && b.itemId !== undefined && bagItemId !== b.itemId)
    out.push(`${b.type}: itemId '${b.itemId}' vs providerMetadata.itemId '${String(bagItemId)}'`);
  if (bagItemId !== undefined && b.itemId === undefined) out.push(`${b.type}: itemId only in providerMetadata`);
  if (b.type === "tool-call") {
    const bagIndex = b.providerMetadata?.providerCallIndex;
    if (bagIndex !== undefined && b.providerCallIndex !== bagIndex)
      out.push(`tool-call ${b.toolCallId}: providerCallIndex ${String(b.providerCallIndex)} vs providerMetadata ${String(bagIndex)}`);
  }
  return out;
}

const corpus = listFixtureFiles()
  .filter((f) => f.endsWith(".chunks.txt"))
  .map(loadFixture);

describe("fields where the spec puts them, on every recorded provider stream (§2; issue 20 item 6)", () => {
  it("the corpus is here", () => expect(corpus.length).toBeGreaterThan(50));
  for (const fx of corpus) {
    it(fx.file, () => {
      expect(blocksOf(normalize(fx.facet, fx.chunks)).flatMap(fieldProblems)).toEqual([]);
    });
  }
});

/** Every committed framework recording (record/recordings/<facet>/), through the facet of its name. */
const RECORDINGS = join(import.meta.dirname, "../../record/recordings");
const frameworkRecordings = readdirSync(RECORDINGS)
  .filter(isFacetName)
  .flatMap((facet) =>
    readdirSync(join(RECORDINGS, facet))
      .filter((f) => f.endsWith(".native.ndjson"))
      .map((f) => ({ facet, name: `${facet}/${f}`, chunks: readNativeChunks(readFileSync(join(RECORDINGS, facet, f), "utf8")) })),
  );

describe("fields where the spec puts them, on every framework recording (§2; issue 20 item 6)", () => {
  it("the recordings are here", () => expect(frameworkRecordings.length).toBeGreaterThan(40));
  for (const rec of frameworkRecordings) {
    it(rec.name, () => {
      expect(blocksOf(normalize(rec.facet, rec.chunks)).flatMap(fieldProblems)).toEqual([]);
    });
  }
});

/** The recorded Responses streams (OpenAI, Azure, Copilot, xAI, Open Responses). */
const responses = corpus.filter((fx) => fx.facet === "openai-responses");

/** Each item's id / call_id as `.done` gives it, keyed by output_index, per response. */
function doneIds(chunks: unknown[]): { id?: string; callId?: string; type: string }[][] {
  const out: { id?: string; callId?: string; type: string }[][] = [];
  for (const c of chunks) {
    if (!isObj(c)) continue;
    if (c.type === "response.created") out.push([]);
    if (c.type === "response.output_item.done" && isObj(c.item) && typeof c.output_index === "number") {
      (out[out.length - 1] ??= [])[c.output_index] = {
        type: String(c.item.type),
        ...(typeof c.item.id === "string" ? { id: c.item.id } : {}),
        ...(typeof c.item.call_id === "string" ? { callId: c.item.call_id } : {}),
      };
    }
  }
  return out;
}

/** Every event's item id (and an item's id at `.added`) rotated to a fresh value; `.done` keeps its own. */
function rotateIds(chunks: unknown[]): unknown[] {
  let n = 0;
  return chunks.map((c) => {
    if (!isObj(c)) return c;
    if (c.type === "response.output_item.added" && isObj(c.item) && typeof c.item.id === "string")
      return { ...c, item: { ...c.item, id: `rotated-${n++}` } };
    if (typeof c.item_id === "string") return { ...c, item_id: `rotated-${n++}` };
    return c;
  });
}

describe("a Responses item id rotated on every event but .done: the fold names the .done id (D11)", () => {
  it("there are recorded Responses streams", () => expect(responses.length).toBeGreaterThan(10));
  for (const fx of responses) {
    it(fx.file, () => {
      const events = normalize("openai-responses", rotateIds(fx.chunks));
      expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
      expect(checkStream(events)).toEqual([]);
      const blocks = blocksOf(events);
      expect(blocks.flatMap(fieldProblems)).toEqual([]);
      const finalIds = new Set(
        doneIds(fx.chunks)
          .flat()
          .flatMap((i) => (i?.id !== undefined ? [i.id] : [])),
      );
      for (const b of blocks) {
        const itemId =
          b.type === "reasoning" || b.type === "tool-call" ? b.itemId : b.type === "text" ? b.providerMetadata?.itemId : undefined;
        if (itemId === undefined) continue;
        // A truncated stream's unfinished item never reached .done: it keeps what it was given.
        if (String(itemId).startsWith("rotated-"))
          expect(finalIds.size === 0 || events.some((e) => e.type === "turn.abort"), `${b.type} kept a rotated id`).toBe(true);
        else expect(finalIds.has(String(itemId)), `${b.type} itemId ${String(itemId)}`).toBe(true);
      }
    });
  }
});

describe("Responses ids that change by output_item.done (D11)", () => {
  const created = { type: "response.created", response: { id: "resp_1", model: "m", status: "in_progress", output: [] } };
  const completed = { type: "response.completed", response: { id: "resp_1", model: "m", status: "completed", output: [] } };

  it("a tool search call_id that changes by .done: the call is started under the final call_id, with the final arguments", () => {
    const events = normalize("openai-responses", [
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "tsc_1", type: "tool_search_call", status: "in_progress", arguments: {}, call_id: "call_added", execution: "client" },
      },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          id: "tsc_1",
          type: "tool_search_call",
          status: "completed",
          arguments: { goal: "weather" },
          call_id: "call_done",
          execution: "client",
        },
      },
      completed,
    ]);
    const calls = blocksOf(events).filter((b) => b.type === "tool-call");
    expect(calls).toEqual([expect.objectContaining({ toolCallId: "call_done", itemId: "tsc_1", input: { goal: "weather" } })]);
    expect(events.some((e) => JSON.stringify(e).includes("call_added"))).toBe(false);
  });

  it("a function call whose item id changes by .done is re-stated whole under the final itemId, in place", () => {
    const events = normalize("openai-responses", [
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "fc_added", type: "function_call", status: "in_progress", arguments: "", call_id: "call_1", name: "get_weather" },
      },
      { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_other", delta: '{"city":' },
      { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_other", delta: '"SF"}' },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          id: "fc_done",
          type: "function_call",
          status: "completed",
          arguments: '{"city":"SF"}',
          call_id: "call_1",
          name: "get_weather",
        },
      },
      completed,
    ]);
    expect(checkStream(events)).toEqual([]);
    expect(blocksOf(events)).toEqual([
      { type: "tool-call", toolCallId: "call_1", name: "get_weather", input: { city: "SF" }, itemId: "fc_done" },
    ]);
  });

  it("a call_id that changes after the call started streaming keeps the first and reports the change", () => {
    const events = normalize("openai-responses", [
      created,
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "fc_1", type: "function_call", arguments: "", call_id: "call_a", name: "f" },
      },
      { type: "response.function_call_arguments.delta", output_index: 0, item_id: "fc_1", delta: "{}" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "fc_1", type: "function_call", arguments: "{}", call_id: "call_b", name: "f" },
      },
      completed,
    ]);
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "call-id-changed" });
    expect(blocksOf(events)).toEqual([expect.objectContaining({ toolCallId: "call_a", itemId: "fc_1" })]);
  });

  it("a reasoning id that changes only at .done, with no encrypted_content to carry it, keeps the started id in both places and reports it", () => {
    const events = normalize("openai-responses", [
      created,
      { type: "response.output_item.added", output_index: 0, item: { id: "rs_a", type: "reasoning", summary: [] } },
      { type: "response.reasoning_summary_text.delta", output_index: 0, item_id: "rs_a", summary_index: 0, delta: "thinking" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "rs_b", type: "reasoning", summary: [{ type: "summary_text", text: "thinking" }] },
      },
      completed,
    ]);
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "item-id-changed" });
    expect(blocksOf(events)).toEqual([
      expect.objectContaining({ type: "reasoning", itemId: "rs_a", providerMetadata: { itemId: "rs_a" }, text: "thinking" }),
    ]);
  });

  it("the same change with encrypted_content: reasoning.opaque carries the final id to the block (§5)", () => {
    const events = normalize("openai-responses", [
      created,
      { type: "response.output_item.added", output_index: 0, item: { id: "rs_a", type: "reasoning", summary: [] } },
      { type: "response.reasoning_summary_text.delta", output_index: 0, item_id: "rs_a", summary_index: 0, delta: "thinking" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "rs_b", type: "reasoning", encrypted_content: "gAAA", summary: [{ type: "summary_text", text: "thinking" }] },
      },
      completed,
    ]);
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(blocksOf(events)).toEqual([
      expect.objectContaining({
        type: "reasoning",
        itemId: "rs_b",
        providerMetadata: { itemId: "rs_b" },
        opaque: { kind: "ciphertext", value: "gAAA", provider: "openai" },
      }),
    ]);
  });

  it("a rotating reasoning item cut off before .done still delivers the text it held (INV-FLUSH)", () => {
    const events = normalize("openai-responses", [
      created,
      { type: "response.output_item.added", output_index: 0, item: { id: "rs_a", type: "reasoning", summary: [] } },
      { type: "response.reasoning_summary_text.delta", output_index: 0, item_id: "rs_x", summary_index: 0, delta: "partial" },
    ]);
    expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
    expect(blocksOf(events)).toEqual([expect.objectContaining({ type: "reasoning", itemId: "rs_a", text: "partial" })]);
  });
});

describe("Gemini providerCallIndex on the tool-call block itself (§2, §8 item 2)", () => {
  for (const fx of corpus.filter((f) => f.facet === "gemini")) {
    it(fx.file, () => {
      const calls = blocksOf(normalize("gemini", fx.chunks)).filter((b) => b.type === "tool-call");
      const native = fx.chunks.flatMap((c) => {
        const parts =
          isObj(c) && Array.isArray(c.candidates) && isObj(c.candidates[0]) && isObj(c.candidates[0].content)
            ? c.candidates[0].content.parts
            : [];
        return Array.isArray(parts)
          ? parts.filter((p) => isObj(p) && isObj(p.functionCall) && typeof p.functionCall.name === "string")
          : [];
      });
      // Every call Gemini gave no id carries its position among the response's calls, on the block.
      for (const b of calls) {
        if (b.type !== "tool-call") continue;
        expect(
          typeof b.providerCallIndex === "number" || !b.toolCallId.includes(":tool-call:"),
          `${b.toolCallId} has no providerCallIndex`,
        ).toBe(true);
      }
      if (native.length > 0) expect(calls.length).toBeGreaterThan(0);
    });
  }
});
