/**
 * Issue 20 item 10: invalid UTF-8 in any CLI input is refused with a typed error naming the byte
 * offset (AgJSON is UTF-8 JSON, §4), as the gateway refuses such a frame; the records around it are
 * judged as usual, wherever the input's chunks fall.
 */
import { describe, expect, it } from "vitest";
import { runReduce } from "../../src/cli/reduce-command.js";
import { runValidate } from "../../src/cli/validate-command.js";
import { runNormalize, NORMALIZE_DEFAULT_CAPS } from "../../src/cli/normalize-command.js";
import { firstInvalidUtf8 } from "../../src/wire/index.js";
import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agjson, chunked, collector, enc, reduceDefaults, textDelta, validateDefaults } from "./support.js";

/** `a`, then a record whose delta holds `bad`, then `b`: the input and the offset of `bad`. */
function withBadBytes(prefix: string, bad: number[], format: "ndjson" | "sse" | "json"): { bytes: Uint8Array; offset: number } {
  const recs = [textDelta(0), `{"type":"text.delta","seq":1,"id":"t1","delta":"${prefix}`, `"}`, textDelta(2)];
  const wrap = format === "sse" ? (r: string) => `data: ${r}\n\n` : (r: string) => r;
  const before = format === "json" ? `[${recs[0]},` + recs[1] : wrap(recs[0]!) + (format === "sse" ? "data: " : "\n") + recs[1];
  const after = recs[2] + (format === "json" ? `,${recs[3]}]` : format === "sse" ? "\n\n" + wrap(recs[3]!) : "\n" + recs[3] + "\n");
  const head = enc(before);
  const bytes = new Uint8Array([...head, ...bad, ...enc(after)]);
  return { bytes, offset: head.length };
}

describe("invalid UTF-8 names its byte offset", () => {
  for (const format of ["ndjson", "sse", "json"] as const) {
    it(`validate (${format}): the record holding the bad byte is a utf8 error at its exact offset, whatever the chunking`, async () => {
      for (const bad of [[0xff], [0xc3], [0xe2, 0x28, 0xa1], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
        const { bytes, offset } = withBadBytes("héllo ", bad, format);
        for (const size of [1, 5, 64, 1 << 20]) {
          const c = collector();
          const code = await runValidate(chunked(bytes, size), validateDefaults, c.out, (l) => c.errors.push(l));
          expect(code).toBe(1);
          const lines = c.lines().map((l) => JSON.parse(l));
          expect(lines.map((l) => l.ok)).toEqual([true, false, true]);
          expect(lines[1].errors).toEqual([
            { path: "", keyword: "utf8", message: `invalid UTF-8 at byte ${offset}: AgJSON is UTF-8 JSON (§4)` },
          ]);
        }
      }
    });
  }

  it("reduce refuses the record (never folded) and folds the rest", async () => {
    const { bytes, offset } = withBadBytes("x", [0xfe], "ndjson");
    const c = collector();
    expect(await runReduce(chunked(bytes, 3), reduceDefaults, c.out, (l) => c.errors.push(l))).toBe(1);
    const out = JSON.parse(c.lines()[0]!);
    expect(out.errors[0]).toEqual({
      kind: "invalid-event",
      index: 1,
      errors: [{ path: "", keyword: "utf8", message: `invalid UTF-8 at byte ${offset}: AgJSON is UTF-8 JSON (§4)` }],
    });
  });

  it("normalize reports the chunk and its offset on stderr, exits 1, and normalizes the rest", async () => {
    const good = JSON.stringify({
      type: "message_start",
      message: { id: "m", type: "message", role: "assistant", model: "x", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
    });
    const bytes = new Uint8Array([...enc(good + "\n"), ...enc('{"type":"ping","x":"'), 0x80, ...enc('"}\n{"type":"message_stop"}\n')]);
    const c = collector();
    expect(await runNormalize(chunked(bytes, 4), "anthropic", NORMALIZE_DEFAULT_CAPS, c.out, (l) => c.errors.push(l))).toBe(1);
    expect(c.errors).toEqual([`chunk 1 (byte ${good.length + 1}): invalid UTF-8 at byte ${good.length + 21}: AgJSON is UTF-8 JSON (§4)`]);
    expect(
      c
        .lines()
        .map((l) => JSON.parse(l).type)
        .at(-1),
    ).toBe("turn.done");
  });

  it("the CLI prints the offset", () => {
    const r = agjson(["validate"], Buffer.from([...enc(textDelta(0) + "\n"), 0xc0, 0xaf, ...enc("\n")]));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`record 1 (byte ${textDelta(0).length + 1}): (document): invalid UTF-8 at byte ${textDelta(0).length + 1}`);
  });

  it("firstInvalidUtf8 agrees with a fatal TextDecoder on arbitrary bytes", () => {
    const fatal = new TextDecoder("utf-8", { fatal: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        let valid = true;
        try {
          fatal.decode(bytes);
        } catch {
          valid = false;
        }
        const at = firstInvalidUtf8(bytes);
        expect(at === -1).toBe(valid);
        if (at !== -1) {
          fatal.decode(bytes.subarray(0, at));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe("agjson conformance: a fixture file that is not UTF-8 is refused naming the file and offset (§4)", () => {
  // Before: the runner read fixtures with readFileSync(file, "utf8"), which decodes malformed bytes
  // to U+FFFD, so a fixture document holding them was judged as other text than the file holds.
  const doc = (delta: string) =>
    `{"description":"d","spec":"§4","kind":"event","document":{"type":"text.delta","seq":0,"id":"a","delta":"${delta}"},"strict":"valid","lenient":"valid"}`;
  const reduceDoc = (delta: string) =>
    `{"description":"d","spec":"§5","events":[{"type":"text.delta","seq":0,"id":"a","delta":"${delta}"}],"expect":{"result":{"messages":[],"artifacts":[],"memory":[],"turns":[]}}}`;

  for (const [suite, make] of [
    ["validate", doc],
    ["reduce", reduceDoc],
  ] as const) {
    it(`${suite}/: exit 2 and the message names the offset`, () => {
      const dir = mkdtempSync(join(tmpdir(), "agjson-conf-utf8-"));
      try {
        const folder = suite === "validate" ? join(dir, "validate", "AgTextDeltaEvent") : join(dir, "reduce");
        mkdirSync(folder, { recursive: true });
        const [head, tail] = make("\u0000").split("\\u0000") as [string, string];
        const bytes = new Uint8Array([...enc(head), 0xff, ...enc(tail)]);
        writeFileSync(join(folder, "bad.json"), bytes);
        const r = agjson(["conformance", join(dir, suite)]);
        expect(r.code).toBe(2);
        expect(r.out + r.err).toContain(`bad.json: invalid UTF-8 at byte ${enc(head).length}: AgJSON is UTF-8 JSON (§4)`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
