/**
 * Issue 20 item 13 / §8.0, on the responses, openai-agents and vercel-ai facets (found by
 * test/fuzz/openai-framework-facets.fuzz.test.ts): a provider value AgJSON cannot hold — a
 * fractional summary_index, a negative token count — is left out of the event and reported
 * (`error` + `ext.<vendor>.unparsed`); every event stays strict-valid and the turn closes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { validateEvent } from "../validate/index.js";
import { normalizeAll, readNativeChunks, type FacetName } from "./index.js";

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string): unknown[] => readNativeChunks(readFileSync(join(ROOT, path), "utf8"));

function check(facet: FacetName, chunks: unknown[]): AgEvent[] {
  const events = normalizeAll(facet, chunks);
  expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
  expect(events.some((e) => e.type === "turn.done" || e.type === "turn.error" || e.type === "turn.abort")).toBe(true);
  expect(events.some((e) => e.type.endsWith(".unparsed"))).toBe(true);
  return events;
}

/** Sets `key` to `value` on every object of a chunk tree that has it. */
function setEverywhere(chunks: unknown[], key: string, value: unknown): unknown[] {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x !== "object" || x === null) return x;
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, k === key ? value : walk(v)]));
  };
  return chunks.map(walk);
}

describe("provider values outside AgJSON are reported, never emitted (§8.0; issue 20 item 13)", () => {
  it("openai-responses: a fractional summary_index keeps the reasoning text without a part index", () => {
    const events = check(
      "openai-responses",
      setEverywhere(read("fixtures/providers/openai-responses/azure-reasoning-encrypted-content.1.chunks.txt"), "summary_index", 5e-324),
    );
    expect(events.some((e) => e.type === "reasoning.delta")).toBe(true);
  });

  it("openai-agents: the same, through the raw model events it wraps", () => {
    check("openai-agents", setEverywhere(read("record/recordings/openai-agents/reasoning-tool-loop.native.ndjson"), "summary_index", 0.5));
  });

  it("openai-responses: a negative token count is left out of the usage and reported", () => {
    const events = check(
      "openai-responses",
      setEverywhere(read("fixtures/providers/openai-responses/azure-text.1.chunks.txt"), "output_tokens", -1),
    );
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "invalid_provider_value" });
  });

  // (The UI message stream carries no usage: only the full stream is concerned.)
  it("vercel-ai: a negative token count is left out of the usage and reported", () => {
    const events = check("vercel-ai", setEverywhere(read("record/recordings/vercel-ai/tool-loop.native.ndjson"), "outputTokens", -5e-324));
    expect(events.find((e) => e.type === "error")).toMatchObject({ code: "invalid_provider_value" });
  });
});
