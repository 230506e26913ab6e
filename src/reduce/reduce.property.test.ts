// Property tests of reduce() (§5.0 INV-FOLD): over random event streams — valid events
// drawn from small id pools so that they collide, interleave, seal, remove, snapshot and violate
// invariants — the fold never throws, batch == incremental, an early `result` never changes after
// later pushes, and every result is a schema-valid AgReduceResult.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../generated/types.js";
import { validateEvent, validateReduceResult } from "../validate/index.js";
import { createReducer, reduce } from "./index.js";

const turnId = fc.constantFrom("t1", "t2", "t3");
const messageId = fc.constantFrom("m1", "m2", "m3", "m4");
const blockId = fc.constantFrom("x1", "x2", "x3");
const toolCallId = fc.constantFrom("c1", "c2");
const candidate = fc.option(fc.constantFrom(0, 1), { nil: undefined });
const maybeTurn = fc.option(turnId, { nil: undefined });
const word = fc.constantFrom("a", "bc", "déf", "🙂", "");
const json = fc.jsonValue({ maxDepth: 2 });
const small = fc.dictionary(fc.constantFrom("k", "l", "__proto__", "a/b"), fc.constantFrom(1, "v", null), { maxKeys: 2 });
const block = fc.oneof(
  word.map((text) => ({ type: "text", text })),
  fc.record({
    type: fc.constant("data"),
    name: fc.constant("status"),
    id: fc.constantFrom("d1", "d2"),
    data: json,
    transient: fc.option(fc.boolean(), { nil: undefined }),
  }),
  fc.record({ type: fc.constant("image"), source: fc.constant({ type: "url", url: "https://example.com/i.png" }) }),
);
const pointer = fc.constantFrom("", "/k", "/list", "/list/-", "/list/0", "/k/deep", "/a~1b");
const patchOp = fc.oneof(
  fc.record({ op: fc.constantFrom("add", "replace", "test"), path: pointer, value: json }),
  fc.record({ op: fc.constant("remove"), path: pointer }),
  fc.record({ op: fc.constantFrom("move", "copy"), from: pointer, path: pointer }),
);

/** One event without `seq`; undefined optional fields are dropped before validation. */
const anyEvent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("turn.start"), threadId: fc.constant("th"), turnId }),
  fc.record({ type: fc.constant("subagent.start"), turnId, parentTurnId: fc.constantFrom("t1", "label") }),
  fc.record({ type: fc.constant("subagent.done"), turnId, parentTurnId: fc.constant("t1") }),
  fc.record({
    type: fc.constant("turn.done"),
    turnId,
    outcome: fc.constant({ type: "success" }),
    finishReason: fc.constant("stop"),
    messageMetadata: fc.option(small, { nil: undefined }),
  }),
  fc.record({ type: fc.constant("turn.error"), turnId: maybeTurn, message: fc.constant("x") }),
  fc.record({ type: fc.constant("turn.abort"), turnId: maybeTurn }),
  fc.record({
    type: fc.constant("message.start"),
    id: messageId,
    role: fc.constant("assistant"),
    turnId,
    threadId: fc.constant("th"),
    candidateIndex: candidate,
  }),
  fc.record({ type: fc.constant("message.end"), id: messageId }),
  fc.oneof(
    fc.record({ type: fc.constant("message.remove"), id: messageId }),
    fc.record({ type: fc.constant("message.remove"), id: fc.constant("*"), turnId }),
  ),
  fc.record({ type: fc.constant("message.metadata"), messageId: fc.option(messageId, { nil: undefined }), metadata: small }),
  fc.record({ type: fc.constant("text.start"), id: blockId, turnId: maybeTurn, candidateIndex: candidate }),
  fc.record({ type: fc.constant("text.delta"), id: blockId, delta: word }),
  fc.record({ type: fc.constant("text.end"), id: blockId }),
  fc.record({ type: fc.constant("reasoning.start"), id: blockId, partIndex: fc.option(fc.constantFrom(0, 1), { nil: undefined }) }),
  fc.record({
    type: fc.constant("reasoning.delta"),
    id: blockId,
    delta: word,
    partIndex: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }),
  }),
  fc.record({ type: fc.constant("reasoning.end"), id: blockId }),
  fc.record({ type: fc.constant("reasoning.opaque.delta"), id: blockId, delta: word }),
  fc.record({ type: fc.constant("reasoning.opaque"), id: blockId, kind: fc.constant("signature"), value: word }),
  fc.record({ type: fc.constant("tool.start"), toolCallId, name: fc.constant("f"), candidateIndex: candidate }),
  fc.record({ type: fc.constant("tool.args.delta"), toolCallId, delta: word }),
  fc.record({ type: fc.constant("tool.args.assembled"), toolCallId, input: json, toolMetadata: fc.option(small, { nil: undefined }) }),
  fc.record({
    type: fc.constant("tool.done"),
    toolCallId,
    content: fc.array(block, { maxLength: 1 }),
    more: fc.option(fc.boolean(), { nil: undefined }),
    messageId: fc.option(fc.constantFrom("r1", "m2"), { nil: undefined }),
  }),
  fc.record({ type: fc.constant("content.block"), block, transient: fc.option(fc.boolean(), { nil: undefined }) }),
  fc.record({ type: fc.constant("source"), sourceId: fc.constantFrom("s1", "s2"), source: fc.constant({ url: "https://example.com" }) }),
  fc.record({ type: fc.constant("handoff"), toAgentId: fc.constant("b") }),
  fc.record({ type: fc.constant("display.required"), provider: fc.constant("google"), html: fc.constant("<p/>") }),
  fc.record({ type: fc.constant("prompt.blocked"), reason: fc.constant("safety"), safety: fc.constant([{ category: "c" }]) }),
  fc.record({ type: fc.constant("guardrail.result"), target: fc.constant("output"), passed: fc.boolean() }),
  fc.record({ type: fc.constant("agent.capabilities"), capabilities: fc.constant({ profile: "CORE" }) }),
  fc.record({ type: fc.constant("artifact.start"), artifactId: fc.constantFrom("a1", "a2"), turnId, threadId: fc.constant("th") }),
  fc.record({ type: fc.constant("artifact.delta"), artifactId: fc.constantFrom("a1", "a2"), part: block, append: fc.boolean() }),
  fc.record({ type: fc.constant("artifact.end"), artifactId: fc.constantFrom("a1", "a2"), lastChunk: fc.constant(true) }),
  fc.record({ type: fc.constant("state.snapshot"), snapshot: json }),
  fc.oneof(
    fc.record({ type: fc.constant("state.delta"), patch: fc.array(patchOp, { maxLength: 3 }) }),
    fc.record({
      type: fc.constant("state.delta"),
      patch: fc.dictionary(fc.constantFrom("node", "n2"), fc.oneof(small, fc.constant(null)), { maxKeys: 2 }),
    }),
  ),
  fc.oneof(
    fc.record({
      type: fc.constant("memory.write"),
      scope: fc.constantFrom("thread", "user"),
      key: fc.option(fc.constantFrom("k", ""), { nil: undefined }),
      value: json,
    }),
    fc.record({
      type: fc.constant("memory.write"),
      scope: fc.constantFrom("thread", "user"),
      key: fc.option(fc.constant("k"), { nil: undefined }),
      patch: fc.array(patchOp, { maxLength: 2 }),
    }),
  ),
  fc.record({
    type: fc.constant("messages.snapshot"),
    messages: fc.array(
      fc.record({
        id: messageId,
        role: fc.constant("assistant"),
        turnId,
        threadId: fc.constant("th"),
        content: fc.array(block, { maxLength: 2 }),
      }),
      { maxLength: 2 },
    ),
    memory: fc.option(
      fc.constant([
        { scope: "thread", value: 1 },
        { scope: "agent", key: "z", value: 2 },
      ]),
      { nil: undefined },
    ),
    turns: fc.option(fc.constant([{ turnId: "t1", threadId: "th" }]), { nil: undefined }),
  }),
  fc.record({ type: fc.constant("ui.call"), surfaceId: fc.constant("s"), callId: fc.constant("c"), method: fc.constant("m") }),
  fc.record({ type: fc.constant("ext.acme.thing"), value: json }),
  fc.record({ type: fc.constant("future.event"), anything: json }),
);

/** Content events weighted up so that blocks grow, seal and collide. */
const contentEvent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ type: fc.constant("text.start"), id: blockId, turnId: maybeTurn, candidateIndex: candidate }),
  fc.record({ type: fc.constant("text.delta"), id: blockId, delta: word }),
  fc.record({ type: fc.constant("reasoning.delta"), id: blockId, delta: word }),
  fc.record({ type: fc.constant("tool.args.delta"), toolCallId, delta: word }),
  fc.record({ type: fc.constant("content.block"), block }),
);
const eventBody = fc.oneof({ weight: 3, arbitrary: anyEvent }, { weight: 2, arbitrary: contentEvent });

/** Seq steps: mostly +1, sometimes a forward gap or a backward (new invoke) jump. */
const seqStep = fc.oneof(
  { weight: 30, arbitrary: fc.constant(1) },
  { weight: 1, arbitrary: fc.constant(3) },
  { weight: 1, arbitrary: fc.constant(-1000) },
);

function dropUndefinedDeep(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** Streams usually start with an open turn and message, so that content actually folds. */
const prelude = fc.constantFrom<Array<Record<string, unknown>>>(
  [],
  [
    { type: "turn.start", threadId: "th", turnId: "t1" },
    { type: "message.start", id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
  ],
  [
    { type: "turn.start", threadId: "th", turnId: "t1" },
    { type: "message.start", id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
    { type: "subagent.start", turnId: "t2", parentTurnId: "t1" },
    { type: "message.start", id: "m2", role: "assistant", turnId: "t2", threadId: "th" },
    { type: "message.start", id: "m3", role: "assistant", turnId: "t1", threadId: "th", candidateIndex: 1 },
  ],
);

const stream: fc.Arbitrary<AgLenientEvent[]> = fc
  .tuple(prelude, fc.array(fc.tuple(eventBody, seqStep), { minLength: 5, maxLength: 80, size: "medium" }))
  .map(([head, items]) => {
    const events: AgLenientEvent[] = [];
    let seq = -1;
    for (const [body, step] of [...head.map((body): [Record<string, unknown>, number] => [body, 1]), ...items]) {
      seq = Math.max(0, seq + step);
      const checked = validateEvent(dropUndefinedDeep({ ...body, seq }), { posture: "lenient" });
      if (checked.ok) events.push(checked.event);
    }
    return events;
  });

describe("reduce() properties", () => {
  it("never throws, batch == incremental, early results stay frozen, results are schema-valid", () => {
    fc.assert(
      fc.property(stream, fc.nat(), (events, probe) => {
        const batch = reduce(events);
        expect(batch.errors.filter((issue) => issue.invariant === "INTERNAL")).toEqual([]);

        const reducer = createReducer();
        const reads: Array<{ frozen: string; result: unknown }> = [];
        for (const event of events) {
          reducer.push(event);
          const result = reducer.result;
          reads.push({ frozen: JSON.stringify(result), result });
        }
        expect(reducer.result).toEqual(batch.result);
        expect(reducer.needsResync).toBe(batch.needsResync);
        expect(reducer.errors).toEqual(batch.errors);
        // No later push may change a result already handed out (copy-on-write, cached views).
        reads.forEach(({ frozen, result }, index) => expect(JSON.stringify(result), `read after event ${index}`).toBe(frozen));
        const probeAt = events.length === 0 ? -1 : probe % events.length;
        if (probeAt >= 0) expect(reads[probeAt]?.result).toEqual(reduce(events.slice(0, probeAt + 1)).result);
        const valid = validateReduceResult(batch.result, { posture: "strict" });
        expect(valid.ok ? [] : valid.errors).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it("a result read between in-place patches is never changed afterwards", () => {
    const reducer = createReducer();
    const push = (event: Record<string, unknown>): void => {
      const checked = validateEvent(event, { posture: "lenient" });
      if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
      reducer.push(checked.event);
    };
    push({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" });
    push({ type: "state.delta", seq: 1, patch: { node: { a: 1 } } });
    push({ type: "memory.write", seq: 2, scope: "user", key: "k", value: { list: [] } });
    push({ type: "memory.write", seq: 3, scope: "user", key: "k", patch: [{ op: "add", path: "/list/-", value: 1 }] });
    const first = reducer.result;
    const frozen = JSON.stringify(first);
    push({ type: "state.delta", seq: 4, patch: { node: { a: 2, b: 3 } } });
    push({ type: "memory.write", seq: 5, scope: "user", key: "k", patch: [{ op: "add", path: "/list/-", value: 2 }] });
    expect(JSON.stringify(first)).toBe(frozen);
    expect(reducer.result.state).toEqual({ a: 2, b: 3 });
    expect(reducer.result.memory[0]?.value).toEqual({ list: [1, 2] });
  });

  it("never mutates the events it folds", () => {
    fc.assert(
      fc.property(stream, (events) => {
        const before = JSON.stringify(events);
        const reducer = createReducer();
        for (const event of events) {
          reducer.push(event);
          void reducer.result;
        }
        expect(JSON.stringify(events)).toBe(before);
      }),
      { numRuns: 200 },
    );
  });
});
