// Fuzz (test/fuzz convention: AGJSON_FUZZ_RUNS sets the run count; issue 19 §1 "Input"): the RunAgentInput reader is fail-closed — for any
// body it either hands back an AgInput that validates strictly (§3) or refuses with a 400 / 413
// problem; it never throws and never lets an unchecked value through.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRunAgentInputReader, type RunAgentInputRead } from "../../src/bridges/ag-ui/input.js";
import { validateInput } from "../../src/validate/index.js";

const numRuns = Number(process.env.AGJSON_FUZZ_RUNS ?? 200);

const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.string() }),
  fc.record({
    type: fc.constantFrom("image", "audio", "video", "document"),
    source: fc.record(
      {
        type: fc.constantFrom("data", "url", "file", "x"),
        value: fc.string(),
        mimeType: fc.option(fc.constantFrom("image/png", "video/mp4"), { nil: undefined }),
      },
      { requiredKeys: ["type", "value"] },
    ),
  }),
  fc.anything(),
);
const message = fc.record(
  {
    id: fc.oneof(fc.string(), fc.integer()),
    role: fc.constantFrom("user", "assistant", "system", "developer", "tool", "reasoning", "activity", "wizard"),
    content: fc.oneof(fc.string(), fc.array(part, { maxLength: 3 }), fc.dictionary(fc.string(), fc.anything())),
    toolCalls: fc.array(
      fc.record({ id: fc.string(), type: fc.constant("function"), function: fc.record({ name: fc.string(), arguments: fc.string() }) }),
      { maxLength: 2 },
    ),
    toolCallId: fc.string(),
    encryptedValue: fc.string(),
    activityType: fc.string(),
    error: fc.string(),
    name: fc.string(),
    metadata: fc.anything(),
  },
  { requiredKeys: ["id", "role"] },
);
const runAgentInput = fc.record(
  {
    threadId: fc.oneof(fc.string(), fc.constant(null)),
    runId: fc.string(),
    protocolVersion: fc.constantFrom("1.0", "1.3", "2.0", "x"),
    parentRunId: fc.string(),
    state: fc.anything(),
    messages: fc.array(message, { maxLength: 6 }),
    tools: fc.array(
      fc.record(
        { name: fc.string(), description: fc.string(), parameters: fc.anything(), metadata: fc.anything() },
        { requiredKeys: ["name"] },
      ),
      { maxLength: 3 },
    ),
    context: fc.array(fc.record({ description: fc.string(), value: fc.oneof(fc.string(), fc.integer()) }), { maxLength: 3 }),
    forwardedProps: fc.anything(),
    resume: fc.array(
      fc.record(
        {
          interruptId: fc.string(),
          status: fc.constantFrom("resolved", "cancelled", "maybe"),
          payload: fc.anything(),
          metadata: fc.oneof(
            fc.anything(),
            fc.record({
              agjson: fc.record(
                { token: fc.anything(), requestState: fc.anything(), ordinal: fc.anything(), reason: fc.anything(), status: fc.anything() },
                { requiredKeys: [] },
              ),
            }),
          ),
        },
        { requiredKeys: ["interruptId", "status"] },
      ),
      { maxLength: 3 },
    ),
    extra: fc.anything(),
  },
  { requiredKeys: ["threadId", "runId", "messages"] },
);

/** Bodies the AG-UI schema accepts, so the projection and the strict AgInput check are what is fuzzed. */
const source = fc.record({
  type: fc.constantFrom("data", "url", "file"),
  value: fc.string({ minLength: 1 }),
  mimeType: fc.constantFrom("image/png", "video/mp4", "application/pdf"),
});
const wellFormedMessage = fc.oneof(
  fc.record(
    {
      id: fc.string(),
      role: fc.constant("user"),
      content: fc.oneof(
        fc.string(),
        fc.array(
          fc.oneof(
            fc.record({ type: fc.constant("text"), text: fc.string() }),
            fc.record({ type: fc.constantFrom("image", "audio", "video", "document"), source }),
          ),
          { maxLength: 3 },
        ),
      ),
      name: fc.option(fc.string(), { nil: undefined }),
    },
    { requiredKeys: ["id", "role", "content"] },
  ),
  fc.record({ id: fc.string(), role: fc.constantFrom("system", "developer"), content: fc.string() }),
  fc.record(
    {
      id: fc.string(),
      role: fc.constant("assistant"),
      content: fc.option(fc.string(), { nil: undefined }),
      toolCalls: fc.array(
        fc.record(
          {
            id: fc.string(),
            type: fc.constant("function"),
            function: fc.record({
              name: fc.string(),
              arguments: fc.oneof(
                fc.string(),
                fc.jsonValue().map((v) => JSON.stringify(v)),
              ),
            }),
            encryptedValue: fc.option(fc.string(), { nil: undefined }),
          },
          { requiredKeys: ["id", "type", "function"] },
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: ["id", "role"] },
  ),
  fc.record(
    {
      id: fc.string(),
      role: fc.constant("tool"),
      toolCallId: fc.string(),
      content: fc.string(),
      error: fc.option(fc.string(), { nil: undefined }),
    },
    { requiredKeys: ["id", "role", "toolCallId", "content"] },
  ),
  fc.record(
    { id: fc.string(), role: fc.constant("reasoning"), content: fc.string(), encryptedValue: fc.option(fc.string(), { nil: undefined }) },
    { requiredKeys: ["id", "role", "content"] },
  ),
  fc.record({
    id: fc.string(),
    role: fc.constant("activity"),
    activityType: fc.string(),
    content: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  }),
);
const wellFormed = fc.record(
  {
    threadId: fc.string(),
    runId: fc.string(),
    protocolVersion: fc.constantFrom("1.0", "1.2"),
    state: fc.jsonValue({ maxDepth: 3 }),
    messages: fc.array(wellFormedMessage, { maxLength: 6 }),
    tools: fc.array(
      fc.record(
        {
          name: fc.string(),
          description: fc.string(),
          parameters: fc.option(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), { nil: undefined }),
        },
        { requiredKeys: ["name", "description"] },
      ),
      { maxLength: 3 },
    ),
    context: fc.array(fc.record({ description: fc.string(), value: fc.string() }), { maxLength: 3 }),
    forwardedProps: fc.jsonValue({ maxDepth: 2 }),
    resume: fc.array(
      fc.record(
        {
          interruptId: fc.string(),
          status: fc.constantFrom("resolved", "cancelled"),
          payload: fc.option(fc.jsonValue({ maxDepth: 2 }), { nil: undefined }),
          metadata: fc.record({
            agjson: fc.record(
              {
                token: fc.string(),
                requestState: fc.string(),
                ordinal: fc.integer({ min: -1, max: 3 }),
                reason: fc.string(),
                status: fc.constantFrom("declined", "other"),
              },
              { requiredKeys: [] },
            ),
          }),
        },
        { requiredKeys: ["interruptId", "status"] },
      ),
      { maxLength: 3 },
    ),
  },
  { requiredKeys: ["threadId", "runId", "messages"] },
);

function check(r: RunAgentInputRead): void {
  if (r.ok) {
    const v = validateInput(r.input, { posture: "strict" });
    expect(v.ok ? [] : v.errors).toEqual([]);
  } else {
    expect([400, 413]).toContain(r.problem.status);
    expect(r.problem.detail.length).toBeGreaterThan(0);
  }
}

describe("RunAgentInput reader fuzz: fail closed", () => {
  it("a RunAgentInput-shaped body is accepted as a strictly valid AgInput or refused with 400/413", async () => {
    const reader = await createRunAgentInputReader({ forwardedProps: "metadata", caps: { maxStateBytes: 4096 } });
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(runAgentInput, wellFormed, wellFormed), (body) => {
        const r = reader.readBytes(new TextEncoder().encode(JSON.stringify(body)));
        if (r.ok) accepted++;
        check(r);
      }),
      { numRuns },
    );
    expect(accepted).toBeGreaterThan(numRuns / 4);
  });

  it("any JSON value, and any bytes, are refused rather than thrown on", async () => {
    const reader = await createRunAgentInputReader();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v))),
          fc.uint8Array({ maxLength: 64 }),
        ),
        (bytes) => {
          check(reader.readBytes(bytes));
        },
      ),
      { numRuns },
    );
  });
});
