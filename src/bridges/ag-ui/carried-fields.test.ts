// Each AgJSON event toAgUi maps onto an AG-UI event of its own splits its fields in two: the ones the
// AG-UI event states in its own slots (AG_UI_OWN in carry.ts and the lists beside it) and the rest,
// carried under `metadata.agjson` (docs/bridges/ag-ui.md "Lossless carriage"); the `ag-ui` facet
// reads the two back. This test holds both directions to the schema: for each event below, every
// field the generated EVENT_FIELDS lists (§4) must be set by the specimen, be valid there (strict),
// and come back from AgJSON → AG-UI → AgJSON unchanged — mapped to a slot or carried. A field the
// schema adds to one of these events fails here until the specimen sets it and it survives the trip
// (§0.2: nothing a source sends is dropped silently; §12: `_meta` round-trips).
import { describe, expect, it } from "vitest";
import { DEF_FIELDS, EVENT_FIELDS } from "../../../generated/schema-facts.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { validateEvent } from "../../validate/index.js";
import { normalizeAll } from "../../normalize/index.js";
import { AG_UI_OWN } from "./carry.js";
import { toAgUi } from "./to-ag-ui.js";

type EventType = keyof typeof EVENT_FIELDS;

interface Row {
  /** What the row is called when one event type has several (a run's turn.done, a subagent's). */
  name?: string;
  /** The specimen: every schema field of its type set (seq aside, which the facet renumbers). */
  event: { type: EventType } & Record<string, unknown>;
  /** Events before it that open what it names (the run, the message, the block, the subagent). */
  before?: Record<string, unknown>[];
  /** Events after it that close what it opened, so the facet flushes nothing of its own. */
  after?: Record<string, unknown>[];
  /** For a content.block: the block's $def, whose every schema field the specimen's block sets too. */
  blockDef?: "AgTextBlock" | "AgToolCallBlock" | "AgDataBlock" | "AgResourceBlock";
  /** Schema fields that do not come back, each with the reason (a § or the AG-UI slot that owns it). */
  notReturned?: Record<string, string>;
}

const pm = { acme: { region: "eu" } };
const _meta = { "acme.dev/trace": "x1" };
const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 };
const run = [{ type: "turn.start", threadId: "th", turnId: "t" }];
const msg = [...run, { type: "message.start", id: "m", role: "assistant", turnId: "t", threadId: "th" }];
const text = [...msg, { type: "text.start", id: "b", turnId: "t", messageId: "m" }];
const reasoning = [...msg, { type: "reasoning.start", id: "r", turnId: "t", messageId: "m" }];
const tool = [...msg, { type: "tool.start", toolCallId: "c", name: "search", turnId: "t", messageId: "m" }];
const sub = [...run, { type: "subagent.start", turnId: "s", parentTurnId: "t", agentName: "helper" }];
const env = { id: "e1", parentId: "p", _meta } as const;
const annotations = { audience: ["user"], priority: 0.5, lastModified: "2026-01-01T00:00:00Z" };

/** A live hitl.ask and the paused turn.done whose outcome holds the same ask (§7: the two agree). */
function pausedOn(event: Row["event"], name?: string): Row {
  const ask = Object.fromEntries(Object.entries(event).filter(([k]) => (DEF_FIELDS.AgPausedAsk as readonly string[]).includes(k)));
  return {
    ...(name !== undefined ? { name } : {}),
    event,
    before: run,
    after: [{ type: "turn.done", turnId: "t", outcome: { type: "paused", asks: [ask] }, finishReason: "paused" }],
  };
}

const rows: Row[] = [
  { event: { type: "turn.start", turnId: "t", threadId: "th", messageId: "m0", trigger: { kind: "cron", ref: "nightly" }, ...env } },
  {
    name: "a run's turn.done",
    event: {
      type: "turn.done",
      turnId: "t",
      outcome: { type: "success" },
      finishReason: "stop",
      usage,
      safety: [{ category: "harassment", blocked: false }],
      messageMetadata: { k: 1 },
      taskState: "completed",
      messageId: "m",
      ...env,
    },
    before: run,
  },
  {
    name: "a subagent's turn.done",
    event: {
      type: "turn.done",
      turnId: "s",
      outcome: { type: "success" },
      finishReason: "stop",
      usage,
      safety: [{ category: "harassment", blocked: false }],
      messageMetadata: { k: 1 },
      taskState: "completed",
      messageId: "m",
      ...env,
    },
    before: sub,
  },
  ...(["run", "subagent"] as const).flatMap((who) =>
    [
      { type: "error", message: "boom", code: "E1" },
      { type: "aborted", reason: "user" },
      { type: "rejected", reason: "policy" },
    ].map(
      (outcome): Row => ({
        name: `a ${who}'s turn.done ${outcome.type}`,
        event: {
          type: "turn.done",
          turnId: who === "run" ? "t" : "s",
          outcome,
          finishReason: "other",
          usage,
          safety: [{ category: "harassment", blocked: false }],
          messageMetadata: { k: 1 },
          taskState: "failed",
          messageId: "m",
          ...env,
        },
        before: who === "run" ? run : sub,
      }),
    ),
  ),
  { event: { type: "turn.error", turnId: "t", message: "boom", code: "E1", retriable: true, usage, messageId: "m", ...env }, before: run },
  { event: { type: "turn.abort", turnId: "t", reason: "user", messageId: "m", ...env }, before: run },
  { event: { type: "message.end", id: "m", turnId: "t", usage, messageId: "m", parentId: "p", _meta }, before: msg },
  {
    event: { type: "step.start", id: "st", stepName: "plan", turnId: "t", messageId: "m", parentId: "p", _meta },
    before: run,
    after: [{ type: "step.done", id: "st", stepName: "plan", turnId: "t" }],
  },
  {
    event: { type: "step.done", id: "st", stepName: "plan", usage, turnId: "t", messageId: "m", parentId: "p", _meta },
    before: [...run, { type: "step.start", id: "st", stepName: "plan", turnId: "t" }],
  },
  {
    event: {
      type: "text.start",
      id: "b",
      turnId: "t",
      messageId: "m",
      role: "assistant",
      index: 0,
      previousPartKind: "text",
      providerMetadata: pm,
      candidateIndex: 0,
      parentId: "p",
      _meta,
    },
    before: msg,
  },
  {
    event: { type: "text.delta", id: "b", turnId: "t", messageId: "m", delta: "hi", providerMetadata: pm, parentId: "p", _meta },
    before: text,
  },
  {
    event: {
      type: "text.end",
      id: "b",
      turnId: "t",
      messageId: "m",
      providerMetadata: pm,
      citations: [{ kind: "url", citedText: "hi", url: "https://example.com/" }],
      parentId: "p",
      _meta,
    },
    before: [...text, { type: "text.delta", id: "b", delta: "hi", turnId: "t", messageId: "m" }],
  },
  {
    event: {
      type: "reasoning.start",
      id: "r",
      turnId: "t",
      messageId: "m",
      mode: "summarized",
      partIndex: 0,
      previousPartKind: "text",
      providerMetadata: pm,
      itemId: "rs_1",
      candidateIndex: 0,
      parentId: "p",
      _meta,
    },
    before: msg,
  },
  {
    event: {
      type: "reasoning.delta",
      id: "r",
      turnId: "t",
      messageId: "m",
      delta: "so",
      partIndex: 0,
      providerMetadata: pm,
      parentId: "p",
      _meta,
    },
    before: reasoning,
  },
  {
    event: {
      type: "reasoning.end",
      id: "r",
      turnId: "t",
      messageId: "m",
      provider: "anthropic",
      providerMetadata: pm,
      parentId: "p",
      _meta,
    },
    before: [...reasoning, { type: "reasoning.delta", id: "r", delta: "so", turnId: "t", messageId: "m" }],
  },
  {
    event: {
      type: "reasoning.opaque",
      id: "r",
      turnId: "t",
      messageId: "m",
      kind: "signature",
      value: "sig",
      provider: "anthropic",
      itemId: "rs_1",
      parentId: "p",
      _meta,
    },
    before: reasoning,
  },
  {
    event: {
      type: "tool.start",
      toolCallId: "c",
      name: "search",
      turnId: "t",
      messageId: "m",
      index: 0,
      dynamic: true,
      serverName: "mcp",
      providerExecuted: false,
      requiresApproval: true,
      title: "Search",
      toolMetadata: { k: 1 },
      uiVisibility: ["model"],
      itemId: "fc_1",
      providerMetadata: pm,
      candidateIndex: 0,
      longRunning: true,
      ...env,
    },
    before: msg,
  },
  { event: { type: "tool.args.delta", toolCallId: "c", delta: '{"q":', turnId: "t", messageId: "m", ...env }, before: tool },
  {
    event: {
      type: "tool.args.assembled",
      toolCallId: "c",
      input: { q: 1 },
      signature: "sig",
      title: "Search 1",
      toolMetadata: { k: 1 },
      providerMetadata: pm,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: tool,
  },
  {
    event: {
      type: "tool.done",
      toolCallId: "c",
      content: [{ type: "text", text: "ok" }],
      outcome: "ok",
      structuredContent: { n: 1 },
      uiData: { u: 1 },
      sideData: { s: 1 },
      providerMetadata: pm,
      toolMetadata: { k: 1 },
      dynamic: true,
      skipSummarization: true,
      more: false,
      preliminary: false,
      candidateIndex: 0,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: [...tool, { type: "tool.args.assembled", toolCallId: "c", input: { q: 1 }, turnId: "t", messageId: "m" }],
  },
  {
    name: "a failed tool.done",
    event: {
      type: "tool.done",
      toolCallId: "c",
      content: [],
      outcome: "error",
      errorText: "boom",
      errorCode: "E1",
      isError: true,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: [...tool, { type: "tool.args.assembled", toolCallId: "c", input: { q: 1 }, turnId: "t", messageId: "m" }],
  },
  {
    name: "a tool.done awaiting input",
    event: {
      type: "tool.done",
      toolCallId: "c",
      content: [],
      outcome: "input_required",
      pendingInput: { requestState: "eyJzdGVwIjoyfQ", inputKeys: ["confirm"] },
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: [...tool, { type: "tool.args.assembled", toolCallId: "c", input: { q: 1 }, turnId: "t", messageId: "m" }],
  },
  {
    event: { type: "subagent.start", turnId: "s", parentTurnId: "t", agentId: "a1", agentName: "helper", messageId: "m", ...env },
    before: run,
  },
  { event: { type: "subagent.done", turnId: "s", parentTurnId: "t", messageId: "m", ...env }, before: sub },
  { event: { type: "state.snapshot", snapshot: { n: 1 }, turnId: "t", messageId: "m", ...env }, before: run },
  {
    event: { type: "state.delta", patch: [{ op: "add", path: "/n", value: 2 }], turnId: "t", messageId: "m", ...env },
    before: [...run, { type: "state.snapshot", snapshot: { n: 1 }, turnId: "t" }],
  },
  {
    name: "a node-keyed state.delta that seeds the state",
    event: { type: "state.delta", patch: { planner: { n: 1 } }, turnId: "t", messageId: "m", ...env },
    before: run,
  },
  {
    name: "a node-keyed state.delta",
    event: { type: "state.delta", patch: { planner: { n: 2 } }, turnId: "t", messageId: "m", ...env },
    before: [...run, { type: "state.snapshot", snapshot: { n: 1 }, turnId: "t" }],
  },
  ...(
    [
      [
        "shown by its text",
        [
          { type: "text.start", id: "b", turnId: "t", messageId: "m" },
          { type: "text.delta", id: "b", delta: "hi", turnId: "t", messageId: "m" },
          { type: "text.end", id: "b", turnId: "t", messageId: "m" },
        ],
      ],
      [
        "shown by its tool call",
        [
          { type: "tool.start", toolCallId: "c", name: "search", turnId: "t", messageId: "m" },
          { type: "tool.args.assembled", toolCallId: "c", input: { q: 1 }, turnId: "t", messageId: "m" },
        ],
      ],
      ["with no content (CUSTOM agjson.message.start)", [{ type: "message.end", id: "m", turnId: "t" }]],
    ] as const
  ).map(
    ([how, after]): Row => ({
      name: `a message.start ${how}`,
      event: {
        type: "message.start",
        id: "m",
        role: "assistant",
        turnId: "t",
        threadId: "th",
        stepId: "st",
        extensions: ["https://example.com/ext"],
        candidateIndex: 0,
        agentId: "a1",
        agentName: "helper",
        agentRole: "planner",
        model: "m-1",
        messageId: "m",
        parentId: "p",
        _meta,
      },
      before: run,
      after: [...after],
    }),
  ),
  pausedOn({
    type: "hitl.ask",
    askId: "k",
    kind: "choice",
    message: "Which?",
    schema: { type: "string" },
    choices: [{ id: "a", label: "A", value: 1 }],
    toolCallId: "c",
    continuation: "resume",
    reason: "needs a pick",
    metadata: { k: 1 },
    requestState: "eyJzIjoxfQ",
    inputKey: "pick",
    resumeBinding: "id",
    ordinal: 0,
    token: "tok",
    expiresAt: "2030-01-01T00:00:00Z",
    turnId: "t",
    messageId: "m",
    ...env,
  }),
  pausedOn(
    {
      type: "hitl.ask",
      askId: "k",
      kind: "auth",
      message: "Sign in",
      authConfig: { scheme: "oauth2", scopes: ["read"], authorizationUrl: "https://example.com/auth" },
      url: "https://example.com/login",
      turnId: "t",
      messageId: "m",
      ...env,
    },
    "an auth hitl.ask",
  ),
  {
    event: {
      type: "messages.snapshot",
      messages: [{ id: "m", role: "user", content: [{ type: "text", text: "hi" }] }],
      turns: [{ turnId: "t", threadId: "th", finishReason: "stop" }],
      artifacts: [{ artifactId: "a", turnId: "t", threadId: "th", parts: [{ type: "text", text: "x" }] }],
      memory: [{ scope: "thread", key: "k", value: 1 }],
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: run,
  },
  {
    event: {
      type: "ui.surface.start",
      surfaceId: "s1",
      catalogId: "https://example.com/catalog",
      surfaceProperties: { w: 1 },
      sendDataModel: true,
      components: [{ id: "root" }],
      dataModel: { n: 1 },
      toolCallId: "c",
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: run,
  },
  {
    event: { type: "ui.surface.update", surfaceId: "s1", components: [{ id: "root" }], turnId: "t", messageId: "m", ...env },
    before: [...run, { type: "ui.surface.start", surfaceId: "s1", catalogId: "https://example.com/catalog", turnId: "t" }],
  },
  {
    event: { type: "ui.data-model", surfaceId: "s1", path: "/n", value: 2, turnId: "t", messageId: "m", ...env },
    before: [...run, { type: "ui.surface.start", surfaceId: "s1", catalogId: "https://example.com/catalog", turnId: "t" }],
  },
  {
    event: { type: "ui.surface.end", surfaceId: "s1", turnId: "t", messageId: "m", ...env },
    before: [...run, { type: "ui.surface.start", surfaceId: "s1", catalogId: "https://example.com/catalog", turnId: "t" }],
  },
  {
    name: "a text content.block",
    blockDef: "AgTextBlock",
    event: {
      type: "content.block",
      block: {
        type: "text",
        text: "hi",
        citations: [{ kind: "url", citedText: "hi", url: "https://example.com/" }],
        providerMetadata: pm,
        annotations,
        _meta,
      },
      transient: false,
      candidateIndex: 0,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: msg,
  },
  {
    name: "a tool-call content.block",
    blockDef: "AgToolCallBlock",
    event: {
      type: "content.block",
      block: {
        type: "tool-call",
        toolCallId: "c",
        name: "search",
        input: { q: 1 },
        serverName: "mcp",
        providerExecuted: true,
        signature: "sig",
        provider: "anthropic",
        title: "Search",
        toolMetadata: { k: 1 },
        itemId: "fc_1",
        providerCallIndex: 0,
        uiVisibility: ["model"],
        providerMetadata: pm,
        annotations,
        _meta,
      },
      transient: false,
      candidateIndex: 0,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: msg,
  },
  {
    name: "a data content.block",
    blockDef: "AgDataBlock",
    event: {
      type: "content.block",
      block: { type: "data", name: "weather", id: "d1", data: { c: 18 }, transient: false, annotations, _meta },
      transient: false,
      candidateIndex: 0,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: msg,
  },
  {
    name: "an MCP Apps resource content.block",
    blockDef: "AgResourceBlock",
    event: {
      type: "content.block",
      block: {
        type: "resource",
        resource: { uri: "ui://weather/card", mimeType: "text/html+skybridge", text: "<p>18</p>", _meta },
        annotations,
        _meta,
      },
      transient: false,
      candidateIndex: 0,
      turnId: "t",
      messageId: "m",
      ...env,
    },
    before: msg,
  },
  { event: { type: "display.required", provider: "openai", html: "<p>hi</p>", turnId: "t", messageId: "m", ...env }, before: run },
];

/** The specimen as an event: strict-valid, or the test fails naming what is wrong with it. */
function strictEvent(raw: Record<string, unknown>, seq: number): AgLenientEvent {
  const v = validateEvent({ ...raw, seq }, { posture: "strict" });
  if (!v.ok || !v.known)
    throw new Error(
      `specimen ${JSON.stringify(raw)} is not strict-valid: ${v.ok ? "unknown type" : v.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    );
  return v.event;
}

/** The event the facet gave back for the specimen: the same type, the same key (block, call, id or turn). */
function cameBack(row: Row, back: AgLenientEvent[]): Record<string, unknown> | undefined {
  const e = row.event;
  const key =
    typeof e.toolCallId === "string"
      ? "toolCallId"
      : typeof e.id === "string" &&
          ![
            "turn.start",
            "turn.done",
            "turn.error",
            "turn.abort",
            "subagent.start",
            "subagent.done",
            "state.snapshot",
            "state.delta",
            "display.required",
            "tool.start",
            "tool.args.delta",
            "tool.args.assembled",
            "tool.done",
          ].includes(e.type)
        ? "id"
        : "turnId";
  const found = back.filter((b) => b.type === e.type && Reflect.get(b, key) === e[key]);
  return found.length > 0 ? { ...found[found.length - 1] } : undefined;
}

describe("AgJSON → AG-UI → AgJSON keeps every schema field of each mapped event (§0.2, §12, docs/bridges/ag-ui.md)", () => {
  it("every event AG_UI_OWN maps has a specimen here", () => {
    expect(Object.keys(AG_UI_OWN).filter((type) => !rows.some((r) => r.event.type === type))).toEqual([]);
  });

  for (const row of rows) {
    const type = row.event.type;
    const fields = (EVENT_FIELDS[type] as readonly string[]).filter((f) => f !== "seq");
    it(`${row.name ?? type}: ${fields.join(", ")}`, () => {
      const all = [...(row.before ?? []), row.event, ...(row.after ?? [])].map((e, i) => strictEvent(e, i));
      // Every schema field is set by some specimen of the type (two or three where the schema's
      // cross-field rules keep fields apart, as tool.done's errorText and pendingInput).
      for (const field of fields)
        expect({ field, set: rows.some((r) => r.event.type === type && field in r.event) }).toEqual({ field, set: true });
      if (row.blockDef !== undefined)
        for (const field of DEF_FIELDS[row.blockDef])
          expect({ field, set: field in Object(row.event.block) }).toEqual({ field, set: true });
      const back = cameBack(row, normalizeAll("ag-ui", toAgUi(all, { carry: true })));
      expect(back, `${type} did not come back`).toBeDefined();
      for (const field of fields) {
        if (!(field in row.event) || row.notReturned?.[field] !== undefined) continue;
        expect({ field, value: back?.[field] }).toEqual({ field, value: row.event[field] });
      }
    });
    const exceptions = Object.keys(row.notReturned ?? {});
    if (exceptions.length > 0) {
      it(`${row.name ?? type}: every exception names a field the schema still lists`, () => {
        expect(exceptions.filter((f) => !fields.includes(f))).toEqual([]);
      });
    }
  }
});
