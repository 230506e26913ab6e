/**
 * The host side of the `openai-agents` facet (§8.0 host obligation 1): `@openai/agents` throws
 * max-turns, guardrail-tripwire and HTTP errors out of the run instead of streaming them, and
 * reports guardrail results only on its result object. The host catches and feeds them as native
 * lines — `{"type":"__host_error__","name":"<the error's class name>","message":"…"}` (plus the
 * tripped `guardrail` when the error carries one) and `{"type":"__host_guardrail_result__",…}` —
 * which the facet maps to `turn.error` with the matching `code` and to `guardrail.result`.
 * Recordings carry the same lines, so `agjson normalize --from openai-agents` accepts them.
 */
import type { AgEvent } from "../../../generated/types.js";
import type { NormalizerOptions } from "../engine.js";
import { OpenAiAgentsFacet } from "./openai-agents.js";

/** The parts of `@openai/agents`' StreamedRunResult the helper reads (structural: no SDK import). */
export interface AgentsStreamedRun extends AsyncIterable<unknown> {
  readonly completed?: Promise<unknown>;
  readonly error?: unknown;
  readonly inputGuardrailResults?: readonly unknown[];
  readonly outputGuardrailResults?: readonly unknown[];
}

/** A guardrail result as the facet's host-fed line reads it. */
interface GuardrailLine {
  target: "input" | "output" | "tool";
  name?: string;
  tripwireTriggered: boolean;
  outputInfo?: unknown;
}

function field(x: unknown, key: string): unknown {
  return typeof x === "object" && x !== null ? Reflect.get(x, key) : undefined;
}

function guardrailLine(result: unknown, target: GuardrailLine["target"]): GuardrailLine {
  const name = field(field(result, "guardrail"), "name");
  const output = field(result, "output");
  const line: GuardrailLine = { target, tripwireTriggered: field(output, "tripwireTriggered") === true };
  if (typeof name === "string") line.name = name;
  const info = field(output, "outputInfo");
  if (info !== undefined) line.outputInfo = JSON.parse(JSON.stringify(info));
  return line;
}

/** The `__host_error__` native line for an error the run threw (§8.0 host obligation 1). */
export function hostErrorLine(err: unknown): Record<string, unknown> {
  const ctor = field(err, "constructor");
  const ctorName = typeof ctor === "function" ? ctor.name : undefined;
  const name = ctorName !== undefined && ctorName !== "" && ctorName !== "Object" ? ctorName : String(field(err, "name") ?? "Error");
  const message = err instanceof Error ? err.message : String(field(err, "message") ?? err);
  const line: Record<string, unknown> = { type: "__host_error__", name, message };
  // Tripwire errors carry the guardrail's result: the facet reports it before the turn fails.
  const result = field(err, "result");
  if (/GuardrailTripwireTriggered$/.test(name) && result !== undefined) {
    line.guardrail = guardrailLine(result, name.startsWith("Input") ? "input" : name.startsWith("Output") ? "output" : "tool");
  }
  return line;
}

/** The `__host_guardrail_result__` lines of a finished run's guardrail results. */
export function guardrailResultLines(run: AgentsStreamedRun): Record<string, unknown>[] {
  return [
    ...(run.inputGuardrailResults ?? []).map((r) => ({ type: "__host_guardrail_result__", ...guardrailLine(r, "input") })),
    ...(run.outputGuardrailResults ?? []).map((r) => ({ type: "__host_guardrail_result__", ...guardrailLine(r, "output") })),
  ];
}

/**
 * Runs one `@openai/agents` streamed run through a fresh `openai-agents` normalizer and yields its
 * AgEvents: every stream event (JSON-serialized, as it would travel), then the guardrail results,
 * then — when the run throws — the `__host_error__` line, then flush (§8.0: one instance per invoke,
 * flush exactly once).
 *
 *   for await (const ev of normalizeOpenAiAgentsRun(() => run(agent, input, { stream: true }))) send(ev);
 */
export async function* normalizeOpenAiAgentsRun(
  start: () => AgentsStreamedRun | Promise<AgentsStreamedRun>,
  opts: NormalizerOptions = {},
): AsyncGenerator<AgEvent> {
  const normalizer = new OpenAiAgentsFacet(opts);
  const feed = (native: unknown): AgEvent[] => normalizer.push(JSON.parse(JSON.stringify(native)));
  let run: AgentsStreamedRun | undefined;
  try {
    run = await start();
    for await (const event of run) yield* feed(event);
    await run.completed;
    if (run.error !== undefined && run.error !== null) throw run.error;
    for (const line of guardrailResultLines(run)) yield* feed(line);
  } catch (err) {
    if (run) for (const line of guardrailResultLines(run)) yield* feed(line);
    yield* feed(hostErrorLine(err));
  }
  yield* normalizer.flush();
}
