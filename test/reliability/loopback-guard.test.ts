/**
 * Issue 33: the loopback servers refuse DNS rebinding and foreign browser origins. A page the user
 * visits can point its own name at 127.0.0.1 and become same-origin with `agjson proxy` or
 * `agjson serve --agui`; its requests still say `Host: evil.example`. Both servers, as the library
 * starts them (`startProxy`, `startAgUiServer`) and as the CLI does (`--allowed-host`,
 * `--token-file`, `AGJSON_TOKEN`), answer only the names they are meant to be reached by, only
 * their own origin and the `--cors` one, and — with a token — only requests that carry it; the
 * real `@ag-ui/client` HttpAgent sends it. The CLI cases need `npm run build`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpAgent } from "@ag-ui/client";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startAgUiServer } from "../../src/bridges/ag-ui/index.js";
import type { AgEventSource } from "../../src/bridges/source/index.js";
import { startProxy } from "../../src/gateway/index.js";
import { agjson, bin, root } from "./support.js";

const agInput = JSON.stringify({
  protocol: "agjson",
  version: "1.4.0-draft.2",
  kind: "start",
  threadId: "th",
  turnId: "tu",
  messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
});
const runAgentInput = JSON.stringify({
  threadId: "th",
  runId: "run-1",
  messages: [{ id: "u1", role: "user", content: "hi" }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: {},
});
const turn = [
  { type: "turn.start", seq: 0, threadId: "th", turnId: "tu" },
  { type: "turn.done", seq: 1, turnId: "tu", outcome: { type: "success" }, finishReason: "stop" },
] as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
const dir = mkdtempSync(join(tmpdir(), "agjson-guard-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agjson agent host that answers every POST with one short turn and keeps the requests it got. */
async function agentHost(): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req);
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(turn.map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

/** An event source that plays the short turn for every run and counts the runs. */
function countingSource(): { source: AgEventSource; runs: () => number } {
  let runs = 0;
  return {
    runs: () => runs,
    source: {
      async *run() {
        runs++;
        yield* turn;
      },
    },
  };
}

interface Target {
  name: string;
  url: string;
  body: string;
  /** Requests that reached the agent behind the server. */
  reached: () => number;
}

/** Both servers with the same guard options, each in front of an agent that counts what reaches it. */
async function bothServers(guard: { allowedHosts?: string[]; cors?: string; token?: string; host?: string } = {}): Promise<Target[]> {
  const host = await agentHost();
  const proxy = await startProxy({ upstream: host.url, port: 0, ...guard });
  cleanups.push(() => proxy.close());
  const counted = countingSource();
  const agui = await startAgUiServer({ source: counted.source, port: 0, ...guard });
  cleanups.push(() => agui.close());
  return [
    { name: "agjson proxy", url: proxy.url, body: agInput, reached: () => host.requests.length },
    { name: "agjson serve --agui", url: agui.url, body: runAgentInput, reached: counted.runs },
  ];
}

/** What the server answers to exactly these bytes (the socket is given up after 3 s). */
function raw(url: string, text: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    let got = "";
    socket.on("data", (d) => (got += d.toString("utf8")));
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    setTimeout(() => socket.destroy(), 3000);
  });
}

/** A JSON POST with these extra header lines; `declared` bytes of body announced, `body` sent. */
const post = (headers: string[], body: string, declared = Buffer.byteLength(body)) =>
  `POST / HTTP/1.1\r\n${headers.join("\r\n")}\r\ncontent-type: application/json\r\naccept: text/event-stream\r\ncontent-length: ${declared}\r\nconnection: close\r\n\r\n${body}`;

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const problem = (answer: string) =>
  JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { type: string; status: number; detail: string };

describe("DNS rebinding: a foreign Host is refused before the body is read", () => {
  it("a rebinding request (Host evil.example, a JSON body) gets 403 naming --allowed-host; nothing reaches the agent", async () => {
    for (const t of await bothServers()) {
      const port = new URL(t.url).port;
      const answer = await raw(t.url, post([`host: evil.example:${port}`], t.body));
      expect(status(answer), t.name).toBe(403);
      expect(problem(answer)).toMatchObject({ status: 403, type: expect.stringMatching(/\/forbidden-host$/) });
      expect(problem(answer).detail).toContain("--allowed-host evil.example");
      // Announce a large body and send a fragment of it: the refusal does not wait for the rest.
      const early = await raw(t.url, post([`host: evil.example:${port}`], t.body.slice(0, 10), 100_000));
      expect(status(early), `${t.name}: refused without the body`).toBe(403);
      expect(t.reached(), t.name).toBe(0);
    }
  });

  it("localhost, *.localhost and IP literals are served by default, and allowedHosts names when given", async () => {
    for (const t of await bothServers({ allowedHosts: ["agent.example.com", ".corp.example"] })) {
      const port = new URL(t.url).port;
      const hosts = [
        `localhost:${port}`,
        `app.localhost:${port}`,
        `127.0.0.1:${port}`,
        `[::1]:${port}`,
        "127.0.0.1",
        `agent.example.com:${port}`,
        "x.corp.example",
      ];
      for (const host of hosts) expect(status(await raw(t.url, post([`host: ${host}`], t.body))), `${t.name}, Host ${host}`).toBe(200);
      expect(t.reached(), t.name).toBe(hosts.length);
      expect(status(await raw(t.url, post([`host: other.example:${port}`], t.body))), t.name).toBe(403);
    }
  });

  it("the name the server binds is answered; * turns the check off", async () => {
    for (const t of await bothServers({ host: "localhost" }))
      expect(status(await raw(t.url, post(["host: localhost"], t.body))), t.name).toBe(200);
    for (const t of await bothServers({ allowedHosts: ["*"] }))
      expect(status(await raw(t.url, post(["host: evil.example"], t.body))), t.name).toBe(200);
  });
});

describe("foreign browser origins", () => {
  it("an Origin that is neither the server's own nor the cors one gets 403, preflight or not; the cors origin and the own origin are served", async () => {
    for (const t of await bothServers({ cors: "https://app.example" })) {
      const host = new URL(t.url).host;
      const foreign = await raw(t.url, post([`host: ${host}`, "origin: https://evil.example"], t.body));
      expect(status(foreign), t.name).toBe(403);
      expect(problem(foreign)).toMatchObject({ type: expect.stringMatching(/\/forbidden-origin$/) });
      expect(problem(foreign).detail).toContain("--cors https://evil.example");
      const preflight = await fetch(t.url, {
        method: "OPTIONS",
        headers: {
          origin: "https://evil.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      expect(preflight.status, t.name).toBe(403);
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      expect(t.reached(), t.name).toBe(0);

      const allowedPreflight = await fetch(t.url, {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
      expect(allowedPreflight.status, t.name).toBe(204);
      expect(allowedPreflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
      const allowed = await fetch(t.url, {
        method: "POST",
        headers: { origin: "https://app.example", "content-type": "application/json" },
        body: t.body,
      });
      expect(allowed.status, t.name).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
      await allowed.text();
      const own = await raw(t.url, post([`host: ${host}`, `origin: http://${host}`], t.body));
      expect(status(own), t.name).toBe(200);
      expect(t.reached(), t.name).toBe(2);
    }
  });

  it("one origin rule for the gate and the CORS headers: scheme and host without case, the default port implied (RFC 6454 §6.2)", async () => {
    for (const t of await bothServers({ cors: "HTTPS://App.Example:443" })) {
      for (const origin of ["https://app.example", "https://APP.example"]) {
        const preflight = await fetch(t.url, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
        });
        expect(preflight.status, `${t.name}, ${origin}`).toBe(204);
        // A browser compares Access-Control-Allow-Origin byte for byte with the Origin it sent.
        expect(preflight.headers.get("access-control-allow-origin"), `${t.name}, ${origin}`).toBe(origin);
        const allowed = await fetch(t.url, { method: "POST", headers: { origin, "content-type": "application/json" }, body: t.body });
        expect(allowed.status, `${t.name}, ${origin}`).toBe(200);
        expect(allowed.headers.get("access-control-allow-origin"), `${t.name}, ${origin}`).toBe(origin);
        await allowed.text();
      }
      const other = await fetch(t.url, {
        method: "OPTIONS",
        headers: { origin: "https://app.example:8443", "access-control-request-method": "POST" },
      });
      expect(other.status, t.name).toBe(403);
      expect(other.headers.get("access-control-allow-origin"), t.name).toBeNull();
    }
  });

  it("without --cors any Origin but the server's own is refused", async () => {
    for (const t of await bothServers()) {
      const host = new URL(t.url).host;
      expect(status(await raw(t.url, post([`host: ${host}`, "origin: https://app.example"], t.body))), t.name).toBe(403);
      expect(status(await raw(t.url, post([`host: ${host}`, "origin: null"], t.body))), t.name).toBe(403);
    }
  });
});

describe("bearer token", () => {
  const token = "tok_4f8b2e9c1d7a";

  it("with a token, a request without it or with another is 401 (WWW-Authenticate: Bearer); with it, served", async () => {
    for (const t of await bothServers({ token })) {
      const host = new URL(t.url).host;
      const none = await raw(t.url, post([`host: ${host}`], t.body));
      expect(status(none), t.name).toBe(401);
      expect(none.toLowerCase()).toContain('www-authenticate: bearer realm="agjson"');
      expect(status(await raw(t.url, post([`host: ${host}`, `authorization: Bearer ${token}x`], t.body))), t.name).toBe(401);
      expect(status(await raw(t.url, post([`host: ${host}`, "authorization: Bearer other"], t.body))), t.name).toBe(401);
      expect(t.reached(), t.name).toBe(0);
      expect(status(await raw(t.url, post([`host: ${host}`, `authorization: Bearer ${token}`], t.body))), t.name).toBe(200);
      expect(t.reached(), t.name).toBe(1);
    }
  });

  it("the proxy does not forward its own token upstream", async () => {
    const host = await agentHost();
    const proxy = await startProxy({ upstream: host.url, port: 0, token });
    cleanups.push(() => proxy.close());
    const r = await fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: agInput,
    });
    expect(r.status).toBe(200);
    await r.text();
    expect(host.requests.map((q) => q.headers.authorization)).toEqual([undefined]);
  });

  it("@ag-ui/client HttpAgent with the token in its headers runs; without it the run fails with 401", async () => {
    const counted = countingSource();
    const server = await startAgUiServer({ source: counted.source, port: 0, token });
    cleanups.push(() => server.close());
    const agent = new HttpAgent({
      url: server.url,
      headers: { Authorization: `Bearer ${token}` },
      initialMessages: [{ id: "u1", role: "user", content: "hi" }],
    });
    const seen: string[] = [];
    await agent.runAgent({ runId: "run-1" }, { onEvent: ({ event }) => void seen.push(event.type) });
    expect(seen).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    const stranger = new HttpAgent({ url: server.url, initialMessages: [{ id: "u1", role: "user", content: "hi" }] });
    await expect(stranger.runAgent({ runId: "run-2" })).rejects.toThrow(/401/);
    expect(counted.runs()).toBe(1);
  });
});

/** Starts the built CLI and resolves once its stderr names the URL it listens on. */
function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ url: string; stderr: () => string }> {
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, AGJSON_TOKEN: "", ...env },
  });
  cleanups.push(() => void child.kill("SIGTERM"));
  let err = "";
  return new Promise((resolve, reject) => {
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      err += chunk;
      const url = /(?:listening on|AG-UI endpoint on) (http:\/\/\S+?),? /.exec(err)?.[1];
      if (url !== undefined) resolve({ url, stderr: () => err });
    });
    child.once("exit", (code) => reject(new Error(`agjson exited ${code}: ${err}`)));
  });
}

describe("the CLI flags: --allowed-host, --token-file, AGJSON_TOKEN", () => {
  const replay = join(dir, "turn.ndjson");
  writeFileSync(
    replay,
    Array.from({ length: 4 }, (_, i) => turn.map((e) => JSON.stringify({ ...e, turnId: `tu${i}`, seq: e.seq + 2 * i })).join("\n")).join(
      "\n",
    ) + "\n",
  );
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, "tok_cli_9a1e\n");

  it("agjson proxy and agjson serve --agui: a rebinding Host is refused, an --allowed-host name served with the --token-file token", async () => {
    const host = await agentHost();
    const servers = [
      {
        ...(await startCli([
          "proxy",
          "--upstream",
          host.url,
          "--port",
          "0",
          "--allowed-host",
          "agent.example.com",
          "--token-file",
          tokenFile,
        ])),
        body: agInput,
      },
      {
        ...(await startCli([
          "serve",
          "--agui",
          "--replay",
          replay,
          "--port",
          "0",
          "--allowed-host",
          "agent.example.com",
          "--token-file",
          tokenFile,
        ])),
        body: runAgentInput,
      },
    ];
    for (const s of servers) {
      const refused = await raw(s.url, post(["host: evil.example", "authorization: Bearer tok_cli_9a1e"], s.body));
      expect(status(refused), s.url).toBe(403);
      expect(problem(refused).detail).toContain("--allowed-host evil.example");
      expect(status(await raw(s.url, post(["host: agent.example.com"], s.body))), s.url).toBe(401);
      expect(status(await raw(s.url, post(["host: agent.example.com", "authorization: Bearer tok_cli_9a1e"], s.body))), s.url).toBe(200);
      expect(s.stderr()).toContain(`bearer token from ${tokenFile}`);
    }
    expect(host.requests.length).toBe(1);
  });

  it("agjson serve --agui with AGJSON_TOKEN: HttpAgent with the token runs; --allowed-host * warns on stderr", async () => {
    const s = await startCli(["serve", "--agui", "--replay", replay, "--port", "0", "--allowed-host", "*"], { AGJSON_TOKEN: "tok_env_77" });
    expect(s.stderr()).toMatch(/warning: --allowed-host \* turns off the Host check/);
    expect(s.stderr()).toContain("bearer token from AGJSON_TOKEN");
    const agent = new HttpAgent({
      url: s.url,
      headers: { Authorization: "Bearer tok_env_77" },
      initialMessages: [{ id: "u1", role: "user", content: "hi" }],
    });
    const seen: string[] = [];
    await agent.runAgent({ runId: "run-1" }, { onEvent: ({ event }) => void seen.push(event.type) });
    expect(seen).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    expect(status(await raw(s.url, post(["host: evil.example"], runAgentInput)))).toBe(401);
  });

  it("a bad --allowed-host or --token-file is a usage error naming the flag", () => {
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n");
    for (const [args, message] of [
      [["--allowed-host", "http://agent.example.com"], /--allowed-host must be a host name alone/],
      [["--allowed-host", "agent.example.com:8787"], /--allowed-host must be a host name alone/],
      [["--token-file", join(dir, "missing")], /--token-file: cannot read/],
      [["--token-file", empty], /--token-file .* holds no token/],
    ] as const) {
      const proxy = agjson(["proxy", "--upstream", "http://127.0.0.1:9/", "--port", "0", ...args]);
      expect(proxy.code, proxy.err).toBe(2);
      expect(proxy.err).toMatch(message);
      const serve = agjson(["serve", "--agui", "--replay", replay, "--port", "0", ...args]);
      expect(serve.code, serve.err).toBe(2);
      expect(serve.err).toMatch(message);
    }
  });
});
