// The fields a block-creating or block-updating row (§5 folding table) copies from its event onto
// the block are written out field by field in the family modules (the hot path: no generic copy).
// This test holds them to the schema: every field an event shares with the block it folds into
// (the generated EVENT_FIELDS ∩ DEF_FIELDS, envelope fields aside) must be set by the specimen
// below, be valid there (strict), and reach the folded block. A field the schema adds to both an
// event and its block fails here until the row copies it — or until an exception says why not.
import { describe, expect, it } from "vitest";
import { DEF_FIELDS, EVENT_ENVELOPE_FIELDS, EVENT_FIELDS } from "../../generated/schema-facts.js";
import type { AgBlock } from "../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { validateEvent } from "../validate/index.js";
import { reduce } from "./index.js";

type BlockDef = "AgTextBlock" | "AgReasoningBlock" | "AgToolCallBlock" | "AgToolResultBlock";

interface Row {
  /** The row's event, every shared field set to a value it must carry (validated strict below). */
  event: { type: keyof typeof EVENT_FIELDS } & Record<string, unknown>;
  /** The block it creates or updates. */
  block: BlockDef;
  /** Events before it that open what it updates. */
  before?: Record<string, unknown>[];
  /** Shared fields the row does not copy, each with the § that says so. */
  notCopied?: Record<string, string>;
  /** Fields the row merges (REPLACE-by-key) rather than sets: the block holds the event's keys. */
  merged?: string[];
}

const pm = { acme: { region: "eu" } };
const PENDING = { requestState: "eyJzdGVwIjoyfQ", inputKeys: ["confirm"] };
const meta = { "acme.dev/node": "planner" };
const open: Record<string, unknown>[] = [
  { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
  { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
];

/** The specimen as an AgEvent: strict-valid, or the test fails naming what is wrong with it. */
function strictEvent(raw: Record<string, unknown>): AgLenientEvent {
  const v = validateEvent(raw, { posture: "strict" });
  if (!v.ok || !v.known)
    throw new Error(
      `specimen ${JSON.stringify(raw)} is not strict-valid: ${v.ok ? "unknown type" : v.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
    );
  return v.event;
}

const rows: Row[] = [
  {
    event: { type: "text.start", seq: 2, id: "x", providerMetadata: pm, _meta: meta },
    block: "AgTextBlock",
    merged: ["providerMetadata", "_meta"],
  },
  {
    event: {
      type: "text.end",
      seq: 3,
      id: "x",
      providerMetadata: pm,
      citations: [
        {
          kind: "url",
          citedText: "Paris",
          url: "https://en.wikipedia.org/wiki/Paris",
          title: "Paris",
          startIndex: 10,
          endIndex: 15,
          unit: "utf16",
          bounds: "[start,end)",
          indexFrame: "response",
        },
      ],
    },
    before: [{ type: "text.start", seq: 2, id: "x" }],
    block: "AgTextBlock",
    merged: ["providerMetadata"],
    notCopied: { _meta: "§5 text.end row: only providerMetadata and citations reach the block" },
  },
  {
    event: { type: "reasoning.start", seq: 2, id: "r", itemId: "rs_1", providerMetadata: pm, _meta: meta },
    block: "AgReasoningBlock",
    merged: ["providerMetadata", "_meta"],
  },
  {
    event: { type: "reasoning.end", seq: 3, id: "r", provider: "anthropic", providerMetadata: pm },
    before: [{ type: "reasoning.start", seq: 2, id: "r" }],
    block: "AgReasoningBlock",
    merged: ["providerMetadata"],
    notCopied: {
      provider: "§5 reasoning.end row: seal and merge providerMetadata only (the opaque value's provider rides reasoning.opaque)",
      _meta: "§5 reasoning.end row",
    },
  },
  {
    event: { type: "reasoning.opaque", seq: 3, id: "r", kind: "signature", value: "sig", provider: "anthropic", itemId: "rs_2" },
    before: [{ type: "reasoning.start", seq: 2, id: "r" }],
    block: "AgReasoningBlock",
    notCopied: {
      provider: "§5 reasoning.opaque row: provider goes inside opaque = {kind, value, provider}",
      _meta: "§5 reasoning.opaque row",
    },
  },
  {
    event: {
      type: "tool.start",
      seq: 2,
      toolCallId: "c",
      name: "search",
      serverName: "mcp",
      providerExecuted: true,
      title: "Search",
      toolMetadata: meta,
      uiVisibility: ["model"],
      itemId: "fc_1",
      providerMetadata: pm,
    },
    block: "AgToolCallBlock",
    notCopied: { _meta: "§5 tool.start row names the fields it sets; the envelope _meta is not one" },
  },
  {
    event: {
      type: "tool.args.assembled",
      seq: 3,
      toolCallId: "c",
      input: { q: "x" },
      signature: "sig",
      title: "Search x",
      toolMetadata: meta,
      providerMetadata: pm,
    },
    before: [{ type: "tool.start", seq: 2, toolCallId: "c", name: "search" }],
    block: "AgToolCallBlock",
    merged: ["toolMetadata", "providerMetadata"],
    notCopied: { _meta: "§5 tool.args.assembled row" },
  },
  {
    event: {
      type: "tool.done",
      seq: 3,
      toolCallId: "c",
      content: [{ type: "text", text: "ok" }],
      outcome: "error",
      structuredContent: { n: 1 },
      uiData: { k: 1 },
      sideData: { s: 1 },
      errorText: "boom",
      errorCode: "E1",
      providerMetadata: pm,
      toolMetadata: meta,
      dynamic: true,
      isError: true,
    },
    before: [{ type: "tool.start", seq: 2, toolCallId: "c", name: "search" }],
    block: "AgToolResultBlock",
    notCopied: { _meta: "§5 tool.done row names the fields it lands; the envelope _meta is not one" },
  },
  {
    event: { type: "tool.done", seq: 3, toolCallId: "c", content: [], outcome: "input_required", pendingInput: PENDING },
    before: [{ type: "tool.start", seq: 2, toolCallId: "c", name: "search" }],
    block: "AgToolResultBlock",
    notCopied: { _meta: "§5 tool.done row" },
  },
  {
    event: { type: "tool.done", seq: 3, toolCallId: "c", content: [{ type: "text", text: "18°C" }], more: true, preliminary: true },
    before: [{ type: "tool.start", seq: 2, toolCallId: "c", name: "search" }],
    block: "AgToolResultBlock",
    notCopied: { _meta: "§5 tool.done row" },
  },
];

const envelope: ReadonlySet<string> = new Set(EVENT_ENVELOPE_FIELDS.filter((f) => f !== "_meta"));

function foldedBlock(row: Row): Record<string, unknown> {
  const stream = [...open, ...(row.before ?? []), row.event].map(strictEvent);
  const { result, errors } = reduce(stream);
  expect(errors).toEqual([]);
  const wanted =
    row.block === "AgTextBlock"
      ? "text"
      : row.block === "AgReasoningBlock"
        ? "reasoning"
        : row.block === "AgToolCallBlock"
          ? "tool-call"
          : "tool-result";
  const block = result.messages.flatMap((m) => m.content).find((b: AgBlock) => b.type === wanted);
  if (block === undefined) throw new Error(`${row.event.type}: no ${wanted} block folded`);
  return { ...block };
}

describe("each block row copies every field its event shares with the block (§5 folding table)", () => {
  for (const row of rows) {
    const type = row.event.type;
    const shared = (EVENT_FIELDS[type] as readonly string[]).filter(
      (f) => !envelope.has(f) && (DEF_FIELDS[row.block] as readonly string[]).includes(f),
    );

    it(`${type} → ${row.block}: ${shared.join(", ")}`, () => {
      const event: Record<string, unknown> = { ...row.event };
      const block = foldedBlock(row);
      for (const field of shared) {
        if (row.notCopied?.[field] !== undefined) continue;
        // Each shared field is set by some specimen of the row (two where the schema's cross-field
        // rules keep fields apart, as tool.done's errorText and pendingInput).
        expect({ field, set: rows.some((r) => r.event.type === type && field in r.event) }).toEqual({ field, set: true });
        if (!(field in event)) continue;
        if (row.merged?.includes(field))
          expect({ field, value: block[field] }).toEqual({ field, value: expect.objectContaining(Object(event[field])) });
        else expect({ field, value: block[field] }).toEqual({ field, value: event[field] });
      }
    });

    const exceptions = Object.keys(row.notCopied ?? {});
    if (exceptions.length > 0) {
      it(`${type}: every exception names a field the event and block still share`, () => {
        expect(exceptions.filter((field) => !shared.includes(field))).toEqual([]);
      });
    }
  }
});

// message.start opens an AgMessage (§5 message.start): every field the event shares with
// AgMessage (the generated EVENT_FIELDS ∩ DEF_FIELDS.AgMessage, the envelope's id and turnId
// included, since they are the message's own) must reach the folded message. messageStartBase in
// message.ts writes them out field by field; a field the schema adds to both fails here until it
// copies it.
describe("message.start copies every field it shares with AgMessage (§5 message.start)", () => {
  const shared = (EVENT_FIELDS["message.start"] as readonly string[]).filter(
    (f) => f !== "type" && (DEF_FIELDS.AgMessage as readonly string[]).includes(f),
  );
  const specimen: Record<string, unknown> = {
    id: "m",
    turnId: "t",
    role: "assistant",
    threadId: "th",
    candidateIndex: 2,
    extensions: ["https://acme.example/ext/v1"],
    agentId: "agent-7",
    agentName: "Planner",
    agentRole: "planner",
    model: "claude-x",
  };

  it(`sets ${shared.join(", ")}`, () => {
    expect(shared.filter((f) => !(f in specimen))).toEqual([]);
    const event: Record<string, unknown> = { type: "message.start", seq: 1 };
    for (const field of shared) event[field] = specimen[field];
    const { result, errors } = reduce([strictEvent({ type: "turn.start", seq: 0, threadId: "th", turnId: "t" }), strictEvent(event)]);
    expect(errors).toEqual([]);
    const message: Record<string, unknown> = { ...result.messages[0] };
    for (const field of shared) expect({ field, value: message[field] }).toEqual({ field, value: specimen[field] });
  });
});
