/**
 * Issue 18 round trip: every recorded provider stream whose provider has a target is normalized,
 * reduced and re-input; the request must carry what the provider itself sent — every signature,
 * encrypted_content, thoughtSignature and item id byte-identical, text and tool arguments equal
 * (§8 items 2, 7, 8; §10 items 4, 13, 15; §13.2).
 */
import { describe, expect, it } from "vitest";
import { normalizeAll } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import { toAnthropic } from "./anthropic.js";
import { anthropicNativeBlocks, recordedStreams } from "./native-replay.test-support.js";

type Json = Record<string, unknown>;

/** Drops null-valued fields and empty citation lists (the wire's "absent", §8 item 13), recursively. */
function canon(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(canon);
  if (typeof x !== "object" || x === null) return x;
  const out: Json = {};
  for (const [k, v] of Object.entries(x)) {
    if (v === null || (k === "citations" && Array.isArray(v) && v.length === 0)) continue;
    out[k] = canon(v);
  }
  return out;
}

/** Citation location types Anthropic documents; the facet reports any other as unparsed (§8.0). */
const KNOWN_CITATIONS = new Set(["char_location", "page_location", "content_block_location", "web_search_result_location", "search_result_location"]);

function knownCitations(b: Json): Json {
  if (!Array.isArray(b.citations)) return b;
  return { ...b, citations: b.citations.filter((c: unknown) => typeof c === "object" && c !== null && KNOWN_CITATIONS.has(String((c as Json).type))) };
}

function reduced(facet: Parameters<typeof normalizeAll>[0], chunks: unknown[]) {
  const { result, needsResync, errors } = reduce(normalizeAll(facet, chunks));
  expect(needsResync, JSON.stringify(errors)).toBe(false);
  return result;
}

describe("anthropic: normalize → reduce → toAnthropic replays what Anthropic sent", () => {
  for (const s of recordedStreams("anthropic")) {
    it(s.name, () => {
      const { request, report } = toAnthropic(reduced("anthropic", s.chunks), { onInvalid: "repair" });
      // The only repairs are the client results a recording never holds.
      expect(report.filter((e) => e.action === "repaired" && e.reason !== "unanswered-call")).toEqual([]);
      const native = anthropicNativeBlocks(s.chunks)
        .filter((b) => !(b.type === "text" && b.text === ""))
        .map(knownCitations)
        .map(canon);
      const ours = request.messages.filter((m) => m.role === "assistant").flatMap((m) => m.content).map(canon);
      expect(ours).toEqual(native);
    });
  }
});
