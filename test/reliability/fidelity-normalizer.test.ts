/**
 * §8.0 graceful degradation and issue 20 item 13: a provider part the facet cannot map is carried
 * as `ext.<vendor>.unparsed` (never dropped), every emitted event is strict-valid, and the turn
 * still closes — here for a Gemini functionCall whose name is not a string, mutated into a recorded
 * stream.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createNormalizer } from "../../src/normalize/index.js";
import { validateEvent } from "../../src/validate/index.js";

const recorded = join(import.meta.dirname, "../../fixtures/providers/google/google-tool-call.chunks.txt");

function normalize(chunks: unknown[]): Record<string, unknown>[] {
  const n = createNormalizer("gemini");
  const out = [...chunks.flatMap((c) => n.push(c)), ...n.flush()];
  return out.map((e) => JSON.parse(JSON.stringify(e)) as Record<string, unknown>);
}

describe("an unmappable provider part becomes ext.<vendor>.unparsed (§8.0)", () => {
  for (const badName of [42, { n: "weather" }, true, ["weather"]]) {
    it(`Gemini functionCall with name ${JSON.stringify(badName)}: carried verbatim, every event strict-valid, the turn closes`, () => {
      const chunks = readFileSync(recorded, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as { candidates?: { content?: { parts?: Record<string, unknown>[] } }[] });
      const part = chunks[0]?.candidates?.[0]?.content?.parts?.[0];
      expect(part?.functionCall).toBeDefined();
      (part!.functionCall as Record<string, unknown>).name = badName;
      const events = normalize(chunks);
      for (const e of events) {
        const v = validateEvent(e, { posture: "strict" });
        expect(v.ok, JSON.stringify(e) + JSON.stringify(v.ok ? "" : v.errors)).toBe(true);
      }
      const unparsed = events.find((e) => typeof e.type === "string" && e.type.endsWith(".unparsed"));
      expect(unparsed).toBeDefined();
      expect(JSON.stringify(unparsed)).toContain(JSON.stringify(badName));
      expect(events.some((e) => e.type === "turn.done" || e.type === "turn.error" || e.type === "turn.abort")).toBe(true);
      expect(events.some((e) => e.type === "tool.start")).toBe(false);
    });
  }
});
