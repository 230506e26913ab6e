/**
 * Issue 20 item 16: CLI manners. Output piped into `head` ends quietly with status 0; a `--from`
 * that recognizes nothing exits non-zero naming the likely facet; a file in no accepted format is
 * told which formats are; `validate` applies the library's caps (1 MiB, 64 levels, §13) with flags
 * to raise them and lists every problem of a document up to `--max-errors`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { agjson, bin, root, textDelta } from "./support.js";

/** A turn of `n` one-line assistant messages: a fold whose printed result is megabytes long. */
function manyMessages(n: number): string[] {
  const lines = [JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "t" })];
  for (let i = 0; i < n; i++) {
    for (const e of [
      { type: "message.start", id: `m${i}`, role: "assistant", turnId: "t", threadId: "th" },
      { type: "text.start", id: `x${i}` },
      { type: "text.delta", id: `x${i}`, delta: `hello ${i}` },
      { type: "text.end", id: `x${i}` },
      { type: "message.end", id: `m${i}` },
    ])
      lines.push(JSON.stringify({ ...e, seq: lines.length }));
  }
  return lines;
}

describe("CLI manners", () => {
  it.each([
    ["validate --json -", () => Array.from({ length: 200_000 }, (_, i) => textDelta(i)).join("\n"), /^\{/],
    ["normalize --from anthropic -", () => readFileSync(`${root}/samples/anthropic-weather.chunks.txt`, "utf8").repeat(5000), /^\{/],
    // Every command, whatever status it would have ended with: the invalid records at the end make
    // validate and reduce exit 1 when their reader stays.
    ["validate -", () => [textDelta(0), ...Array.from({ length: 20_000 }, () => "not json")].join("\n"), /^record 1/],
    ["reduce -", () => [...manyMessages(20_000), "not json"].join("\n"), /^\{/],
    ["reduce --pretty -", () => manyMessages(20_000).join("\n"), /^\{/],
    ["convert --to ag-ui -", () => manyMessages(20_000).join("\n"), /^\{/],
    ["convert --to ui-message-stream -", () => manyMessages(20_000).join("\n"), /^data: /],
    [
      "reinput --to openai-responses -",
      () =>
        JSON.stringify(
          Array.from({ length: 20_000 }, (_, i) => ({ id: `u${i}`, role: "user", content: [{ type: "text", text: `message ${i}` }] })),
        ),
      /^\{/,
    ],
    ["conformance", () => "", /./],
  ])("`agjson %s | head -c 20` ends quietly with status 0", (args, input, first) => {
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${bin}" ${args} | head -c 20; echo; echo "status \${PIPESTATUS[0]}"`], {
      input: input(),
      encoding: "utf8",
      cwd: root,
      maxBuffer: 64 << 20,
    });
    expect(r.stderr).toBe("");
    const lines = r.stdout.split("\n");
    expect(lines[0]).toMatch(first);
    expect(lines.at(-2)).toBe("status 0");
  });

  it("a --from that recognizes nothing exits 1 and names the likely facet", () => {
    const r = agjson(["normalize", "--from", "openai-chat", "samples/anthropic-weather.chunks.txt"]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no chunk of the input looks like openai-chat; it looks like anthropic \(try --from anthropic\)/);
    const gemini = agjson(["normalize", "--from", "anthropic"], JSON.stringify({ candidates: [{ content: { parts: [{ text: "hi" }] } }] }));
    expect(gemini.code).toBe(1);
    expect(gemini.err).toMatch(/try --from gemini/);
    // The right facet is quiet.
    expect(agjson(["normalize", "--from", "anthropic", "samples/anthropic-weather.chunks.txt"]).err).toBe("");
  });

  it("a file in no accepted format is told which formats are (exit 2, every command)", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (const args of [["validate"], ["reduce"], ["normalize", "--from", "anthropic"]]) {
      for (const input of [png, "name: value\nother: 1\n", "hello"]) {
        const r = agjson(args, input);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.err).toMatch(/is not NDJSON \(one JSON object per line\), a JSON document or array, or Server-Sent Events/);
        expect(r.out).toBe("");
      }
    }
  });

  it("validate applies the 1 MiB record cap; --max-record-bytes raises it", () => {
    const big = textDelta(0, { delta: "x".repeat(1_100_000) });
    const r = agjson(["validate", "--json"], `${textDelta(0)}\n${big}\n${textDelta(1)}\n`);
    expect(r.code).toBe(1);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.ok)).toEqual([true, false, true]);
    expect(lines[1].errors[0]).toMatchObject({ keyword: "cap" });
    expect(agjson(["validate", "--max-record-bytes", "2000000"], big).code).toBe(0);
    expect(agjson(["validate", "--max-record-bytes", "1e6"], big).code).toBe(2);
  });

  it("validate lists every problem of a document, up to --max-errors", () => {
    const doc = JSON.stringify({ type: "text.delta", seq: "x", id: 5, delta: 7, foo: 1, bar: 2 });
    const all = agjson(["validate", "--posture", "strict", "--json"], doc);
    expect(JSON.parse(all.out).errors.map((e: { path: string }) => e.path)).toEqual(["/seq", "/id", "/delta", "/foo", "/bar"]);
    const two = agjson(["validate", "--posture", "strict", "--json", "--max-errors", "2"], doc);
    expect(JSON.parse(two.out).errors).toHaveLength(2);
    expect(agjson(["validate", "--max-errors", "0"], doc).code).toBe(2);
  });

  it("validate lists the problems after a missing required field too (a stand-in fills it, and is never reported)", () => {
    const doc = JSON.stringify({ type: "message.start", seq: "1", role: "narrator" });
    const r = agjson(["validate", "--posture", "strict", "--json"], doc);
    const errors = (JSON.parse(r.out) as { errors: { path: string; keyword: string }[] }).errors;
    expect(errors.map((e) => `${e.path} ${e.keyword}`).sort()).toEqual(
      ["/id required", "/role enum", "/seq type", "/threadId required", "/turnId required"].sort(),
    );
    // A missing tag: the stand-in's own problem (null is no variant name) is not reported, and the search ends.
    const block = agjson(
      ["validate", "--posture", "strict", "--kind", "message", "--json"],
      JSON.stringify({ id: "m", role: "user", content: [{ text: "hi" }] }),
    );
    expect((JSON.parse(block.out) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["/content/0/type"]);
  });

  it("a truncated JSON array or SSE frame is a typed framing error after the records before it", () => {
    const arr = agjson(["validate", "--json"], `[${textDelta(0)}, ${textDelta(1)}`);
    expect(
      arr.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { index: 0, ok: true, known: true },
      { index: 1, ok: true, known: true },
      { index: 2, ok: false, errors: [{ path: "", keyword: "framing", message: "the input ends inside a JSON array (no closing `]`)" }] },
    ]);
    const stray = agjson(["validate", "--json"], `[${textDelta(0)},,${textDelta(1)}]`);
    expect(
      stray.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).ok),
    ).toEqual([true, false, true]);
  });
});
