/**
 * Fuzz target (AGJSON_FUZZ_RUNS sets the run count): every validating entry point in both postures (§0.2), on arbitrary JSON, event-shaped values with mutated fields, and hostile objects (§13),
 * never throws and always answers ok or typed issues; a value that passes also passes the semantic
 * layer (docs/validation.md). `make fuzz` runs it with a million inputs.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateBlock, validateEvent, validateInput, validateMessage, validateReduceResult } from "../../src/validate/index.js";
import { semanticIssues } from "../../src/validate/semantic.js";
import { createValidatingReducer } from "../../src/reduce/untrusted.js";
import { KNOWN_EVENT_TYPES } from "../../generated/fold-scaffold.js";

const runs = Number(process.env.AGJSON_FUZZ_RUNS ?? 300);

const field = fc.constantFrom(
  "type",
  "seq",
  "id",
  "turnId",
  "parentTurnId",
  "messageId",
  "delta",
  "toolCallId",
  "_meta",
  "content",
  "turns",
  "messages",
  "block",
  "finishReason",
  "outcome",
);
const eventish = fc
  .record({
    type: fc.oneof(fc.constantFrom(...KNOWN_EVENT_TYPES), fc.string(), fc.constantFrom("ext.acme.x", "ext.acme.fooBar", "ext.Acme.x")),
    seq: fc.oneof(fc.nat(), fc.double(), fc.constant(2 ** 53), fc.string()),
  })
  .chain((base) => fc.dictionary(field, fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 }).map((extra) => ({ ...extra, ...base })));
const hostile = fc.constantFrom<() => unknown>(
  () =>
    new Proxy(
      {},
      {
        get: () => {
          throw new Error("get");
        },
      },
    ),
  () =>
    new Proxy(
      { type: "text.delta" },
      {
        ownKeys: () => {
          throw new Error("keys");
        },
      },
    ),
  () => {
    const o: Record<string, unknown> = { type: "content.block", seq: 0 };
    o.block = o;
    return o;
  },
  () =>
    Object.defineProperty({ type: "text.delta", seq: 0 }, "id", {
      get: () => {
        throw new Error("getter");
      },
      enumerable: true,
    }),
);
const anything = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  eventish,
  hostile.map((make) => make()),
);

type Verdict = { ok: boolean; errors?: { path: string; keyword: string; message: string }[] };
function typed(r: Verdict): void {
  expect(typeof r.ok).toBe("boolean");
  if (!r.ok) {
    expect(r.errors?.length).toBeGreaterThan(0);
    for (const e of r.errors ?? [])
      expect(typeof e.path === "string" && typeof e.keyword === "string" && typeof e.message === "string").toBe(true);
  }
}

for (const posture of ["strict", "lenient"] as const) {
  describe(`fuzz: validators, ${posture}`, () => {
    it("never throw; answer ok or typed issues; an accepted event passes the semantic layer", () => {
      fc.assert(
        fc.property(anything, (x) => {
          const e = validateEvent(x, { posture });
          typed(e);
          if (e.ok) expect(semanticIssues("AgEvent", x)).toEqual([]);
          for (const v of [validateInput, validateMessage, validateBlock, validateReduceResult]) typed(v(x, { posture }));
        }),
        { numRuns: runs },
      );
    });

    it("the validating reducer never throws and never parks on rejections alone", () => {
      fc.assert(
        fc.property(fc.array(anything, { maxLength: 20 }), (xs) => {
          const reducer = createValidatingReducer({ posture });
          for (const x of xs) typed(reducer.push(x));
          expect(reducer.rejected.length).toBeLessThanOrEqual(xs.length);
          void reducer.result;
        }),
        { numRuns: Math.max(1, Math.floor(runs / 10)) },
      );
    });
  });
}
