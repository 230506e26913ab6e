/**
 * §10 item 20 and §5 Trust boundary: a schema-invalid event is rejected with a typed error, and the
 * fold state and the resync condition are exactly what they would be had it never arrived — at
 * every boundary: the library's validating reducer, `agjson reduce`, and the gateway (whose output,
 * folded, must not look like a seq gap either). Property-tested: a bad event inserted anywhere in a
 * valid stream never changes the fold of the valid events.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createValidatingReducer, reduceUntrusted } from "../../src/reduce/untrusted.js";
import { reduce } from "../../src/reduce/index.js";
import {
  asEvents,
  messageEnd,
  messageStart,
  textDelta,
  textEnd,
  textStart,
  throughGateway,
  turnDone,
  turnStart,
} from "./fidelity-support.js";

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "agjson-fidelity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A valid stream of `n` deltas; `bad` replaces the event at `at` with an invalid one keeping its seq slot. */
function stream(n: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [turnStart(0), messageStart(1), textStart(2)];
  for (let i = 0; i < n; i++) out.push(textDelta(out.length, `d${i} `));
  out.push(textEnd(out.length), messageEnd(out.length + 1), turnDone(out.length + 2));
  return out;
}

/** Ways an event can be invalid: with its seq readable, unreadable, or missing. */
const BAD: ((seq: number) => unknown)[] = [
  (seq) => textDelta(seq, 42),
  (seq) => ({ type: "text.delta", seq: String(seq), id: "b1", delta: "x" }),
  () => ({ type: "text.delta", id: "b1", delta: "x" }),
  (seq) => ({ type: "turn.done", seq, turnId: "t1" }),
  () => "not an object",
  (seq) => ({ type: "subagent.start", seq, turnId: "t9", parentTurnId: "t9" }),
];

/** The valid stream with an invalid event inserted before index `at` (later seqs shift up by one). */
function withBadAt(n: number, at: number, bad: (seq: number) => unknown): unknown[] {
  const base = stream(n);
  const out: unknown[] = base.slice(0, at);
  out.push(bad(at));
  for (const e of base.slice(at)) out.push({ ...e, seq: Number(e.seq) + 1 });
  return out;
}

describe("a rejected event changes nothing (§10 item 20)", () => {
  it("library: createValidatingReducer folds the valid events exactly as reduce() folds them alone", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.nat(), fc.nat(BAD.length - 1), (n, pos, which) => {
        const at = 1 + (pos % (stream(n).length - 1));
        const input = withBadAt(n, at, BAD[which]!);
        const out = reduceUntrusted(input);
        expect(out.rejected.map((r) => r.index)).toEqual([at]);
        expect(out.rejected[0]!.errors.length).toBeGreaterThan(0);
        expect(out.needsResync).toBe(false);
        expect(out.errors).toEqual([]);
        expect(out.result).toEqual(reduce(asEvents(stream(n))).result);
      }),
      { numRuns: Number(process.env.AGJSON_FUZZ_RUNS ?? 300) },
    );
  });

  it("library: the verdict is typed and the reducer's state before and after a rejection is identical", () => {
    const reducer = createValidatingReducer();
    for (const e of stream(1).slice(0, 3)) expect(reducer.push(e).ok).toBe(true);
    const before = JSON.stringify({ r: reducer.result, s: reducer.needsResync, e: reducer.errors });
    const verdict = reducer.push(textDelta(3, { not: "a string" }));
    expect(verdict).toMatchObject({ ok: false, errors: [{ path: "/delta", keyword: "type", spec: "§4" }] });
    expect(JSON.stringify({ r: reducer.result, s: reducer.needsResync, e: reducer.errors })).toBe(before);
    expect(reducer.push(textDelta(4, "next")).ok).toBe(true);
    expect(reducer.needsResync).toBe(false);
  });

  it("a real forward gap is still a gap after a rejection (the allowance is one slot per rejected event)", () => {
    const reducer = createValidatingReducer();
    for (const e of stream(1).slice(0, 3)) reducer.push(e);
    reducer.push(textDelta(3, 1));
    reducer.push(textDelta(6, "skipped two"));
    expect(reducer.needsResync).toBe(true);
    expect(reducer.errors[0]?.invariant).toBe("INV-SEQ");
  });

  it("agjson reduce: the invalid record is reported, exit 1, and the fold is the valid records' fold with needsResync false", () => {
    const input = withBadAt(2, 4, BAD[0]!);
    const file = join(dir, "with-bad.ndjson");
    writeFileSync(file, input.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const r = spawnSync(process.execPath, [join(root, "bin/agjson.js"), "reduce", file], { encoding: "utf8" });
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout) as { result: unknown; needsResync: boolean; errors: { kind: string; index: number }[] };
    expect(out.needsResync).toBe(false);
    expect(out.errors).toMatchObject([{ kind: "invalid-event", index: 4 }]);
    expect(out.result).toEqual(reduce(asEvents(stream(2))).result);
  });

  for (const posture of ["lenient", "strict"] as const) {
    it(`gateway (${posture}): the refused frame becomes an error event in its seq slot; folding the output loses nothing and parks nothing`, async () => {
      for (let which = 0; which < BAD.length; which++) {
        const input = withBadAt(2, 4, BAD[which]!);
        const out = await throughGateway(
          input.map((e) => JSON.stringify(e)),
          { posture },
        );
        expect(out.map((e) => e.seq)).toEqual(out.map((_, i) => i));
        expect(out[4]).toMatchObject({ type: "error", seq: 4 });
        const folded = reduce(asEvents(out));
        expect(folded.needsResync).toBe(false);
        expect(folded.result).toEqual(reduce(asEvents(stream(2))).result);
      }
    });
  }
});
