// How a failed framework run ends (§4 turn.error, §5.0 INV-TURN / INV-FLUSH, §8.0 host obligation 1).
// A framework that reports the failure in its own stream before the stream ends (an A2A `failed`
// task, an ADK event with `errorCode`, a Claude `result` with `is_error`, an AI SDK `error` part, a
// LangGraph task result with `error`) has said why the run stopped: the turn ends `turn.error`
// carrying that report, whether or not the host also feeds the thrown error (`__host_error__`).
// Only a stream that ends with no such report is truncated (`turn.abort` stream-truncated).
// Reads only committed recordings (record/recordings/, docs/record.md).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../generated/types.js";
import { normalizeAll, readNativeChunks, type FacetName } from "../src/normalize/index.js";
import { checkStream } from "../src/normalize/stream-check.test-support.js";

const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), "..", "record", "recordings");

function recording(facet: string, name: string): unknown[] {
  return readNativeChunks(readFileSync(join(RECORDINGS, facet, `${name}.native.ndjson`), "utf8"));
}

const isHostLine = (c: unknown) => typeof c === "object" && c !== null && (c as { type?: unknown }).type === "__host_error__";

/** The root turn's close (the last terminal event of the stream). */
function close(events: AgLenientEvent[]): AgLenientEvent | undefined {
  return events.filter((e) => e.type === "turn.done" || e.type === "turn.error" || e.type === "turn.abort").at(-1);
}

/** Recordings whose framework reports the failure in its stream, with the turn.error it must end in. */
const REPORTED: { facet: FacetName; name: string; code: string; message: string }[] = [
  { facet: "langgraph", name: "task-error", code: "Error", message: "issue tracker unreachable" },
  { facet: "langgraph", name: "task-error-no-host-line", code: "Error", message: "issue tracker unreachable" },
  { facet: "a2a", name: "failed", code: "task_failed", message: "Upstream tool failed." },
  { facet: "a2a", name: "failed-wire", code: "task_failed", message: "Upstream tool failed." },
  {
    facet: "adk",
    name: "vertex-partial-args",
    code: "UNKNOWN_ERROR",
    message: "willContinue parameter is only supported in Gemini Enterprise Agent Platform mode, not in Gemini Developer API mode.",
  },
  { facet: "claude-agent-sdk", name: "max-turns", code: "max_turns", message: "Reached maximum number of turns (1)" },
  { facet: "vercel-ai", name: "stream-error", code: "", message: "You exceeded your current quota" },
  { facet: "vercel-ai-ui", name: "stream-error", code: "", message: "You exceeded your current quota" },
];

describe("a failure the framework reported in its stream ends the turn turn.error, fed host error or not", () => {
  for (const r of REPORTED) {
    for (const host of [true, false]) {
      it(`${r.facet}/${r.name}${host ? "" : " without the host's __host_error__ line"}`, () => {
        const chunks = recording(r.facet, r.name).filter((c) => host || !isHostLine(c));
        const events = normalizeAll(r.facet, chunks) as AgLenientEvent[];
        expect(checkStream(events)).toEqual([]);
        const end = close(events);
        expect(end?.type, JSON.stringify(end)).toBe("turn.error");
        if (end?.type !== "turn.error") return;
        expect(end.message).toContain(r.message);
        if (r.code !== "") expect(end.code).toBe(r.code);
        expect(events.some((e) => e.type === "turn.abort" && e.reason === "stream-truncated")).toBe(false);
      });
    }
  }
});

describe("LangGraph: a failed task is the run's end, a silent stop is a cut", () => {
  const ns: string[] = [];
  const checkpoint = (next: string[], tasks: { id: string; name: string }[]) => [
    ns,
    "checkpoints",
    { values: {}, next, tasks: tasks.map((t) => ({ ...t, interrupts: [] })), metadata: { step: 0 } },
  ];
  const start = [ns, "tasks", { id: "t1", name: "tools", input: {}, triggers: [], interrupts: [] }];
  // The graph's input state: the frame that opens the run's turn.
  const input = [ns, "values", { messages: [] }];

  it("a `debug` task_result with a Python error string, then the end: turn.error with that message (no `tasks` mode streamed)", () => {
    const chunks = [
      input,
      [
        ns,
        "debug",
        { type: "checkpoint", step: 0, payload: { values: {}, next: ["tools"], tasks: [{ id: "t1", name: "tools", interrupts: [] }] } },
      ],
      [ns, "debug", { type: "task", step: 1, payload: { id: "t1", name: "tools", input: {}, triggers: [] } }],
      [
        ns,
        "debug",
        {
          type: "task_result",
          step: 1,
          payload: { id: "t1", name: "tools", error: "ValueError('no such issue')", result: [], interrupts: [] },
        },
      ],
    ];
    const events = normalizeAll("langgraph", chunks) as AgLenientEvent[];
    expect(checkStream(events)).toEqual([]);
    const end = close(events);
    expect(end).toMatchObject({ type: "turn.error", message: "ValueError('no such issue')" });
    // The advisory `error` is emitted once for the task, though `tasks` and `debug` could both report it.
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("`tasks` and `debug` both reporting one failed task: one advisory error, turn.error with the error's name as code", () => {
    const failed = { id: "t1", name: "tools", error: { name: "ToolException", message: "boom" }, result: {}, interrupts: [] };
    const events = normalizeAll("langgraph", [
      input,
      checkpoint(["tools"], [{ id: "t1", name: "tools" }]),
      start,
      [ns, "tasks", failed],
      [ns, "debug", { type: "task_result", step: 1, payload: failed }],
    ]) as AgLenientEvent[];
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    expect(close(events)).toMatchObject({ type: "turn.error", code: "ToolException", message: "boom" });
  });

  it("a task started with no result and no error, then the end: turn.abort stream-truncated", () => {
    const events = normalizeAll("langgraph", [input, checkpoint(["tools"], [{ id: "t1", name: "tools" }]), start]) as AgLenientEvent[];
    expect(close(events)).toMatchObject({ type: "turn.abort", reason: "stream-truncated" });
  });

  it("a failed task the graph then finished past (a root checkpoint with nothing left to run): success", () => {
    const failed = { id: "t1", name: "tools", error: { name: "Error", message: "retried" }, result: {}, interrupts: [] };
    const events = normalizeAll("langgraph", [
      input,
      checkpoint(["tools"], [{ id: "t1", name: "tools" }]),
      start,
      [ns, "tasks", failed],
      checkpoint([], []),
    ]) as AgLenientEvent[];
    expect(close(events)).toMatchObject({ type: "turn.done" });
  });
});

/** Recordings where a tool throws and the framework reports it to the model, then goes on (`throws` stubs, docs/record.md). */
const TOOL_FAILURES: { facet: FacetName; name: string; outcome: "error" | "ok"; text: string }[] = [
  { facet: "adk", name: "tool-error", outcome: "error", text: "weather service unreachable" },
  { facet: "claude-agent-sdk", name: "tool-error", outcome: "error", text: "issue tracker unreachable" },
  { facet: "vercel-ai", name: "tool-error", outcome: "error", text: "" },
  { facet: "vercel-ai-ui", name: "tool-error", outcome: "error", text: "" },
  // The Agents SDK's default error function answers the model with a generic text and marks the
  // call completed (`status: "completed"`, `executionStatus: "executed"`): it reports no failure.
  { facet: "openai-agents", name: "tool-error", outcome: "ok", text: "An error occurred while running the tool." },
];

describe("a tool that throws: the failure the framework reports lands on the tool result, and the run goes on", () => {
  for (const r of TOOL_FAILURES) {
    it(`${r.facet}/${r.name}`, () => {
      const events = normalizeAll(r.facet, recording(r.facet, r.name)) as AgLenientEvent[];
      expect(checkStream(events)).toEqual([]);
      const done = events.filter((e) => e.type === "tool.done");
      expect(done.map((e) => (e.type === "tool.done" ? e.outcome : undefined))).toContain(r.outcome);
      expect(JSON.stringify(done)).toContain(r.text);
      expect(close(events)?.type).toBe("turn.done");
    });
  }
});
