// Fuzz (COMMON fuzz convention): the openai-agents, vercel-ai, vercel-ai-ui and a2a facets never
// throw out of push() or flush() (§8.0 graceful degradation), and every event they emit is
// strict-valid (§0.2) and folds without a throw — on arbitrary JSON, on arbitrary objects shaped
// like each facet's own events, and on the committed recordings with chunks dropped, repeated,
// replaced or with one field mutated.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { mutateAt } from "./mutate.js";
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { createNormalizer, readNativeChunks, type FacetName } from "../../src/normalize/index.js";
import { reduce } from "../../src/reduce/index.js";
import { validateEvent } from "../../src/validate/index.js";

const RUNS = Number(process.env.AGJSON_FUZZ_RUNS ?? 200);
/** A property's time budget grows with its run count (`make fuzz` runs a million). */
const TIMEOUT = Math.max(60_000, RUNS * 60);
const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "record", "recordings");
const FACETS = ["openai-agents", "vercel-ai", "vercel-ai-ui", "a2a"] as const satisfies readonly FacetName[];

function recorded(facet: string): unknown[][] {
  const dir = join(RECORDINGS, facet);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".native.ndjson"))
    .sort()
    .map((f) => readNativeChunks(readFileSync(join(dir, f), "utf8")));
}

/** push() every chunk, then flush(); a throw fails the property. */
function run(facet: FacetName, chunks: unknown[]): AgEvent[] {
  const n = createNormalizer(facet);
  const out: AgEvent[] = [];
  for (const c of chunks) out.push(...n.push(c));
  out.push(...n.flush());
  return out;
}

function invalid(events: AgEvent[]): string[] {
  return events.flatMap((e) => {
    const v = validateEvent(e, { posture: "strict" });
    return v.ok ? [] : [`seq ${String(e.seq)} ${String(e.type)}: ${v.errors[0]?.message ?? "?"}`];
  });
}

/** The `type` values (and, for a2a, the event keys) each facet's recordings use: fuzzed objects pick among them. */
function vocabulary(streams: unknown[][]): string[] {
  const out = new Set<string>();
  const walk = (x: unknown, depth: number): void => {
    if (depth > 4 || typeof x !== "object" || x === null) return;
    if (Array.isArray(x)) return x.forEach((v) => walk(v, depth + 1));
    for (const [k, v] of Object.entries(x)) {
      if ((k === "type" || k === "name" || k === "$case") && typeof v === "string") out.add(v);
      walk(v, depth + 1);
    }
  };
  streams.forEach((s) => s.forEach((c) => walk(c, 0)));
  return [...out].sort();
}

describe("OpenAI Agents, Vercel AI and A2A facets never throw and emit only strict-valid events", () => {
  for (const facet of FACETS) {
    const streams = recorded(facet);
    const words = vocabulary(streams);

    it(`${facet}: there are recordings to mutate`, () => expect(streams.length).toBeGreaterThan(3));

    it(
      `${facet}: arbitrary JSON chunks`,
      () => {
        fc.assert(
          fc.property(fc.array(fc.jsonValue(), { maxLength: 12 }), (chunks) => {
            expect(invalid(run(facet, chunks))).toEqual([]);
          }),
          { numRuns: RUNS },
        );
      },
      TIMEOUT,
    );

    it(
      `${facet}: objects shaped like its own events (known type names, arbitrary fields)`,
      () => {
        const chunk = fc.record(
          {
            type: fc.constantFrom(...words),
            name: fc.constantFrom(...words),
            item: fc.dictionary(
              fc.constantFrom("type", "rawItem", "id", "callId", "name", "output", "arguments"),
              fc.oneof(fc.constantFrom(...words), fc.jsonValue()),
            ),
            data: fc.jsonValue(),
            id: fc.oneof(fc.string(), fc.integer()),
            result: fc.dictionary(fc.constantFrom("task", "message", "statusUpdate", "artifactUpdate"), fc.jsonValue()),
          },
          { requiredKeys: [] },
        );
        fc.assert(
          fc.property(fc.array(chunk, { maxLength: 10 }), (chunks) => {
            const events = run(facet, chunks);
            expect(invalid(events)).toEqual([]);
            expect(() => reduce(events)).not.toThrow();
          }),
          { numRuns: RUNS },
        );
      },
      TIMEOUT,
    );

    it(
      `${facet}: recordings with chunks dropped, repeated, replaced or one field mutated`,
      () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: streams.length - 1 }),
            fc.array(fc.tuple(fc.constantFrom("drop", "repeat", "replace", "mutate"), fc.nat(), fc.nat(), fc.jsonValue()), {
              maxLength: 4,
            }),
            (which, edits) => {
              const chunks = [...streams[which]!];
              for (const [op, at, pick, value] of edits) {
                if (chunks.length === 0) break;
                const i = at % chunks.length;
                if (op === "drop") chunks.splice(i, 1);
                else if (op === "repeat") chunks.splice(i, 0, chunks[i]);
                else if (op === "replace") chunks[i] = value;
                else chunks[i] = mutateAt(chunks[i], pick, value);
              }
              const events = run(facet, chunks);
              expect(invalid(events)).toEqual([]);
              expect(() => reduce(events)).not.toThrow();
            },
          ),
          { numRuns: RUNS },
        );
      },
      TIMEOUT,
    );
  }
});
