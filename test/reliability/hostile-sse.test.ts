/**
 * Issue 20 item 9: one SSE framer. `agjson normalize` reads SSE with the wire module's framer, the
 * gateway's (WHATWG: CR, LF and CRLF line ends, multi-line `data:` joined by LF, comments, BOM), so
 * a stream gives the same events whatever its line ends, and a CR-only stream is not lost.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runNormalize } from "../../src/cli/normalize-command.js";
import { NORMALIZE_DEFAULT_CAPS } from "../../src/cli/normalize-command.js";
import { readNativeChunks } from "../../src/normalize/index.js";
import { SseFramer } from "../../src/gateway/index.js";
import { InputFramer, type Frame } from "../../src/wire/index.js";
import { agjson, chunked, collector, enc, root } from "./support.js";

const chunks = readFileSync(`${root}/samples/anthropic-weather.chunks.txt`, "utf8").trim().split("\n");

/** The sample as SSE with the given line end, a comment and an `event:` field per frame. */
function sse(eol: string, bom = false): string {
  return (bom ? "\uFEFF" : "") + `: recorded${eol}${eol}` + chunks.map((c) => `event: x${eol}data: ${c}${eol}${eol}`).join("");
}

async function normalizeText(text: string, chunkSize: number): Promise<string[]> {
  const c = collector();
  const code = await runNormalize(chunked(enc(text), chunkSize), "anthropic", NORMALIZE_DEFAULT_CAPS, c.out, (l) => c.errors.push(l));
  expect(c.errors).toEqual([]);
  expect(code).toBe(0);
  return c.lines();
}

describe("one SSE framer for the CLI, the gateway and the normalizers", () => {
  it("normalize gives the same events for LF, CRLF and CR-only SSE, with a BOM, cut anywhere", async () => {
    const expected = await normalizeText(chunks.join("\n"), 1 << 20);
    expect(expected.length).toBeGreaterThan(5);
    for (const eol of ["\n", "\r\n", "\r"]) {
      for (const size of [1, 7, 4096]) {
        expect(await normalizeText(sse(eol, size === 7), size)).toEqual(expected);
      }
    }
  });

  it("the CLI reads a CR-only capture whole (WHATWG SSE: CR alone ends a line)", () => {
    const lf = agjson(["normalize", "--from", "anthropic"], chunks.join("\n"));
    const cr = agjson(["normalize", "--from", "anthropic"], sse("\r"));
    expect(cr.code).toBe(0);
    expect(cr.out).toBe(lf.out);
  });

  it("multi-line data: lines are joined by LF (WHATWG) into one chunk", () => {
    expect(readNativeChunks('data: {"a":\ndata: 1}\n\ndata: [DONE]\n\n')).toEqual([{ a: 1 }]);
  });

  it("the CLI's framing of SSE is the gateway's, frame for frame", () => {
    const text = enc(sse("\r\n", true) + "data: x\rdata: y\r\r: c\n\nid: 7\nretry: 10\n\n");
    const viaGateway: Frame[] = [];
    const g = new SseFramer({ maxFrameBytes: 1 << 20 }, (f) => viaGateway.push(f));
    g.push(text);
    g.end();
    const viaCli: Frame[] = [];
    const c = new InputFramer("auto", { maxFrameBytes: 1 << 20 }, (f) => viaCli.push(f));
    for (let i = 0; i < text.length; i += 3) c.push(text.subarray(i, i + 3));
    c.end();
    const dec = new TextDecoder();
    const shape = (fs: Frame[]) => fs.map((f) => (f.kind === "event" ? dec.decode(f.data) : f.kind));
    expect(shape(viaCli)).toEqual(shape(viaGateway));
    expect(shape(viaCli)).toContain("x\ny");
  });
});
