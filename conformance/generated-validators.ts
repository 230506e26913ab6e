/**
 * Every generated validator by `$def` name and posture, for the fixture suites (the generated path
 * is tested as hard as the canonical schema it is compiled from).
 */
import * as strict from "../generated/validators/strict.js";
import * as lenient from "../generated/validators/lenient.js";
import type { GeneratedValidator } from "../generated/validators/types.js";

const MODULES: Record<"strict" | "lenient", Record<string, unknown>> = { strict, lenient };

/** The generated validator of one `$def` in one posture; throws when none was generated. */
export function generatedValidator(posture: "strict" | "lenient", def: string): GeneratedValidator<unknown> {
  const v = MODULES[posture][`validate${def}`];
  if (typeof v !== "function") throw new Error(`no generated ${posture} validator for ${def}`);
  return v as GeneratedValidator<unknown>;
}
