/**
 * The ACP agent as an editor runs it: the built CLI (`agjson acp`) spawned as a child process and
 * driven over its stdio by the SDK's real client (`client()` over `ndJsonStream`): initialize,
 * session/new, session/prompt with its session/update notifications, a session/request_permission
 * answered (the answer reaches the source as an AgHitlAnswer resume, §3.1 §7), a session/cancel
 * (the pending ask is denied), and the stop reasons of the turn closes (§5).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientContext,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import type { AgInput } from "../../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { validateEvent, validateInput } from "../../validate/index.js";
import { createAcpUpdateMapper } from "./updates.js";
import { createReplaySource, splitTurns } from "../source/index.js";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill();
});

/** Turn 1 asks approval for a tool call; turn 2 (the resume) lands the result and answers. */
const approvalTurns: AgLenientEvent[][] = [
  [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
    { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
    { type: "reasoning.start", seq: 2, id: "r1" },
    { type: "reasoning.delta", seq: 3, id: "r1", delta: "The user wants the file gone." },
    { type: "reasoning.end", seq: 4, id: "r1" },
    {
      type: "content.block",
      seq: 5,
      block: {
        type: "data",
        name: "plan",
        data: { entries: [{ content: "delete /tmp/x", status: "in_progress", priority: "high" }, "report back"] },
      },
    },
    { type: "text.start", seq: 6, id: "x1" },
    { type: "text.delta", seq: 7, id: "x1", delta: "I will delete it." },
    { type: "text.end", seq: 8, id: "x1" },
    { type: "tool.start", seq: 9, toolCallId: "c1", name: "delete_file", requiresApproval: true },
    { type: "tool.args.delta", seq: 10, toolCallId: "c1", delta: '{"path":"/tmp/x"}' },
    { type: "tool.args.assembled", seq: 11, toolCallId: "c1", input: { path: "/tmp/x" } },
    { type: "message.end", seq: 12, id: "m1" },
    {
      type: "hitl.ask",
      seq: 13,
      askId: "ask1",
      kind: "approval",
      toolCallId: "c1",
      message: "Delete /tmp/x?",
      token: "tok-1",
      requestState: "rs-opaque==",
    },
    {
      type: "turn.done",
      seq: 14,
      turnId: "t1",
      outcome: {
        type: "paused",
        asks: [{ askId: "ask1", kind: "approval", toolCallId: "c1", token: "tok-1", requestState: "rs-opaque==" }],
      },
      finishReason: "paused",
    },
  ],
  [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t1", trigger: { kind: "resume" } },
    {
      type: "tool.done",
      seq: 1,
      toolCallId: "c1",
      turnId: "t1",
      content: [{ type: "text", text: "deleted" }],
      outcome: "ok",
      structuredContent: { deleted: true },
    },
    { type: "message.start", seq: 2, id: "m2", role: "assistant", turnId: "t1", threadId: "th" },
    { type: "text.start", seq: 3, id: "x2" },
    { type: "text.delta", seq: 4, id: "x2", delta: "Done." },
    { type: "text.end", seq: 5, id: "x2" },
    { type: "message.end", seq: 6, id: "m2" },
    { type: "ext.acme.latency", seq: 7, millis: 12 },
    {
      type: "turn.done",
      seq: 8,
      turnId: "t1",
      outcome: { type: "success" },
      finishReason: "stop",
      usage: { inputTokens: 10, outputTokens: 5 },
    },
  ],
];

/** Turn 3 asks again (the test cancels it), turn 4 answers the denial, turn 5 hits the token cap. */
const cancelTurns: AgLenientEvent[][] = [
  [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t2" },
    { type: "message.start", seq: 1, id: "m3", role: "assistant", turnId: "t2", threadId: "th" },
    { type: "tool.start", seq: 2, toolCallId: "c2", name: "rm_rf" },
    { type: "tool.args.assembled", seq: 3, toolCallId: "c2", input: { path: "/" } },
    { type: "message.end", seq: 4, id: "m3" },
    { type: "hitl.ask", seq: 5, askId: "ask2", kind: "approval", toolCallId: "c2" },
    {
      type: "turn.done",
      seq: 6,
      turnId: "t2",
      outcome: { type: "paused", asks: [{ askId: "ask2", kind: "approval", toolCallId: "c2" }] },
      finishReason: "paused",
    },
  ],
  [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t2" },
    { type: "tool.done", seq: 1, toolCallId: "c2", turnId: "t2", content: [], outcome: "denied" },
    { type: "turn.done", seq: 2, turnId: "t2", outcome: { type: "success" }, finishReason: "stop" },
  ],
  [
    { type: "turn.start", seq: 0, threadId: "th", turnId: "t3" },
    { type: "message.start", seq: 1, id: "m4", role: "assistant", turnId: "t3", threadId: "th" },
    { type: "text.start", seq: 2, id: "x4" },
    { type: "text.delta", seq: 3, id: "x4", delta: "after the cancel" },
    { type: "text.end", seq: 4, id: "x4" },
    { type: "message.end", seq: 5, id: "m4" },
    { type: "turn.done", seq: 6, turnId: "t3", outcome: { type: "success" }, finishReason: "token_limit" },
  ],
];

const ndjson = (turns: AgLenientEvent[][]): string =>
  turns
    .flat()
    .map((e) => JSON.stringify(e))
    .join("\n") + "\n";

/** The built CLI as a child process, as a web-stream pair for ndJsonStream. */
function spawnAgent(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  stream: ReturnType<typeof ndJsonStream>;
} {
  const child = spawn(process.execPath, [`${root}bin/agjson.js`, "acp", ...args], { cwd: root });
  children.push(child);
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  let open = true; // the connection cancels its reader when it closes; later bytes have nowhere to go
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
  return { child, stderr: () => err, stream: ndJsonStream(writable, readable) };
}

/** The `_agjson/event` params, checked: the event must be a valid AgEvent (§4). */
function parseAgjsonEvent(p: unknown): { sessionId: string; event: AgLenientEvent } {
  const sessionId: unknown = typeof p === "object" && p !== null ? Reflect.get(p, "sessionId") : undefined;
  const v = validateEvent(typeof p === "object" && p !== null ? Reflect.get(p, "event") : undefined, { posture: "strict" });
  if (typeof sessionId !== "string" || !v.ok)
    throw new Error(`_agjson/event params are not {sessionId, event: AgEvent}: ${JSON.stringify(p)}`);
  return { sessionId, event: v.event };
}

interface Driven {
  updates: SessionNotification[];
  agjsonEvents: AgLenientEvent[];
  permissions: RequestPermissionRequest[];
}

/** A real SDK client; `answer` decides each permission request, `run` drives the session. */
async function drive(
  stream: ReturnType<typeof ndJsonStream>,
  answer: (req: RequestPermissionRequest, ctx: ClientContext) => Promise<RequestPermissionResponse>,
  run: (ctx: ClientContext, sessionId: string, seen: Driven) => Promise<void>,
): Promise<Driven> {
  const seen: Driven = { updates: [], agjsonEvents: [], permissions: [] };
  await client({ name: "agjson-test" })
    .onNotification(methods.client.session.update, ({ params }) => void seen.updates.push(params))
    .onNotification("_agjson/event", parseAgjsonEvent, ({ params }) => void seen.agjsonEvents.push(params.event))
    .onRequest(methods.client.session.requestPermission, async ({ params, agent }) => {
      seen.permissions.push(params);
      return answer(params, agent);
    })
    .connectWith(stream, async (ctx) => {
      const init = await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      expect(init).toMatchObject({
        protocolVersion: PROTOCOL_VERSION,
        agentInfo: { name: "agjson" },
        agentCapabilities: { promptCapabilities: { image: true, embeddedContext: true } },
      });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: root, mcpServers: [] });
      await run(ctx, sessionId, seen);
    });
  return seen;
}

describe("agjson acp, driven by the ACP SDK client", () => {
  it("--upstream: streams updates, asks permission, sends the choice back as an AgHitlAnswer resume, ends with end_turn", async () => {
    const inputs: AgInput[] = [];
    const server = createServer(async (req: IncomingMessage, res) => {
      let body = "";
      for await (const c of req) body += String(c);
      const v = validateInput(JSON.parse(body));
      if (!v.ok) throw new Error(`the agent posted an invalid AgInput: ${JSON.stringify(v.errors)}`);
      if (!v.known) throw new Error(`the agent posted an AgInput of a kind this version does not know: ${v.input.kind}`);
      inputs.push(v.input);
      const turn = approvalTurns[inputs.length - 1] ?? [];
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of turn) res.write(`data: ${JSON.stringify(e)}\n\n`);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { stream, stderr } = spawnAgent(["--upstream", `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`]);
      let stop: unknown;
      const seen = await drive(
        stream,
        async () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
        async (ctx, sessionId) => {
          stop = await ctx.request(methods.agent.session.prompt, {
            sessionId,
            prompt: [
              { type: "text", text: "delete /tmp/x" },
              { type: "resource_link", uri: "file:///tmp/x", name: "x" },
            ],
          });
        },
      );
      expect(stderr()).toBe("");
      expect(stop).toMatchObject({
        stopReason: "end_turn",
        _meta: { agjson: { finishReason: "stop", usage: { inputTokens: 10, outputTokens: 5 } } },
      });

      // The prompt became an AgInput start (§3) whose user message carries the prompt blocks.
      expect(inputs[0]).toMatchObject({
        protocol: "agjson",
        kind: "start",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "delete /tmp/x" },
              { type: "resource-link", uri: "file:///tmp/x" },
            ],
          },
        ],
      });
      // The permission choice went back as a resume (§3.1) echoing token and requestState (§7, §13.1).
      expect(inputs[1]).toMatchObject({
        kind: "resume",
        turnId: "t1",
        answers: [{ askId: "ask1", status: "resolved", token: "tok-1", requestState: "rs-opaque==" }],
      });
      expect(inputs).toHaveLength(2);

      const updates = seen.updates.map((n) => n.update);
      expect(updates).toContainEqual({
        sessionUpdate: "agent_thought_chunk",
        content: { type: "text", text: "The user wants the file gone." },
        messageId: "m1",
      });
      expect(updates).toContainEqual({
        sessionUpdate: "plan",
        entries: [
          { content: "delete /tmp/x", status: "in_progress", priority: "high" },
          { content: "report back", status: "pending", priority: "medium" },
        ],
      });
      expect(updates).toContainEqual({
        sessionUpdate: "agent_message_chunk",
        content: { type: "text", text: "I will delete it." },
        messageId: "m1",
      });
      expect(updates).toContainEqual(
        expect.objectContaining({
          sessionUpdate: "tool_call",
          toolCallId: "c1",
          title: "delete_file",
          name: "delete_file",
          status: "pending",
          _meta: { agjson: { toolName: "delete_file", requiresApproval: true } },
        }),
      );
      expect(updates).toContainEqual(
        expect.objectContaining({
          sessionUpdate: "tool_call_update",
          toolCallId: "c1",
          status: "in_progress",
          rawInput: { path: "/tmp/x" },
        }),
      );
      expect(updates).toContainEqual(
        expect.objectContaining({
          sessionUpdate: "tool_call_update",
          toolCallId: "c1",
          status: "completed",
          rawOutput: { deleted: true },
          content: [{ type: "content", content: { type: "text", text: "deleted" } }],
        }),
      );
      expect(updates).toContainEqual({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Done." }, messageId: "m2" });
      expect(seen.updates.every((n) => typeof n.sessionId === "string")).toBe(true);

      expect(seen.permissions).toHaveLength(1);
      expect(seen.permissions[0]).toMatchObject({
        toolCall: { toolCallId: "c1", title: "Delete /tmp/x?", rawInput: { path: "/tmp/x" } },
        options: expect.arrayContaining([
          expect.objectContaining({ kind: "allow_once" }),
          expect.objectContaining({ kind: "reject_once" }),
        ]),
      });
      // Events with no ACP update reach the client as _agjson/event, not nowhere.
      expect(seen.agjsonEvents.map((e) => e.type)).toEqual(
        expect.arrayContaining(["turn.start", "hitl.ask", "ext.acme.latency", "turn.done"]),
      );
    } finally {
      server.close();
    }
  });

  it("--replay: a cancel during the permission request denies it and stops with cancelled; the next prompt plays the turn after the denial", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agjson-acp-"));
    const file = join(dir, "recording.ndjson");
    writeFileSync(file, ndjson([...approvalTurns, ...cancelTurns]));
    const { stream, stderr } = spawnAgent(["--replay", file]);
    const stops: unknown[] = [];
    let cancelSent = false;
    const seen = await drive(
      stream,
      async (req, ctx) => {
        if (req.toolCall.toolCallId !== "c2") return { outcome: { outcome: "selected", optionId: "reject_once" } };
        // The user closes the prompt while the permission dialog is open: cancel, then the
        // pending request is answered "cancelled" as ACP requires.
        await ctx.notify(methods.agent.session.cancel, { sessionId: req.sessionId });
        cancelSent = true;
        return { outcome: { outcome: "cancelled" } };
      },
      async (ctx, sessionId) => {
        stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] }));
        stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] }));
        stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "three" }] }));
      },
    );
    expect(stderr()).toBe("");
    expect(cancelSent).toBe(true);
    expect(stops.map((s) => (s as { stopReason: string }).stopReason)).toEqual(["end_turn", "cancelled", "max_tokens"]);
    const updates = seen.updates.map((n) => n.update);
    // Nothing of the denied resume (turn 4) reached the client; the third prompt got turn 5.
    expect(updates.some((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "c2" && u.status === "failed")).toBe(false);
    expect(updates).toContainEqual({
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "after the cancel" },
      messageId: "m4",
    });
  });

  it("--replay: a recording that ends in an approval the client answers ends the prompt (end_turn) saying it has no more turns, never an Internal error", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agjson-acp-"));
    const file = join(dir, "recording.ndjson");
    writeFileSync(file, ndjson([approvalTurns[0]!]));
    const { stream, stderr } = spawnAgent(["--replay", file]);
    const stops: unknown[] = [];
    const seen = await drive(
      stream,
      async () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
      async (ctx, sessionId) => {
        stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "delete /tmp/x" }] }));
        // A further prompt finds the recording spent too: the same answer, not an error.
        stops.push(await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "again" }] }));
      },
    );
    expect(stderr()).toBe("");
    expect(seen.permissions).toHaveLength(1);
    for (const stop of stops)
      expect(stop).toMatchObject({
        stopReason: "end_turn",
        _meta: { agjson: { code: "replay_exhausted", message: expect.stringMatching(/no more turns/) } },
      });
    const said = seen.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" && /no more turns/.test(u.content.text));
    expect(said).toHaveLength(2);
  });

  it("exits 2 naming the problem when neither or both sources are given, or the recording is invalid", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(process.execPath, [`${root}bin/agjson.js`, "acp", ...args], { cwd: root });
        let err = "";
        c.stderr.on("data", (d: Buffer) => (err += d.toString()));
        c.on("close", (code) => resolve({ code, err }));
        c.stdin.end();
      });
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringContaining("exactly one of --upstream URL or --replay FILE") });
    const dir = mkdtempSync(join(tmpdir(), "agjson-acp-"));
    writeFileSync(join(dir, "bad.ndjson"), `{"type":"text.delta","seq":0,"id":"t","delta":5}\n`);
    expect(await run(["--replay", join(dir, "bad.ndjson")])).toMatchObject({ code: 2, err: expect.stringContaining("record 0: /delta") });
    expect(await run(["--upstream", "not a url"])).toMatchObject({ code: 2, err: expect.stringContaining("absolute URL") });
  });
});

describe("ACP update mapping", () => {
  it("splits a recording into its top-level turns, keeping a subagent inside its parent", () => {
    const turns = splitTurns([
      { type: "agent.capabilities", seq: 0, capabilities: {} },
      { type: "turn.start", seq: 1, threadId: "th", turnId: "a" },
      { type: "subagent.start", seq: 2, turnId: "s", parentTurnId: "a" },
      { type: "turn.start", seq: 3, threadId: "th", turnId: "s" },
      { type: "turn.done", seq: 4, turnId: "s", outcome: { type: "success" }, finishReason: "stop" },
      { type: "turn.done", seq: 5, turnId: "a", outcome: { type: "success" }, finishReason: "stop" },
      { type: "turn.start", seq: 0, threadId: "th", turnId: "b" },
      { type: "turn.abort", seq: 1, turnId: "b" },
    ]);
    expect(turns.map((t) => t.length)).toEqual([6, 2]);
  });

  it("answers an input past the end of the recording with a typed turn.error", async () => {
    const source = createReplaySource([]);
    const out: AgLenientEvent[] = [];
    for await (const e of source.run(
      { protocol: "agjson", version: "1.0.0-draft.1", kind: "start", threadId: "th", turnId: "t", messages: [] },
      new AbortController().signal,
    ))
      out.push(e as AgLenientEvent);
    expect(out).toEqual([expect.objectContaining({ type: "turn.error", code: "replay_exhausted", turnId: "t" })]);
  });

  it("maps tool errors to failed with the error text, a tool result for an unseen call to a new tool_call, sources to resource links", () => {
    const m = createAcpUpdateMapper();
    m.push({ type: "tool.start", seq: 0, toolCallId: "e", name: "fetch" });
    expect(m.push({ type: "tool.done", seq: 1, toolCallId: "e", content: [], outcome: "error", errorText: "404" })).toEqual([
      {
        kind: "update",
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId: "e",
          status: "failed",
          content: [{ type: "content", content: { type: "text", text: "404" } }],
          rawOutput: [],
          _meta: { agjson: { toolName: "fetch", outcome: "error" } },
        },
      },
    ]);
    expect(m.push({ type: "tool.done", seq: 2, toolCallId: "old", content: [{ type: "text", text: "ok" }] })[0]).toMatchObject({
      update: { sessionUpdate: "tool_call", toolCallId: "old", status: "completed" },
    });
    expect(m.push({ type: "source", seq: 3, sourceId: "s1", source: { url: "https://example.com", title: "Example" } })).toEqual([
      {
        kind: "update",
        update: {
          sessionUpdate: "agent_message_chunk",
          content: { type: "resource_link", uri: "https://example.com", name: "Example" },
          _meta: { agjson: { sourceId: "s1" } },
        },
      },
    ]);
    expect(m.push({ type: "state.snapshot", seq: 4, snapshot: { a: 1 } })).toEqual([
      { kind: "ext", event: { type: "state.snapshot", seq: 4, snapshot: { a: 1 } } },
    ]);
  });

  it("an MCP Apps ui:// resource keeps its _meta.ui (the csp the host enforces) on the ACP resource, as message and as tool content (§13.3, §6 Pattern 1a)", () => {
    const ui = {
      resourceUri: "ui://weather/card",
      csp: { connectDomains: ["https://api.example"], resourceDomains: [] },
      prefersBorder: true,
    };
    const resource = { uri: "ui://weather/card", mimeType: "text/html;profile=mcp-app", text: "<div>card</div>", _meta: { ui } };
    const m = createAcpUpdateMapper();
    m.push({ type: "turn.start", seq: 0, threadId: "th", turnId: "t" });
    m.push({ type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" });
    expect(m.push({ type: "content.block", seq: 2, block: { type: "resource", resource } })).toEqual([
      { kind: "update", update: { sessionUpdate: "agent_message_chunk", messageId: "m", content: { type: "resource", resource } } },
    ]);
    m.push({ type: "tool.start", seq: 3, toolCallId: "c", name: "weather" });
    const [done] = m.push({
      type: "tool.done",
      seq: 4,
      toolCallId: "c",
      content: [{ type: "resource", resource: { uri: "ui://weather/card", blob: "PGRpdj4=", _meta: { ui } } }],
    });
    expect(done).toMatchObject({
      update: {
        content: [
          { type: "content", content: { type: "resource", resource: { uri: "ui://weather/card", blob: "PGRpdj4=", _meta: { ui } } } },
        ],
      },
    });
    // Neither text nor bytes: the link the host resolves keeps the CSP as well.
    const [link] = m.push({
      type: "content.block",
      seq: 5,
      block: { type: "resource", resource: { uri: "ui://weather/card", _meta: { ui } } },
    });
    expect(link).toMatchObject({ update: { content: { type: "resource_link", uri: "ui://weather/card", _meta: { ui } } } });
  });

  it("carries every tool.start and result field ACP has no slot for under _meta.agjson (read from the schema's field tables)", () => {
    const m = createAcpUpdateMapper();
    const [start] = m.push({
      type: "tool.start",
      seq: 0,
      id: "e0",
      turnId: "t",
      toolCallId: "c",
      name: "search",
      title: "Search",
      index: 1,
      serverName: "web",
      itemId: "fc_1",
      longRunning: true,
    });
    expect(start).toMatchObject({
      update: {
        sessionUpdate: "tool_call",
        title: "Search",
        _meta: { agjson: { toolName: "search", index: 1, serverName: "web", itemId: "fc_1", longRunning: true } },
      },
    });
    const [done] = m.push({
      type: "tool.done",
      seq: 1,
      toolCallId: "c",
      content: [],
      outcome: "ok",
      isError: false,
      skipSummarization: true,
      uiData: { u: 1 },
    });
    // The shared result core (§2.2) rides; tool.done's own (skipSummarization, the envelope) do not.
    expect(done).toMatchObject({
      update: {
        sessionUpdate: "tool_call_update",
        _meta: { agjson: { toolName: "search", outcome: "ok", isError: false, uiData: { u: 1 } } },
      },
    });
    expect(JSON.stringify(done)).not.toContain("skipSummarization");
  });
});
