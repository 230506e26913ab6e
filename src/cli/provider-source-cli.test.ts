/**
 * `--from <api> --model <id> --header "N: v"` with `--upstream URL` on `agjson acp` and `agjson serve
 * --agui` (issue 19 §1 "A server", §2 "agjson acp --upstream URL for an agjson/provider endpoint"):
 * the built CLI in front of a loopback provider answering recorded provider streams, driven by the
 * ACP SDK's real client and by the AG-UI `HttpAgent`; a provider 4xx as an ACP error stop; bad flag
 * combinations exit 2 naming the flag. Needs `npm run build`.
 */
import { spawn, spawnSync, type ChildProcess, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpAgent } from "@ag-ui/client";
import { client, methods, ndJsonStream, PROTOCOL_VERSION, type SessionNotification } from "@agentclientprotocol/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { AgMessage } from "../../generated/lenient-types.js";
import { normalizeAll } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import { toAnthropic } from "../reinput/index.js";
import { toAgUi } from "../bridges/ag-ui/to-ag-ui.js";
import type { AgUiEvent } from "../bridges/ag-ui/vocabulary.js";
import { providerRecording, startProviderLoopback, type ProviderLoopback } from "../bridges/provider/provider.test-support.js";
import { PROVIDER_APIS } from "../bridges/provider/index.js";
import { FROM_VALUES } from "./source-options.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill();
  while (closers.length > 0) await closers.pop()!();
});
const dir = mkdtempSync(join(tmpdir(), "agjson-provider-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function provider(...answers: Parameters<typeof startProviderLoopback>[0]): Promise<ProviderLoopback> {
  const p = await startProviderLoopback(answers);
  closers.push(() => p.close());
  return p;
}

const TEXT_TURN = "anthropic/anthropic-text.chunks.txt";
const THINKING_TURN = "anthropic/anthropic-combined-context-editing.1.chunks.txt";

/** The assistant text of a recording as the fold has it (§5). */
function answerText(chunks: unknown[]): string {
  return reduce(normalizeAll("anthropic", chunks))
    .result.messages.flatMap((m) => (m.role === "assistant" ? m.content : []))
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("");
}

/** `agjson acp …` as a child process, as the web-stream pair `ndJsonStream` takes. */
function spawnAcp(args: string[]): { stderr: () => string; stream: ReturnType<typeof ndJsonStream> } {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [`${root}bin/agjson.js`, "acp", ...args], { cwd: root });
  children.push(child);
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  let open = true;
  const readable = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on("data", (c: Buffer) => open && controller.enqueue(new Uint8Array(c.buffer, c.byteOffset, c.byteLength)));
      child.stdout.on("end", () => {
        if (!open) return;
        open = false;
        controller.close();
      });
    },
    cancel() {
      open = false;
    },
  });
  const writable = new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void child.stdin.write(chunk, (e) => (e ? reject(e) : resolve()))),
  });
  return { stderr: () => err, stream: ndJsonStream(writable, readable) };
}

/** Runs prompts through the SDK's real client; each prompt's stop (or error) and every update. */
async function prompts(
  stream: ReturnType<typeof ndJsonStream>,
  texts: string[],
): Promise<{ stops: unknown[]; updates: SessionNotification[] }> {
  const updates: SessionNotification[] = [];
  const stops: unknown[] = [];
  await client({ name: "agjson-test" })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params))
    .onNotification(
      "_agjson/event",
      (p) => p,
      () => undefined,
    )
    .connectWith(stream, async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: root, mcpServers: [] });
      for (const text of texts) {
        try {
          stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] }));
        } catch (error) {
          stops.push({ error });
        }
      }
    });
  return { stops, updates };
}

const messageChunks = (updates: SessionNotification[]): string =>
  updates
    .map((n) => n.update)
    .flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []))
    .join("");

describe("agjson acp --from <api> --upstream URL", () => {
  it("fronts the provider: the SDK client gets the answer as agent message chunks; the second prompt sends the first answer back", async () => {
    const turn1 = providerRecording(THINKING_TURN);
    const turn2 = providerRecording(TEXT_TURN);
    const p = await provider({ chunks: turn1, named: true }, { chunks: turn2, named: true });
    const { stream, stderr } = spawnAcp([
      "--from",
      "anthropic",
      "--model",
      "claude-sonnet-4-5",
      "--upstream",
      `${p.url}/v1/messages`,
      "--header",
      "x-api-key: loopback-key",
      "--header",
      "anthropic-beta: context-management-2025-06-27",
    ]);
    const { stops, updates } = await prompts(stream, ["Hello", "And now?"]);
    expect(stops).toEqual([expect.objectContaining({ stopReason: "end_turn" }), expect.objectContaining({ stopReason: "end_turn" })]);
    expect(messageChunks(updates)).toBe(answerText(turn1) + answerText(turn2));
    expect(answerText(turn2)).not.toBe("");
    const thoughts = updates.map((n) => n.update).filter((u) => u.sessionUpdate === "agent_thought_chunk");
    expect(thoughts.length).toBeGreaterThan(0);

    expect(p.requests).toHaveLength(2);
    expect(p.requests[0]!.headers).toMatchObject({
      "x-api-key": "loopback-key",
      "anthropic-beta": "context-management-2025-06-27",
      "anthropic-version": "2023-06-01",
    });
    // The ACP prompt became the thread's user message; turn 2 carries turn 1's folded answer (§5) by re-input.
    const sent = p.requests.map((r) => r.body as { model: string; messages: { role: string; content: unknown[] }[] });
    expect(sent.map((b) => b.model)).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-5"]);
    expect(sent[0]!.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Hello" }] }]);
    const folded: AgMessage[] = reduce(normalizeAll("anthropic", turn1)).result.messages;
    expect(sent[1]!.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[1]!.messages[1]).toEqual(JSON.parse(JSON.stringify(toAnthropic(folded).request.messages[0])));
    expect(stderr()).toBe("");
  });

  it("a provider 4xx ends the prompt in an ACP error naming the status; the next prompt is served", async () => {
    const p = await provider(
      { status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' },
      { chunks: providerRecording(TEXT_TURN), named: true },
    );
    const { stream, stderr } = spawnAcp(["--from", "anthropic", "--model", "m", "--upstream", p.url]);
    const { stops, updates } = await prompts(stream, ["Hello", "Again"]);
    const failed = stops[0] as { error?: { message?: string; data?: unknown } };
    expect(failed.error).toBeDefined();
    // The editor is told the status and the stable code; the provider's body is the operator's (stderr).
    expect(failed.error).toMatchObject({
      message: expect.stringContaining("the provider answered HTTP 401"),
      data: { code: "provider-http" },
    });
    expect(stderr()).toMatch(/answered 401.*invalid x-api-key/);
    expect(stops[1]).toMatchObject({ stopReason: "end_turn" });
    expect(messageChunks(updates)).toBe(answerText(providerRecording(TEXT_TURN)));
  });
});

describe("agjson serve --agui --from <api> --upstream URL", () => {
  it("serves HttpAgent toAgUi of the normalized provider stream, with the headers on the provider request", async () => {
    const chunks = providerRecording("openai-responses/openai-phase.1.chunks.txt");
    const p = await provider({ chunks, named: true });
    const child = spawn(
      process.execPath,
      [
        `${root}bin/agjson.js`,
        "serve",
        "--agui",
        "--from",
        "openai-responses",
        "--model",
        "gpt-5",
        "--upstream",
        `${p.url}/v1/responses`,
        "--header",
        "Authorization: Bearer loopback",
        "--port",
        "0",
      ],
      { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
    );
    children.push(child);
    let err = "";
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (c: string) => {
        err += c;
        const found = /AG-UI endpoint on (http:\/\/\S+)/.exec(err)?.[1];
        if (found !== undefined) resolve(found);
      });
      child.once("exit", (code) => reject(new Error(`agjson serve exited ${code}: ${err}`)));
    });
    expect(err).toContain(`fronting the openai-responses API at ${p.url}/v1/responses (model gpt-5)`);
    const agent = new HttpAgent({ url, threadId: "th", initialMessages: [{ id: "u1", role: "user", content: "Hi" }] });
    const seen: AgUiEvent[] = [];
    await agent.runAgent({ runId: "run-1" }, { onEvent: ({ event }) => void seen.push(event as AgUiEvent) });
    expect(seen).toEqual(
      toAgUi(normalizeAll("openai-responses", chunks, { threadId: "th", turnId: "run-1" }), { threadId: "th", runId: "run-1" }),
    );
    expect(p.requests[0]!.headers.authorization).toBe("Bearer loopback");
    expect(p.requests[0]!.body).toMatchObject({ model: "gpt-5", stream: true, input: [{ role: "user" }] });
  });
});

describe("source flags", () => {
  const recording = join(dir, "r.ndjson");
  writeFileSync(recording, "");
  const serve = (args: string[]) =>
    spawnSync(process.execPath, [`${root}bin/agjson.js`, "serve", "--agui", ...args], { cwd: root, encoding: "utf8" });
  const acp = (args: string[]) =>
    spawnSync(process.execPath, [`${root}bin/agjson.js`, "acp", ...args], { cwd: root, encoding: "utf8", input: "" });
  const url = "http://127.0.0.1:9/v1/messages";

  it.each([
    [["--upstream", url, "--from", "anthropic"], /--from anthropic needs --model/],
    [
      ["--upstream", url, "--from", "bedrock", "--model", "m"],
      /option '--from <api>' argument 'bedrock' is invalid\. Allowed choices are anthropic, openai-responses, openai-chat, gemini\./,
    ],
    [["--upstream", url, "--model", "m"], /--model needs --from/],
    [["--replay", recording, "--from", "anthropic", "--model", "m"], /--from names the provider API behind --upstream/],
    [["--replay", recording, "--header", "x-api-key: k"], /--header goes on --upstream requests/],
    [["--upstream", url, "--from", "anthropic", "--model", "m", "--header", "no colon"], /--header must be "Name: value"/],
    [["--from", "anthropic", "--model", "m"], /exactly one of (--upstream URL or --replay FILE|--replay FILE or --upstream URL)/],
  ])("%j exits 2 naming the flag, on serve --agui and on acp", (args, message) => {
    expect(serve(args)).toMatchObject({ status: 2, stderr: expect.stringMatching(message) });
    expect(acp(args)).toMatchObject({ status: 2, stderr: expect.stringMatching(message) });
  });
});

describe("--from values", () => {
  it("are the provider bridge's PROVIDER_APIS (written out in source-options.ts so that registering commands does not load the bridge)", () => {
    expect(FROM_VALUES).toEqual(PROVIDER_APIS);
  });
});
