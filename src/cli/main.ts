/**
 * The `agjson` command line (DESIGN §6). Each command lives in its own module and is loaded only
 * when run, so `npx agjson validate` never pulls in the generator's dev-time dependencies.
 */
import { Command, CommanderError } from "commander";

/** Runs the CLI on `argv` (as `process.argv`) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name("agjson")
    .description("AgJSON v1 toolchain: generate, validate, reduce, normalize, proxy")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  program
    .command("gen")
    .description("regenerate generated/ from schema/ (or, with --check, fail when it is stale)")
    .option("--check", "compare instead of writing; exit 1 naming each stale file")
    .action(async (opts: { check?: boolean }) => {
      const { genCommand } = await import("./gen-command.js");
      exitCode = await genCommand(Boolean(opts.check));
    });

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    process.stderr.write(`agjson: ${(err as Error).message}\n`);
    return 2;
  }
  return exitCode;
}
