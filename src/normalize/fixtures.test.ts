import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { listFixtureFiles, loadFixture } from "./fixture-corpus.test-support.js";
import { createNormalizer, type FacetName } from "./index.js";
import { lastResponseEnded, nativeFacts } from "./native-expect.test-support.js";
import { checkStream } from "./stream-check.test-support.js";
import { validateEvent } from "../validate/index.js";
import { reduce } from "../reduce/index.js";

function run(facet: FacetName, chunks: unknown[]): AgEvent[] {
  const n = createNormalizer(facet);
  const events: AgEvent[] = [];
  for (const c of chunks) events.push(...n.push(c));
  events.push(...n.flush());
  return events;
}

function field(ev: AgEvent, key: string): unknown {
  return (ev as unknown as Record<string, unknown>)[key];
}

function allStrings(x: unknown, into: Set<string>): Set<string> {
  if (typeof x === "string") into.add(x);
  else if (Array.isArray(x)) for (const v of x) allStrings(v, into);
  else if (x !== null && typeof x === "object") for (const v of Object.values(x)) allStrings(v, into);
  return into;
}

const files = listFixtureFiles();

describe("provider fixture corpus", () => {
  it("is present (fixtures/providers)", () => {
    expect(files.length).toBeGreaterThan(50);
  });
});

for (const file of files) {
  const fx = loadFixture(file);
  describe(`${file} → ${fx.facet}${fx.gap ? ` (gap: ${fx.gap.reason})` : ""}`, () => {
    const events = run(fx.facet, fx.chunks);

    it("normalizes without throwing into a stream meeting the §5.0 invariants", () => {
      expect(checkStream(events)).toEqual([]);
      if (!fx.gap) expect(events.filter((e) => e.type === "turn.start").length).toBe(1);
    });

    it("every event validates producer-strict (§0.2)", () => {
      const invalid = events.flatMap((ev) => {
        const v = validateEvent(ev, { posture: "strict" });
        return v.ok ? [] : [{ seq: ev.seq, type: ev.type, errors: v.errors.slice(0, 3) }];
      });
      expect(invalid).toEqual([]);
    });

    it("reduce() of the output folds without resync", () => {
      const folded = reduce(events);
      expect(folded.errors).toEqual([]);
      expect(folded.needsResync).toBe(false);
    });

    if (fx.gap) {
      it("degrades visibly: unmappable chunks ride ext.<vendor>.unparsed (§8.0)", () => {
        expect(events.some((e) => e.type.endsWith(".unparsed"))).toBe(true);
      });
      return;
    }

    const facts = nativeFacts(fx.facet, fx.chunks);
    it("closes its turn with the provider's terminal, never an abort", () => {
      const closes = events.filter((e) => e.type.startsWith("turn.") && e.type !== "turn.start");
      expect(closes.length).toBe(1);
      expect(closes[0]!.type).not.toBe("turn.abort");
    });

    it("carries every native chunk: nothing unparsed", () => {
      const unparsed = events.filter((e) => e.type.endsWith(".unparsed"));
      expect(unparsed).toEqual([]);
    });

    if (facts) {
      it("text equals the concatenated provider text deltas", () => {
        const text = events
          .filter((e) => e.type === "text.delta")
          .map((e) => String(field(e, "delta")))
          .join("");
        expect(text).toBe(facts.text);
      });

      // Declared only where the provider streamed a function call or a replay blob: a test that
      // loops over nothing asserts nothing (vitest.config.ts requires an assertion of every test).
      if (facts.toolInputs.size > 0) {
        it("tool inputs equal the parsed assembled provider arguments", () => {
          const assembled = events.filter((e) => e.type === "tool.args.assembled");
          const inputs = new Map(assembled.map((e) => [String(field(e, "toolCallId")), field(e, "input")]));
          for (const [id, input] of facts.toolInputs) {
            const actual = id.startsWith("#") ? field(assembled[Number(id.slice(1))]!, "input") : inputs.get(id);
            expect(actual, id).toEqual(input);
          }
        });
      }

      it("the folded text equals the provider's text; folded tool inputs equal the assembled args", () => {
        const { result } = reduce(events);
        const blocks = result.messages.flatMap((m) => m.content);
        const text = blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
        expect(text).toBe(facts.text);
        const calls = blocks.flatMap((b) => (b.type === "tool-call" ? [b] : []));
        for (const [id, input] of facts.toolInputs) {
          const call = id.startsWith("#") ? calls[Number(id.slice(1))] : calls.find((c) => c.toolCallId === id);
          expect(call?.input, id).toEqual(input);
        }
      });

      if (facts.usage) {
        const expected = facts.usage;
        it("per-response usage lands on message.end with the provider's numbers verbatim (INV-DELTA)", () => {
          const usage = events
            .filter((e) => e.type === "message.end")
            .flatMap((e) => (field(e, "usage") === undefined ? [] : [field(e, "usage")]));
          expect(usage).toEqual(expected);
        });
      }

      if (facts.blobs.length > 0) {
        it("replay blobs survive byte-identical", () => {
          const out = allStrings(events, new Set());
          for (const blob of facts.blobs) expect(out.has(blob), blob.slice(0, 40)).toBe(true);
        });
      }
    }

    // A one-chunk recording (a single JSON error body) has no truncation to cut.
    if (fx.chunks.length > 1)
      it("flushes every truncation to a valid stream; an unterminated response ends in turn.abort", () => {
        const n = fx.chunks.length;
        const step = Math.max(1, Math.ceil(n / 12));
        for (let k = 1; k < n; k += step) {
          const prefix = fx.chunks.slice(0, k);
          const cut = run(fx.facet, prefix);
          const problems = checkStream(cut);
          expect(problems, `cut after ${k} chunks`).toEqual([]);
          const invalid = cut.filter((ev) => !validateEvent(ev, { posture: "strict" }).ok);
          expect(invalid, `cut after ${k} chunks`).toEqual([]);
          expect(reduce(cut).needsResync, `cut after ${k} chunks`).toBe(false);
          const closes = cut.filter((e) => e.type.startsWith("turn.") && e.type !== "turn.start");
          if (cut.some((e) => e.type === "turn.start")) {
            expect(closes.length, `cut after ${k} chunks`).toBe(1);
            if (!lastResponseEnded(fx.facet, prefix)) {
              expect(closes[0], `cut after ${k} chunks`).toMatchObject({ type: "turn.abort", reason: "stream-truncated" });
            }
          }
        }
      });
  });
}
