// §8.0 host obligation 1: the helper catches what @openai/agents throws out of a run and feeds it
// as the __host_error__ line, so the turn ends in turn.error with the matching code.
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { conformant, of } from "../facet.test-support.js";
import { guardrailResultLines, hostErrorLine, normalizeOpenAiAgentsRun, type AgentsStreamedRun } from "./openai-agents-host.js";

class MaxTurnsExceededError extends Error {}
class InputGuardrailTripwireTriggered extends Error {
  constructor(
    message: string,
    readonly result: unknown,
  ) {
    super(message);
  }
}

const created = {
  type: "raw_model_stream_event",
  data: { type: "model", event: { type: "response.created", response: { id: "resp_1", model: "m", output: [] } } },
};
const completed = {
  type: "raw_model_stream_event",
  data: { type: "model", event: { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } } },
};

function fakeRun(events: unknown[], error?: unknown, extra: Partial<AgentsStreamedRun> = {}): AgentsStreamedRun {
  return {
    async *[Symbol.asyncIterator]() {
      yield* events;
    },
    completed: Promise.resolve(),
    error,
    ...extra,
  };
}

async function collect(gen: AsyncGenerator<AgEvent>): Promise<AgEvent[]> {
  const out: AgEvent[] = [];
  for await (const ev of gen) out.push(ev);
  return out;
}

describe("normalizeOpenAiAgentsRun", () => {
  it("a thrown max-turns error closes the turn with turn.error code max_turns", async () => {
    const events = conformant(
      await collect(normalizeOpenAiAgentsRun(() => fakeRun([created, completed], new MaxTurnsExceededError("Max turns (1) exceeded")))),
    );
    expect(of(events, "turn.error")).toEqual([expect.objectContaining({ code: "max_turns", message: "Max turns (1) exceeded" })]);
    expect(of(events, "turn.done")).toEqual([]);
  });

  it("an error thrown by start() itself still yields one closed turn", async () => {
    const events = conformant(await collect(normalizeOpenAiAgentsRun(() => Promise.reject(new TypeError("bad input")))));
    expect(of(events, "turn.error")).toEqual([expect.objectContaining({ code: "host_error", message: "bad input" })]);
  });

  it("guardrail results become guardrail.result; a tripwire is reported once", async () => {
    const result = { guardrail: { name: "g1" }, output: { tripwireTriggered: true, outputInfo: { why: "x" } } };
    const err = new InputGuardrailTripwireTriggered("tripped", result);
    const events = conformant(await collect(normalizeOpenAiAgentsRun(() => fakeRun([], err, { inputGuardrailResults: [result] }))));
    expect(of(events, "guardrail.result")).toEqual([
      expect.objectContaining({ target: "input", passed: false, guardrailName: "g1", action: "terminate" }),
    ]);
    expect(of(events, "turn.error")).toEqual([expect.objectContaining({ code: "guardrail_tripwire" })]);
  });

  it("a finished run ends in turn.done, its passing guardrails reported", async () => {
    const events = conformant(
      await collect(
        normalizeOpenAiAgentsRun(() =>
          fakeRun([created, completed], undefined, {
            outputGuardrailResults: [{ guardrail: { name: "pii" }, output: { tripwireTriggered: false } }],
          }),
        ),
      ),
    );
    expect(of(events, "guardrail.result")).toEqual([expect.objectContaining({ target: "output", passed: true, guardrailName: "pii" })]);
    expect(of(events, "turn.done")).toHaveLength(1);
  });

  it("hostErrorLine names the error's class; guardrailResultLines reads the result object", () => {
    expect(hostErrorLine(new MaxTurnsExceededError("m"))).toEqual({ type: "__host_error__", name: "MaxTurnsExceededError", message: "m" });
    expect(hostErrorLine("plain")).toEqual({ type: "__host_error__", name: "Error", message: "plain" });
    expect(guardrailResultLines(fakeRun([]))).toEqual([]);
  });
});
