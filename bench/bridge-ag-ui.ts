// AG-UI bridge benchmark (`make bench`): events/s through toAgUi (AgEvent → AG-UI) over a
// generated multi-turn stream (reasoning, text deltas, tool calls with argument deltas, results, state),
// and — on the same run, same output — the cost of @ag-ui/core's own EventSchemas parse of those AG-UI
// events, as a ratio: how much a consumer that re-validates every event pays on top of producing it;
// and what the AG-UI endpoint pays per event (toAgUi, the EventSchemas check it makes before writing,
// the SSE frame as bytes), as a ratio to toAgUi alone.
// By hand: node_modules/.bin/esbuild bench/bridge-ag-ui.ts --bundle --platform=node --format=esm \
//   --outfile=/tmp/agjson-bench-agui.mjs && node /tmp/agjson-bench-agui.mjs [--rounds N]
import { performance } from "node:perf_hooks";
import { EventSchemas } from "@ag-ui/core/schemas";
import type { AgEvent } from "../generated/types.js";
import { encodeAgUiSse } from "../src/bridges/ag-ui/sse.js";
import { createAgUiEncoder } from "../src/bridges/ag-ui/to-ag-ui.js";
import type { AgUiEvent } from "../src/bridges/ag-ui/vocabulary.js";

const arg = process.argv.indexOf("--rounds");
const ROUNDS = arg > 0 ? Number(process.argv[arg + 1]) : 4000;

function stream(rounds: number): AgEvent[] {
  const out: AgEvent[] = [];
  let seq = 0;
  const push = (e: Record<string, unknown>) => out.push({ ...e, seq: seq++ } as AgEvent);
  for (let t = 0; t < rounds; t++) {
    const turnId = `t${t}`;
    const m = `m${t}`;
    push({ type: "turn.start", threadId: "th", turnId });
    push({ type: "message.start", id: m, role: "assistant", turnId, threadId: "th" });
    push({ type: "reasoning.start", id: `r${t}`, turnId, messageId: m });
    for (let i = 0; i < 4; i++) push({ type: "reasoning.delta", id: `r${t}`, delta: "thinking ", turnId, messageId: m });
    push({ type: "reasoning.end", id: `r${t}`, turnId, messageId: m });
    push({ type: "text.start", id: `x${t}`, turnId, messageId: m });
    for (let i = 0; i < 16; i++) push({ type: "text.delta", id: `x${t}`, delta: "word ", turnId, messageId: m });
    push({ type: "text.end", id: `x${t}`, turnId, messageId: m });
    push({ type: "tool.start", toolCallId: `c${t}`, name: "get_weather", turnId, messageId: m });
    for (let i = 0; i < 6; i++)
      push({
        type: "tool.args.delta",
        toolCallId: `c${t}`,
        delta: i === 0 ? '{"city":' : i === 5 ? '"}' : i === 1 ? '"P' : "a",
        turnId,
        messageId: m,
      });
    push({ type: "tool.args.assembled", toolCallId: `c${t}`, input: { city: "Paaaa" }, turnId, messageId: m });
    push({ type: "message.end", id: m, turnId });
    push({ type: "tool.done", toolCallId: `c${t}`, messageId: `res${t}`, content: [{ type: "text", text: "18°C" }], turnId });
    push({ type: "state.delta", patch: [{ op: "add", path: `/k${t}`, value: t }], turnId });
    push({ type: "turn.done", turnId, outcome: { type: "success" }, finishReason: "stop" });
  }
  return out;
}

function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

const events = stream(ROUNDS);
let output: AgUiEvent[] = [];
const encode = () => {
  const enc = createAgUiEncoder();
  const out: AgUiEvent[] = [];
  for (const e of events) for (const a of enc.push(e)) out.push(a);
  out.push(...enc.flush());
  output = out;
};
encode();
const encodeMs = best(5, encode);
const parseMs = best(5, () => {
  for (const a of output) if (!EventSchemas.safeParse(a).success) throw new Error(`EventSchemas refused a ${a.type}`);
});
const utf8 = new TextEncoder();
let bytes = 0;
const serveMs = best(5, () => {
  const enc = createAgUiEncoder();
  bytes = 0;
  const write = (out: AgUiEvent[]) => {
    for (const a of out) {
      if (!EventSchemas.safeParse(a).success) throw new Error(`EventSchemas refused a ${a.type}`);
      bytes += utf8.encode(encodeAgUiSse(a)).byteLength;
    }
  };
  for (const e of events) write(enc.push(e));
  write(enc.flush());
});
console.log(`AgEvents in: ${events.length}, AG-UI events out: ${output.length}`);
console.log(`toAgUi: ${(encodeMs).toFixed(1)} ms, ${Math.round(events.length / (encodeMs / 1000)).toLocaleString("en")} AgEvents/s`);
console.log(
  `EventSchemas.safeParse of the same output: ${parseMs.toFixed(1)} ms, ${Math.round(output.length / (parseMs / 1000)).toLocaleString("en")} AG-UI events/s`,
);
console.log(`ratio (schema parse / toAgUi): ${(parseMs / encodeMs).toFixed(2)}x`);
console.log(
  `endpoint path (toAgUi + EventSchemas check + SSE bytes): ${serveMs.toFixed(1)} ms, ${Math.round(events.length / (serveMs / 1000)).toLocaleString("en")} AgEvents/s, ${(bytes / 1e6).toFixed(1)} MB; ratio to toAgUi ${(serveMs / encodeMs).toFixed(2)}x`,
);
