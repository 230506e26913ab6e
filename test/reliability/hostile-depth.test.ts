/**
 * Issue 20 item 8: a record nested thousands of levels deep never overflows the stack in any
 * command, and never costs the output already produced (the CLI streams as it goes). Depth is
 * capped on the raw text before parsing (§13), so nothing recursive ever sees it.
 */
import { describe, expect, it } from "vitest";
import { readNativeChunks } from "../../src/normalize/index.js";
import { agjson, deep, textDelta } from "./support.js";

const DEPTHS = [65, 5_000, 100_000];

describe("depth: thousands of levels, every command", () => {
  it.each(DEPTHS)("validate: a %i-deep record is a typed cap error; the records around it are still judged", (depth) => {
    const input = [textDelta(0), `{"type":"text.delta","seq":1,"id":"t1","delta":"x","_meta":{"a":${deep(depth)}}}`, textDelta(2)].join(
      "\n",
    );
    const r = agjson(["validate", "--json"], input);
    expect(r.err).toBe("");
    expect(r.code).toBe(1);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { index: 0, ok: true, known: true },
      { index: 1, ok: false, errors: [{ path: "", keyword: "cap", message: "document nests deeper than the 64-level cap" }] },
      { index: 2, ok: true, known: true },
    ]);
  });

  it("validate --max-depth raises the cap (to its ceiling, 512) without a crash; above the ceiling is a usage error", () => {
    const doc = `{"type":"ext.acme.deep","seq":0,"v":${deep(510)}}`;
    expect(agjson(["validate", "--max-depth", "512"], doc).code).toBe(0);
    expect(agjson(["validate"], doc).code).toBe(1);
    const r = agjson(["validate", "--max-depth", "513"], doc);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--max-depth must be an integer in 1\.\.512/);
  });

  it("reduce: a deep record is a typed invalid-event error and the fold goes on", () => {
    const events = [
      JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "t" }),
      `{"type":"text.delta","seq":1,"id":"x","delta":"a","_meta":${deep(100_000)}}`,
      JSON.stringify({ type: "turn.done", seq: 1, turnId: "t", outcome: { type: "success" }, finishReason: "stop" }),
    ];
    const r = agjson(["reduce"], events.join("\n"));
    expect(r.err).toBe("");
    const out = JSON.parse(r.out);
    expect(out.errors).toEqual([
      { kind: "invalid-event", index: 1, errors: [{ path: "", keyword: "cap", message: "document nests deeper than the 64-level cap" }] },
    ]);
    expect(out.result.turns).toHaveLength(1);
    expect(out.needsResync).toBe(false);
  });

  it("normalize: a deep native chunk reaches the facet as an unparsed line; the events before and after are printed", () => {
    const chunks = [
      JSON.stringify({
        type: "message_start",
        message: { id: "m", type: "message", role: "assistant", model: "x", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
      }),
      `{"type":"content_block_delta","index":0,"delta":${deep(100_000)}}`,
      JSON.stringify({ type: "message_stop" }),
    ];
    const r = agjson(["normalize", "--from", "anthropic"], chunks.join("\n"));
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const types = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).type);
    expect(types[0]).toBe("turn.start");
    expect(types).toContain("ext.anthropic.unparsed");
    expect(types.at(-1)).toBe("turn.done");
    expect(agjson(["validate", "--posture", "strict"], r.out).code).toBe(0);
  });

  it("the library's chunk reader never parses past the cap: the line is kept as unparsedLine", () => {
    const line = `{"a":${deep(50_000)}}`;
    expect(readNativeChunks(`${line}\n{"b":1}\n`)).toEqual([{ unparsedLine: line }, { b: 1 }]);
  });

  it("a JSON array of records nested deep is cut without recursion; each record is judged", () => {
    const r = agjson(["validate", "--json"], `[${textDelta(0)}, ${deep(200_000)}, ${textDelta(1)}]`);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.ok)).toEqual([true, false, true]);
    expect(r.err).toBe("");
  });
});
