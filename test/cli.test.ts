/**
 * The CLI as a user runs it (DESIGN §6): the built bin, real processes, stdin and files, exit codes.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { reduce } from "../src/reduce/index.js";
import type { AgEvent } from "../generated/types.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = `${root}/bin/agjson.js`;

function agjson(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", cwd: root });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const textDelta = (seq: number, extra: object = {}) => JSON.stringify({ type: "text.delta", seq, id: "t1", delta: "hi", ...extra });

describe("agjson validate", () => {
  it("exits 0 and summarizes when every record is valid (NDJSON on stdin)", () => {
    const r = agjson(["validate", "-"], [textDelta(0), textDelta(1)].join("\n") + "\n");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/2 event records: all valid \(lenient\)/);
  });

  it("--json prints one line per record with the issue pointer; exit 1 when any is invalid", () => {
    const r = agjson(["validate", "--json", "--posture", "strict"], [textDelta(0, { x: 1 }), JSON.stringify({ type: "widget.spin", seq: 1 }), textDelta(2)].join("\n"));
    expect(r.code).toBe(1);
    const lines = r.out.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ index: 0, ok: false, errors: [{ path: "/x", keyword: "additionalProperties", message: expect.stringContaining("unknown field") }] });
    expect(lines[1]).toMatchObject({ index: 1, ok: false, errors: [{ path: "/type", keyword: "discriminator" }] });
    expect(lines[2]).toEqual({ index: 2, ok: true, known: true });
  });

  it("lenient reports an unknown type as known:false, not as an error (§0.2)", () => {
    const r = agjson(["validate", "--json"], JSON.stringify({ type: "widget.spin", seq: 1, future: true }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ index: 0, ok: true, known: false });
  });

  it("reads a JSON array and SSE frames ([DONE] and comments ignored), detected or forced", () => {
    expect(agjson(["validate"], `[${textDelta(0)}, ${textDelta(1)}]`).out).toMatch(/2 event records: all valid/);
    const sse = `: keep-alive\n\ndata: ${textDelta(0)}\n\nid: 7\nevent: agjson\ndata: ${textDelta(1)}\n\ndata: [DONE]\n\n`;
    expect(agjson(["validate"], sse).out).toMatch(/2 event records: all valid/);
    expect(agjson(["validate", "--format", "sse"], sse).code).toBe(0);
    expect(agjson(["validate", "--format", "xml"], sse).code).toBe(2);
  });

  it("--kind input negotiates the version (§12)", () => {
    const input = { protocol: "agjson", version: "2.0.0", kind: "start", threadId: "th", turnId: "t", messages: [] };
    const r = agjson(["validate", "--kind", "input", "--json"], JSON.stringify(input));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).errors[0]).toMatchObject({ path: "/version", keyword: "version" });
    expect(agjson(["validate", "--kind", "input"], JSON.stringify({ ...input, version: "1.4.0-draft.2" })).code).toBe(0);
  });

  it("exits 2 on a missing file or a bad option", () => {
    expect(agjson(["validate", "no/such/file.ndjson"]).code).toBe(2);
    expect(agjson(["validate", "--posture", "loose"], textDelta(0)).code).toBe(2);
  });
});

describe("agjson reduce", () => {
  it("folds valid records; an invalid one is a typed error that leaves the fold untouched (§10 item 20)", () => {
    const events = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
      { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
      { type: "text.start", seq: 2, id: "x" },
      { type: "text.delta", seq: 3, id: "x", delta: "hello" },
      { type: "text.end", seq: 4, id: "x" },
      { type: "message.end", seq: 5, id: "m" },
      { type: "turn.done", seq: 6, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const bad = { type: "text.delta", seq: 4, id: "x", delta: 42 };
    const lines = [...events.slice(0, 4), bad, ...events.slice(4)].map((e) => JSON.stringify(e));
    const r = agjson(["reduce"], lines.join("\n"));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out);
    expect(out.errors).toEqual([{ kind: "invalid-event", index: 4, errors: [{ path: "/delta", message: "must be string", keyword: "type" }] }]);
    const expected = reduce(events as AgEvent[]);
    expect(out.result).toEqual(expected.result);
    expect(out.needsResync).toBe(false);
  });
});

describe("agjson normalize and conformance", () => {
  it("normalizes the sample Anthropic stream to strict-valid AgEvents", () => {
    const n = agjson(["normalize", "--from", "anthropic", "samples/anthropic-weather.chunks.txt"]);
    expect(n.code).toBe(0);
    const v = agjson(["validate", "--posture", "strict"], n.out);
    expect(v.code, v.out).toBe(0);
    expect(agjson(["normalize", "--from", "palm", "samples/anthropic-weather.chunks.txt"]).code).toBe(2);
  });

  it("runs the shipped fixtures: N passed, 0 failed", () => {
    const r = agjson(["conformance", "conformance/reduce"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^\d+ passed, 0 failed$/m);
  });
});
