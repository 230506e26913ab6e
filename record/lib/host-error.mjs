// §8.0 host obligation 1 for the recordings: a framework error thrown out of the run (never
// reaching its stream) is recorded as the native line the facet maps to `turn.error` —
// `{type:"__host_error__", name, message}` — and guardrail results, which @openai/agents reports only
// on its result object, as `{type:"__host_guardrail_result__", target, name, tripwireTriggered,
// outputInfo}`. The same contract as src/normalize/frameworks/openai-agents-host.ts, which users run.

function guardrailLine(result, target) {
  const line = { target, tripwireTriggered: result?.output?.tripwireTriggered === true };
  if (typeof result?.guardrail?.name === "string") line.name = result.guardrail.name;
  if (result?.output?.outputInfo !== undefined) line.outputInfo = JSON.parse(JSON.stringify(result.output.outputInfo));
  return line;
}

/** The `__host_error__` native line for an error the framework threw. */
export function hostErrorLine(err) {
  const ctor = err?.constructor?.name;
  const name = ctor && ctor !== "Object" ? ctor : String(err?.name ?? "Error");
  const line = { type: "__host_error__", name, message: String(err?.message ?? err) };
  if (/GuardrailTripwireTriggered$/.test(name) && err?.result !== undefined) {
    line.guardrail = guardrailLine(err.result, name.startsWith("Input") ? "input" : name.startsWith("Output") ? "output" : "tool");
  }
  return line;
}

/** The `__host_guardrail_result__` lines of a finished run's guardrail results. */
export function guardrailResultLines(run) {
  return [
    ...(run?.inputGuardrailResults ?? []).map((r) => ({ type: "__host_guardrail_result__", ...guardrailLine(r, "input") })),
    ...(run?.outputGuardrailResults ?? []).map((r) => ({ type: "__host_guardrail_result__", ...guardrailLine(r, "output") })),
  ];
}
