/**
 * Peak memory of the CLI on a large input: `agjson validate`, `reduce` and
 * `normalize` each read a generated 1 GB input (AgEvent NDJSON for the first two, OpenAI Chat
 * chunk NDJSON for `normalize`) as a child process; its peak RSS (getrusage maxrss, read in the
 * child at exit) is printed beside the same command's peak on a 1 MB input measured in the same
 * run. Streaming means the ratio stays near 1: memory is one input chunk plus the largest record
 * plus the fold or normalizer state — never the input.
 *
 * The inputs are generated once into .tmp/bench-memory/ and reused. `--mb N` (or
 * AGJSON_MEMORY_BENCH_MB) sets the large input's size; `node bench/run.mjs` skips this bench when
 * AGJSON_BENCH_SKIP names it (`AGJSON_BENCH_SKIP=memory make bench`).
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeFileSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const at = args.indexOf("--mb");
const LARGE_MB = at >= 0 ? Number(args[at + 1]) : Number(process.env.AGJSON_MEMORY_BENCH_MB ?? 1024);
const SMALL_MB = 1;

// Run from bench/ (tsx) or bundled into .tmp/bench/ by bench/run.mjs.
const root = fileURLToPath(new URL(existsSync(new URL("../bin/agjson.js", import.meta.url)) ? "../" : "../../", import.meta.url));
const bin = `${root}bin/agjson.js`;
const dir = `${root}.tmp/bench-memory/`;
mkdirSync(dir, { recursive: true });

/**
 * A turn of AgEvents whose fold stays small: each message is removed once sealed, so the fold
 * state does not grow with the input (what is measured is the reader, not the result's size).
 */
function eventTurn(seq: number, t: number): string[] {
  const turnId = `turn_${t}`;
  const lines: string[] = [];
  const push = (e: Record<string, unknown>) => lines.push(JSON.stringify({ ...e, seq: seq + lines.length }));
  push({ type: "turn.start", threadId: "th", turnId });
  for (let m = 0; m < 4; m++) {
    const id = `${turnId}:m${m}`;
    push({ type: "message.start", id, role: "assistant", turnId, threadId: "th" });
    push({ type: "text.start", id: `${id}:t`, messageId: id });
    for (let d = 0; d < 12; d++)
      push({ type: "text.delta", id: `${id}:t`, delta: `delta ${d} of a streamed answer, long enough to look like one. ` });
    push({ type: "text.end", id: `${id}:t` });
    push({ type: "tool.start", toolCallId: `${id}:c`, name: "lookup", messageId: id, providerMetadata: { itemId: `fc_${t}_${m}` } });
    push({ type: "tool.args.delta", toolCallId: `${id}:c`, delta: '{"query":"' });
    push({ type: "tool.args.delta", toolCallId: `${id}:c`, delta: 'weather in Oslo"}' });
    push({ type: "tool.args.assembled", toolCallId: `${id}:c`, input: { query: "weather in Oslo" } });
    push({ type: "message.end", id, turnId, usage: { inputTokens: 120, outputTokens: 80 } });
    push({ type: "message.remove", id });
  }
  push({ type: "turn.done", turnId, outcome: { type: "success" }, finishReason: "stop" });
  return lines;
}

/**
 * Shared-state updates (LangGraph `updates`, §5 state rows) and vendor progress events: the fold
 * keeps one small state object however long the stream, so `reduce`'s peak is its reader's.
 */
function stateUpdates(seq: number, i: number): string[] {
  const lines: string[] = [];
  const push = (e: Record<string, unknown>) => lines.push(JSON.stringify({ ...e, seq: seq + lines.length }));
  if (seq === 0) push({ type: "state.snapshot", snapshot: { step: 0, plan: "" } });
  for (let k = 0; k < 8; k++) {
    push({
      type: "state.delta",
      patch: {
        planner: { step: i * 8 + k, plan: `step ${k}: look the answer up, check it against the sources, then write it down plainly.` },
      },
    });
    push({ type: "ext.acme.progress", done: k, of: 8, note: "working through the plan one step at a time" });
  }
  return lines;
}

/** One OpenAI Chat Completions response (a message of its own) as chunk NDJSON. */
function chatResponse(r: number): string[] {
  const id = `chatcmpl-${r}`;
  const base = { id, object: "chat.completion.chunk", created: 1700000000, model: "gpt-bench" };
  const lines = [JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })];
  for (let d = 0; d < 40; d++)
    lines.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: `token ${d} of the answer ` }, finish_reason: null }] }));
  lines.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
  lines.push(JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 20, completion_tokens: 40, total_tokens: 60 } }));
  return lines;
}

/** Writes `file` (unless it already has the size) from `unit` until `mb` MiB are written. */
function generate(file: string, mb: number, unit: (i: number, written: number) => string[]): void {
  const bytes = mb * 1024 * 1024;
  if (existsSync(file) && statSync(file).size >= bytes && statSync(file).size < bytes + (1 << 20)) return;
  const fd = openSync(file, "w");
  let written = 0;
  let lines = 0;
  for (let i = 0; written < bytes; i++) {
    const batch: string[] = [];
    let size = 0;
    while (size < 4 << 20 && written + size < bytes) {
      const chunk = unit(i++, lines).join("\n") + "\n";
      lines += chunk.split("\n").length - 1;
      batch.push(chunk);
      size += Buffer.byteLength(chunk);
    }
    writeSync(fd, batch.join(""));
    written += size;
  }
  closeSync(fd);
}

// The child reports its own peak RSS (KiB) at exit, so nothing else's memory is counted.
const probe = `${dir}maxrss-probe.mjs`;
writeFileSync(
  probe,
  `import { writeFileSync } from "node:fs";\nprocess.on("exit", () => writeFileSync(process.env.AGJSON_MAXRSS_FILE, String(process.resourceUsage().maxRSS)));\n`,
);

function peak(argv: string[]): { kib: number; seconds: number; code: number | null } {
  const report = `${dir}maxrss.txt`;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["--import", probe, bin, ...argv], {
    env: { ...process.env, AGJSON_MAXRSS_FILE: report },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const kib = Number(
    spawnSync(process.execPath, ["-e", `process.stdout.write(require("fs").readFileSync(${JSON.stringify(report)}, "utf8"))`], {
      encoding: "utf8",
    }).stdout,
  );
  return { kib, seconds, code: r.status };
}

const events = (mb: number) => `${dir}events-${mb}mb.ndjson`;
const state = (mb: number) => `${dir}state-${mb}mb.ndjson`;
const chat = (mb: number) => `${dir}openai-chat-${mb}mb.ndjson`;
for (const mb of [SMALL_MB, LARGE_MB]) {
  let seq = 0;
  generate(events(mb), mb, (t) => {
    const lines = eventTurn(seq, t);
    seq += lines.length;
    return lines;
  });
  let stateSeq = 0;
  generate(state(mb), mb, (i) => {
    const lines = stateUpdates(stateSeq, i);
    stateSeq += lines.length;
    return lines;
  });
  generate(chat(mb), mb, (r) => chatResponse(r));
}

const commands: [string, (mb: number) => string[]][] = [
  ["validate", (mb) => ["validate", events(mb)]],
  // The fold holds what the stream builds: every turn record and message (removed ones too), so on
  // the message stream the peak grows with the input; on state updates it is the reader's alone.
  ["reduce messages", (mb) => ["reduce", events(mb)]],
  ["reduce state", (mb) => ["reduce", state(mb)]],
  ["normalize", (mb) => ["normalize", "--from", "openai-chat", chat(mb)]],
];

const mib = (kib: number) => (kib / 1024).toFixed(0).padStart(7);
console.log(
  `memory bench: peak RSS of the built CLI (child process), a ${LARGE_MB} MiB input against a ${SMALL_MB} MiB one of the same shape, measured in this run`,
);
console.log("command          RSS @1MiB   RSS @large   large ÷ 1MiB   large MiB/s   exit");
let failed = false;
for (const [name, argv] of commands) {
  const small = peak(argv(SMALL_MB));
  const large = peak(argv(LARGE_MB));
  const ok = small.code !== null && small.code <= 1 && large.code !== null && large.code <= 1;
  if (!ok) failed = true;
  console.log(
    `${name.padEnd(16)} ${mib(small.kib)} MiB  ${mib(large.kib)} MiB   ${(large.kib / small.kib).toFixed(2).padStart(10)}×   ${(LARGE_MB / large.seconds).toFixed(0).padStart(10)}   ${large.code}`,
  );
}
console.log("RSS is the process's high-water mark (getrusage maxrss); exit 0/1 are verdicts, anything else a failure");
process.exitCode = failed ? 1 : 0;
