/**
 * Gateway throughput on loopback: a plain pass-through proxy vs the agjson validating proxy
 * (lenient and strict) over one large AgEvent SSE stream. Prints MB/s, events/s, the ratio to
 * pass-through (target: ≥ 0.6), the proxy process's CPU per event, and the upstream's and the
 * client's, so that it shows how many of the machine's cores a path keeps busy (on a 2-core machine
 * the pass-through alone nearly fills both, which bounds what any validating proxy can reach).
 * Then, in this process on the same events, the CPU per event of validated forwarding (the
 * validation core: framing, the byte-level fast path, forwarding) next to `JSON.parse` and
 * `JSON.parse` + lenient `validateEvent`, and of the core without the fast path.
 *
 * Three processes: the upstream agent host and the reading client are child processes (forked from
 * this file with `--role`), so this process runs nothing but the proxies under test and its CPU time
 * (`process.cpuUsage`) is the proxy's cost. Every path reads the same stream from the same upstream,
 * through the same client, in the same run, in rounds (each path once per round, every order of the
 * paths once); the ratio to pass-through is the median of the rounds' ratios.
 *
 *   node bench/run.mjs gateway
 *   node .tmp/bench/gateway.mjs [--events N] [--runs N] [--delta-bytes N] [--breakdown] [--only NAME]
 */
import { fork, type ChildProcess } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import { EventValidationCore, loadDefaultValidator, startProxy } from "../src/gateway/index.js";
import * as validate from "../src/validate/index.js";
import type { GatewayValidator } from "../src/gateway/index.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const argText = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const EVENT_COUNT = arg("events", 200_000);
const RUNS = arg("runs", 9);
/** Extra text per delta event: per-event work dominates small events, bytes dominate large ones. */
const DELTA_BYTES = arg("delta-bytes", 0);

/**
 * The package's validators behind a wrapper. The lenient and strict rows run the default validator
 * (what `agjson proxy` runs, byte-level fast path included); `--breakdown` also runs this injected
 * wrapper, which the gateway cannot tell apart from a stricter policy validator, so every event
 * takes decode + JSON.parse + validateEvent: the cost without the fast path.
 */
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
      push({
        type: "text.delta",
        id: `t${block}`,
        delta: `token ${seq} — some streamed text with ünïcødé and "quotes" ${"x".repeat(DELTA_BYTES)}`,
      });
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

/**
 * Child process: the agent host, answering every POST with the whole stream in 64 KiB writes, then
 * telling the parent the CPU time the answer took (µs).
 */
async function runUpstream(): Promise<void> {
  const { bytes, events } = buildStream(EVENT_COUNT);
  const server = createServer((req, res) => {
    const before = process.cpuUsage();
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let at = 0; at < bytes.length; at += 64 * 1024) {
        if (!res.write(bytes.subarray(at, at + 64 * 1024))) await new Promise((r) => res.once("drain", r));
      }
      res.end(() => {
        const cpu = process.cpuUsage(before);
        process.send!({ upstreamCpuMicros: cpu.user + cpu.system });
      });
    });
  });
  const url = await listen(server);
  process.send!({ url, bytes: bytes.length, events });
  process.on("disconnect", () => process.exit(0));
}

const INPUT = JSON.stringify({
  protocol: "agjson",
  version: "1.0.0-draft.1",
  kind: "start",
  threadId: "th",
  turnId: "tu",
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "go" }] }],
});

/** One request through `url`, read to the end; resolves with the wall time in seconds. */
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

/** Child process: the client, reading one response per message and answering with its wall and CPU time. */
function runClient(): void {
  process.on("message", (m: { url: string; bytes: number }) => {
    const before = process.cpuUsage();
    drive(m.url, m.bytes).then(
      (seconds) => {
        const cpu = process.cpuUsage(before);
        process.send!({ seconds, cpuMicros: cpu.user + cpu.system });
      },
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
  process.on("disconnect", () => process.exit(0));
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

/** CPU time (user + system) of this process running `f`, µs. */
function cpuMicros(f: () => void): number {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

interface CpuPerEvent {
  /** The validation core (lenient, default validator: fast path on), 64 KiB chunks, output discarded. */
  forwarding: number;
  /** The same core with the package's validator injected, which turns the fast path off. */
  forwardingWithoutFastPath: number;
  /** UTF-8 decode + `JSON.parse` of each payload. */
  parse: number;
  /** UTF-8 decode + `JSON.parse` + `validateEvent` (lenient) of each payload. */
  parseValidate: number;
}

/**
 * CPU per event of the work a validating proxy does, on the same stream in this process (no
 * sockets): CPU time rather than wall time, so that other load on the machine colours it less.
 * Each of five rounds runs every measurement once; the median of the rounds is reported, µs/event.
 */
async function cpuPerEvent(): Promise<CpuPerEvent> {
  const { bytes, events } = buildStream(EVENT_COUNT);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += 64 * 1024) chunks.push(Buffer.from(bytes.subarray(at, at + 64 * 1024)));
  const payloads: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const lf = bytes.indexOf(10, at);
    payloads.push(bytes.subarray(at + 6, lf));
    at = lf + 2;
  }
  const { validateEvent } = await loadDefaultValidator();
  const forward = (validate: GatewayValidator["validateEvent"]) => () => {
    let out = 0;
    const core = new EventValidationCore(
      { posture: "lenient", format: "sse", caps: { maxStreamBytes: 1024 * 1024 * 1024, maxEvents: 10_000_000 } },
      { write: (b) => void (out += b.length), close() {}, queuedBytes: () => 0, blocked: () => false },
    );
    core.begin(validate);
    for (const c of chunks) core.push(c);
    core.end();
    core.cancel();
    if (out !== bytes.length || core.stats.forwarded !== events) throw new Error(`validation core wrote ${out} bytes of ${bytes.length}`);
  };
  const opts = { posture: "lenient" as const };
  const runs: Record<keyof CpuPerEvent, () => void> = {
    forwarding: forward(validateEvent),
    forwardingWithoutFastPath: forward(validator.validateEvent),
    parse: () => {
      for (const b of payloads) JSON.parse(b.toString("utf8", 0, b.length));
    },
    parseValidate: () => {
      for (const b of payloads) validate.validateEvent(JSON.parse(b.toString("utf8", 0, b.length)), opts);
    },
  };
  const samples = new Map<keyof CpuPerEvent, number[]>();
  for (let round = 0; round < 6; round++) {
    for (const [name, run] of Object.entries(runs) as [keyof CpuPerEvent, () => void][]) {
      const micros = cpuMicros(run) / events;
      // The first round warms the JIT up and is not counted.
      if (round > 0) samples.set(name, [...(samples.get(name) ?? []), micros]);
    }
  }
  return {
    forwarding: median(samples.get("forwarding")!),
    forwardingWithoutFastPath: median(samples.get("forwardingWithoutFastPath")!),
    parse: median(samples.get("parse")!),
    parseValidate: median(samples.get("parseValidate")!),
  };
}

function spawnRole(role: string): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ["--role", role, ...args], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve) => child.once("message", (m) => resolve(m as T)));
}

/** The upstream's CPU time for the next answer it finishes (µs). */
function nextUpstreamCpu(upstream: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const on = (m: { upstreamCpuMicros?: number }) => {
      if (m.upstreamCpuMicros === undefined) return;
      upstream.off("message", on);
      resolve(m.upstreamCpuMicros);
    };
    upstream.on("message", on);
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface Sample {
  seconds: number;
  /** CPU time of this (the proxy) process during the request, µs. */
  cpuMicros: number;
  /** CPU time of the client and of the upstream for the request, µs. */
  clientCpuMicros: number;
  upstreamCpuMicros: number;
}

async function main(): Promise<void> {
  const upstreamChild = spawnRole("upstream");
  const client = spawnRole("client");
  const { url: upstreamUrl, bytes, events } = await nextMessage<{ url: string; bytes: number; events: number }>(upstreamChild);
  const measure = async (url: string): Promise<Sample> => {
    const before = process.cpuUsage();
    const upstreamCpu = nextUpstreamCpu(upstreamChild);
    client.send({ url, bytes });
    const reply = await nextMessage<{ seconds?: number; cpuMicros?: number; error?: string }>(client);
    const cpu = process.cpuUsage(before);
    if (reply.error !== undefined) throw new Error(reply.error);
    return {
      seconds: reply.seconds!,
      cpuMicros: cpu.user + cpu.system,
      clientCpuMicros: reply.cpuMicros!,
      upstreamCpuMicros: await upstreamCpu,
    };
  };

  const plain = passThroughProxy(upstreamUrl);
  const plainUrl = await listen(plain);
  const caps = { maxStreamBytes: 1024 * 1024 * 1024, maxEvents: 10_000_000 };
  const lenient = await startProxy({ upstream: upstreamUrl, port: 0, posture: "lenient", caps });
  const strict = await startProxy({ upstream: upstreamUrl, port: 0, posture: "strict", caps });
  // --breakdown adds a proxy whose validator accepts everything (HTTP + framing + parse, no schema
  // work), one with the real validator injected (no fast path), and one with an injected fetch,
  // which keeps the Web path (fetch → TransformStream → writeNodeResponse) with the fast path.
  const breakdown = args.includes("--breakdown");
  const accepting: GatewayValidator = { ...validator, validateEvent: (x) => ({ ok: true, event: x, known: true }) };
  const noop = breakdown ? await startProxy({ upstream: upstreamUrl, port: 0, validator: accepting, caps }) : null;
  const injected = breakdown ? await startProxy({ upstream: upstreamUrl, port: 0, validator, posture: "lenient", caps }) : null;
  const web = breakdown
    ? await startProxy({ upstream: upstreamUrl, port: 0, posture: "lenient", caps, fetch: (input, init) => fetch(input, init) })
    : null;
  const only = argText("only");
  const targets = [
    { name: "direct (no proxy)", url: upstreamUrl },
    { name: "pass-through proxy", url: plainUrl },
    { name: "agjson proxy lenient", url: lenient.url },
    { name: "agjson proxy strict", url: strict.url },
    ...(noop ? [{ name: "agjson proxy, accept-all validator", url: noop.url }] : []),
    ...(injected ? [{ name: "agjson proxy lenient, injected validator (no fast path)", url: injected.url }] : []),
    ...(web ? [{ name: "agjson proxy lenient, Web-stream path (injected fetch)", url: web.url }] : []),
  ].filter((t) => only === undefined || t.name.includes(only) || t.name === "pass-through proxy");
  // Each round visits every path once. With a fixed order, the path measured right after the
  // pass-through ran 10-15% slower than its CPU time says (lenient and strict, of equal cost, read
  // 0.57-0.77 and 0.72-0.87 with lenient always right after the pass-through, and the other way
  // round with the two swapped); nine seeded shuffles (each path after the pass-through three
  // times) still left strict reading ~0.1 below lenient in five runs of six. So the rounds are
  // every order of the paths (24 for the four of a plain run): each path comes first, follows each
  // other path and precedes it equally often. With more paths (--breakdown) there are too many
  // orders; RUNS seeded shuffles stand in (also with --runs).
  const orders: (typeof targets)[] = [];
  const permute = (prefix: typeof targets, rest: typeof targets) => {
    if (rest.length === 0) orders.push(prefix);
    for (const [k, t] of rest.entries()) permute([...prefix, t], [...rest.slice(0, k), ...rest.slice(k + 1)]);
  };
  if (targets.length <= 4 && !args.includes("--runs")) {
    permute([], targets);
  } else {
    let seed = 0x2545f491;
    const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 2 ** 24;
    for (let run = 0; run < RUNS; run++) {
      const order = [...targets];
      for (let k = order.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [order[k], order[j]] = [order[j]!, order[k]!];
      }
      orders.push(order);
    }
  }
  const mb = bytes / (1024 * 1024);
  console.log(
    `stream: ${events} events (${Math.round(bytes / events)} B/event), ${mb.toFixed(1)} MiB, ${orders.length} rounds (median), ` +
      `node ${process.version}, ${cpus().length} CPUs; upstream and client in child processes, proxies in this one`,
  );
  for (const t of targets) await measure(t.url); // warm-up (JIT, connection pools)
  const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));
  for (const order of orders) for (const t of order) samples.get(t.name)!.push(await measure(t.url));
  const baseRuns = samples.get("pass-through proxy")!;
  console.log("| path | MB/s | events/s | ratio to pass-through | proxy CPU µs/event | upstream + client CPU µs/event | cores busy |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const t of targets) {
    const runs = samples.get(t.name)!;
    const s = median(runs.map((x) => x.seconds));
    // The ratio of each round's pass-through time to this path's in the same round, median over
    // rounds: a round shares the machine's state of the moment (its speed drifts by tens of %).
    const ratio = median(runs.map((x, r) => baseRuns[r]!.seconds / x.seconds));
    const proxyCpu = t.url === upstreamUrl ? 0 : median(runs.map((x) => x.cpuMicros));
    const othersCpu = median(runs.map((x) => x.clientCpuMicros + x.upstreamCpuMicros));
    const cores = (proxyCpu + othersCpu) / (s * 1e6);
    const cpu = t.url === upstreamUrl ? "—" : (proxyCpu / events).toFixed(2);
    console.log(
      `| ${t.name} | ${(mb / s).toFixed(1)} | ${Math.round(events / s).toLocaleString("en-US")} | ${ratio.toFixed(2)} | ${cpu} | ` +
        `${(othersCpu / events).toFixed(2)} | ${cores.toFixed(2)} of ${cpus().length} |`,
    );
  }
  for (const name of ["agjson proxy lenient", "agjson proxy strict"]) {
    const runs = samples.get(name);
    if (runs === undefined) continue;
    const ratio = median(runs.map((x, r) => baseRuns[r]!.seconds / x.seconds));
    console.log(
      `${name}: ${ratio.toFixed(2)} of the pass-through proxy's events/s (median of ${runs.length} rounds; target ≥ 0.6) — ${ratio >= 0.6 ? "met" : "NOT met"}`,
    );
  }
  const cpu = await cpuPerEvent();
  console.log(
    `\nCPU per event, the same ${events} events in this process (median of 5 rounds, µs/event):\n` +
      `| work | µs/event |\n| --- | ---: |\n` +
      `| validated forwarding: framing + fast path + forwarding (lenient) | ${cpu.forwarding.toFixed(3)} |\n` +
      `| validated forwarding without the fast path (decode + JSON.parse + validateEvent per event) | ${cpu.forwardingWithoutFastPath.toFixed(3)} |\n` +
      `| UTF-8 decode + JSON.parse | ${cpu.parse.toFixed(3)} |\n` +
      `| UTF-8 decode + JSON.parse + validateEvent (lenient) | ${cpu.parseValidate.toFixed(3)} |`,
  );
  await Promise.all([lenient.close(), strict.close(), noop?.close(), injected?.close(), web?.close()]);
  plain.closeAllConnections();
  plain.close();
  upstreamChild.disconnect();
  client.disconnect();
}

const role = argText("role");
if (role === "upstream") await runUpstream();
else if (role === "client") runClient();
else await main();
