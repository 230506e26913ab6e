// Bridge benchmark (`make bench`): events/s through the AI SDK UI message stream bridge
// and the ACP bridge, each against a baseline measured in the same run, over one generated stream
// of realistic assistant loops (reasoning, streamed text, a tool call with argument deltas and its
// result, a source, a data part; 39 events a round).
//   uims  — createUIMessageStreamTransform + SSE encoding of every chunk (what `agjson convert` does)
//   acp   — the AgEvent → session/update mapper + JSON-RPC encoding of every notification
//   acp-e2e — the whole agent: SDK agent() ⇄ SDK client() in-process, a replay source, prompt → stop
// Baselines: reduce() of the same events (the fold every consumer runs), and for the UI stream the
// AI SDK's own readUIMessageStream folding our chunks (the client-side cost of the same stream).
// By hand: node_modules/.bin/esbuild bench/bridge-acp-uims.ts --bundle --platform=node --format=esm \
//   --outfile=/tmp/b.mjs && node /tmp/b.mjs [--rounds N]

import { performance } from "node:perf_hooks";
import { client, methods, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { readUIMessageStream, type UIMessageChunk } from "ai";
import type { AgEvent } from "../generated/types.js";
import { reduce } from "../src/reduce/index.js";
import { createAcpAgent, createAcpUpdateMapper, createReplaySource } from "../src/bridges/acp/index.js";
import { createUIMessageStreamTransform, encodeUIMessageChunk } from "../src/bridges/ui-message-stream/index.js";

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg("--rounds", 5000);
const EVENTS_PER_ROUND = 39;

function stream(rounds: number, turnId = "t"): AgEvent[] {
  const out: AgEvent[] = [];
  let seq = 0;
  out.push({ type: "turn.start", seq: seq++, threadId: "th", turnId });
  for (let r = 0; r < rounds; r++) {
    const m = `${turnId}m${r}`;
    const call = `${turnId}c${r}`;
    out.push({ type: "message.start", seq: seq++, id: m, role: "assistant", turnId, threadId: "th" });
    out.push({ type: "reasoning.start", seq: seq++, id: `${m}:r` });
    for (let i = 0; i < 4; i++) out.push({ type: "reasoning.delta", seq: seq++, id: `${m}:r`, delta: "thinking about it " });
    out.push({ type: "reasoning.end", seq: seq++, id: `${m}:r` });
    out.push({ type: "text.start", seq: seq++, id: `${m}:x` });
    for (let i = 0; i < 16; i++) out.push({ type: "text.delta", seq: seq++, id: `${m}:x`, delta: "token " });
    out.push({ type: "text.end", seq: seq++, id: `${m}:x` });
    out.push({ type: "tool.start", seq: seq++, toolCallId: call, name: "search" });
    for (let i = 0; i < 6; i++) out.push({ type: "tool.args.delta", seq: seq++, toolCallId: call, delta: i === 0 ? '{"q":"' : "abc" });
    out.push({ type: "tool.args.assembled", seq: seq++, toolCallId: call, input: { q: "abcabcabcabcabc" } });
    out.push({ type: "source", seq: seq++, sourceId: `${m}:s`, source: { url: "https://example.com/a", title: "A" } });
    out.push({ type: "content.block", seq: seq++, block: { type: "data", name: "status", id: `${m}:d`, data: { step: r } } });
    out.push({ type: "message.end", seq: seq++, id: m });
    out.push({
      type: "tool.done",
      seq: seq++,
      toolCallId: call,
      messageId: `${call}:result`,
      content: [{ type: "text", text: "result" }],
      outcome: "ok",
    });
  }
  out.push({ type: "turn.done", seq: seq++, turnId, outcome: { type: "success" }, finishReason: "stop" });
  return out;
}

/** Best wall time of `runs` calls, ms. */
async function best(runs: number, f: () => unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

const events = stream(ROUNDS);
const n = events.length;
const rate = (ms: number, count = n) => `${Math.round((count / ms) * 1000).toLocaleString("en-US")} events/s`;
console.log(`stream: ${n} events (${ROUNDS} rounds of ${EVENTS_PER_ROUND})`);

const tReduce = await best(5, () => reduce(events));
console.log(`reduce() baseline            ${rate(tReduce)}`);

let bytes = 0;
const chunks: UIMessageChunk[] = [];
const tUims = await best(5, () => {
  const t = createUIMessageStreamTransform();
  bytes = 0;
  chunks.length = 0;
  for (const e of events)
    for (const c of t.push(e)) {
      chunks.push(c);
      bytes += encodeUIMessageChunk(c).length;
    }
  for (const c of t.end()) {
    chunks.push(c);
    bytes += encodeUIMessageChunk(c).length;
  }
});
console.log(
  `ui-message-stream bridge     ${rate(tUims)}  (${chunks.length} chunks, ${(bytes / 1e6).toFixed(1)} MB SSE) = ${(tUims / tReduce).toFixed(2)}× reduce()`,
);

// readUIMessageStream snapshots the whole message per chunk (quadratic in message size), so the
// client comparison uses one 50-round message, through both sides.
const small = stream(50);
const smallChunks: UIMessageChunk[] = [];
const tSmall = await best(5, () => {
  const t = createUIMessageStreamTransform();
  smallChunks.length = 0;
  for (const e of small)
    for (const c of t.push(e)) {
      smallChunks.push(c);
      encodeUIMessageChunk(c);
    }
  for (const c of t.end()) {
    smallChunks.push(c);
    encodeUIMessageChunk(c);
  }
});
const tSdk = await best(3, async () => {
  const s = new ReadableStream<UIMessageChunk>({
    start(c) {
      for (const ch of smallChunks) c.enqueue(ch);
      c.close();
    },
  });
  for await (const _ of readUIMessageStream({ stream: s })) void _;
});
console.log(
  `  one ${small.length}-event message: bridge ${rate(tSmall, small.length)}, AI SDK readUIMessageStream ${rate(tSdk, small.length)} → the bridge costs ${(tSmall / tSdk).toFixed(3)}× the client's own fold`,
);

let notes = 0;
const tAcp = await best(5, () => {
  const m = createAcpUpdateMapper();
  notes = 0;
  for (const e of events) {
    for (const o of m.push(e)) {
      const params =
        o.kind === "update" ? { sessionId: "s", update: o.update } : { sessionId: "s", event: o.kind === "ext" ? o.event : o.ask };
      JSON.stringify({ jsonrpc: "2.0", method: o.kind === "update" ? "session/update" : "_agjson/event", params });
      notes++;
    }
  }
});
console.log(`acp update mapping           ${rate(tAcp)}  (${notes} notifications) = ${(tAcp / tReduce).toFixed(2)}× reduce()`);

// The whole agent through the SDK (schema-checked params, JSON-RPC dispatch), in-process.
const E2E_ROUNDS = Math.max(1, Math.floor(ROUNDS / 10));
const e2eTurns = 3;
const e2e = Array.from({ length: e2eTurns }, (_, i) => stream(E2E_ROUNDS, `turn${i}`)).flat();
const tE2e = await best(1, async () => {
  const agentApp = createAcpAgent({ source: createReplaySource(e2e) });
  let updates = 0;
  await client({ name: "bench" })
    .onNotification(methods.client.session.update, () => void updates++)
    .onNotification(
      "_agjson/event",
      (p: unknown) => p,
      () => undefined,
    )
    .connectWith(agentApp, async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] });
      for (let i = 0; i < e2eTurns; i++)
        await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
    });
  if (updates === 0) throw new Error("no session/update reached the client");
});
const tE2eReduce = await best(3, () => reduce(e2e));
console.log(
  `acp agent end to end (SDK)   ${rate(tE2e, e2e.length)}  (${e2e.length} events, ${e2eTurns} prompts) = ${(tE2e / tE2eReduce).toFixed(1)}× reduce() of the same events`,
);
