// The one `streamText` run both Vercel AI SDK adapters share (vercel-ai.mjs records its full-stream
// parts, vercel-ai-ui.mjs the UI message stream chunks of the same run). Scenario options:
//   provider: "anthropic" (default) | "openai-responses" — which @ai-sdk provider calls the replay;
//   model:    model id sent to it; maxSteps: stepCountIs(n) (default 5);
//   data:     UI data parts written before the model stream ({ type: "data-<name>", id?, data });
//   dataAfter: UI data parts written after it (same id = reconciled update);
//   messageMetadata: an object attached at start and finish (UI stream only);
//   abortAfterParts: abort the run after this many full-stream parts.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createUIMessageStream, jsonSchema, stepCountIs, streamText, tool } from "ai";

function modelFor(baseUrl, opts) {
  // Deterministic ids for what the provider mints (source ids…), so re-recordings compare equal.
  let n = 0;
  const generateId = () => `replay-id-${++n}`;
  if (opts.provider === "openai-responses")
    return createOpenAI({ baseURL: `${baseUrl}/v1`, apiKey: "sk-replay", generateId }).responses(opts.model ?? "gpt-5.1");
  return createAnthropic({ baseURL: `${baseUrl}/v1`, apiKey: "sk-replay", generateId })(opts.model ?? "claude-sonnet-4-5");
}

function toolSet(tools) {
  return Object.fromEntries(
    tools.map((t) => [
      t.name,
      tool({
        description: t.description,
        inputSchema: jsonSchema(t.parameters),
        ...(t.needsApproval ? { needsApproval: true } : {}),
        execute: (args) => t.execute(args),
      }),
    ]),
  );
}

/** Starts the run; returns the streamText result, the abort controller and the tool set. */
export function startRun({ baseUrl, scenario, tools }) {
  const opts = scenario.options ?? {};
  const abort = new AbortController();
  const set = toolSet(tools);
  const reported = { error: undefined };
  const result = streamText({
    // The error the SDK reports through its own callback (its promises only say "no output").
    onError: ({ error }) => {
      reported.error ??= error;
    },
    model: modelFor(baseUrl, opts),
    prompt: scenario.input ?? "Hello",
    tools: tools.length ? set : undefined,
    stopWhen: stepCountIs(opts.maxSteps ?? 5),
    maxRetries: 0,
    abortSignal: abort.signal,
  });
  result.reported = reported;
  return { result, abort, tools: set, opts };
}

/** The UI message stream a route handler would return for this run (data parts merged around the model stream). */
export function uiStreamOf({ result, tools, opts }) {
  let n = 0;
  return createUIMessageStream({
    generateId: () => `ui-msg-${++n}`,
    execute: async ({ writer }) => {
      for (const part of opts.data ?? []) writer.write(part);
      writer.merge(
        result.toUIMessageStream({
          tools,
          sendReasoning: true,
          sendSources: true,
          generateMessageId: () => "ui-assistant-1",
          messageMetadata: opts.messageMetadata
            ? ({ part }) => (part.type === "start" || part.type === "finish" ? opts.messageMetadata : undefined)
            : undefined,
          onError: (e) => (e instanceof Error ? e.message : String(e)),
        }),
      );
      await result.consumeStream?.();
      for (const part of opts.dataAfter ?? []) writer.write(part);
    },
  });
}

/** What streamText reports from its own result promises (docs/record.md "final.json"). */
export async function finalOf(result, thrown) {
  const settle = async (p) => {
    try {
      return { value: await p };
    } catch (e) {
      return { error: e };
    }
  };
  const steps = await settle(result.steps);
  const text = await settle(result.text);
  const finishReason = await settle(result.finishReason);
  const usage = await settle(result.totalUsage);
  const toolCalls = [];
  for (const step of steps.value ?? []) {
    for (const c of step.toolCalls) {
      const res = step.toolResults.find((r) => r.toolCallId === c.toolCallId);
      const err = step.content.find((p) => p.type === "tool-error" && p.toolCallId === c.toolCallId);
      toolCalls.push({
        id: c.toolCallId,
        name: c.toolName,
        arguments: c.input,
        result: res ? res.output : err ? null : null,
        ...(err ? { isError: true, error: String(err.error?.message ?? err.error) } : {}),
      });
    }
  }
  const error = result.reported?.error ?? thrown ?? text.error ?? finishReason.error;
  const aborted = error?.name === "AbortError" || finishReason.value === "abort";
  return {
    text: text.value ?? null,
    toolCalls,
    stop: aborted ? "aborted" : error ? "error" : "done",
    stopReason: finishReason.value ?? null,
    ...(error && !aborted ? { error: { name: error.constructor?.name ?? error.name, message: error.message } } : {}),
    usage: usage.value ?? null,
    framework: {
      steps: (steps.value ?? []).map((s) => ({
        finishReason: s.finishReason,
        toolCalls: s.toolCalls.length,
        providerMetadata: s.providerMetadata ?? null,
      })),
    },
  };
}
