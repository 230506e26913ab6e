// §8.0 host obligation 1: a framework error thrown out of the run (never reaching its stream) is
// recorded as the native line the facet maps to `turn.error` — `{type:"__host_error__", name, message}`.

/** The `__host_error__` native line for an error the framework threw. */
export function hostErrorLine(err) {
  const name = err?.constructor?.name && err.constructor.name !== "Object" ? err.constructor.name : String(err?.name ?? "Error");
  return { type: "__host_error__", name, message: String(err?.message ?? err) };
}
