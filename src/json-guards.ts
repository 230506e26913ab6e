/**
 * The one structural check every layer shares: is a parsed JSON value an object (not an array, not
 * null)? It sits below every room of docs/architecture.md and imports nothing, so `src/wire`,
 * `src/validate`, `src/reinput` and the rest read untrusted JSON with the same test.
 */

/** True for a non-null, non-array object (any prototype: a class instance passes too). */
export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
