/**
 * §8 item 11 / §10 item 16 through the A2A facet (spec-decisions D13): an `append:false` update
 * of a known artifact replaces it, whatever came before — a seeded Task artifact, an earlier
 * update, a sealed artifact — and leaves the messages and turns as they were.
 */
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { reduce } from "../../reduce/index.js";
import { validateEvent } from "../../validate/index.js";
import { createNormalizer } from "../index.js";
import { checkStream } from "../stream-check.test-support.js";

const task = (artifacts: unknown[] = []) => ({
  result: {
    task: {
      id: "t1",
      contextId: "c1",
      status: { state: "TASK_STATE_WORKING" },
      history: [{ messageId: "u1", role: "ROLE_USER", parts: [{ text: "Write the report" }] }],
      artifacts,
    },
  },
});
const update = (parts: string[], append: boolean, lastChunk: boolean, artifactId = "report") => ({
  result: {
    artifactUpdate: {
      taskId: "t1",
      contextId: "c1",
      artifact: { artifactId, name: artifactId, parts: parts.map((text) => ({ text })) },
      append,
      lastChunk,
    },
  },
});
const status = (state: string, text?: string) => ({
  result: {
    statusUpdate: {
      taskId: "t1",
      contextId: "c1",
      status: { state, ...(text ? { message: { messageId: `m-${state}`, role: "ROLE_AGENT", parts: [{ text }] } } : {}) },
    },
  },
});

function run(chunks: unknown[]): AgEvent[] {
  const n = createNormalizer("a2a");
  return [...chunks.flatMap((c) => n.push(c)), ...n.flush()];
}

function fold(events: AgEvent[]) {
  expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
  expect(checkStream(events)).toEqual([]);
  const out = reduce(events);
  expect(out.errors).toEqual([]);
  expect(out.needsResync).toBe(false);
  return out.result;
}

const texts = (r: ReturnType<typeof fold>) =>
  r.artifacts.map((a) => ({ id: a.artifactId, text: a.parts.map((p) => (p.type === "text" ? p.text : "")).join("") }));

describe("A2A append:false replaces the artifact (§8 item 11, D13)", () => {
  it("a seeded Task artifact, replaced and then appended to: one artifact with the replacement only", () => {
    const r = fold(
      run([
        task([{ artifactId: "report", parts: [{ text: "draft" }] }]),
        update(["final "], false, false),
        update(["report"], true, true),
        status("TASK_STATE_COMPLETED"),
      ]),
    );
    expect(texts(r)).toEqual([{ id: "report", text: "final report" }]);
  });

  it("an artifact streamed by updates, sealed, then sent again with append:false: the second content only", () => {
    const r = fold(run([task(), update(["v1"], false, true), update(["v2 ", "whole"], false, true), status("TASK_STATE_COMPLETED")]));
    expect(texts(r)).toEqual([{ id: "report", text: "v2 whole" }]);
  });

  it("other artifacts, the messages before the replace and the turn's outcome are kept", () => {
    const r = fold(
      run([
        task([
          { artifactId: "notes", parts: [{ text: "keep me" }] },
          { artifactId: "report", parts: [{ text: "draft" }] },
        ]),
        status("TASK_STATE_WORKING", "Working on it"),
        update(["final"], false, true),
        status("TASK_STATE_COMPLETED", "Done"),
      ]),
    );
    expect(texts(r)).toEqual([
      { id: "notes", text: "keep me" },
      { id: "report", text: "final" },
    ]);
    expect(r.messages.map((m) => [m.id, m.role])).toEqual([
      ["u1", "user"],
      ["m-TASK_STATE_WORKING", "assistant"],
      ["m-TASK_STATE_COMPLETED", "assistant"],
    ]);
    expect(r.turns.map((t) => t.outcome?.type)).toEqual(["success"]);
  });

  it("the first sight of an artifact and append:true chunks never emit a snapshot beyond the Task's", () => {
    const events = run([
      task(),
      update(["a"], false, false),
      update(["b"], true, false),
      update(["c"], true, true),
      status("TASK_STATE_COMPLETED"),
    ]);
    expect(events.filter((e) => e.type === "messages.snapshot")).toHaveLength(1);
    expect(texts(fold(events))).toEqual([{ id: "report", text: "abc" }]);
  });

  it("an append:true chunk after lastChunk re-opens the artifact instead of folding into a sealed one", () => {
    const r = fold(run([task(), update(["a"], false, true), update(["b"], true, true), status("TASK_STATE_COMPLETED")]));
    expect(texts(r)).toEqual([{ id: "report", text: "ab" }]);
  });
});
