/**
 * `agjson gen` (docs/cli.md, docs/codegen.md). Two jobs:
 * - `gen [--check]`, in a clone of this repository: regenerate `generated/` from `schema/` (exit 0
 *   when current, 1 on drift);
 * - `gen --lang ts|python|go --out DIR`, anywhere agjson is installed: write AgJSON code for the
 *   user's project from the schemas the package ships (codegen/user-gen.ts).
 * The generator and its dependencies are loaded only here, lazily.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Option, type Command } from "commander";
import type { DefineCommand } from "./command.js";
import { packageVersion } from "./version.js";

/** Adds gen's options; `--lang` takes the generator's own `USER_LANGS`. */
export const defineCommand: DefineCommand = async (cmd: Command, setExitCode) => {
  const { USER_LANGS } = await import("../../codegen/user-gen.js");
  cmd
    .option("--check", "compare instead of writing; exit 1 naming each stale file")
    .addOption(
      new Option("--lang <lang>", "emit that language's types (and, for ts, validators) from the shipped schemas").choices(USER_LANGS),
    )
    .option("--out <dir>", "with --lang: the folder to write into")
    .action(async (opts: { check?: boolean; lang?: string; out?: string }) => {
      setExitCode(await genCommand({ check: Boolean(opts.check), lang: opts.lang, out: opts.out, version: packageVersion() }));
    });
};

export interface GenOptions {
  check: boolean;
  lang?: string;
  out?: string;
  version: string;
}

export async function genCommand(opts: GenOptions): Promise<number> {
  if (opts.lang !== undefined || opts.out !== undefined) return userGen(opts);
  const { packageRoot } = await import("../../codegen/user-gen.js");
  // An installed package has the schemas but not the generator's inputs (codegen/).
  if (!existsSync(join(packageRoot(), "codegen"))) {
    process.stderr.write(
      "agjson gen: without --lang it regenerates the agjson repository's generated/ folder, and runs in a clone of it.\nFor your project: agjson gen --lang ts|python|go --out DIR\n",
    );
    return 2;
  }
  const { runGen, REGENERATE } = await import("../../codegen/gen.js");
  try {
    const { changed, removed } = await runGen({ check: opts.check });
    if (opts.check) {
      if (changed.length === 0 && removed.length === 0) {
        process.stdout.write("agjson gen --check: generated/ is current\n");
        return 0;
      }
      for (const p of changed) process.stderr.write(`stale: ${p}\n`);
      for (const p of removed) process.stderr.write(`not generated any more: ${p}\n`);
      process.stderr.write(`generated/ is out of date with schema/; run \`${REGENERATE}\` and commit the result\n`);
      return 1;
    }
    for (const p of changed) process.stdout.write(`wrote ${p}\n`);
    for (const p of removed) process.stdout.write(`removed ${p}\n`);
    if (changed.length === 0 && removed.length === 0) process.stdout.write("generated/ was already current\n");
    return 0;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 1;
  }
}

async function userGen(opts: GenOptions): Promise<number> {
  const { USER_LANGS, isUserLang, writeUserCode, MissingPeerError, packageRoot } = await import("../../codegen/user-gen.js");
  if (opts.check) {
    process.stderr.write("agjson gen: --check compares this repository's generated/ folder; it does not combine with --lang\n");
    return 2;
  }
  if (opts.lang === undefined || !isUserLang(opts.lang)) {
    process.stderr.write(
      `agjson gen: --lang must be one of ${USER_LANGS.join(", ")} (got ${opts.lang === undefined ? "nothing" : `"${opts.lang}"`})\n`,
    );
    return 2;
  }
  if (opts.out === undefined) {
    process.stderr.write("agjson gen: --lang needs --out DIR, the folder to write the code into\n");
    return 2;
  }
  try {
    const written = await writeUserCode({ root: packageRoot(), lang: opts.lang, out: opts.out, version: opts.version });
    for (const p of written) process.stdout.write(`wrote ${p}\n`);
    return 0;
  } catch (err) {
    if (err instanceof MissingPeerError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    // A file system error (ENOTDIR, EACCES, …) is about the folder the user named.
    const fsCode = (err as { code?: unknown }).code;
    const what = typeof fsCode === "string" ? `cannot write the code into --out ${opts.out}: ` : "";
    process.stderr.write(`agjson gen: ${what}${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}
