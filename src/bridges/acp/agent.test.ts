/**
 * The ACP agent in process (no CLI build): an SDK client over an in-memory ndJSON pair drives
 * `createAcpAgent` fronting a scripted AgEventSource that records every AgInput it is given, so a
 * test reads the exact `resume` (§3.1) the agent builds from the client's permission choices (§7).
 */
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import { validateInput } from "../../validate/index.js";
import { createAcpAgent } from "./agent.js";

/** A source playing one scripted turn per input, in order, and keeping the inputs. */
function scriptedSource(turns: AgLenientEvent[][]): { inputs: AgInput[]; run: (input: AgInput) => AsyncGenerator<AgLenientEvent> } {
  const inputs: AgInput[] = [];
  return {
    inputs,
    async *run(input: AgInput) {
      inputs.push(input);
      for (const event of turns[inputs.length - 1] ?? []) yield event;
    },
  };
}

/** Runs one prompt through the agent; `answer` decides each permission request. */
async function prompt(
  turns: AgLenientEvent[][],
  answer: (req: RequestPermissionRequest) => RequestPermissionResponse,
): Promise<{ inputs: AgInput[]; permissions: RequestPermissionRequest[]; stop: unknown }> {
  const source = scriptedSource(turns);
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const connection = createAcpAgent({ source }).connect(ndJsonStream(toClient.writable, toAgent.readable));
  const permissions: RequestPermissionRequest[] = [];
  let stop: unknown;
  await client({ name: "agjson-test" })
    .onNotification(methods.client.session.update, () => undefined)
    .onNotification(
      "_agjson/event",
      (p: unknown) => p,
      () => undefined,
    )
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return answer(params);
    })
    .connectWith(ndJsonStream(toAgent.writable, toClient.readable), async (ctx) => {
      await ctx.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await ctx.request(methods.agent.session.new, { cwd: "/", mcpServers: [] });
      stop = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "go" }] });
    });
  await toAgent.writable.close().catch(() => undefined);
  await connection.closed.catch(() => undefined);
  return { inputs: source.inputs, permissions, stop };
}

describe("ACP agent: the resume it builds (§3.1, §7)", () => {
  it("answers positional asks that share one askId each by its own ordinal (§7 resume binding)", async () => {
    // §7: repeated interrupts in one LangGraph node share one id; resumeBinding "positional" +
    // ordinal tell them apart, and the resume list is rebuilt by sorting answers on ordinal.
    const choices = [
      { id: "a", label: "A" },
      { id: "b", label: "B" },
    ];
    const asks = [
      { askId: "node:int", kind: "choice" as const, choices, resumeBinding: "positional" as const, ordinal: 0 },
      { askId: "node:int", kind: "choice" as const, choices, resumeBinding: "positional" as const, ordinal: 1 },
    ];
    const turns: AgLenientEvent[][] = [
      [
        { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
        { type: "hitl.ask", seq: 1, ...asks[0]! },
        { type: "hitl.ask", seq: 2, ...asks[1]! },
        { type: "turn.done", seq: 3, turnId: "t1", outcome: { type: "paused", asks }, finishReason: "paused" },
      ],
      [
        { type: "turn.start", seq: 0, threadId: "th", turnId: "t1", trigger: { kind: "resume" } },
        { type: "turn.done", seq: 1, turnId: "t1", outcome: { type: "success" }, finishReason: "stop" },
      ],
    ];
    let n = 0;
    const { inputs, permissions, stop } = await prompt(turns, () => ({
      outcome: { outcome: "selected", optionId: n++ === 0 ? "a" : "b" },
    }));
    expect(permissions).toHaveLength(2);
    expect(stop).toMatchObject({ stopReason: "end_turn" });
    const resume = inputs[1];
    expect(resume !== undefined && validateInput(resume, { posture: "strict" }).ok).toBe(true);
    expect(resume).toMatchObject({
      kind: "resume",
      turnId: "t1",
      answers: [
        { askId: "node:int", status: "resolved", reply: "a", ordinal: 0 },
        { askId: "node:int", status: "resolved", reply: "b", ordinal: 1 },
      ],
    });
  });

  it("answers every ask of the paused outcome in its order: reject → declined, choice → its id, a form ACP cannot show → cancelled; token / requestState echoed (§7, §13.1)", async () => {
    const approve = { askId: "ap", kind: "approval" as const, token: "tok-1", requestState: "rs==" };
    const pick = {
      askId: "ch",
      kind: "choice" as const,
      choices: [
        { id: "red", label: "Red" },
        { id: "blue", label: "Blue" },
      ],
    };
    const form = { askId: "fm", kind: "form" as const, schema: { type: "object" } };
    const turns: AgLenientEvent[][] = [
      [
        { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
        { type: "hitl.ask", seq: 1, ...approve },
        { type: "hitl.ask", seq: 2, ...pick },
        { type: "hitl.ask", seq: 3, ...form },
        // The outcome lists the asks in another order than they streamed: the resume follows the outcome.
        { type: "turn.done", seq: 4, turnId: "t1", outcome: { type: "paused", asks: [form, pick, approve] }, finishReason: "paused" },
      ],
      [{ type: "turn.done", seq: 0, turnId: "t1", outcome: { type: "success" }, finishReason: "stop" }],
    ];
    const { inputs, permissions } = await prompt(turns, (req) => ({
      outcome: { outcome: "selected", optionId: req.options.some((o) => o.optionId === "blue") ? "blue" : "reject_once" },
    }));
    expect(permissions).toHaveLength(2);
    expect(inputs[1]).toEqual({
      protocol: "agjson",
      version: inputs[0]!.version,
      kind: "resume",
      threadId: inputs[0]!.threadId,
      turnId: "t1",
      answers: [
        { askId: "fm", status: "cancelled", reason: expect.stringContaining('"form"') },
        { askId: "ch", status: "resolved", reply: "blue" },
        { askId: "ap", status: "declined", token: "tok-1", requestState: "rs==" },
      ],
    });
  });
});
