// Fuzz (COMMON fuzz convention): the claude-agent-sdk, langgraph and adk facets never throw out of
// push() or flush() (§8.0 graceful degradation), and what they emit stays strict-valid and folds,
// on arbitrary JSON and on recorded streams with chunks dropped, duplicated or replaced.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { createNormalizer, readNativeChunks, type FacetName } from "../../src/normalize/index.js";
import { reduce } from "../../src/reduce/index.js";
import { validateEvent } from "../../src/validate/index.js";

const RUNS = Number(process.env.AGJSON_FUZZ_RUNS ?? 300);
const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "record", "recordings");
const FACETS: FacetName[] = ["claude-agent-sdk", "langgraph", "adk"];

function recorded(facet: string): unknown[][] {
  const dir = join(RECORDINGS, facet);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".native.ndjson"))
    .map((f) => readNativeChunks(readFileSync(join(dir, f), "utf8")));
}

function run(facet: FacetName, chunks: unknown[]): AgEvent[] {
  const n = createNormalizer(facet);
  const out: AgEvent[] = [];
  for (const c of chunks) out.push(...n.push(c));
  out.push(...n.flush());
  return out;
}

describe("framework facets never throw", () => {
  for (const facet of FACETS) {
    const streams = recorded(facet);
    it(`${facet}: arbitrary JSON chunks`, () => {
      fc.assert(
        fc.property(fc.array(fc.jsonValue(), { maxLength: 12 }), (chunks) => {
          const events = run(facet, chunks);
          expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    });
    it(`${facet}: recorded streams with chunks dropped, repeated or replaced`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: streams.length - 1 }),
          fc.array(fc.tuple(fc.constantFrom("drop", "repeat", "replace"), fc.nat(), fc.jsonValue()), { maxLength: 4 }),
          (which, edits) => {
            const chunks = [...streams[which]!];
            for (const [op, at, value] of edits) {
              if (chunks.length === 0) break;
              const i = at % chunks.length;
              if (op === "drop") chunks.splice(i, 1);
              else if (op === "repeat") chunks.splice(i, 0, chunks[i]);
              else chunks[i] = value;
            }
            const events = run(facet, chunks);
            expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
            expect(() => reduce(events)).not.toThrow();
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});
