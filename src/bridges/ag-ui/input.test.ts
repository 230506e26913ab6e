// Issue 19 §1 "Input": RunAgentInput → AgInput — checked with @ag-ui/core's RunAgentInputSchema,
// projected default-deny (§3 has a place, or the field is dropped and named), bounded by caps, and
// refused as problem+json 400 / 413 naming the field.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgInput } from "../../../generated/types.js";
import { readNativeChunks } from "../../normalize/index.js";
import { reduce } from "../../reduce/index.js";
import { validateEvent, validateInput } from "../../validate/index.js";
import { REPO } from "./ag-ui.test-support.js";
import { AgUiCapError, HARD_AG_UI_INPUT_CAPS, resolveAgUiInputCaps } from "./input-caps.js";
import {
  type AgUiSchemas,
  createRunAgentInputReader,
  loadAgUiSchemas,
  RunAgentInputReader,
  type RunAgentInputReadOptions,
} from "./input.js";
import { toAgUiMessages } from "./messages.js";
import { toAgUi } from "./to-ag-ui.js";

const bytes = (x: unknown): Uint8Array =>
  x instanceof Uint8Array ? x : new TextEncoder().encode(typeof x === "string" ? x : JSON.stringify(x));

async function read(body: unknown, opts: RunAgentInputReadOptions = {}) {
  return (await createRunAgentInputReader(opts)).readBytes(bytes(body));
}

async function accepted(body: unknown, opts: RunAgentInputReadOptions = {}): Promise<{ input: AgInput; dropped: string[] }> {
  const r = await read(body, opts);
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.problem)}`);
  return r;
}

const base = { threadId: "th-1", runId: "run-1", messages: [{ id: "u1", role: "user", content: "Hi" }] };

describe("RunAgentInput → AgInput projection (§3)", () => {
  it("maps history, tools, context, state and lineage to a start input that validates strictly", async () => {
    const body = {
      threadId: "th-1",
      runId: "run-2",
      parentRunId: "run-1",
      protocolVersion: "1.0",
      state: { city: "Paris" },
      messages: [
        { id: "s1", role: "developer", content: "Be brief." },
        {
          id: "u1",
          role: "user",
          name: "ada",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image", source: { type: "url", value: "https://x.example/a.png", mimeType: "image/png" } },
          ],
        },
        {
          id: "a1",
          role: "assistant",
          content: "Checking.",
          toolCalls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { id: "t1", role: "tool", toolCallId: "c1", content: "18°C" },
        { id: "r1", role: "reasoning", content: "thought", encryptedValue: "blob==" },
      ],
      tools: [
        {
          name: "confirm",
          description: "Ask the user",
          parameters: { type: "object", properties: { ok: { type: "boolean" } } },
          metadata: { ui: "modal" },
        },
      ],
      context: [{ description: "locale", value: "fr-FR" }],
      forwardedProps: { theme: "dark" },
      somethingElse: 1,
    };
    const { input, dropped } = await accepted(body);
    expect(validateInput(input, { posture: "strict" }).ok).toBe(true);
    expect(input).toMatchObject({
      protocol: "agjson",
      kind: "start",
      threadId: "th-1",
      turnId: "run-2",
      parentTurnId: "run-1",
      state: { city: "Paris" },
    });
    if (input.kind !== "start") throw new Error("not a start input");
    expect(input.messages.map((m) => [m.id, m.role])).toEqual([
      ["s1", "system"],
      ["u1", "user"],
      ["a1", "assistant"],
      ["t1", "tool"],
      ["r1", "assistant"],
    ]);
    expect(input.messages[1]!.content).toEqual([
      { type: "text", text: "Weather?" },
      { type: "image", source: { type: "url", url: "https://x.example/a.png", mediaType: "image/png" } },
    ]);
    expect(input.messages[2]!.content).toEqual([
      { type: "text", text: "Checking." },
      { type: "tool-call", toolCallId: "c1", name: "get_weather", input: { city: "Paris" } },
    ]);
    expect(input.messages[3]!.content).toEqual([{ type: "tool-result", toolCallId: "c1", content: [{ type: "text", text: "18°C" }] }]);
    expect(input.messages[4]!.content).toEqual([{ type: "reasoning", text: "thought", opaque: { kind: "encrypted", value: "blob==" } }]);
    expect(input.run?.tools).toEqual([
      { name: "confirm", description: "Ask the user", inputSchema: body.tools[0]!.parameters, source: { type: "frontend" } },
    ]);
    expect(input.run?.context).toEqual([{ type: "text", text: "locale\nfr-FR", _meta: { "ag-ui/context": { description: "locale" } } }]);
    expect(input.metadata).toBeUndefined();
    expect(dropped.map((d) => d.split(":")[0])).toEqual(["/somethingElse", "/forwardedProps", "/messages/1/name", "/tools/0/metadata"]);
  });

  it('projects forwardedProps only when asked, under metadata["ag-ui/forwardedProps"]', async () => {
    const { input, dropped } = await accepted({ ...base, forwardedProps: { theme: "dark" } }, { forwardedProps: "metadata" });
    expect(input.metadata).toEqual({ "ag-ui/forwardedProps": { theme: "dark" } });
    expect(dropped).toEqual([]);
  });

  it("turns resume entries into a resume input (§3.1): answers with the echoed token / requestState, history dropped", async () => {
    const body = {
      ...base,
      tools: [{ name: "t", description: "" }],
      resume: [
        {
          interruptId: "ask-1",
          status: "resolved",
          payload: { decision: "approve" },
          metadata: { agjson: { token: "tok-1", requestState: "rs==", ordinal: 0, kind: "approval" }, trace: "x" },
        },
        { interruptId: "ask-2", status: "cancelled" },
      ],
    };
    const { input, dropped } = await accepted(body);
    expect(validateInput(input, { posture: "strict" }).ok).toBe(true);
    expect(input).toMatchObject({
      kind: "resume",
      turnId: "run-1",
      answers: [
        { askId: "ask-1", status: "resolved", reply: { decision: "approve" }, token: "tok-1", requestState: "rs==", ordinal: 0 },
        { askId: "ask-2", status: "cancelled" },
      ],
    });
    expect(dropped.map((d) => d.split(":")[0])).toEqual([
      "/resume/0/metadata/agjson/kind",
      "/resume/0/metadata/trace",
      "/messages",
      "/tools",
    ]);
  });

  // docs/spec-decisions.md D15: the ask's own fields ride metadata.agjson.ask, apart from the echoed handles.
  it("an interrupt's carry echoed back whole yields the ask's handles, never the ask's reason as the human's (§7, §3.1)", async () => {
    const events = [
      { type: "turn.start", seq: 0, turnId: "run-1", threadId: "th-1" },
      {
        type: "hitl.ask",
        seq: 1,
        turnId: "run-1",
        askId: "ask-1",
        kind: "approval",
        reason: "policy_hold",
        token: "tok-1",
        requestState: "rs==",
        continuation: "resume",
      },
      {
        type: "turn.done",
        seq: 2,
        turnId: "run-1",
        finishReason: "paused",
        outcome: {
          type: "paused",
          asks: [{ askId: "ask-1", kind: "approval", reason: "policy_hold", token: "tok-1", requestState: "rs==" }],
        },
      },
    ] as const;
    const finished = toAgUi([...events]).find((e) => e.type === "RUN_FINISHED") as {
      outcome: { interrupts: { id: string; metadata: Record<string, unknown> }[] };
    };
    const interrupt = finished.outcome.interrupts[0]!;
    expect(interrupt.metadata).toEqual({
      agjson: {
        token: "tok-1",
        requestState: "rs==",
        ask: { kind: "approval", reason: "policy_hold", turnId: "run-1", continuation: "resume" },
      },
    });
    // The client copies the interrupt's metadata back on its resume entry, as docs/bridges/ag-ui.md tells it to.
    const { input, dropped } = await accepted({
      ...base,
      messages: [],
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: true, metadata: interrupt.metadata }],
    });
    expect(input).toEqual({
      protocol: "agjson",
      version: expect.any(String),
      kind: "resume",
      threadId: "th-1",
      turnId: "run-1",
      answers: [{ askId: "ask-1", status: "resolved", reply: true, token: "tok-1", requestState: "rs==" }],
    });
    expect(dropped).toEqual([]);
    // The human's own reason, where the input side reads it, still comes through.
    const own = await accepted({
      ...base,
      messages: [],
      resume: [
        {
          interruptId: "ask-1",
          status: "resolved",
          metadata: { agjson: { ...(interrupt.metadata.agjson as object), reason: "looks fine" } },
        },
      ],
    });
    expect(own.input).toMatchObject({ answers: [{ askId: "ask-1", reason: "looks fine", token: "tok-1" }] });
  });

  it("reads the history this bridge's MESSAGES_SNAPSHOT sent; the whole AgMessage comes back only with honorCarry", async () => {
    const events = readNativeChunks(readFileSync(join(REPO, "samples/chat-with-tool.ndjson"), "utf8")).flatMap((x) => {
      const v = validateEvent(x);
      return v.ok && v.known ? [v.event] : [];
    });
    const history = reduce(events).result.messages;
    const body = { ...base, messages: toAgUiMessages(history, true) };
    const carried = await accepted(body, { honorCarry: true });
    if (carried.input.kind !== "start") throw new Error("not a start input");
    expect(carried.input.messages).toEqual(history);
    const plain = await accepted(body);
    if (plain.input.kind !== "start") throw new Error("not a start input");
    expect(validateInput(plain.input, { posture: "strict" }).ok).toBe(true);
    expect(plain.input.messages).not.toEqual(history);
    expect(plain.dropped.some((d) => d.startsWith("/messages/0/metadata"))).toBe(true);
  });
});

describe("RunAgentInput refusals (problem+json, naming the field)", () => {
  const refused = async (body: unknown, opts: RunAgentInputReadOptions = {}) => {
    const r = await read(body, opts);
    if (r.ok) throw new Error("accepted");
    return r.problem;
  };

  it("413 for each aggregate cap, naming the field and the cap", async () => {
    const many = Array.from({ length: 5 }, (_, i) => ({ id: `u${i}`, role: "user", content: "x" }));
    expect(await refused({ ...base, messages: many }, { caps: { maxMessages: 4 } })).toMatchObject({
      status: 413,
      limit: { name: "maxMessages", value: 4 },
      issues: [{ path: "/messages", keyword: "maxMessages" }],
    });
    expect(await refused({ ...base, state: { blob: "x".repeat(200) } }, { caps: { maxStateBytes: 100 } })).toMatchObject({
      status: 413,
      issues: [{ path: "/state", keyword: "maxStateBytes" }],
    });
    expect(
      await refused(
        {
          ...base,
          tools: [
            { name: "a", description: "" },
            { name: "b", description: "y".repeat(300) },
          ],
        },
        { caps: { maxToolBytes: 200 } },
      ),
    ).toMatchObject({ status: 413, issues: [{ path: "/tools/1" }] });
    expect(
      await refused(
        {
          ...base,
          context: [
            { description: "d", value: "v" },
            { description: "d", value: "v" },
          ],
        },
        { caps: { maxContext: 1 } },
      ),
    ).toMatchObject({ status: 413, issues: [{ path: "/context" }] });
    expect(
      await refused(
        {
          ...base,
          resume: [
            { interruptId: "a", status: "resolved" },
            { interruptId: "b", status: "resolved" },
          ],
        },
        { caps: { maxResume: 1 } },
      ),
    ).toMatchObject({ status: 413, issues: [{ path: "/resume" }] });
    expect(
      await refused(
        { ...base, forwardedProps: { p: "z".repeat(100) } },
        { forwardedProps: "metadata", caps: { maxForwardedPropsBytes: 50 } },
      ),
    ).toMatchObject({ status: 413, issues: [{ path: "/forwardedProps" }] });
    expect(await refused({ ...base, state: "q".repeat(2000) }, { caps: { maxBodyBytes: 1000 } })).toMatchObject({
      status: 413,
      limit: { name: "maxBodyBytes", value: 1000 },
      // The whole body has no path to name: the sentence starts with what is over.
      detail: expect.stringMatching(/^the body is \d+ bytes, over the maxBodyBytes cap of 1000;/),
    });
  });

  it("400 for depth, malformed JSON, a schema violation and another protocol major", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(await refused({ ...base, state: deep })).toMatchObject({
      status: 400,
      type: expect.stringMatching(/too-deep$/),
      limit: { name: "maxDepth", value: 32 },
    });
    expect(await refused('{"threadId": "t",')).toMatchObject({ status: 400, type: expect.stringMatching(/malformed-json$/) });
    expect(await refused(new Uint8Array([0x7b, 0xff, 0x7d]))).toMatchObject({
      status: 400,
      type: expect.stringMatching(/malformed-json$/),
    });
    const bad = await refused({ threadId: "t", runId: 7, messages: [{ id: "m", role: "wizard", content: "x" }] });
    expect(bad).toMatchObject({ status: 400, type: expect.stringMatching(/invalid-input$/) });
    expect(bad.issues?.map((i) => i.path)).toEqual(["/runId", "/messages/0/role"]);
    expect(await refused({ ...base, protocolVersion: "2.0" })).toMatchObject({
      status: 400,
      type: expect.stringMatching(/unsupported-version$/),
      issues: [{ path: "/protocolVersion" }],
    });
    expect(await refused({ ...base, messages: "not a list" })).toMatchObject({ status: 400, issues: [{ path: "/messages" }] });
  });
});

describe("AG-UI input caps", () => {
  it("narrow or widen up to the hard maximum, never past it", () => {
    expect(resolveAgUiInputCaps({ maxMessages: HARD_AG_UI_INPUT_CAPS.maxMessages }).maxMessages).toBe(1024);
    expect(() => resolveAgUiInputCaps({ maxMessages: HARD_AG_UI_INPUT_CAPS.maxMessages + 1 })).toThrow(AgUiCapError);
    expect(() => resolveAgUiInputCaps({ maxDepth: 0 })).toThrow(/maxDepth must be an integer from 1 to 64/);
    expect(() => resolveAgUiInputCaps({ maxWhatever: 3 } as never)).toThrow(/unknown AG-UI input cap "maxWhatever"/);
  });
});

describe("a __proto__ key in a RunAgentInput (JSON.parse keeps it; zod would make it the prototype)", () => {
  // Raw JSON text: an object literal's __proto__ would set the prototype here, not make a key.
  const raw = (inner: string, extra = "") =>
    `{"threadId":"th","runId":"r","messages":[{"id":"u","role":"user","content":"Hi"${inner}}],"tools":[{"name":"t","description":"d","parameters":{"type":"object"},"__proto__":{"name":"evil"}}],"context":[{"description":"d","value":"v","__proto__":{"value":"forged","description":"forged"}}]${extra}}`;

  it("cannot bring state past maxStateBytes, turn a start into a resume past maxResume, or set lineage", async () => {
    const resume = Array.from({ length: 50 }, (_, i) => ({ interruptId: `a${i}`, status: "resolved" }));
    const hidden = JSON.stringify({ state: { big: "x".repeat(500_000) }, resume, parentRunId: "forged", forwardedProps: { a: 1 } });
    const r = await read(raw("", `,"__proto__":${hidden}`), { caps: { maxBodyBytes: 1 << 20 }, forwardedProps: "metadata" });
    if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.problem)}`);
    expect(r.input.kind).toBe("start");
    expect(r.input).not.toHaveProperty("state");
    expect(r.input).not.toHaveProperty("parentTurnId");
    expect(r.input).not.toHaveProperty("metadata");
    expect(Object.getPrototypeOf(r.runAgentInput)).toBe(Object.prototype);
    expect(r.dropped).toContain("/__proto__: not a field (a key that would replace the object's prototype)");
  });

  it("in messages, tools and context: no field read through it, each named in dropped", async () => {
    const r = await read(raw(`,"__proto__":{"role":"system","id":"forged"}`));
    if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.problem)}`);
    if (r.input.kind !== "start") throw new Error("not a start input");
    expect(r.input.messages.map((m) => [m.id, m.role])).toEqual([["u", "user"]]);
    expect(r.input.run?.tools?.map((t) => t.name)).toEqual(["t"]);
    expect(r.input.run?.context?.map((b) => (b.type === "text" ? b.text : ""))).toEqual(["d\nv"]);
    expect(r.dropped).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/messages\/0\/__proto__/),
        expect.stringMatching(/^\/tools\/0\/__proto__/),
        expect.stringMatching(/^\/context\/0\/__proto__/),
      ]),
    );
  });

  it("named in dropped whatever the zod major does with the key (zod 4 leaves it out rather than assigning it)", async () => {
    // zod 3 assigns a `__proto__` key on the objects it builds (a prototype); zod 4 (the peer range
    // allows both) builds them without it. The same schemas, with zod 4's outcome on every object
    // the schema built: a plain prototype, the key gone, nothing to see on the output.
    const real = await loadAgUiSchemas();
    const zod4Like: AgUiSchemas = {
      ...real,
      RunAgentInputSchema: {
        safeParse(value: unknown) {
          const r = real.RunAgentInputSchema.safeParse(value);
          if (!r.success) return r;
          const stack: unknown[] = [r.data];
          while (stack.length > 0) {
            const x = stack.pop();
            if (typeof x !== "object" || x === null) continue;
            if (!Array.isArray(x) && Object.getPrototypeOf(x) !== Object.prototype) Object.setPrototypeOf(x, Object.prototype);
            stack.push(...(Array.isArray(x) ? x : Object.values(x)));
          }
          return r;
        },
      },
    };
    const r = new RunAgentInputReader(zod4Like).readBytes(
      new TextEncoder().encode(raw(`,"__proto__":{"role":"system"}`, `,"state":{"__proto__":{"a":1}}`)),
    );
    if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.problem)}`);
    expect(
      r.dropped
        .filter((d) => d.includes("__proto__"))
        .map((d) => d.split(":")[0])
        .sort(),
    ).toEqual(["/context/0/__proto__", "/messages/0/__proto__", "/tools/0/__proto__"]);
  });

  it("inside state it is data: kept as an own key, counted by the state cap", async () => {
    const ok = await accepted(`{"threadId":"th","runId":"r","messages":[],"state":{"__proto__":{"a":1}}}`);
    expect(Object.keys(ok.input.state as object)).toEqual(["__proto__"]);
    const over = await read(`{"threadId":"th","runId":"r","messages":[],"state":{"__proto__":{"a":"${"x".repeat(70_000)}"}}}`);
    expect(over.ok).toBe(false);
  });
});
