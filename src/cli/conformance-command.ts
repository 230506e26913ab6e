/**
 * `agjson conformance [DIR]` (DESIGN §6): runs the language-neutral fixtures against this
 * implementation. DIR is a conformance folder holding `validate/`, `reduce/` and `normalize/`
 * fixture folders, one of those folders, or one reduce fixture file; default: the fixtures
 * shipped with agjson. Prints one line per failure with the command that reproduces it, then
 * `N passed, N failed`.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { reportConformance, runReduceConformance, type FixtureOutcome } from "../../conformance/runner.js";
import { runValidateConformance } from "../../conformance/validate-runner.js";
import { runNormalizeConformance } from "../../conformance/normalize-runner.js";

/** Normalize outcomes in the shared report shape (their reproduce command is the normalize run). */
function normalizeOutcomes(path: string): FixtureOutcome[] {
  return runNormalizeConformance(path).map((o) => ({
    name: `normalize/${o.name}`,
    file: o.file,
    passed: o.ok,
    failures: o.ok ? [] : [`${o.message ?? "failed"} (this implementation's events: ${o.reproduce})`],
  }));
}

function shippedFixtures(): string {
  // dist/src/cli → the package root's conformance/ (also right for src/cli under vitest).
  const here = fileURLToPath(new URL(".", import.meta.url));
  for (const up of ["../../..", "../.."]) {
    const dir = resolve(here, up, "conformance");
    if (existsSync(join(dir, "reduce")) || existsSync(join(dir, "validate"))) return dir;
  }
  return resolve("conformance");
}

export function conformanceCommand(dir: string | undefined, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): number {
  const path = resolve(dir ?? shippedFixtures());
  if (!existsSync(path)) {
    write(`agjson conformance: ${path} does not exist; pass a conformance folder (with validate/ and reduce/) or a fixture file`);
    return 2;
  }
  const outcomes: FixtureOutcome[] = [];
  try {
    const isFile = statSync(path).isFile();
    const validateFile = isFile && basename(resolve(path, "../..")) === "validate";
    if (basename(path) === "normalize" || (isFile && path.includes("/normalize/"))) {
      outcomes.push(...normalizeOutcomes(path));
    } else if (validateFile) {
      const dirOf = resolve(path, "../..");
      outcomes.push(...runValidateConformance(dirOf).filter((o) => resolve(o.file) === path));
    } else if (statSync(path).isFile() || basename(path) === "reduce" || path.includes("/reduce/")) {
      outcomes.push(...runReduceConformance(path));
    } else if (basename(path) === "validate") {
      outcomes.push(...runValidateConformance(path));
    } else {
      if (existsSync(join(path, "validate"))) outcomes.push(...runValidateConformance(join(path, "validate")));
      if (existsSync(join(path, "reduce"))) outcomes.push(...runReduceConformance(join(path, "reduce")));
      // Normalize fixtures may name recorded streams in the repository's fixtures/ folder.
      if (existsSync(join(path, "normalize"))) outcomes.push(...normalizeOutcomes(join(path, "normalize")));
      if (outcomes.length === 0) {
        write(`agjson conformance: no validate/ or reduce/ fixtures under ${path}`);
        return 2;
      }
    }
  } catch (error) {
    write(`agjson conformance: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  return reportConformance(outcomes, write);
}
