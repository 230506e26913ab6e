/**
 * Issue 20 item 11: `validate`, `reduce` and `normalize` stream their input, so memory is bounded by
 * the largest record plus a constant (plus, for reduce, the fold state), not by the input's size.
 * Each command runs in a child process on a 20 MB and on a 200 MB stream generated into its stdin;
 * ten times the input may not cost more than a few MB of peak RSS, and the peak stays below the
 * input's size. No timing is asserted (bench/memory.ts reports the figures on 1 GB).
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { root } from "./support.js";

const MiB = 1024 * 1024;
const INPUT = 200 * MiB;
const SMALL = 20 * MiB;
/** Growth of peak RSS allowed from 20 MB to 200 MB of input: GC slack, not the input. */
const SLACK_MIB = 48;

/** The CLI in a child, `lines(i)` written to its stdin until `bytes`; resolves to its exit code and peak RSS. */
function run(
  args: readonly string[],
  first: string,
  line: (i: number) => string,
  last: string,
  bytes: number,
): Promise<{ code: number; peakMiB: number; tail: string }> {
  const script = `const { main } = await import(${JSON.stringify(`${root}/dist/esm/src/cli/main.js`)});
const code = await main([process.argv[0], "agjson", ...process.argv.slice(1)]);
process.stderr.write("peak-rss " + process.resourceUsage().maxRSS + "\\n");
process.exitCode = code;`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, "--", ...args], {
    cwd: root,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let tail = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    tail = (tail + d.toString("utf8")).slice(-2000);
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  let sent = 0;
  let i = 0;
  const write = () => {
    for (;;) {
      if (sent >= bytes) {
        child.stdin.end(last);
        return;
      }
      let block = i === 0 ? first : "";
      for (let k = 0; k < 2000; k++) block += line(i++);
      sent += block.length;
      if (!child.stdin.write(block)) {
        child.stdin.once("drain", write);
        return;
      }
    }
  };
  child.stdin.on("error", () => {});
  write();
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const kib = Number(/peak-rss (\d+)/.exec(err)?.[1] ?? NaN);
      resolve({ code: code ?? -1, peakMiB: kib / 1024, tail: tail + err });
    });
  });
}

const pad = "x".repeat(200);

describe("size: a 200 MB stream in bounded memory", { timeout: 240_000 }, () => {
  it("validate --json streams 200 MB of events", async () => {
    const args = [
      ["validate", "--json", "-"],
      "",
      (i: number) => `{"type":"text.delta","seq":${i},"id":"t","delta":"${pad}"}\n`,
      "",
    ] as const;
    const small = await run(...args, SMALL);
    const r = await run(...args, INPUT);
    expect(small.code, small.tail).toBe(0);
    expect(r.code, r.tail).toBe(0);
    expect(r.peakMiB - small.peakMiB).toBeLessThan(SLACK_MIB);
    expect(r.tail).toMatch(/"ok":true/);
    expect(r.peakMiB).toBeLessThan(INPUT / MiB);
  });

  it("reduce folds 200 MB (events whose fold state does not grow) without holding the input", async () => {
    const args = [["reduce", "-"], "", (i: number) => `{"type":"vendor.blob","seq":${i},"data":"${pad}"}\n`, ""] as const;
    const small = await run(...args, SMALL);
    const r = await run(...args, INPUT);
    expect(small.code, small.tail).toBe(0);
    expect(r.code, r.tail).toBe(0);
    expect(r.peakMiB - small.peakMiB).toBeLessThan(SLACK_MIB);
    expect(JSON.parse(r.tail.split("\n").find((l) => l.startsWith("{"))!).errors).toEqual([]);
    expect(r.peakMiB).toBeLessThan(INPUT / MiB);
  });

  it("normalize streams 200 MB of provider chunks (a JSON array, so the document framer is exercised too)", async () => {
    const start = JSON.stringify({
      type: "message_start",
      message: { id: "m", type: "message", role: "assistant", model: "x", content: [], usage: { input_tokens: 1, output_tokens: 1 } },
    });
    const block = (i: number) => {
      const b = Math.floor(i / 100);
      const delta = JSON.stringify({ type: "content_block_delta", index: b, delta: { type: "text_delta", text: pad } });
      const open =
        i % 100 === 0 ? `${JSON.stringify({ type: "content_block_start", index: b, content_block: { type: "text", text: "" } })},\n` : "";
      const close = i % 100 === 99 ? `,\n${JSON.stringify({ type: "content_block_stop", index: b })}` : "";
      return `${open}${delta}${close},\n`;
    };
    const args = [["normalize", "--from", "anthropic", "-"], `[${start},\n`, block, `{"type":"message_stop"}]`] as const;
    const small = await run(...args, SMALL);
    const r = await run(...args, INPUT);
    expect(small.code, small.tail).toBe(0);
    expect(r.code, r.tail).toBe(0);
    expect(r.peakMiB - small.peakMiB).toBeLessThan(SLACK_MIB);
    expect(r.tail).toMatch(/"type":"turn\.done"/);
    expect(r.peakMiB).toBeLessThan(INPUT / MiB);
  });
});
