/**
 * A record parsed with its number texts kept (`parseExactNumbers`, §13.2), made to pass the schema
 * the way the commands that replay it (`reduce`, `reinput`) need: a number where the schema leaves
 * the value open (tool arguments and results, `providerMetadata`, `provider-raw`, state) keeps its
 * text; a number the schema types (`seq`, a token count, an index) is validated as the double it
 * parses to, so each text leaf the schema refuses is turned back into its double.
 */
import { countNumberTexts, dropNumberTexts } from "../wire/index.js";

/** A validator's answer, reduced to what the loop reads. */
export type ExactCheck<T> = { ok: true; value: T } | { ok: false; errors: readonly { path: string }[] };

/** The accepted value, its number texts left, and the JSON Pointers where texts were turned into doubles. */
export interface KeptNumberTexts<T> {
  value: T;
  kept: number;
  doubled: string[];
}

/**
 * `value` with every number text `check` refuses turned back into its double, judged again until it
 * passes. Undefined when it still fails with no text left to turn back: it fails as the plain parse
 * would, and the plain parse's answer is the one to use.
 */
export function keepAcceptedNumberTexts<T>(value: unknown, check: (v: unknown) => ExactCheck<T>): KeptNumberTexts<T> | undefined {
  const doubled: string[] = [];
  for (let left = countNumberTexts(value); ; ) {
    const checked = check(value);
    if (checked.ok) return { value: checked.value, kept: left, doubled };
    for (const { path } of checked.errors) {
      const before = countNumberTexts(value);
      value = dropNumberTexts(value, path);
      if (countNumberTexts(value) < before) doubled.push(path);
    }
    const now = countNumberTexts(value);
    if (now === left) return undefined;
    left = now;
  }
}
