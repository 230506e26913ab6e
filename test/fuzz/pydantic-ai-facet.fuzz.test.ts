// Fuzz (COMMON fuzz convention): the pydantic-ai facet never throws out of push() or flush() (§8.0
// graceful degradation), and every event it emits is strict-valid (§0.2), meets the §5.0 stream
// invariants and folds without a throw — on arbitrary JSON, on objects shaped like Pydantic AI events
// (known event / part / delta kinds, arbitrary fields), and on the hand-authored streams of
// fixtures/pydantic-ai with events dropped, repeated, replaced or with one field mutated.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { mutateAt } from "./mutate.js";
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { createNormalizer, readNativeChunks } from "../../src/normalize/index.js";
import { checkStream } from "../../src/normalize/stream-check.test-support.js";
import { reduce } from "../../src/reduce/index.js";
import { validateEvent } from "../../src/validate/index.js";

const RUNS = Number(process.env.AGJSON_FUZZ_RUNS ?? 200);
/** A property's time budget grows with its run count (`make fuzz` runs a million). */
const TIMEOUT = Math.max(60_000, RUNS * 60);
const DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures", "pydantic-ai");

const streams = readdirSync(DIR)
  .filter((f) => f.endsWith(".hand-authored.ndjson"))
  .sort()
  .map((f) => readNativeChunks(readFileSync(join(DIR, f), "utf8")));

function run(chunks: unknown[]): AgEvent[] {
  const n = createNormalizer("pydantic-ai");
  const out: AgEvent[] = [];
  for (const c of chunks) out.push(...n.push(c));
  out.push(...n.flush());
  return out;
}

function problems(events: AgEvent[]): string[] {
  const invalid = events.flatMap((e) => {
    const v = validateEvent(e, { posture: "strict" });
    return v.ok ? [] : [`seq ${String(e.seq)} ${String(e.type)}: ${v.errors[0]?.message ?? "?"}`];
  });
  return [...invalid, ...checkStream(events).map((i) => JSON.stringify(i))];
}

const EVENT_KINDS = [
  "part_start",
  "part_delta",
  "part_end",
  "final_result",
  "function_tool_call",
  "function_tool_result",
  "output_tool_call",
  "output_tool_result",
  "deferred_tool_requests",
  "deferred_tool_results",
  "agent_run_result",
  "__host_error__",
  "realtime_turn_complete",
];
const PART_KINDS = [
  "text",
  "thinking",
  "tool-call",
  "builtin-tool-call",
  "builtin-tool-return",
  "tool-return",
  "retry-prompt",
  "compaction",
  "file",
  "speech",
];
const DELTA_KINDS = ["text", "thinking", "tool_call", "speech"];
const PART_KINDS_PREV = fc.constantFrom(null, ...PART_KINDS);
const IDS = fc.constantFrom("call_1", "call_2", "pyd_ai_x");

const part = fc.record(
  {
    part_kind: fc.constantFrom(...PART_KINDS),
    content: fc.oneof(fc.string(), fc.jsonValue()),
    tool_name: fc.oneof(fc.constantFrom("lookup", "web_search"), fc.jsonValue()),
    args: fc.oneof(fc.constantFrom('{"a": 1}', '{"a": ', ""), fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
    tool_call_id: fc.oneof(IDS, fc.jsonValue()),
    signature: fc.oneof(fc.string(), fc.constant(null)),
    provider_name: fc.oneof(fc.constantFrom("anthropic", "openai"), fc.constant(null)),
    provider_details: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.constant(null)),
    outcome: fc.constantFrom("success", "failed", "denied", "interrupted", "weird"),
  },
  { requiredKeys: ["part_kind"] },
);
const delta = fc.record(
  {
    part_delta_kind: fc.constantFrom(...DELTA_KINDS),
    content_delta: fc.oneof(fc.string(), fc.constant(null)),
    signature_delta: fc.oneof(fc.string(), fc.constant(null)),
    tool_name_delta: fc.oneof(fc.string(), fc.constant(null)),
    args_delta: fc.oneof(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()), fc.constant(null)),
    tool_call_id: fc.oneof(IDS, fc.constant(null)),
    provider_details: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.constant(null)),
  },
  { requiredKeys: ["part_delta_kind"] },
);
const event = fc.record(
  {
    event_kind: fc.constantFrom(...EVENT_KINDS),
    index: fc.oneof(fc.nat({ max: 3 }), fc.jsonValue()),
    part,
    delta,
    previous_part_kind: PART_KINDS_PREV,
    content: fc.jsonValue(),
    requests: fc.record(
      { calls: fc.array(part, { maxLength: 2 }), approvals: fc.array(part, { maxLength: 2 }), metadata: fc.jsonValue() },
      { requiredKeys: [] },
    ),
    result: fc.record(
      {
        output: fc.jsonValue(),
        _state: fc.record(
          { usage: fc.dictionary(fc.constantFrom("input_tokens", "output_tokens"), fc.jsonValue()), message_history: fc.jsonValue() },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ["event_kind"] },
);

describe("pydantic-ai facet never throws and emits only strict-valid, invariant-keeping streams", () => {
  it("there are hand-authored streams to mutate", () => expect(streams.length).toBeGreaterThan(5));

  it(
    "arbitrary JSON chunks",
    () => {
      fc.assert(
        fc.property(fc.array(fc.jsonValue(), { maxLength: 12 }), (chunks) => {
          expect(problems(run(chunks))).toEqual([]);
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "objects shaped like its own events (known kinds, arbitrary fields)",
    () => {
      fc.assert(
        fc.property(fc.array(event, { maxLength: 12 }), (chunks) => {
          const events = run(chunks);
          expect(problems(events)).toEqual([]);
          expect(() => reduce(events)).not.toThrow();
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    "hand-authored streams with events dropped, repeated, replaced or one field mutated",
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: streams.length - 1 }),
          fc.array(fc.tuple(fc.constantFrom("drop", "repeat", "replace", "mutate"), fc.nat(), fc.nat(), fc.jsonValue()), { maxLength: 4 }),
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
            const events = run(chunks);
            expect(problems(events)).toEqual([]);
            expect(() => reduce(events)).not.toThrow();
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
