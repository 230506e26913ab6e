/**
 * `agjson serve --agui` as a user runs it (issue 19 §1 "A server"): the built CLI serving a recorded
 * AgEvent stream, driven by the real @ag-ui/client HttpAgent over loopback. Needs `npm run build`.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpAgent } from "@ag-ui/client";
import { afterAll, describe, expect, it } from "vitest";
import { startServe } from "./serve.test-support.js";
import { reduce } from "../reduce/index.js";
import { schemaFailures, verifyFailure } from "../bridges/ag-ui/ag-ui.test-support.js";
import { ASK, recordedConversation } from "../bridges/ag-ui/serve.test-support.js";
import type { AgUiEvent } from "../bridges/ag-ui/vocabulary.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "agjson-serve-"));
const recording = recordedConversation();
const file = join(dir, "conversation.ndjson");
writeFileSync(file, recording.map((e) => JSON.stringify(e)).join("\n") + "\n");
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `agjson serve` and resolves to the URL its first stderr line names. */
const start = (args: string[]) => startServe(args, children);

describe("agjson serve --agui", () => {
  it("serves a recording to HttpAgent: the messages, tool calls and state the fold has; the interrupt and its resume", async () => {
    const { url, stderr } = await start(["--agui", "--replay", file, "--port", "0"]);
    const agent = new HttpAgent({ url, initialMessages: [{ id: "u1", role: "user", content: "Weather in Paris?" }] });
    const seen: AgUiEvent[] = [];
    await agent.runAgent({ runId: "run-1" }, { onEvent: ({ event }) => void seen.push(event as AgUiEvent) });

    const { result } = reduce(recording);
    const turn1 = result.messages.filter((m) => m.turnId === "turn_1");
    const call = turn1.flatMap((m) => m.content).find((b) => b.type === "tool-call");
    if (call?.type !== "tool-call") throw new Error("the recording has no tool call");
    const texts = turn1.map((m) => m.content.map((b) => (b.type === "text" ? b.text : "")).join("")).filter((t) => t !== "");
    expect(
      agent.messages.flatMap((m) => (m.role === "assistant" && typeof m.content === "string" && m.content !== "" ? [m.content] : [])),
    ).toEqual(texts);
    expect(
      agent.messages
        .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
        .map((c) => [c.id, c.function.name, JSON.parse(c.function.arguments)]),
    ).toEqual([[call.toolCallId, call.name, call.input]]);
    // Only the first turn touches state, so the client's state is the whole recording's fold.
    expect(result.state).not.toBeUndefined();
    expect(agent.state).toEqual(result.state);

    let interrupts: { id: string; metadata?: Record<string, unknown> }[] = [];
    await agent.runAgent(
      { runId: "run-2" },
      { onRunFinishedEvent: (p) => void (interrupts = p.outcome === "interrupt" ? p.interrupts : []) },
    );
    expect(interrupts.map((i) => i.id)).toEqual([ASK.askId]);
    await agent.runAgent({
      runId: "run-3",
      resume: [{ interruptId: ASK.askId, status: "resolved", payload: { approved: true }, metadata: { agjson: { token: ASK.token } } }],
    });
    expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "Deleted notes.txt." });

    expect(schemaFailures(seen)).toEqual([]);
    expect(await verifyFailure(seen)).toBeUndefined();
    expect(stderr()).toMatch(/run run-3 \(resume\) on thread /);
  });

  it("exits 2 with a line saying what to give", () => {
    const run = (args: string[]) =>
      spawnSync(process.execPath, [`${root}bin/agjson.js`, "serve", ...args], { cwd: root, encoding: "utf8" });
    expect(run(["--replay", file])).toMatchObject({ status: 2, stderr: expect.stringMatching(/--agui/) });
    expect(run(["--agui"])).toMatchObject({ status: 2, stderr: expect.stringMatching(/exactly one of --replay FILE or --upstream URL/) });
    expect(run(["--agui", "--replay", file, "--max-messages", "5000"])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/--max-messages must be an integer from 1 to 1024/),
    });
    expect(run(["--agui", "--upstream", "ftp://x"])).toMatchObject({ status: 2, stderr: expect.stringMatching(/http: or https:/) });
  });
});
