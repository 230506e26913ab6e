/**
 * Opaque values (tool arguments and results, `providerMetadata`, replay blobs) as the targets
 * carry them, byte-identical (§13.2). A conversation read with `parseExactNumbers` holds each
 * number a double cannot write back as a `JsonNumberText` leaf; one read with `parseKeepingExact`
 * holds doubles whose objects remember their exact twins. Where a target carries the value as JSON
 * the object goes through untouched (the caller writes the request with `stringifyExact`); where
 * it wants a JSON string (OpenAI `arguments`, a result sent as text), the converters write it with
 * `stringifyExact`, each number in its own text. They import `../wire/exact-numbers.js` itself, not
 * the wire module: the framers stay out of the re-input bundle.
 */
import { isRecord } from "../json-guards.js";
import { JsonNumberText } from "../wire/exact-numbers.js";

/** A JSON object, as a target wanting an object (Anthropic `input`, Gemini `args`) reads it: a kept number is not one. */
export function isJsonObject(x: unknown): x is Record<string, unknown> {
  return isRecord(x) && !(x instanceof JsonNumberText);
}

/**
 * A number of an opaque value in a field the target types as a number (a shell call's
 * `timeout_ms`, an `exit_code`): the double itself, or a kept number's nearest double, which
 * `onDouble` hears of so that the change is reported (§13.2: nothing is changed silently).
 */
export function targetNumber(x: unknown, onDouble: () => void): number | undefined {
  if (typeof x === "number") return x;
  if (!(x instanceof JsonNumberText)) return undefined;
  onDouble();
  return Number(x.text);
}
