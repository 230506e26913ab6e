// A specimen stream the reducer module folds once when it loads, and whose fold state it keeps
// for the life of the process (index.ts). Why: V8 holds the hidden classes ("maps") a class's
// instances pass through only weakly, through the transition tree, and the optimized fold code
// checks and embeds those maps. When a full GC collects every reducer of a process (a CLI or
// gateway that folds one stream after another, or any host after a reducer is dropped), the maps
// of ReduceState, MessageState, the block states, IdTable, ChunkedList and the rest die with
// them, every optimized fold function is discarded ("weak objects" deoptimizations, ~190 per
// fold, `node --trace-deopt`), and the next fold runs ~40% slower until recompiled
// (docs/reduce.md "Layout"). One small live fold state keeps each of those maps alive, so a new
// reducer lands on the maps the optimized code expects. It holds a few kilobytes and is never
// read; it changes no result.
//
// The stream walks the shapes a fold builds: a turn, a message partition, text, reasoning, a
// tool call with argument deltas and its adopted result, a content block, shared state, an
// artifact and a memory record — every class and record layout in entities.ts, fold-state.ts and
// storage/. It is a valid AgJSON v1 stream (§4) and folds without an issue (shape-specimen.test.ts).

import type { AgLenientEvent } from "../../generated/types.js";

/** The specimen stream: one event of each common row, seq 0… without a gap (INV-SEQ). */
export function specimenStream(): AgLenientEvent[] {
  let seq = 0;
  return [
    { type: "turn.start", seq: seq++, threadId: "specimen", turnId: "t" },
    { type: "message.start", seq: seq++, id: "m", role: "assistant", turnId: "t", threadId: "specimen" },
    { type: "reasoning.start", seq: seq++, id: "m:r" },
    { type: "reasoning.delta", seq: seq++, id: "m:r", delta: "a" },
    { type: "reasoning.delta", seq: seq++, id: "m:r", delta: "b" },
    { type: "reasoning.end", seq: seq++, id: "m:r" },
    { type: "text.start", seq: seq++, id: "m:x" },
    { type: "text.delta", seq: seq++, id: "m:x", delta: "a" },
    { type: "text.delta", seq: seq++, id: "m:x", delta: "b" },
    { type: "text.end", seq: seq++, id: "m:x" },
    { type: "tool.start", seq: seq++, toolCallId: "c", name: "f" },
    { type: "tool.args.delta", seq: seq++, toolCallId: "c", delta: "{" },
    { type: "tool.args.delta", seq: seq++, toolCallId: "c", delta: "}" },
    { type: "tool.args.assembled", seq: seq++, toolCallId: "c", input: {} },
    { type: "content.block", seq: seq++, block: { type: "text", text: "a" } },
    { type: "message.end", seq: seq++, id: "m" },
    { type: "tool.done", seq: seq++, toolCallId: "c", messageId: "c:result", content: [{ type: "text", text: "r" }], outcome: "ok" },
    { type: "state.snapshot", seq: seq++, snapshot: { a: 1 } },
    { type: "state.delta", seq: seq++, patch: [{ op: "replace", path: "/a", value: 2 }] },
    { type: "artifact.start", seq: seq++, turnId: "t", threadId: "specimen", artifactId: "a" },
    { type: "artifact.delta", seq: seq++, artifactId: "a", part: { type: "text", text: "a" }, append: true },
    { type: "artifact.end", seq: seq++, artifactId: "a", lastChunk: true },
    { type: "memory.write", seq: seq++, scope: "thread", key: "k", value: 1 },
    { type: "turn.done", seq: seq++, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
  ];
}
