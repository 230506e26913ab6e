/**
 * `agjson serve --agui` and `agjson acp` as a user runs them hold `agjson proxy`'s line (issue 37):
 * credentials in `--upstream` are refused at start-up and never printed; the proxy's cap and
 * deadline flags, by its names and defaults; log lines escape what a client controls; the ACP
 * agent exits with its editor and says so when a line is over the SDK's cap. Built CLI (needs
 * `npm run build`); upstreams are loopback stand-ins on port 0.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServe } from "./serve.test-support.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEFAULT_CAPS, HARD_CAPS } from "../gateway/index.js";
import { recordedConversation } from "../bridges/ag-ui/serve.test-support.js";
import { startLoopbackUpstream } from "../gateway/upstream.test-support.js";
import { SERVER_CAP_FLAGS, SOURCE_DEADLINE_FLAGS } from "./source-options.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const bin = `${root}bin/agjson.js`;
const dir = mkdtempSync(join(tmpdir(), "agjson-bridge-safety-"));
const file = join(dir, "conversation.ndjson");
writeFileSync(
  file,
  recordedConversation()
    .map((e) => JSON.stringify(e))
    .join("\n") + "\n",
);
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
  while (closers.length > 0) await closers.pop()!();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: "utf8", timeout: 15_000 });

/** `agjson serve …`; resolves to the URL its start-up line names. */
const serve = (args: string[]) => startServe(["--agui", "--port", "0", ...args], children);

describe("flags and start-up", () => {
  it("credentials in --upstream are refused, and not echoed", () => {
    for (const cmd of [["serve", "--agui"], ["acp"]]) {
      const r = run([...cmd, "--upstream", "http://ada:hunter2secret@127.0.0.1:1/agent"]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/must not carry credentials/);
      expect(r.stderr).not.toContain("hunter2secret");
    }
  });

  it("the proxy's cap and deadline flags, its defaults and ceilings; a bad value exits 2 naming the flag", () => {
    const help = run(["serve", "--help"]).stdout.replace(/\s+/g, " ");
    const acpHelp = run(["acp", "--help"]).stdout.replace(/\s+/g, " ");
    for (const o of [...SERVER_CAP_FLAGS, ...SOURCE_DEADLINE_FLAGS]) {
      expect(help, o.flag).toMatch(
        new RegExp(`${o.flag} <n> [^-]*\\(default ${DEFAULT_CAPS[o.cap]} [a-z]+, at most ${HARD_CAPS[o.cap]}\\)`),
      );
    }
    for (const o of SOURCE_DEADLINE_FLAGS)
      expect(acpHelp, o.flag).toMatch(
        new RegExp(`${o.flag} <n> [^-]*\\(default ${DEFAULT_CAPS[o.cap]} ms, at most ${HARD_CAPS[o.cap]}\\)`),
      );
    expect(help).toContain("--path");
    expect(run(["serve", "--agui", "--replay", file, "--body-timeout-ms", "0"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/--body-timeout-ms must be an integer in 1\.\.3600000/),
    });
    expect(run(["acp", "--replay", file, "--idle-timeout-ms", "1e3"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/--idle-timeout-ms must be an integer/),
    });
  });

  it("the start-up line hides a key in the URL; --path is the one path served", async () => {
    const { url, stderr } = await serve(["--upstream", "http://127.0.0.1:9/agent?key=SECRET123", "--path", "/ag-ui"]);
    expect(url).toMatch(/\/ag-ui$/);
    expect(stderr()).toContain("forwarding to http://127.0.0.1:9/agent?key=***");
    expect(stderr()).not.toContain("SECRET123");
  });
});

describe("log lines", () => {
  it("a threadId with a newline and an ANSI escape is written escaped: no forged line, nothing for the terminal", async () => {
    const { url, stderr } = await serve(["--replay", file]);
    const threadId = "t\nagjson serve: AG-UI endpoint on http://evil.example/ \u001b[31mred";
    const r = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ threadId, runId: "r1", messages: [] }),
    });
    await r.text();
    await expect.poll(() => stderr(), { timeout: 3000 }).toMatch(/run r1/);
    expect(stderr()).not.toContain("\u001b");
    expect(
      stderr()
        .split("\n")
        .filter((l) => l.startsWith("agjson serve: AG-UI endpoint on http://evil")),
    ).toEqual([]);
    expect(stderr()).toContain("on thread t\\nagjson serve: AG-UI endpoint on http://evil.example/ \\u001b[31mred");
  });
});

describe("agjson acp ends with its editor", () => {
  /** A loopback agjson upstream that starts a turn and then hangs; `gone` resolves when our side hangs up. */
  async function hangingUpstream(): Promise<{ url: string; gone: Promise<void> }> {
    let hungUp!: () => void;
    const gone = new Promise<void>((resolve) => (hungUp = resolve));
    const up = await startLoopbackUpstream((_req, res) => {
      res.once("close", () => hungUp());
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      res.write(
        `${JSON.stringify({ type: "turn.start", seq: 0, threadId: "t", turnId: "x" })}\n${JSON.stringify({ type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "x", threadId: "t" })}\n${JSON.stringify({ type: "text.start", seq: 2, id: "tx", turnId: "x" })}\n${JSON.stringify({ type: "text.delta", seq: 3, id: "tx", delta: "Hel" })}\n`,
      );
    });
    closers.push(up.close);
    return { url: up.url, gone };
  }

  const line = (x: unknown) => `${JSON.stringify(x)}\n`;

  it("stdin closed mid-prompt against a hanging upstream: the upstream is hung up on and the process exits", async () => {
    const up = await hangingUpstream();
    const child = spawn(process.execPath, [bin, "acp", "--upstream", up.url], { cwd: root });
    children.push(child);
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdin.write(line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } }));
    await expect.poll(() => out, { timeout: 5000 }).toContain('"id":1,"result"');
    child.stdin.write(line({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd: "/", mcpServers: [] } }));
    await expect.poll(() => /"sessionId":"([^"]+)"/.exec(out)?.[1], { timeout: 5000 }).toBeDefined();
    child.stdin.write(
      line({
        jsonrpc: "2.0",
        id: 3,
        method: "session/prompt",
        params: { sessionId: /"sessionId":"([^"]+)"/.exec(out)![1], prompt: [{ type: "text", text: "go" }] },
      }),
    );
    await expect.poll(() => out, { timeout: 5000 }).toContain("agent_message_chunk");
    child.stdin.end();
    await up.gone;
    expect(await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve("still running"), 5000))])).toBe(0);
  }, 20_000);

  it("a line over the SDK's 32 MiB cap: a clear error and exit 1", async () => {
    const child = spawn(process.execPath, [bin, "acp", "--replay", file], { cwd: root });
    children.push(child);
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdin.on("error", () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const chunk = Buffer.alloc(1 << 20, 0x61);
    for (let i = 0; i < 33; i++) child.stdin.write(chunk);
    expect(await exited).toBe(1);
    expect(err).toMatch(/over the ACP SDK's line cap/);
  }, 20_000);
});
