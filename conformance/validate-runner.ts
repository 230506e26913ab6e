/**
 * Runs the validation fixtures (`conformance/validate/<Def>/<case>.json`, §10, docs/conformance.md) against this
 * implementation: the strict and lenient verdicts through the public API for root documents (so
 * `known` is checked too) and through the generated validators for the other `$def`s. Shared by
 * the vitest suite and `agjson conformance`.
 */
import { join } from "node:path";
import { validateBlock, validateEvent, validateInput, validateMessage, validateReduceResult } from "../src/validate/index.js";
import { generatedValidator } from "./generated-validators.js";
import type { FixtureOutcome } from "./runner.js";
import { loadValidateFixtures, type ValidateFixture } from "./validate-fixtures.js";

const ROOT_OF: Record<ValidateFixture["kind"], string | undefined> = {
  common: undefined,
  block: "AgBlock",
  message: "AgMessage",
  event: "AgEvent",
  input: "AgInput",
  "reduce-result": "AgReduceResult",
};

/** The `$def` a fixture's document is validated against. */
export function fixtureDef(f: ValidateFixture): string {
  const def = f.def ?? ROOT_OF[f.kind];
  if (!def) throw new Error(`${f.name}: kind "${f.kind}" has no root type; name one with "def"`);
  return def;
}

/** The verdict this implementation gives a fixture in one posture: valid, invalid or unknown. */
export function verdict(f: ValidateFixture, posture: "strict" | "lenient"): "valid" | "invalid" | "unknown" {
  const def = fixtureDef(f);
  const o = { posture };
  switch (def) {
    case "AgEvent": {
      const r = validateEvent(f.document, o);
      return r.ok ? (r.known ? "valid" : "unknown") : "invalid";
    }
    case "AgInput":
      return validateInput(f.document, o).ok ? "valid" : "invalid";
    case "AgMessage":
      return validateMessage(f.document, o).ok ? "valid" : "invalid";
    case "AgBlock":
      return validateBlock(f.document, o).ok ? "valid" : "invalid";
    case "AgReduceResult":
      return validateReduceResult(f.document, o).ok ? "valid" : "invalid";
    default:
      return generatedValidator(posture, def)(f.document) ? "valid" : "invalid";
  }
}

export function runValidateFixture(f: ValidateFixture, dir: string): FixtureOutcome {
  const failures: string[] = [];
  const strict = verdict(f, "strict");
  if (strict !== f.strict) failures.push(`strict: ${strict}, expected ${f.strict}`);
  const lenient = verdict(f, "lenient");
  if (lenient !== f.lenient) failures.push(`lenient: ${lenient}, expected ${f.lenient}`);
  return { name: `validate/${f.name}`, file: join(dir, f.name), passed: failures.length === 0, failures };
}

export function runValidateConformance(dir: string): FixtureOutcome[] {
  return loadValidateFixtures(dir).map((f) => runValidateFixture(f, dir));
}
