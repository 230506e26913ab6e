// reduce() benchmark (`make bench`): folds a generated stream of text deltas, reasoning,
// tool calls with argument deltas and tool results; prints events/s, the 1×/4×/16× time ratios
// (linearity: 16× length should cost ≤ 18× time) and the same ~24.6k-event shape folded by
// @ag-ui/client's defaultApplyEvents.
// Baseline, measured in the same run and timed the same way (`--child … --bare`): the bare fold of
// bench/bare-fold.ts, which keeps the same result with no §5 checks, issues, turns or views — the
// floor for any fold that returns the result on this machine. reduce() is printed as a multiple of
// its time (1M line; 1× and 16× of the linearity runs), and the bare fold's 16×/1× ratio next to
// reduce()'s (docs/reduce.md: at 16× the bare fold's built-in Maps cost more than reduce()'s id
// tables). The bench first checks that the bare fold returns reduce()'s messages (whole on a short
// stream; count and text length on the 1× stream) and fails otherwise.
//
// `make bench` (bench/run.mjs) bundles and runs it; by hand (Node 20 cannot run TypeScript):
//   node_modules/.bin/esbuild bench/reduce.ts --bundle --platform=node --format=esm \
//     --outfile=/tmp/agjson-bench-reduce.mjs && node /tmp/agjson-bench-reduce.mjs
// Each size runs in its own child process (fresh heap and JIT, --expose-gc); events stream from a
// generator whose own time is measured alone and subtracted: fold-only wall time, best of several
// runs. The linearity sizes are the targets' of docs/reduce.md (1× = the 1M-event stream, then 4×, 16×) and
// share one warm-up (two folds of the 1× stream) and one repeat count; the figure checked against
// the target is the median over several fresh processes per size. Diagnostics follow: first folds
// only, and linearity within one fold (the first 1×/4×/16× of one stream, see docs/reduce.md).
// The whole benchmark takes about six minutes on the 2-core VM; a 16× process peaks at ~830 MB (its fold keeps ~550 MB).
// Options: --events N (base stream, default 1000000), --runs N (processes per size, default 5),
// --bare-runs N (processes per bare-fold size, default --runs), --skip-agui.

import { spawnSync } from "node:child_process";
import { performance, PerformanceObserver } from "node:perf_hooks";
import { AbstractAgent, defaultApplyEvents } from "@ag-ui/client";
import { EMPTY, from, lastValueFrom, type Observable } from "rxjs";
import type { AgEvent } from "../generated/types.js";
import { createReducer, reduce } from "../src/reduce/index.js";
import { bareFold } from "./bare-fold.js";

/** Timed folds per process in the linearity runs (each size's figure is the best of them). */
const LINEARITY_REPEAT = 3;

/** Events per round: message.start, reasoning (1+4+1), text (1+16+1), tool call (1+6+1), message.end, tool.done. */
const EVENTS_PER_ROUND = 35;

/** A realistic assistant loop: each round is one message with reasoning, text and a tool call, then its result. */
function* agjsonStream(rounds: number): Generator<AgEvent> {
  let seq = 0;
  yield { type: "turn.start", seq: seq++, threadId: "th", turnId: "t" };
  for (let r = 0; r < rounds; r++) {
    const m = `m${r}`;
    const call = `call_${r}`;
    yield { type: "message.start", seq: seq++, id: m, role: "assistant", turnId: "t", threadId: "th" };
    yield { type: "reasoning.start", seq: seq++, id: `${m}:r` };
    for (let i = 0; i < 4; i++) yield { type: "reasoning.delta", seq: seq++, id: `${m}:r`, delta: "thinking about it " };
    yield { type: "reasoning.end", seq: seq++, id: `${m}:r` };
    yield { type: "text.start", seq: seq++, id: `${m}:x` };
    for (let i = 0; i < 16; i++) yield { type: "text.delta", seq: seq++, id: `${m}:x`, delta: "token " };
    yield { type: "text.end", seq: seq++, id: `${m}:x` };
    yield { type: "tool.start", seq: seq++, toolCallId: call, name: "search" };
    for (let i = 0; i < 6; i++) yield { type: "tool.args.delta", seq: seq++, toolCallId: call, delta: i === 0 ? '{"q":"' : "abc" };
    yield { type: "tool.args.assembled", seq: seq++, toolCallId: call, input: { q: "abcabcabcabcabc" } };
    yield { type: "message.end", seq: seq++, id: m };
    yield {
      type: "tool.done",
      seq: seq++,
      toolCallId: call,
      messageId: `${call}:result`,
      content: [{ type: "text", text: "result" }],
      outcome: "ok",
    };
  }
  yield { type: "turn.done", seq: seq++, turnId: "t", outcome: { type: "success" }, finishReason: "stop" };
}

/** The same shape as AG-UI events (RUN_STARTED … RUN_FINISHED). */
function aguiStream(rounds: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{ type: "RUN_STARTED", threadId: "th", runId: "run" }];
  for (let r = 0; r < rounds; r++) {
    const m = `m${r}`;
    const call = `call_${r}`;
    out.push({ type: "REASONING_START", messageId: `${m}:r` });
    out.push({ type: "REASONING_MESSAGE_START", messageId: `${m}:r`, role: "reasoning" });
    for (let i = 0; i < 4; i++) out.push({ type: "REASONING_MESSAGE_CONTENT", messageId: `${m}:r`, delta: "thinking about it " });
    out.push({ type: "REASONING_MESSAGE_END", messageId: `${m}:r` });
    out.push({ type: "REASONING_END", messageId: `${m}:r` });
    out.push({ type: "TEXT_MESSAGE_START", messageId: m, role: "assistant" });
    for (let i = 0; i < 16; i++) out.push({ type: "TEXT_MESSAGE_CONTENT", messageId: m, delta: "token " });
    out.push({ type: "TEXT_MESSAGE_END", messageId: m });
    out.push({ type: "TOOL_CALL_START", toolCallId: call, toolCallName: "search", parentMessageId: m });
    for (let i = 0; i < 6; i++) out.push({ type: "TOOL_CALL_ARGS", toolCallId: call, delta: i === 0 ? '{"q":"' : "abc" });
    out.push({ type: "TOOL_CALL_END", toolCallId: call });
    out.push({ type: "TOOL_CALL_RESULT", messageId: `${call}:result`, toolCallId: call, content: "result" });
  }
  out.push({ type: "RUN_FINISHED", threadId: "th", runId: "run" });
  return out;
}

function collectGarbage(): void {
  const gc: unknown = Reflect.get(globalThis, "gc");
  if (typeof gc === "function") gc();
}

/**
 * Folds `rounds` rounds streamed from the generator, as a live reducer sees them (no array of
 * every event kept alive: at 16× that array alone is 16M objects, and its GC cost is not the
 * fold's). The generator's own time, measured alone in the same process, is subtracted.
 * Best wall time of `repeat`.
 */
interface FoldTiming {
  events: number;
  ms: number;
  /** Wall time of the first timed fold (after the warm-up): it pays for all the memory it keeps. */
  firstMs: number;
  cpuMs: number;
  /** Minor page faults of the fastest fold (generator included): fresh memory the heap touched. */
  faults: number;
  /** [start, end] of the fastest fold, to attribute GC pauses to it. */
  window: [number, number];
}

/** The folds a child can time: reduce(), or the bare fold (bare-fold.ts), the floor it is compared with. */
type FoldKind = "reduce" | "bare";

/** Folds one stream with `kind`; throws if reduce() reports an issue (the bench stream must be clean). */
function foldOnce(kind: FoldKind, events: Iterable<AgEvent>): void {
  if (kind === "bare") {
    bareFold(events);
    return;
  }
  const { errors } = reduce(events);
  if (errors.length > 0) throw new Error(`bench stream is not clean: ${errors[0]?.message ?? ""}`);
}

function timeFold(rounds: number, repeat: number, kind: FoldKind): FoldTiming {
  let best = Infinity;
  let firstMs = Infinity;
  let bestCpu = Infinity;
  let events = 0;
  let faults = 0;
  let window: [number, number] = [0, 0];
  for (let i = 0; i < repeat; i++) {
    collectGarbage();
    const genStart = performance.now();
    events = 0;
    for (const _event of agjsonStream(rounds)) events++;
    const genMs = performance.now() - genStart;
    collectGarbage();
    const cpuStart = process.cpuUsage();
    const faultStart = process.resourceUsage().minorPageFault;
    const start = performance.now();
    foldOnce(kind, agjsonStream(rounds));
    const end = performance.now();
    const ms = end - start - genMs;
    if (i === 0) firstMs = ms;
    if (ms < best) {
      faults = process.resourceUsage().minorPageFault - faultStart;
      window = [start, end];
    }
    const cpu = process.cpuUsage(cpuStart);
    // Process CPU time (all threads, GC helpers included) minus the generator's wall time: steadier than wall time on a shared VM.
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000 - genMs);
    best = Math.min(best, ms);
  }
  return { events, ms: best, firstMs, cpuMs: bestCpu, faults, window };
}

/**
 * Linearity within one fold: the time at which one incremental reducer (`createReducer().push`)
 * has folded the first 1×, 4× and 16× of one 16×-long stream, less the generator's own time to
 * the same points (measured alone first). No explicit GC runs between the warm-up and the timed
 * fold: a full GC that collects every earlier reducer makes V8 throw away the fold's optimized code
 * ("weak objects" deoptimizations, docs/reduce.md) and the next fold recompile it, a fixed cost
 * that lands on whichever size comes first. Here every prefix runs on the same warm code, and the
 * 16× prefix pays for everything a long fold keeps.
 */
function timePrefixes(baseRounds: number): number[] {
  const marks = [baseRounds, 4 * baseRounds, 16 * baseRounds].map((rounds) => rounds * EVENTS_PER_ROUND + 1);
  const pass = (visit: (event: AgEvent) => void): number[] => {
    const at: number[] = [];
    let n = 0;
    const start = performance.now();
    for (const event of agjsonStream(16 * baseRounds)) {
      visit(event);
      if (++n === marks[at.length]) at.push(performance.now() - start);
    }
    return at;
  };
  const foldPass = (): number[] => {
    const reducer = createReducer();
    const at = pass((event) => reducer.push(event));
    if (reducer.errors.length > 0) throw new Error(`bench stream is not clean: ${reducer.errors[0]?.message ?? ""}`);
    return at;
  };
  for (let i = 0; i < 2; i++) {
    const reducer = createReducer();
    for (const event of agjsonStream(baseRounds)) reducer.push(event);
  }
  const generator = pass(() => {});
  return foldPass().map((ms, i) => ms - (generator[i] ?? 0));
}

/**
 * Times one size in a fresh process (its own heap and JIT state, with `--expose-gc`), so that a
 * size never pays for the garbage of another: the child warms up, then prints `{events, ms}`.
 */
interface ChildTiming {
  events: number;
  ms: number;
  firstMs: number;
  cpuMs: number;
  gcMs: number;
  faults: number;
}

function timeFoldInChild(
  rounds: number,
  repeat: number,
  warmUpRounds = Math.max(1, Math.round(rounds / 10)),
  kind: FoldKind = "reduce",
): ChildTiming {
  const script = process.argv[1] ?? "";
  const args = ["--expose-gc", "--max-old-space-size=8192", script, "--child", String(rounds), String(repeat), String(warmUpRounds)];
  if (kind === "bare") args.push("--bare");
  const child = spawnSync(process.execPath, args, {
    encoding: "utf8",
  });
  if (child.status !== 0) throw new Error(`bench child (${kind}) for ${rounds} rounds failed: ${child.stderr}`);
  const parsed: unknown = JSON.parse(child.stdout.trim().split("\n").pop() ?? "{}");
  const events: unknown = Reflect.get(Object(parsed), "events");
  const ms: unknown = Reflect.get(Object(parsed), "ms");
  const firstMs: unknown = Reflect.get(Object(parsed), "firstMs");
  const cpuMs: unknown = Reflect.get(Object(parsed), "cpuMs");
  const gcMs: unknown = Reflect.get(Object(parsed), "gcMs");
  const faults: unknown = Reflect.get(Object(parsed), "faults");
  if (
    typeof events !== "number" ||
    typeof ms !== "number" ||
    typeof firstMs !== "number" ||
    typeof cpuMs !== "number" ||
    typeof gcMs !== "number" ||
    typeof faults !== "number"
  ) {
    throw new Error(`bench child printed ${child.stdout}`);
  }
  return { events, ms, firstMs, cpuMs, gcMs, faults };
}

/**
 * `runs` fresh processes per size, each timing its size the same way (the same warm-up, best of
 * `repeat`, and the first fold). Sizes take turns, so a change in the machine's load falls on
 * every size alike.
 */
function timeFoldsInChildren(
  sizes: Array<{ rounds: number; repeat: number; kind: FoldKind; runs: number }>,
  warmUpRounds: number,
): ChildTiming[][] {
  const timings: ChildTiming[][] = sizes.map(() => []);
  const turns = Math.max(0, ...sizes.map((size) => size.runs));
  for (let i = 0; i < turns; i++) {
    sizes.forEach(({ rounds, repeat, kind, runs }, size) => {
      if (i < runs) timings[size]?.push(timeFoldInChild(rounds, repeat, warmUpRounds, kind));
    });
  }
  return timings;
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

class BenchAgent extends AbstractAgent {
  run(): Observable<never> {
    return EMPTY;
  }
}

async function timeAgUi(rounds: number): Promise<{ events: number; ms: number }> {
  const events = aguiStream(rounds);
  const agent = new BenchAgent({ threadId: "th" });
  const input = { threadId: "th", runId: "run", messages: [], state: {}, tools: [], context: [], forwardedProps: {} };
  const start = performance.now();
  // The public signature takes BaseEvent; the bench's plain objects carry exactly those fields.
  await lastValueFrom(defaultApplyEvents(input, from(events) as never, agent, []), { defaultValue: undefined });
  return { events: events.length, ms: performance.now() - start };
}

/** Messages and the length of their text and reasoning strings: what the bench checks the bare fold keeps. */
function tally(messages: ReadonlyArray<{ content: ReadonlyArray<{ type: string; text?: string }> }>): { messages: number; text: number } {
  let text = 0;
  for (const message of messages)
    for (const block of message.content) if (block.type === "text" || block.type === "reasoning") text += block.text?.length ?? 0;
  return { messages: messages.length, text };
}

/**
 * The bare fold is a floor only if it keeps reduce()'s result: the same messages (compared whole on
 * a short stream) and, on the 1× stream, the same message count and text length. Throws otherwise.
 */
function checkBareFold(baseRounds: number): void {
  const short = JSON.stringify(bareFold(agjsonStream(20)));
  if (short !== JSON.stringify(reduce(agjsonStream(20)).result.messages))
    throw new Error("bench: the bare fold's messages differ from reduce()'s on a 20-round stream");
  const bare = tally(bareFold(agjsonStream(baseRounds)));
  const ours = tally(reduce(agjsonStream(baseRounds)).result.messages);
  if (bare.messages !== ours.messages || bare.text !== ours.text) {
    throw new Error(
      `bench: the bare fold keeps ${bare.messages} messages / ${bare.text} text characters, reduce() ${ours.messages} / ${ours.text}`,
    );
  }
}

function option(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main(): Promise<void> {
  const prefixIndex = process.argv.indexOf("--prefixes");
  if (prefixIndex >= 0) {
    console.log(JSON.stringify(timePrefixes(Number(process.argv[prefixIndex + 1]))));
    return;
  }
  const childIndex = process.argv.indexOf("--child");
  if (childIndex >= 0) {
    const rounds = Number(process.argv[childIndex + 1]);
    const repeat = Number(process.argv[childIndex + 2]);
    const kind: FoldKind = process.argv.includes("--bare") ? "bare" : "reduce";
    timeFold(Number(process.argv[childIndex + 3]), 2, kind); // warm-up (JIT)
    // Diagnostics: GC pauses and page faults of the fastest fold. On a small VM a fresh heap page
    // costs ~10 µs to fault in, so the bytes the fold retains cost twice: copying and faulting.
    const pauses: Array<[number, number]> = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.duration]);
    });
    observer.observe({ entryTypes: ["gc"] });
    const { window, ...timing } = timeFold(rounds, repeat, kind);
    // gc entries are delivered on a later turn of the event loop, not the next check phase.
    await new Promise((resolve) => setTimeout(resolve, 50));
    observer.disconnect();
    const [from, to] = window;
    const gcMs = pauses.reduce((sum, [at, took]) => (at >= from && at < to ? sum + took : sum), 0);
    console.log(JSON.stringify({ ...timing, gcMs }));
    return;
  }
  const target = Number(option("--events") ?? 1_000_000);
  const baseRounds = Math.round(target / EVENTS_PER_ROUND);
  const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");

  checkBareFold(baseRounds);

  const one = timeFoldInChild(baseRounds, 3);
  console.log(
    `reduce(): ${fmt(one.events)} events in ${one.ms.toFixed(0)} ms = ${fmt((one.events / one.ms) * 1000)} events/s (target ≥ 8,000,000; first fold ${one.firstMs.toFixed(0)} ms); CPU ${one.cpuMs.toFixed(0)} ms; GC pauses ${one.gcMs.toFixed(0)} ms; ${fmt(one.faults)} page faults`,
  );
  // The floor (bare-fold.ts): the same stream, the same child timing, a fold that keeps the same
  // result with no §5 checks. Its ratio is reduce()'s own overhead; the absolute figures are the machine's.
  const bare = timeFoldInChild(baseRounds, 3, undefined, "bare");
  console.log(
    `bare fold (no §5 checks, same result kept): ${fmt(bare.events)} events in ${bare.ms.toFixed(0)} ms = ${fmt((bare.events / bare.ms) * 1000)} events/s (first fold ${bare.firstMs.toFixed(0)} ms); CPU ${bare.cpuMs.toFixed(0)} ms; GC pauses ${bare.gcMs.toFixed(0)} ms; reduce() takes ${(one.ms / bare.ms).toFixed(2)}× its time`,
  );

  const runs = Number(option("--runs") ?? 5);
  const bareRuns = Number(option("--bare-runs") ?? runs);
  // The linearity sizes: 1× is the 1M-event stream above, then 4× and 16× of it, each folded
  // on its own. Every size is treated alike but for its length: the same
  // warm-up (two folds of the 1× stream, which leave JIT code and heap sizing behind) and the same
  // number of repetitions (a best of fewer tries is a slower best, and a repetition may reuse heap
  // pages its predecessor freed). `runs` fresh processes per size, sizes taking turns so that a
  // change in the shared machine's load falls on all of them; each size's figure is the median of
  // its processes' bests. The bare fold's 1× and 16× take their turns with them, timed alike
  // (`bareRuns` processes each, --bare-runs, default `runs`).
  const [l1 = [], l4 = [], l16 = [], b1 = [], b16 = []] = timeFoldsInChildren(
    [
      { rounds: baseRounds, repeat: LINEARITY_REPEAT, kind: "reduce", runs },
      { rounds: baseRounds * 4, repeat: LINEARITY_REPEAT, kind: "reduce", runs },
      { rounds: baseRounds * 16, repeat: LINEARITY_REPEAT, kind: "reduce", runs },
      { rounds: baseRounds, repeat: LINEARITY_REPEAT, kind: "bare", runs: bareRuns },
      { rounds: baseRounds * 16, repeat: LINEARITY_REPEAT, kind: "bare", runs: bareRuns },
    ],
    baseRounds,
  );
  if (l1.length === 0 || b1.length === 0) throw new Error("bench: --runs and --bare-runs must be at least 1");
  const best = (timings: ChildTiming[]): number => median(timings.map((t) => t.ms));
  const first = (timings: ChildTiming[]): number => median(timings.map((t) => t.firstMs));
  const list = (timings: ChildTiming[]): string => timings.map((t) => t.ms.toFixed(0)).join("/");
  const gc = (timings: ChildTiming[]): string => median(timings.map((t) => t.gcMs)).toFixed(0);
  const faults = (timings: ChildTiming[]): string => fmt(median(timings.map((t) => t.faults)));
  console.log(
    `linearity (1× = ${fmt(l1[0]!.events)} events, each size folded on its own, median of ${runs} fresh processes' best of ${LINEARITY_REPEAT}): ` +
      `1× ${best(l1).toFixed(0)} ms · 4× ${(best(l4) / best(l1)).toFixed(2)}× time · 16× ${(best(l16) / best(l1)).toFixed(2)}× time (target ≤ 18×); ` +
      `bests 1× ${list(l1)} · 4× ${list(l4)} · 16× ${list(l16)} ms; GC pauses 1× ${gc(l1)} · 16× ${gc(l16)} ms; page faults 1× ${faults(l1)} · 16× ${faults(l16)}`,
  );
  console.log(
    `  bare fold, the same way (median of ${bareRuns} fresh processes' best of ${LINEARITY_REPEAT}): 1× ${best(b1).toFixed(0)} ms · 16× ${(best(b16) / best(b1)).toFixed(2)}× time ` +
      `(reduce() ${(best(l16) / best(l1)).toFixed(2)}×); reduce() takes 1× ${(best(l1) / best(b1)).toFixed(2)}× · 16× ${(best(l16) / best(b16)).toFixed(2)}× the bare fold's time; ` +
      `bests 1× ${list(b1)} · 16× ${list(b16)} ms; GC pauses 1× ${gc(b1)} · 16× ${gc(b16)} ms; page faults 1× ${faults(b1)} · 16× ${faults(b16)}`,
  );
  // Diagnostic: first folds only. No size reuses pages of an earlier repetition, but each also
  // pays its process's one-time young-generation growth and recompilation (docs/reduce.md).
  console.log(
    `  diagnostic, first folds only (median): 1× ${first(l1).toFixed(0)} ms · 4× ${(first(l4) / first(l1)).toFixed(2)}× · 16× ${(first(l16) / first(l1)).toFixed(2)}×`,
  );

  // Diagnostic, within one fold (see `timePrefixes`): the 1× prefix runs on warm code with no fixed
  // cost at all, and the 16× prefix pays all the collector's work on the heap it keeps, so this is
  // the figure that shows how the per-event cost grows with what a fold holds (docs/reduce.md).
  // Also at a quarter of the base, where the 1× prefix (~35 ms) is shorter than V8's GC rhythm.
  for (const base of [baseRounds, Math.round(baseRounds / 4)]) {
    const prefixes: number[][] = [];
    for (let i = 0; i < runs; i++) {
      const child = spawnSync(process.execPath, ["--max-old-space-size=8192", process.argv[1] ?? "", "--prefixes", String(base)], {
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(`bench prefix child failed: ${child.stderr}`);
      prefixes.push(JSON.parse(child.stdout.trim().split("\n").pop() ?? "[]") as number[]);
    }
    const [p1, p4, p16] = [0, 1, 2].map((k) => median(prefixes.map((p) => p[k] ?? NaN)));
    console.log(
      `  diagnostic, within one fold (the first 1×/4×/16× of one ${fmt(16 * base * EVENTS_PER_ROUND)}-event stream, median of ${runs} processes): ` +
        `1× ${p1!.toFixed(0)} ms · 4× ${(p4! / p1!).toFixed(2)}× · 16× ${(p16! / p1!).toFixed(2)}×; 16× prefixes ${prefixes.map((p) => ((p[2] ?? NaN) / (p[0] ?? NaN)).toFixed(1)).join("/")}×`,
    );
  }

  if (process.argv.includes("--skip-agui")) return;
  const shapeRounds = Math.round(24_600 / EVENTS_PER_ROUND);
  process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
  const ours = timeFoldInChild(shapeRounds, 5);
  const theirs = await timeAgUi(shapeRounds);
  console.log(
    `@ag-ui/client defaultApplyEvents: ${fmt(theirs.events)} events in ${theirs.ms.toFixed(0)} ms (${(theirs.ms / theirs.events).toFixed(3)} ms/event); reduce(): ${fmt(ours.events)} events in ${ours.ms.toFixed(1)} ms — ${fmt(theirs.ms / ours.ms)}× faster`,
  );
}

await main();
