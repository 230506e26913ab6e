/**
 * The CLI as a user runs it (docs/cli.md): the built bin, real processes, stdin and files, exit codes.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reduce } from "../src/reduce/index.js";
import type { AgEvent } from "../generated/types.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = `${root}/bin/agjson.js`;

function agjson(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", cwd: root });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const textDelta = (seq: number, extra: object = {}) => JSON.stringify({ type: "text.delta", seq, id: "t1", delta: "hi", ...extra });

describe("agjson validate", () => {
  it("exits 0 and summarizes when every record is valid (NDJSON on stdin)", () => {
    const r = agjson(["validate", "-"], [textDelta(0), textDelta(1)].join("\n") + "\n");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/2 event records: all valid \(lenient\)/);
  });

  it("--json prints one line per record with the issue pointer; exit 1 when any is invalid", () => {
    const r = agjson(
      ["validate", "--json", "--posture", "strict"],
      [textDelta(0, { x: 1 }), JSON.stringify({ type: "widget.spin", seq: 1 }), textDelta(2)].join("\n"),
    );
    expect(r.code).toBe(1);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({
      index: 0,
      ok: false,
      errors: [{ path: "/x", keyword: "additionalProperties", message: expect.stringContaining("unknown field") }],
    });
    expect(lines[1]).toMatchObject({ index: 1, ok: false, errors: [{ path: "/type", keyword: "discriminator" }] });
    expect(lines[2]).toEqual({ index: 2, ok: true, known: true });
  });

  it("lenient reports an unknown type as known:false, not as an error (§0.2)", () => {
    const r = agjson(["validate", "--json"], JSON.stringify({ type: "widget.spin", seq: 1, future: true }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ index: 0, ok: true, known: false });
  });

  it("reads a JSON array and SSE frames ([DONE] and comments ignored), detected or forced", () => {
    expect(agjson(["validate"], `[${textDelta(0)}, ${textDelta(1)}]`).out).toMatch(/2 event records: all valid/);
    const sse = `: keep-alive\n\ndata: ${textDelta(0)}\n\nid: 7\nevent: agjson\ndata: ${textDelta(1)}\n\ndata: [DONE]\n\n`;
    expect(agjson(["validate"], sse).out).toMatch(/2 event records: all valid/);
    expect(agjson(["validate", "--format", "sse"], sse).code).toBe(0);
    expect(agjson(["validate", "--format", "xml"], sse).code).toBe(2);
  });

  it("--kind input negotiates the version (§12)", () => {
    const input = { protocol: "agjson", version: "2.0.0", kind: "start", threadId: "th", turnId: "t", messages: [] };
    const r = agjson(["validate", "--kind", "input", "--json"], JSON.stringify(input));
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).errors[0]).toMatchObject({ path: "/version", keyword: "version" });
    expect(agjson(["validate", "--kind", "input"], JSON.stringify({ ...input, version: "1.4.0-draft.2" })).code).toBe(0);
  });

  it("exits 2 on a missing file or a bad option", () => {
    expect(agjson(["validate", "no/such/file.ndjson"]).code).toBe(2);
    expect(agjson(["validate", "--posture", "loose"], textDelta(0)).code).toBe(2);
  });
});

describe("agjson reduce", () => {
  it("folds valid records; an invalid one is a typed error that leaves the fold untouched (§10 item 20)", () => {
    const events = [
      { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
      { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
      { type: "text.start", seq: 2, id: "x" },
      { type: "text.delta", seq: 3, id: "x", delta: "hello" },
      { type: "text.end", seq: 4, id: "x" },
      { type: "message.end", seq: 5, id: "m" },
      { type: "turn.done", seq: 6, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
    ];
    const bad = { type: "text.delta", seq: 4, id: "x", delta: 42 };
    const lines = [...events.slice(0, 4), bad, ...events.slice(4)].map((e) => JSON.stringify(e));
    const r = agjson(["reduce"], lines.join("\n"));
    expect(r.code).toBe(1);
    const out = JSON.parse(r.out);
    expect(out.errors).toEqual([
      { kind: "invalid-event", index: 4, errors: [{ path: "/delta", message: "must be string", keyword: "type" }] },
    ]);
    const expected = reduce(events as AgEvent[]);
    expect(out.result).toEqual(expected.result);
    expect(out.needsResync).toBe(false);
  });
});

describe("agjson normalize and conformance", () => {
  it("normalizes the sample Anthropic stream to strict-valid AgEvents", () => {
    const n = agjson(["normalize", "--from", "anthropic", "samples/anthropic-weather.chunks.txt"]);
    expect(n.code).toBe(0);
    const v = agjson(["validate", "--posture", "strict"], n.out);
    expect(v.code, v.out).toBe(0);
    expect(agjson(["normalize", "--from", "palm", "samples/anthropic-weather.chunks.txt"]).code).toBe(2);
  });

  it("runs the shipped fixtures: N passed, 0 failed", () => {
    const r = agjson(["conformance", "conformance/reduce"]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^\d+ passed, 0 failed$/m);
  });
});

describe("agjson proxy", () => {
  // A real agent host on loopback: every POST gets the same SSE turn, one event invalid (a number
  // where §4 wants the delta's string) and one of a type this version does not define.
  const turn = [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
    { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "tu", threadId: "th" },
    { type: "text.start", seq: 2, id: "t" },
    { type: "text.delta", seq: 3, id: "t", delta: "hel" },
    { type: "text.delta", seq: 4, id: "t", delta: 42 },
    { type: "vendor.ping", seq: 5 },
    { type: "text.delta", seq: 6, id: "t", delta: "lo" },
    { type: "text.end", seq: 7, id: "t" },
    { type: "message.end", seq: 8, id: "m" },
    { type: "turn.done", seq: 9, turnId: "tu", outcome: { type: "success" }, finishReason: "stop" },
  ];
  const frame = (e: object) => `data: ${JSON.stringify(e)}\n\n`;
  let upstream: Server;
  let upstreamUrl = "";
  const running: ChildProcess[] = [];
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(turn.map(frame).join(""));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`;
  });
  afterAll(() => {
    for (const child of running) child.kill("SIGKILL");
    upstream.close();
  });

  /** Starts `agjson proxy` and resolves with the URL its "listening on" line names. */
  function startCli(args: string[]): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
    const child = spawn(process.execPath, [bin, "proxy", "--upstream", upstreamUrl, "--port", "0", ...args], { cwd: root });
    running.push(child);
    let err = "";
    return new Promise((resolve, reject) => {
      child.stderr!.on("data", (c: Buffer) => {
        err += c.toString("utf8");
        const m = /listening on (http:\/\/\S+),/.exec(err);
        if (m) resolve({ child, url: m[1]!, stderr: () => err });
      });
      child.once("exit", (code) => reject(new Error(`agjson proxy exited ${code}: ${err}`)));
    });
  }

  const input = JSON.stringify({
    protocol: "agjson",
    version: "1.0.0-draft.1",
    kind: "start",
    threadId: "th",
    turnId: "tu",
    messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
  });
  const events = (body: string) =>
    body
      .split("\n\n")
      .filter((f) => f.startsWith("data:"))
      .map((f) => JSON.parse(f.slice(5)) as { type: string; seq: number; [k: string]: unknown });

  it("forwards valid events byte for byte, drops the invalid one with an error event, passes the unknown type (lenient)", async () => {
    const { child, url, stderr } = await startCli([]);
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: input });
    expect(res.status).toBe(200);
    const body = await res.text();
    const expected = turn.filter((e) => e.seq !== 4).map(frame);
    // Every forwarded frame arrives unchanged and in order; the drop adds one error event.
    let at = 0;
    for (const f of expected) {
      const found = body.indexOf(f, at);
      expect(found, f).toBeGreaterThanOrEqual(0);
      at = found + f.length;
    }
    const got = events(body);
    expect(got.map((e) => e.type)).toEqual([...turn.slice(0, 4).map((e) => e.type), "error", ...turn.slice(5).map((e) => e.type)]);
    expect(JSON.stringify(got.find((e) => e.type === "error"))).toContain("/delta");
    // The drop is reported on stderr as one JSON line.
    await expect.poll(() => stderr()).toMatch(/agjson proxy: \{"reason":"invalid-event".*"path":"\/delta"/);
    // Each stream's counters close it as one summary line, frames skipped for carrying no event among them (D19).
    await expect.poll(() => stderr()).toMatch(/agjson proxy: stream summary \{.*"dropped":1,"skipped":0,/);
    child.kill("SIGTERM");
    expect(await new Promise((r) => child.once("exit", r))).toBe(0);
  });

  it("takes the caps from their flags: --max-events ends the stream with turn.error", async () => {
    const { child, url, stderr } = await startCli(["--max-events", "3", "--max-input-bytes", "4096"]);
    expect(stderr()).toContain("caps maxEvents=3, maxInputBytes=4096");
    const body = await (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: input })).text();
    const got = events(body);
    expect(got.map((e) => e.type)).toEqual(["turn.start", "message.start", "text.start", "turn.error"]);
    expect(JSON.stringify(got[3])).toContain("too-many-events");
    const tooBig = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: input.padEnd(5000, " ") });
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get("content-type")).toContain("application/problem+json");
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  });

  it("refuses a bad flag value with exit 2 and a message naming the flag", () => {
    for (const [args, message] of [
      [["--max-event-bytes", "0"], /--max-event-bytes must be an integer in 1\.\.67108864/],
      [["--max-depth", "1e3"], /--max-depth must be an integer in 1\.\.512 \(levels; got "1e3"\)/],
      [["--idle-timeout-ms", "99999999"], /--idle-timeout-ms must be an integer in 1\.\.1800000/],
      [["--posture", "loose"], /option '--posture <posture>' argument 'loose' is invalid\. Allowed choices are strict, lenient\./],
      [["--port", "70000"], /--port must be a port number/],
    ] as const) {
      const r = agjson(["proxy", "--upstream", "http://127.0.0.1:9/", ...args]);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(message);
    }
    const r = agjson(["proxy", "--upstream", "ftp://example.com/"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--upstream must be an http: or https: URL/);
  });
});

describe("agjson gen --lang: an --out that cannot be written", () => {
  it("names the command and the flag, not only the system error", () => {
    const dir = mkdtempSync(join(tmpdir(), "agjson-gen-out-"));
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const r = agjson(["gen", "--lang", "python", "--out", join(file, "sub")]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^agjson gen: cannot write the code into --out .*a-file\/sub: ENOTDIR/);
  });
});
