// Inspector benchmark (`make bench`, issue 31): a 100,000-event recording opened with the built
// `agjson inspect`, the page driven in Debian's chromium by playwright-core. Printed, never asserted:
//   navigation → interactive Timeline (goal ≤ 2 s on a 2-core machine), from the page's own
//     performance mark once the grid holds its rows;
//   re-fold at a selected event (goal ≤ 100 ms): key press → Conversation shows the fold there
//     (next event ↓, the common move; and a jump to the middle, which folds from the nearest cursor);
//   DOM nodes in the Timeline's grid (goal ≤ 1,000) and in the whole Timeline region;
//   the page bundle, gzip -9 (goal ≤ 100 KB).
// Baseline in the same run: `agjson reduce` of the same file (the fold the server runs once).
// By hand: node bench/run.mjs inspect   (needs `npm run build` and /usr/bin/chromium)

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { browserMissing, launchChromium, root, startCli } from "../test/inspect-support.js";

const EVENTS = 100_000;

/** A realistic long recording: turns of reasoning, streamed text with a citation, a tool call and its result. */
function recording(): string {
  const lines: string[] = [];
  let seq = 0;
  const push = (e: Record<string, unknown>) => lines.push(JSON.stringify({ ...e, seq: seq++ }));
  for (let t = 0; lines.length < EVENTS; t++) {
    const turnId = `turn_${t}`;
    const m = `msg_${t}`;
    push({ type: "turn.start", threadId: "th", turnId });
    push({ type: "message.start", id: m, role: "assistant", turnId, threadId: "th" });
    push({ type: "reasoning.start", id: `${m}:r`, turnId });
    for (let i = 0; i < 3; i++) push({ type: "reasoning.delta", id: `${m}:r`, delta: "thinking about it " });
    push({ type: "reasoning.end", id: `${m}:r` });
    push({ type: "text.start", id: `${m}:x`, turnId });
    for (let i = 0; i < 12; i++) push({ type: "text.delta", id: `${m}:x`, delta: `token ${i} ` });
    push({ type: "text.end", id: `${m}:x` });
    push({ type: "tool.start", toolCallId: `call_${t}`, name: "lookup", turnId });
    push({ type: "tool.args.delta", toolCallId: `call_${t}`, delta: '{"q":"x"}' });
    push({ type: "tool.args.assembled", toolCallId: `call_${t}`, input: { q: "x" } });
    push({ type: "message.end", id: m, usage: { inputTokens: 100, outputTokens: 20 } });
    push({
      type: "tool.done",
      toolCallId: `call_${t}`,
      messageId: `call_${t}:result`,
      turnId,
      content: [{ type: "text", text: "found" }],
      outcome: "ok",
    });
    push({ type: "turn.done", turnId, outcome: { type: "success" }, finishReason: "stop", usage: { inputTokens: 100, outputTokens: 20 } });
  }
  return `${lines.slice(0, EVENTS).join("\n")}\n`;
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const missing = browserMissing();
if (missing !== undefined) {
  console.log(`skipped: ${missing}`);
  process.exit(0);
}
if (!existsSync(`${root}/dist/inspect/page.js`)) {
  console.log("skipped: dist/inspect/page.js is missing (npm run build)");
  process.exit(0);
}
const file = `${root}/.tmp/bench/inspect-100k.ndjson`;
writeFileSync(file, recording());

let t = performance.now();
spawnSync(process.execPath, [`${root}/bin/agjson.js`, "reduce", file], { stdio: ["ignore", "ignore", "inherit"], maxBuffer: 1 << 30 });
const reduceMs = performance.now() - t;

t = performance.now();
const cli = await startCli(["inspect", file, "--no-open"]);
const loadMs = performance.now() - t;
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(cli.url);
  await page.waitForFunction(() => performance.getEntriesByName("agjson:timeline-interactive").length > 0, undefined, { timeout: 120_000 });
  const interactive = await page.evaluate(() => performance.getEntriesByName("agjson:timeline-interactive")[0]!.startTime);
  await page.waitForFunction(() => document.getElementById("conversation")?.dataset.at !== undefined, undefined, { timeout: 120_000 });

  /** Dispatches `key` on the grid; resolves to the ms until the Conversation shows the fold at the new event. */
  const refold = (key: string) =>
    page.evaluate(async (k) => {
      const conversation = document.getElementById("conversation")!;
      const before = conversation.dataset.at;
      const start = performance.now();
      const done = new Promise<void>((resolve) => {
        const o = new MutationObserver(() => {
          if (conversation.dataset.at !== before) {
            o.disconnect();
            resolve();
          }
        });
        o.observe(conversation, { attributes: true });
      });
      document.querySelector('[role="grid"]')!.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
      await done;
      return performance.now() - start;
    }, key);

  const up: number[] = [];
  for (let i = 0; i < 15; i++) up.push(await refold("ArrowUp"));
  const home = await refold("Home");
  const down: number[] = [];
  for (let i = 0; i < 15; i++) down.push(await refold("ArrowDown"));
  // A jump: scroll to the middle, then click a row there (a fresh fold from the nearest cursor).
  await page.evaluate(() => {
    const v = document.querySelector('[role="grid"]') as HTMLElement;
    v.scrollTop = v.scrollHeight / 2;
  });
  await page.waitForFunction(
    () =>
      document.querySelectorAll('[role="row"][aria-rowindex="50001"]').length > 0 &&
      !document.querySelector('[role="row"][aria-rowindex="50001"]')!.textContent!.startsWith("…"),
  );
  const jump = await page.evaluate(async () => {
    const conversation = document.getElementById("conversation")!;
    const start = performance.now();
    const done = new Promise<void>((resolve) => {
      const o = new MutationObserver(() => {
        if (conversation.dataset.at === "50000") {
          o.disconnect();
          resolve();
        }
      });
      o.observe(conversation, { attributes: true });
    });
    (document.querySelector('[role="row"][aria-rowindex="50001"]') as HTMLElement).click();
    await done;
    return performance.now() - start;
  });
  const nearJump: number[] = [];
  for (let i = 0; i < 10; i++) nearJump.push(await refold("ArrowDown"));
  const nodes = await page.evaluate(() => ({
    grid: document.querySelector('[role="grid"]')!.getElementsByTagName("*").length,
    region: document.getElementById("timeline")!.getElementsByTagName("*").length,
    rowcount: document.querySelector('[role="grid"]')!.getAttribute("aria-rowcount"),
  }));
  const js = readFileSync(`${root}/dist/inspect/page.js`);
  const css = readFileSync(`${root}/dist/inspect/page.css`);
  const gz = gzipSync(js, { level: 9 }).length + gzipSync(css, { level: 9 }).length;

  console.log(`recording: ${EVENTS} events, ${(readFileSync(file).length / 1e6).toFixed(1)} MB; the Timeline holds ${nodes.rowcount}`);
  console.log(`baseline  agjson reduce of the file (process): ${ms(reduceMs)}`);
  console.log(
    `server    agjson inspect ready (read, validate both postures, fold): ${ms(loadMs)} (${(loadMs / reduceMs).toFixed(2)}× reduce)`,
  );
  console.log(`page      navigation → interactive Timeline: ${ms(interactive)} (goal ≤ 2000 ms)`);
  console.log(`re-fold   previous event (↑, from the end), median of 15: ${ms(median(up))} (goal ≤ 100 ms); the first: ${ms(up[0]!)}`);
  console.log(`re-fold   Home (event 0): ${ms(home)}; next event (↓), median of 15: ${ms(median(down))}`);
  console.log(
    `re-fold   jump to event 50,000 (a fold from the nearest cursor): ${ms(jump)}; then ↓ there, median of 10: ${ms(median(nearJump))}`,
  );
  console.log(
    `DOM       Timeline grid: ${nodes.grid} nodes (goal ≤ 1000); whole Timeline region with filters and the event's JSON: ${nodes.region}`,
  );
  console.log(
    `bundle    page.js ${js.length} B + page.css ${css.length} B; gzip -9 together ${gz} B = ${(gz / 1024).toFixed(1)} KiB (goal ≤ 100 KB)`,
  );
} finally {
  await browser.close();
  await cli.stop();
}
