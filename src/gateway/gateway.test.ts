/**
 * End-to-end: a real upstream server on 127.0.0.1 streams AgEvents (SSE or NDJSON) in random chunk
 * splits, the gateway proxies it, a real HTTP client reads. Nothing is mocked at the HTTP layer.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventValidationMonitor } from "./event-validation-core.js";
import type { Frame } from "../wire/frame.js";
import { GATEWAY_META_KEY } from "./gateway-events.js";
import { NdjsonFramer } from "../wire/ndjson-framer.js";
import { startProxy, type ProxyOptions, type RunningProxy } from "./proxy.js";
import { SseFramer } from "../wire/sse-framer.js";
import { negotiateVersion, validateEvent, validateInput } from "../validate/index.js";

// ── validator under test ───────────────────────────────────────────────────────────────────────
// The proxies run with the default validator (src/validate, loaded lazily); assertions use it too.
const validator = { validateEvent, validateInput, negotiateVersion };

// ── deterministic randomness ───────────────────────────────────────────────────────────────────
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const enc = new TextEncoder();
const dec = new TextDecoder();

// ── the scripted upstream stream ───────────────────────────────────────────────────────────────
type Scripted = { raw: Uint8Array; valid: boolean; unknown?: boolean; seq: number; event?: Record<string, unknown> };

const TURN = "turn-1";
const THREAD = "thread-1";

function sseFrame(event: unknown, style: number): string {
  const json = JSON.stringify(event);
  switch (style % 5) {
    case 0:
      return `data: ${json}\n\n`;
    case 1:
      return `data:${json}\r\n\r\n`;
    case 2: {
      // Multi-line data: the JSON text split at a structural comma, rejoined by LF (valid JSON).
      const cut = json.indexOf(",");
      return `id: ${style}\nevent: agjson\ndata: ${json.slice(0, cut + 1)}\ndata: ${json.slice(cut + 1)}\n\n`;
    }
    case 3:
      return `: comment before\ndata: ${json}\r\r`;
    default:
      return `data: ${json}\r\n: trailing comment\r\n\r\n`;
  }
}

/** A turn with text deltas, interleaved with invalid, unknown-type, oversized events and comments. */
function script(rand: () => number, format: "sse" | "ndjson", count: number, oversizedBytes: number): Scripted[] {
  const out: Scripted[] = [];
  let seq = 0;
  const frame = (event: unknown, style: number) =>
    enc.encode(format === "sse" ? sseFrame(event, style) : `${JSON.stringify(event)}${style % 2 ? "\r\n" : "\n"}`);
  const push = (event: Record<string, unknown>, valid: boolean, extra: Partial<Scripted> = {}) => {
    out.push({ raw: frame(event, Math.floor(rand() * 5)), valid, seq: seq++, event, ...extra });
  };
  push({ type: "turn.start", seq, threadId: THREAD, turnId: TURN }, true);
  push({ type: "message.start", seq, id: "m1", role: "assistant", turnId: TURN, threadId: THREAD }, true);
  push({ type: "text.start", seq, id: "t1" }, true);
  for (let k = 0; k < count; k++) {
    const r = rand();
    if (r < 0.06) push({ type: "text.delta", seq, id: "t1", delta: 42 }, false);
    else if (r < 0.1) push({ type: "vendor.thing.update", seq, note: "unknown type" }, true, { unknown: true });
    else if (r < 0.12) push({ type: "text.delta", seq, id: "t1", delta: "x".repeat(oversizedBytes) }, false);
    else if (r < 0.14 && format === "sse") out.push({ raw: enc.encode(": keepalive\n\n"), valid: true, seq: -1 });
    else push({ type: "text.delta", seq, id: "t1", delta: `δ${k} — ünïcødé 世界 🎉 "quoted" \\ back\nline` }, true);
  }
  push({ type: "text.end", seq, id: "t1" }, true);
  push({ type: "message.end", seq, id: "m1" }, true);
  push({ type: "turn.done", seq, turnId: TURN, outcome: { type: "success" }, finishReason: "stop" }, true);
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/** Writes `bytes` in random-sized pieces, yielding to the event loop so pieces leave separately. */
async function writeRandomly(res: ServerResponse, bytes: Uint8Array, rand: () => number): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(rand() * (rand() < 0.5 ? 16 : 2048));
    const piece = bytes.subarray(at, at + size);
    at += piece.length;
    if (!res.write(piece)) await new Promise((r) => res.once("drain", r));
    if (rand() < 0.2) await new Promise((r) => setImmediate(r));
  }
}

// ── upstream test server ───────────────────────────────────────────────────────────────────────
type Scenario = (req: IncomingMessage, res: ServerResponse, input: Record<string, unknown>) => Promise<void> | void;
const scenarios = new Map<string, Scenario>();

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts).toString();
}

let upstream: Server;
let upstreamUrl: string;
const upstreamBodies: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      upstreamBodies.push(body);
      const input = JSON.parse(body) as Record<string, unknown>;
      const name = String((input.metadata as Record<string, unknown>).scenario);
      const run = scenarios.get(name);
      if (!run) {
        res.writeHead(404).end();
        return;
      }
      await run(req, res, input);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/agent`;
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const proxies: RunningProxy[] = [];
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
});

async function proxy(opts: Partial<ProxyOptions> = {}): Promise<{ url: string; streams: EventValidationMonitor[] }> {
  const streams: EventValidationMonitor[] = [];
  const p = await startProxy({ upstream: upstreamUrl, port: 0, onStream: (s) => streams.push(s), ...opts });
  proxies.push(p);
  return { url: p.url, streams };
}

function agInput(scenario: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    protocol: "agjson",
    version: "1.0.0-draft.1",
    kind: "start",
    threadId: THREAD,
    turnId: TURN,
    messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "hi" }] }],
    metadata: { scenario },
    ...extra,
  });
}

async function post(url: string, body: string | Uint8Array, headers: Record<string, string> = { "content-type": "application/json" }) {
  const res = await fetch(url, { method: "POST", headers, body: typeof body === "string" ? body : Buffer.from(body) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes };
}

function frames(bytes: Uint8Array, format: "sse" | "ndjson"): Frame[] {
  const out: Frame[] = [];
  const framer =
    format === "sse"
      ? new SseFramer({ maxFrameBytes: 1 << 30 }, (f) => out.push(f))
      : new NdjsonFramer({ maxFrameBytes: 1 << 30 }, (f) => out.push(f));
  framer.push(bytes);
  expect(framer.end()).toBe(0);
  return out;
}

function eventOf(frame: Frame): Record<string, unknown> {
  if (frame.kind !== "event") throw new Error(`expected an event frame, got ${frame.kind}`);
  return JSON.parse(dec.decode(frame.data)) as Record<string, unknown>;
}

function gatewayMeta(event: Record<string, unknown>): Record<string, unknown> {
  return (event._meta as Record<string, Record<string, unknown>>)[GATEWAY_META_KEY]!;
}

/** Gateway-written events must themselves be valid AgEvents, in the strict (producer) posture. */
function expectValidGatewayEvent(event: Record<string, unknown>): void {
  expect(validator.validateEvent(event, { posture: "strict" })).toMatchObject({ ok: true, known: true });
}

// ── tests ──────────────────────────────────────────────────────────────────────────────────────
describe("gateway proxy over real sockets", () => {
  const OVERSIZED = 20_000;
  const caps = { maxEventBytes: 16 * 1024 };

  // The node handler drives the validation core from sockets; with an injected `fetch` it keeps the
  // Web path (fetch → TransformStream → writeNodeResponse). Both must write the same.
  const paths = [
    [1, "node"],
    [2, "node"],
    [3, "node"],
    [1, "fetch"],
  ] as const;
  for (const format of ["sse", "ndjson"] as const) {
    for (const [seed, path] of paths) {
      it(`${format} seed ${seed}, ${path} path: valid frames arrive byte-identical and in order; invalid ones become error events (drop)`, async () => {
        const events = script(prng(seed), format, 400, OVERSIZED);
        const name = `mixed-${format}-${seed}-${path}`;
        scenarios.set(name, async (_req, res) => {
          res.writeHead(200, { "content-type": format === "sse" ? "text/event-stream" : "application/x-ndjson" });
          await writeRandomly(res, concat(events.map((e) => e.raw)), prng(seed * 7919));
          res.end();
        });
        const { url, streams } = await proxy({ caps, ...(path === "fetch" ? { fetch: (input, init) => fetch(input, init) } : {}) });
        const got = await post(url, agInput(name));
        expect(got.status).toBe(200);
        const out = frames(got.bytes, format);
        expect(out.length).toBe(events.length);
        let lastSeq = -1;
        for (let k = 0; k < events.length; k++) {
          const sent = events[k]!;
          const received = out[k]!;
          if (sent.valid) {
            expect(received.kind === "oversized" ? null : Buffer.from(received.raw)).toEqual(Buffer.from(sent.raw));
            if (sent.seq >= 0) lastSeq = sent.seq;
          } else {
            const ev = eventOf(received);
            expectValidGatewayEvent(ev);
            expect(ev.type).toBe("error");
            expect(ev.seq).toBe(lastSeq + 1);
            lastSeq = ev.seq as number;
            const meta = gatewayMeta(ev);
            if (sent.raw.length > caps.maxEventBytes) {
              expect(ev.code).toBe("agjson.gateway.event-too-large");
            } else {
              expect(ev.code).toBe("agjson.gateway.invalid-event");
              expect(meta.droppedSeq).toBe(sent.seq);
              expect(meta.issues).toEqual([expect.objectContaining({ path: "/delta", keyword: "type" })]);
            }
          }
        }
        const stats = streams[0]!.stats;
        expect(stats.dropped).toBe(events.filter((e) => !e.valid).length);
        expect(stats.unknown).toBe(events.filter((e) => e.unknown).length);
        expect(stats.ended).toBeNull();
        expect(stats.peakBufferedBytes).toBeLessThanOrEqual(caps.maxEventBytes + 64 * 1024 + 64 * 1024);
      });
    }
  }

  it("terminate: forwards up to the first invalid event, then one turn.error for the open turn, then ends", async () => {
    const events = script(prng(11), "sse", 200, OVERSIZED);
    const firstBad = events.findIndex((e) => !e.valid);
    scenarios.set("terminate", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      await writeRandomly(res, concat(events.map((e) => e.raw)), prng(5));
      res.end();
    });
    const { url } = await proxy({ caps, onInvalid: "terminate" });
    const out = frames((await post(url, agInput("terminate"))).bytes, "sse");
    expect(out.length).toBe(firstBad + 1);
    for (let k = 0; k < firstBad; k++) expect(Buffer.from((out[k] as { raw: Uint8Array }).raw)).toEqual(Buffer.from(events[k]!.raw));
    const last = eventOf(out[firstBad]!);
    expectValidGatewayEvent(last);
    expect(last).toMatchObject({ type: "turn.error", turnId: TURN, retriable: false });
    expect(String(last.code)).toMatch(/^agjson\.gateway\.(invalid-event|event-too-large)$/);
  });

  it("strict posture drops unknown event types; lenient forwards them untouched", async () => {
    const unknown = enc.encode(`data: {"type":"vendor.thing.update","seq":0,"x":1}\n\n`);
    scenarios.set("unknown", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(unknown);
    });
    const lenient = await proxy();
    expect(Buffer.from((await post(lenient.url, agInput("unknown"))).bytes)).toEqual(Buffer.from(unknown));
    const strict = await proxy({ posture: "strict" });
    const [only] = frames((await post(strict.url, agInput("unknown"))).bytes, "sse");
    // No turn was ever opened, so the terminal event names the AgInput's turn.
    expect(eventOf(only!)).toMatchObject({ type: "error", seq: 0, code: "agjson.gateway.invalid-event" });
  });

  it("a never-ending line is cut at maxEventBytes and the stream at maxStreamBytes, with bounded buffering", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    scenarios.set("endless", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("close", upstreamClosed);
      res.write(`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\ndata: "`);
      const junk = Buffer.alloc(64 * 1024, "a");
      while (!res.destroyed) {
        if (!res.write(junk)) await drainOrClose(res);
      }
    });
    const maxStreamBytes = 2 * 1024 * 1024;
    const { url, streams } = await proxy({ caps: { maxEventBytes: 16 * 1024, maxStreamBytes } });
    const out = frames((await post(url, agInput("endless"))).bytes, "sse").map(eventOf);
    expect(out.map((e) => [e.type, e.code])).toEqual([
      ["turn.start", undefined],
      ["error", "agjson.gateway.event-too-large"],
      ["turn.error", "agjson.gateway.stream-too-large"],
    ]);
    expect(out.map((e) => e.seq)).toEqual([0, 1, 2]);
    out.slice(1).forEach(expectValidGatewayEvent);
    const stats = streams[0]!.stats;
    expect(stats.bytesIn).toBeLessThanOrEqual(maxStreamBytes + 256 * 1024);
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(16 * 1024 + 64 * 1024 + 64 * 1024);
    await closed; // the gateway hung up on the upstream
  });

  it("an abrupt upstream disconnect mid-frame becomes a retriable terminal turn.error", async () => {
    const events = script(prng(21), "sse", 30, 10)
      .filter((e) => e.valid)
      .slice(0, 20);
    scenarios.set("disconnect", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      await writeRandomly(res, concat(events.map((e) => e.raw)), prng(3));
      res.write('data: {"type":"text.delta","se');
      await new Promise((r) => setTimeout(r, 20));
      res.socket!.destroy();
    });
    const { url } = await proxy();
    const out = frames((await post(url, agInput("disconnect"))).bytes, "sse");
    expect(out.length).toBe(events.length + 1);
    events.forEach((e, k) => expect(Buffer.from((out[k] as { raw: Uint8Array }).raw)).toEqual(Buffer.from(e.raw)));
    const last = eventOf(out.at(-1)!);
    expectValidGatewayEvent(last);
    const lastSeq = Math.max(...events.map((e) => e.seq));
    expect(last).toMatchObject({
      type: "turn.error",
      turnId: TURN,
      retriable: true,
      seq: lastSeq + 1,
      code: "agjson.gateway.upstream-disconnected",
    });
  });

  it("an upstream that ends cleanly with the turn still open gets a turn.error for it", async () => {
    scenarios.set("open-turn", (_req, res) => {
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.end(`{"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n`);
    });
    const { url } = await proxy();
    const out = frames((await post(url, agInput("open-turn"))).bytes, "ndjson").map(eventOf);
    expect(out[1]).toMatchObject({ type: "turn.error", seq: 1, turnId: TURN, code: "agjson.gateway.upstream-truncated" });
  });

  it("upstream unreachable or failing answers 502 with a well-formed turn.error naming the input turn", async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, "127.0.0.1", r));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}/`;
    await new Promise((r) => dead.close(r));
    const p1 = await proxy({ upstream: deadUrl });
    const r1 = await post(p1.url, agInput("x"));
    expect(r1.status).toBe(502);
    const e1 = eventOf(frames(r1.bytes, "sse")[0]!);
    expectValidGatewayEvent(e1);
    expect(e1).toMatchObject({ type: "turn.error", seq: 0, turnId: TURN, retriable: true, code: "agjson.gateway.upstream-unavailable" });

    scenarios.set("500", (_req, res) => {
      res.writeHead(500).end("boom");
    });
    const p2 = await proxy();
    const r2 = await post(p2.url, agInput("500"), { "content-type": "application/json", accept: "application/x-ndjson" });
    expect(r2.status).toBe(502);
    expect(r2.headers.get("content-type")).toBe("application/x-ndjson");
    expect(eventOf(frames(r2.bytes, "ndjson")[0]!)).toMatchObject({ type: "turn.error", code: "agjson.gateway.upstream-status" });

    // The node handler does not follow redirects: the upstream URL is configuration, not negotiation.
    scenarios.set("redirect", (_req, res) => {
      res.writeHead(307, { location: upstreamUrl }).end();
    });
    const r3 = await post(p2.url, agInput("redirect"));
    expect(r3.status).toBe(502);
    expect(eventOf(frames(r3.bytes, "sse")[0]!)).toMatchObject({
      type: "turn.error",
      turnId: TURN,
      code: "agjson.gateway.upstream-status",
    });
  });

  it("an upstream that encodes the event stream anyway answers 502: frames must pass byte-for-byte (§13.2)", async () => {
    scenarios.set("gzip", (req, res) => {
      expect(req.headers["accept-encoding"]).toBe("identity");
      res.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
      res.end(Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    });
    const { url } = await proxy();
    const got = await post(url, agInput("gzip"));
    expect(got.status).toBe(502);
    const event = eventOf(frames(got.bytes, "sse")[0]!);
    expectValidGatewayEvent(event);
    expect(event).toMatchObject({
      type: "turn.error",
      seq: 0,
      turnId: TURN,
      retriable: true,
      code: "agjson.gateway.upstream-content-type",
    });
  });

  it("idle, wall-time and event-count caps end the stream with a turn.error", async () => {
    scenarios.set("stall", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\n`);
    });
    const idle = await proxy({ caps: { idleTimeoutMs: 200 } });
    const idleOut = frames((await post(idle.url, agInput("stall"))).bytes, "sse").map(eventOf);
    expect(idleOut[1]).toMatchObject({ type: "turn.error", seq: 1, turnId: TURN, code: "agjson.gateway.idle-timeout" });

    scenarios.set("chatty", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const timer = setInterval(() => res.write(": still here\n\n"), 20);
      res.on("close", () => clearInterval(timer));
    });
    const wall = await proxy({ caps: { idleTimeoutMs: 5_000, wallTimeoutMs: 300 } });
    const wallOut = frames((await post(wall.url, agInput("chatty"))).bytes, "sse")
      .filter((f) => f.kind === "event")
      .map(eventOf);
    expect(wallOut).toEqual([expect.objectContaining({ type: "turn.error", seq: 0, turnId: TURN, code: "agjson.gateway.wall-timeout" })]);

    const events = script(prng(4), "sse", 50, 10).filter((e) => e.valid && e.seq >= 0);
    scenarios.set("many", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(concat(events.map((e) => e.raw)));
    });
    const many = await proxy({ caps: { maxEvents: 10 } });
    const manyOut = frames((await post(many.url, agInput("many"))).bytes, "sse");
    expect(manyOut.length).toBe(11);
    expect(eventOf(manyOut[10]!)).toMatchObject({ type: "turn.error", seq: 10, code: "agjson.gateway.too-many-events" });
  });

  it("a client that stalls longer than the idle cap is not mistaken for an idle upstream", async () => {
    const lines = [`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\n`];
    for (let k = 1; k <= 8_000; k++) lines.push(`data: {"type":"text.delta","seq":${k},"id":"t","delta":"${"q".repeat(1000)}"}\n\n`);
    lines.push(`data: {"type":"turn.done","seq":8001,"turnId":"${TURN}","outcome":{"type":"success"},"finishReason":"stop"}\n\n`);
    const payload = Buffer.from(lines.join(""));
    scenarios.set("burst", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let at = 0; at < payload.length; at += 64 * 1024) {
        if (!res.write(payload.subarray(at, at + 64 * 1024))) await drainOrClose(res);
      }
      res.end();
    });
    const { url, streams } = await proxy({ caps: { idleTimeoutMs: 150 } });
    const body = Buffer.from(agInput("burst"));
    const received = await new Promise<Buffer>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
        (res) => {
          const parts: Buffer[] = [];
          res.pause();
          setTimeout(() => {
            res.on("data", (c: Buffer) => parts.push(c));
            res.on("end", () => resolve(Buffer.concat(parts)));
            res.resume();
          }, 600);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(streams[0]!.stats.ended).toBeNull();
    expect(received.equals(payload)).toBe(true);
  });

  it("a slow client does not grow the gateway's buffering, and still receives every byte", async () => {
    const delta = "z".repeat(1000);
    const lines: string[] = [`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\n`];
    for (let k = 1; k <= 30_000; k++) lines.push(`data: {"type":"text.delta","seq":${k},"id":"t","delta":"${delta}"}\n\n`);
    lines.push(`data: {"type":"turn.done","seq":30001,"turnId":"${TURN}","outcome":{"type":"success"},"finishReason":"stop"}\n\n`);
    const payload = enc.encode(lines.join(""));
    scenarios.set("firehose", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (let at = 0; at < payload.length; at += 64 * 1024) {
        if (!res.write(payload.subarray(at, at + 64 * 1024))) await new Promise((r) => res.once("drain", r));
      }
      res.end();
    });
    const { url, streams } = await proxy();
    const body = Buffer.from(agInput("firehose"));
    let stalledBytesIn = 0;
    let stalledBuffered = 0;
    const received = await new Promise<Buffer>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
        (res) => {
          const parts: Buffer[] = [];
          res.pause();
          // Read a little, then nothing for a while: the client is far slower than the upstream.
          const tick = () => {
            let chunk: Buffer | null;
            let taken = 0;
            while (taken < 64 * 1024 && (chunk = res.read() as Buffer | null) !== null) {
              parts.push(chunk);
              taken += chunk.length;
            }
            if (res.readableEnded) return resolve(Buffer.concat(parts));
            setTimeout(tick, 2);
          };
          res.on("end", () => resolve(Buffer.concat(parts)));
          // First a long stall: everything between upstream and client fills up and stops.
          setTimeout(() => {
            stalledBytesIn = streams[0]!.stats.bytesIn;
            stalledBuffered = streams[0]!.bufferedBytes;
            tick();
          }, 500);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(received.equals(Buffer.from(payload))).toBe(true);
    const stats = streams[0]!.stats;
    expect(stats.bytesIn).toBe(payload.length);
    // ~32 MB went through; the stream never held more than an input chunk plus its queue.
    console.info(
      `slow client: ${stats.bytesIn} bytes through, peak buffered ${stats.peakBufferedBytes} bytes; during the stall ${stalledBytesIn} bytes in, ${stalledBuffered} buffered`,
    );
    // While the client read nothing, upstream was held back (socket buffers aside) rather than drained into memory.
    expect(stalledBytesIn).toBeLessThan(payload.length / 2);
    expect(stalledBuffered).toBeLessThanOrEqual(64 * 1024 + 2 * 64 * 1024);
    expect(stats.peakBufferedBytes).toBeLessThanOrEqual(64 * 1024 + 2 * 64 * 1024);
  });

  it("a client that disconnects mid-stream makes the gateway hang up on the upstream", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((r) => (upstreamClosed = r));
    scenarios.set("endless-valid", async (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("close", upstreamClosed);
      res.write(`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\n`);
      let seq = 1;
      while (!res.destroyed) {
        const batch: string[] = [];
        for (let k = 0; k < 500; k++) batch.push(`data: {"type":"text.delta","seq":${seq++},"id":"t","delta":"more"}\n\n`);
        if (!res.write(batch.join(""))) await drainOrClose(res);
      }
    });
    const { url, streams } = await proxy();
    const body = Buffer.from(agInput("endless-valid"));
    const first = await new Promise<Buffer>((resolve, reject) => {
      const req = httpRequest(
        url,
        { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
        (res) => {
          res.once("data", (chunk: Buffer) => {
            resolve(chunk);
            req.destroy();
          });
        },
      );
      req.on("error", () => {});
      req.once("response", () => {}).once("error", reject);
      req.end(body);
    });
    expect(dec.decode(first)).toMatch(/^data: \{"type":"turn.start"/);
    await closed; // the gateway hung up on the upstream instead of draining it for nobody
    // The client was gone: no terminal event was written for it.
    expect(streams[0]!.stats.ended).toBeNull();
  });

  it("a client that disconnects while the upstream has not answered yet aborts the upstream request", async () => {
    let reached!: () => void;
    const upstreamReached = new Promise<void>((r) => (reached = r));
    let aborted!: () => void;
    const upstreamAborted = new Promise<void>((r) => (aborted = r));
    let answered: boolean | undefined;
    scenarios.set("silent", (_req, res) => {
      res.on("close", () => {
        answered = res.headersSent;
        aborted();
      });
      reached(); // and never answer
    });
    const { url } = await proxy();
    const body = Buffer.from(agInput("silent"));
    const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } });
    req.on("error", () => {});
    req.end(body);
    await upstreamReached;
    req.destroy();
    await upstreamAborted;
    // The connection to the upstream closed with its request still unanswered: the gateway hung up.
    expect(answered).toBe(false);
  });

  for (const stalled of [false, true]) {
    it(`an upstream that dies mid-stream ${stalled ? "while the client is not reading " : ""}ends with a turn.error after whole frames only`, async () => {
      let died!: () => void;
      const dead = new Promise<void>((r) => (died = r));
      const lines: string[] = [`data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\n`];
      for (let k = 1; k <= 40_000; k++) lines.push(`data: {"type":"text.delta","seq":${k},"id":"t","delta":"${"w".repeat(100)}"}\n\n`);
      const payload = Buffer.from(lines.join(""));
      const name = `dies-${stalled}`;
      let streams: EventValidationMonitor[] = [];
      scenarios.set(name, async (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const kill = () => {
          res.socket!.destroy();
          died();
        };
        if (stalled) {
          // Die once the gateway holds a socket buffer's worth for the client (it has paused this
          // upstream then), so the failure arrives while the relay is blocked on the client.
          const watch = () => {
            if (res.destroyed) return;
            if ((streams[0]?.bufferedBytes ?? 0) >= 16 * 1024) kill();
            else setTimeout(watch, 1);
          };
          watch();
          for (let at = 0; at < payload.length && !res.destroyed; at += 64 * 1024) {
            if (!res.write(payload.subarray(at, at + 64 * 1024))) await drainOrClose(res);
          }
          if (!res.destroyed) kill();
          return;
        }
        // Cut inside a frame.
        const cut = Math.floor(payload.length / 2) + 17;
        for (let at = 0; at < cut && !res.destroyed; at += 64 * 1024) {
          if (!res.write(payload.subarray(at, Math.min(at + 64 * 1024, cut)))) await drainOrClose(res);
        }
        kill();
      });
      const running = await proxy();
      streams = running.streams;
      const body = Buffer.from(agInput(name));
      const received = await new Promise<Buffer>((resolve, reject) => {
        const req = httpRequest(
          running.url,
          { method: "POST", headers: { "content-type": "application/json", "content-length": body.length } },
          (res) => {
            const parts: Buffer[] = [];
            res.on("data", (c: Buffer) => parts.push(c));
            res.on("end", () => resolve(Buffer.concat(parts)));
            if (stalled) {
              res.pause();
              void dead.then(() => res.resume());
            }
          },
        );
        req.on("error", reject);
        req.end(body);
      });
      const out = frames(received, "sse");
      const last = eventOf(out.at(-1)!);
      expectValidGatewayEvent(last);
      const forwarded = out.slice(0, -1);
      // Everything before the terminal event is a byte-identical prefix of what upstream sent.
      const prefix = Buffer.concat(forwarded.map((f) => (f as { raw: Uint8Array }).raw));
      expect(prefix.equals(payload.subarray(0, prefix.length))).toBe(true);
      expect(forwarded.length).toBeGreaterThan(0);
      expect(last).toMatchObject({
        type: "turn.error",
        turnId: TURN,
        retriable: true,
        seq: forwarded.length,
        code: "agjson.gateway.upstream-disconnected",
      });
    });
  }
});

describe("AgInput request validation (RFC 9457 problems)", () => {
  let url: string;
  beforeAll(async () => {
    scenarios.set("ok", (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `data: {"type":"turn.start","seq":0,"threadId":"${THREAD}","turnId":"${TURN}"}\n\ndata: {"type":"turn.done","seq":1,"turnId":"${TURN}","outcome":{"type":"success"},"finishReason":"stop"}\n\n`,
      );
    });
    url = (await proxy({ caps: { maxInputBytes: 4096, maxInputDepth: 16 } })).url;
  });

  async function problem(body: string | Uint8Array, headers?: Record<string, string>) {
    const r = await post(url, body, headers);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    return { status: r.status, body: JSON.parse(dec.decode(r.bytes)) as Record<string, unknown> };
  }

  it("forwards a valid AgInput byte-identical and streams the answer", async () => {
    const body = agInput("ok", { metadata: { scenario: "ok", note: "  spacing   kept " } }).replace(",", " ,  ");
    const before = upstreamBodies.length;
    const r = await post(url, body);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    expect(
      frames(r.bytes, "sse")
        .map(eventOf)
        .map((e) => e.type),
    ).toEqual(["turn.start", "turn.done"]);
    expect(upstreamBodies[before]).toBe(body);
  });

  it("forwards a resume byte-identical: escaped token / requestState, LangGraph handles, positional answers sharing an askId (§3.1, §7, §13.1)", async () => {
    // The continuation handles are echoed verbatim (§3.1, §13.2): the gateway re-serializes
    // nothing, so even a JSON escape inside requestState reaches the agent host as sent.
    const body = JSON.stringify({
      protocol: "agjson",
      version: "1.0.0-draft.1",
      kind: "resume",
      threadId: THREAD,
      turnId: TURN,
      metadata: { scenario: "ok", "langgraph/threadId": "lg-th", "langgraph/checkpointId": "1ef-ck", "langgraph/checkpointNs": "" },
      answers: [
        { askId: "node:collect", status: "resolved", reply: "first", ordinal: 0, token: "TOKEN", requestState: "RS" },
        { askId: "node:collect", status: "declined", reason: "no", ordinal: 1 },
      ],
    })
      .replace('"TOKEN"', '"tok\\u002fA=="')
      .replace('"RS"', '"rs\\/\\u00e9=="');
    const before = upstreamBodies.length;
    const r = await post(url, body);
    expect(r.status).toBe(200);
    expect(upstreamBodies[before]).toBe(body);
  });

  it("415 for a non-JSON content type", async () => {
    const p = await problem(agInput("ok"), { "content-type": "text/plain" });
    expect(p.status).toBe(415);
    expect(p.body).toMatchObject({ status: 415, type: "https://silverprotocol.io/AgJSON/problems/unsupported-media-type" });
    const gz = await problem(agInput("ok"), { "content-type": "application/json", "content-encoding": "gzip" });
    expect(gz.status).toBe(415);
  });

  it("413 for a body over the cap, declared or streamed, before parsing", async () => {
    const big = agInput("ok", { state: "y".repeat(10_000) });
    const declared = await problem(big);
    expect(declared.status).toBe(413);
    expect(declared.body.limit).toEqual({ name: "maxInputBytes", value: 4096 });
    // Chunked, no Content-Length: the cap is enforced while reading.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers: { "content-type": "application/json" } }, async (res) =>
        resolve({ status: res.statusCode!, body: await readBody(res) }),
      );
      req.on("error", reject);
      req.write(big.slice(0, 3000));
      req.end(big.slice(3000));
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ type: "https://silverprotocol.io/AgJSON/problems/payload-too-large" });
  });

  it("400 for malformed JSON, bad UTF-8 and too-deep bodies", async () => {
    expect((await problem('{"protocol":')).body).toMatchObject({
      status: 400,
      type: "https://silverprotocol.io/AgJSON/problems/malformed-json",
    });
    expect((await problem(Uint8Array.of(0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d))).body).toMatchObject({
      status: 400,
      type: "https://silverprotocol.io/AgJSON/problems/malformed-json",
    });
    expect((await problem(`{"a":${"[".repeat(20)}${"]".repeat(20)}}`)).body).toMatchObject({
      status: 400,
      type: "https://silverprotocol.io/AgJSON/problems/too-deep",
    });
  });

  it("400 unsupported-version for another MAJOR; same major with a prerelease is accepted (§12)", async () => {
    const p = await problem(agInput("ok", { version: "2.0.0" }));
    expect(p.body).toMatchObject({
      status: 400,
      type: "https://silverprotocol.io/AgJSON/problems/unsupported-version",
      issues: [{ path: "/version", keyword: "version" }],
    });
    expect((await post(url, agInput("ok", { version: "1.7.0-draft.9" }))).status).toBe(200);
  });

  it("400 invalid-input with the issue list for a schema-invalid AgInput", async () => {
    const missing = JSON.parse(agInput("ok")) as Record<string, unknown>;
    delete missing.turnId;
    const p = await problem(JSON.stringify(missing));
    expect(p.status).toBe(400);
    expect(p.body.type).toBe("https://silverprotocol.io/AgJSON/problems/invalid-input");
    expect(p.body.issues).toEqual([expect.objectContaining({ path: "/turnId", keyword: "required" })]);

    const nested = JSON.parse(agInput("ok")) as { messages: { role: string }[] };
    nested.messages[0]!.role = "robot";
    const q = await problem(JSON.stringify(nested));
    expect(q.status).toBe(400);
    expect((q.body.issues as { path: string }[]).some((i) => i.path.startsWith("/messages/0"))).toBe(true);
  });

  it("strict posture refuses an unknown field that lenient accepts (§0.2)", async () => {
    const body = agInput("ok", { futureField: true });
    expect((await post(url, body)).status).toBe(200);
    const strict = await proxy({ posture: "strict" });
    const r = await post(strict.url, body);
    expect(r.status).toBe(400);
  });

  it("405 for anything but POST", async () => {
    const r = await fetch(url);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST");
  });
});
