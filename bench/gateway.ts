/**
 * Gateway throughput on loopback: a plain pass-through proxy vs the agjson validating proxy
 * (lenient and strict) over one large AgEvent SSE stream. Prints MB/s, events/s and the ratio to
 * pass-through (issue 6 target: ≥ 0.7).
 *
 *   node_modules/.bin/esbuild --bundle --platform=node --format=esm bench/gateway.ts --outfile=/tmp/bench-gateway.mjs
 *   node /tmp/bench-gateway.mjs [--events N] [--runs N] [--delta-bytes N] [--breakdown]
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startProxy } from "../src/gateway/index.js";
import * as validate from "../src/validate/index.js";
import type { GatewayValidator } from "../src/gateway/index.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const EVENT_COUNT = arg("events", 200_000);
const RUNS = arg("runs", 5);
/** Extra text per delta event: per-event work dominates small events, bytes dominate large ones. */
const DELTA_BYTES = arg("delta-bytes", 0);

const validator: GatewayValidator = {
  validateEvent: (x, o) => validate.validateEvent(x, o),
  validateInput: (x, o) => validate.validateInput(x, o),
  negotiateVersion: (v) => validate.negotiateVersion(v),
};

/** A long agent turn: text deltas with tool calls every 50 events, each frame a valid AgEvent. */
function buildStream(count: number): { bytes: Buffer; events: number } {
  const frames: string[] = [];
  let seq = 0;
  const push = (e: Record<string, unknown>) => frames.push(`data: ${JSON.stringify({ ...e, seq: seq++ })}\n\n`);
  push({ type: "turn.start", threadId: "th", turnId: "tu" });
  push({ type: "message.start", id: "m", role: "assistant", turnId: "tu", threadId: "th" });
  let block = 0;
  push({ type: "text.start", id: `t${block}` });
  while (seq < count - 4) {
    if (seq % 50 === 0) {
      push({ type: "text.end", id: `t${block}` });
      const id = `call_${seq}`;
      push({ type: "tool.start", toolCallId: id, name: "search" });
      push({ type: "tool.args.delta", toolCallId: id, delta: '{"q":"agjson gateway"}' });
      push({ type: "tool.args.assembled", toolCallId: id, input: { q: "agjson gateway" } });
      push({ type: "tool.done", toolCallId: id, content: [{ type: "text", text: "result ".repeat(20) }], outcome: "ok" });
      block++;
      push({ type: "text.start", id: `t${block}` });
    } else {
      push({ type: "text.delta", id: `t${block}`, delta: `token ${seq} — some streamed text with ünïcødé and "quotes" ${"x".repeat(DELTA_BYTES)}` });
    }
  }
  push({ type: "text.end", id: `t${block}` });
  push({ type: "message.end", id: "m" });
  push({ type: "turn.done", turnId: "tu", outcome: { type: "success" }, finishReason: "stop" });
  for (const f of frames) {
    const r = validate.validateEvent(JSON.parse(f.slice(6)), { posture: "strict" });
    if (!r.ok) throw new Error(`bench stream is not strict-valid: ${f.slice(0, 200)} ${JSON.stringify(r.errors)}`);
  }
  return { bytes: Buffer.from(frames.join("")), events: frames.length };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

function upstreamServer(stream: Buffer): Server {
  return createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let at = 0; at < stream.length; at += 64 * 1024) {
        if (!res.write(stream.subarray(at, at + 64 * 1024))) await new Promise((r) => res.once("drain", r));
      }
      res.end();
    });
  });
}

/** The baseline: node:http in, node:http out, bytes piped with no inspection at all. */
function passThroughProxy(upstream: string): Server {
  return createServer((req, res) => {
    const out = httpRequest(upstream, { method: "POST", headers: { "content-type": "application/json" } }, (up) => {
      res.writeHead(up.statusCode ?? 502, { "content-type": up.headers["content-type"] ?? "text/event-stream" });
      up.pipe(res);
    });
    req.pipe(out);
  });
}

const INPUT = JSON.stringify({
  protocol: "agjson",
  version: "1.0.0-draft.1",
  kind: "start",
  threadId: "th",
  turnId: "tu",
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "go" }] }],
});

function drive(url: string, expectBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let got = 0;
      res.on("data", (c: Buffer) => (got += c.length));
      res.on("end", () => {
        if (got !== expectBytes) reject(new Error(`${url}: got ${got} bytes, expected ${expectBytes}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e9);
      });
    });
    req.on("error", reject);
    req.end(INPUT);
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const { bytes, events } = buildStream(EVENT_COUNT);
  const upstream = upstreamServer(bytes);
  const upstreamUrl = await listen(upstream);
  const plain = passThroughProxy(upstreamUrl);
  const plainUrl = await listen(plain);
  const caps = { maxStreamBytes: 1024 * 1024 * 1024, maxEvents: 10_000_000 };
  const lenient = await startProxy({ upstream: upstreamUrl, port: 0, validator, posture: "lenient", caps });
  const strict = await startProxy({ upstream: upstreamUrl, port: 0, validator, posture: "strict", caps });
  // --breakdown adds a proxy whose validator accepts everything: HTTP + framing cost without schema work.
  const accepting: GatewayValidator = { ...validator, validateEvent: (x) => ({ ok: true, event: x, known: true }) };
  const noop = args.includes("--breakdown") ? await startProxy({ upstream: upstreamUrl, port: 0, validator: accepting, caps }) : null;
  const targets = [
    { name: "direct (no proxy)", url: upstreamUrl },
    { name: "pass-through proxy", url: plainUrl },
    { name: "agjson proxy lenient", url: lenient.url },
    { name: "agjson proxy strict", url: strict.url },
    ...(noop ? [{ name: "agjson proxy, accept-all validator", url: noop.url }] : []),
  ];
  const mb = bytes.length / (1024 * 1024);
  console.log(`stream: ${events} events (${Math.round(bytes.length / events)} B/event), ${mb.toFixed(1)} MiB, ${RUNS} runs each (median), node ${process.version}`);
  for (const t of targets) await drive(t.url, bytes.length); // warm-up (JIT, connection pools)
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const t of targets) samples.get(t.name)!.push(await drive(t.url, bytes.length));
  }
  const base = median(samples.get("pass-through proxy")!);
  console.log("| path | MB/s | events/s | ratio to pass-through |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const t of targets) {
    const s = median(samples.get(t.name)!);
    console.log(`| ${t.name} | ${(mb / s).toFixed(1)} | ${Math.round(events / s).toLocaleString("en-US")} | ${(base / s).toFixed(2)} |`);
  }
  await Promise.all([lenient.close(), strict.close(), noop?.close()]);
  for (const s of [plain, upstream]) {
    s.closeAllConnections();
    s.close();
  }
}

await main();
