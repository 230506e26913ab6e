/**
 * `agjson conformance [DIR]` (§10; docs/conformance.md): runs the language-neutral fixtures against this
 * implementation. DIR is a conformance folder holding `validate/`, `reduce/` and `normalize/`
 * fixture folders, one of those folders, or one reduce fixture file; default: the fixtures
 * shipped with agjson (this repository's conformance/ in a clone; in the npm package, the archive
 * the build packs them into, conformance/fixture-archive.ts). Prints one line per failure with the
 * command that reproduces it, each suite it skipped and why, then `N passed, N failed`.
 */
import { existsSync, rmSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { reportConformance, runReduceConformance, type FixtureOutcome } from "../../conformance/runner.js";
import { runValidateConformance } from "../../conformance/validate-runner.js";
import { runNormalizeConformance, type NormalizeRunOptions } from "../../conformance/normalize-runner.js";
import { SUITES, unpackFixtures } from "../../conformance/fixture-archive.js";
import type { DefineCommand } from "./command.js";

/** Adds conformance's argument and action. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .argument("[dir]", "a conformance folder, one of its fixture folders, or one fixture file")
    .action((dir: string | undefined) => setExitCode(conformanceCommand(dir)));
};

/** Normalize outcomes in the shared report shape (their reproduce command is the normalize run). */
function normalizeOutcomes(path: string, options: NormalizeRunOptions = {}): FixtureOutcome[] {
  return runNormalizeConformance(path, options).map((o) => ({
    name: `normalize/${o.name}`,
    file: o.file,
    passed: o.ok,
    failures: o.ok ? [] : [`${o.message ?? "failed"} (this implementation's events: ${o.reproduce})`],
  }));
}

/** Where the shipped fixtures are: a clone's conformance/, else the package's archive, unpacked. */
function shippedFixtures(): { dir: string; nativeBase?: string; cleanup?: () => void } {
  // src/cli under vitest, dist/esm/src/cli in a build: the repository or package root is above.
  const here = fileURLToPath(new URL(".", import.meta.url));
  for (const up of ["../..", "../../../.."]) {
    const root = resolve(here, up);
    const dir = join(root, "conformance");
    if (existsSync(join(dir, "reduce")) || existsSync(join(dir, "validate"))) return { dir };
    const archive = join(root, "dist/conformance-fixtures.json.br");
    if (existsSync(archive)) {
      const unpacked = unpackFixtures(archive);
      return {
        dir: join(unpacked, "conformance"),
        nativeBase: unpacked,
        cleanup: () => rmSync(unpacked, { recursive: true, force: true }),
      };
    }
  }
  return { dir: resolve("conformance") };
}

export function conformanceCommand(dir: string | undefined, write: (line: string) => void = (l) => process.stdout.write(l + "\n")): number {
  const shipped = dir === undefined ? shippedFixtures() : undefined;
  try {
    return runConformance(resolve(dir ?? shipped!.dir), write, shipped?.nativeBase === undefined ? {} : { nativeBase: shipped.nativeBase });
  } finally {
    shipped?.cleanup?.();
  }
}

function runConformance(path: string, write: (line: string) => void, normalizeOptions: NormalizeRunOptions): number {
  if (!existsSync(path)) {
    write(`agjson conformance: ${path} does not exist; pass a conformance folder (with validate/ and reduce/) or a fixture file`);
    return 2;
  }
  const outcomes: FixtureOutcome[] = [];
  try {
    const isFile = statSync(path).isFile();
    const validateFile = isFile && basename(resolve(path, "../..")) === "validate";
    if (basename(path) === "normalize" || (isFile && path.includes("/normalize/"))) {
      outcomes.push(...normalizeOutcomes(path, normalizeOptions));
    } else if (validateFile) {
      const dirOf = resolve(path, "../..");
      outcomes.push(...runValidateConformance(dirOf).filter((o) => resolve(o.file) === path));
    } else if (statSync(path).isFile() || basename(path) === "reduce" || path.includes("/reduce/")) {
      outcomes.push(...runReduceConformance(path));
    } else if (basename(path) === "validate") {
      outcomes.push(...runValidateConformance(path));
    } else {
      // Each suite runs when its folder is there; a missing one is said, never skipped silently.
      for (const suite of SUITES) {
        const folder = join(path, suite);
        if (!existsSync(folder)) {
          write(`skipped ${suite}/: no such folder under ${path}`);
          continue;
        }
        const before = outcomes.length;
        if (suite === "validate") outcomes.push(...runValidateConformance(folder));
        else if (suite === "reduce") outcomes.push(...runReduceConformance(folder));
        // Normalize fixtures may name recorded streams in the repository's fixtures/ folder.
        else outcomes.push(...normalizeOutcomes(folder, normalizeOptions));
        write(`${suite}/: ${outcomes.length - before} fixtures`);
      }
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
