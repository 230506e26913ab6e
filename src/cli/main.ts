/**
 * The `agjson` command line (docs/cli.md). `COMMANDS` names every command with its one-line
 * description, which is all `agjson --help` needs; the module of the one command that runs is the
 * only one loaded (docs/architecture.md), and it adds that command's arguments, options and action,
 * so `npx agjson validate` never loads the gateway, the bridges, re-input, the generator or the
 * conformance fixtures.
 */
import { Command, CommanderError } from "commander";
import type { DefineCommand } from "./command.js";
import { packageVersion } from "./version.js";

/** One command: its name and `agjson --help` line, and how to load the module that defines the rest. */
interface CommandEntry {
  name: string;
  description: string;
  load: () => Promise<{ defineCommand: DefineCommand }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "gen",
    description: "regenerate generated/ from schema/ (or, with --check, fail when it is stale); with --lang, write code for your project",
    load: () => import("./gen-command.js"),
  },
  {
    name: "validate",
    description: "validate each record of FILE (or stdin): NDJSON, a JSON array, or SSE",
    load: () => import("./validate-command.js"),
  },
  {
    name: "reduce",
    description: "validate (lenient) then fold the events of FILE (or stdin) into an AgReduceResult",
    load: () => import("./reduce-command.js"),
  },
  {
    name: "normalize",
    description: "turn a provider stream (chunk-per-line or raw SSE) into AgEvent NDJSON",
    load: () => import("./normalize-command.js"),
  },
  {
    name: "conformance",
    description: "run the conformance fixtures (validate/, reduce/) against this implementation",
    load: () => import("./conformance-command.js"),
  },
  { name: "proxy", description: "run the validating gateway in front of an agent host", load: () => import("./proxy-command.js") },
  {
    name: "reinput",
    description: "turn an AgReduceResult or AgMessage[] into the next provider request (report on stderr)",
    load: () => import("./reinput-command.js"),
  },
  {
    name: "convert",
    description:
      "convert an AgEvent stream (NDJSON, JSON array or SSE) for a front end: AG-UI events (NDJSON, or SSE with --sse) or the AI SDK UI message stream (SSE)",
    load: () => import("./convert-command.js"),
  },
  {
    name: "acp",
    description: "run an ACP agent on stdio in front of an agjson upstream, a provider API (--from) or a recorded stream",
    load: () => import("./acp-command.js"),
  },
  {
    name: "serve",
    description:
      "serve AgJSON to a front end over HTTP: --agui answers each AG-UI RunAgentInput POST with AG-UI SSE from a recorded stream, an agjson upstream, or a provider API (--from)",
    load: () => import("./serve-command.js"),
  },
  {
    name: "inspect",
    description: "open a stream (any facet, an AgEvent stream or an AgReduceResult) in the local inspector page; prints its URL",
    load: () => import("./inspect-command.js"),
  },
];

/**
 * The command `args` (after `node agjson`) runs: the first argument that is not an option, or for
 * `help X`, X. The root program takes no option with a value, so no option's value is mistaken for
 * it (a file named `proxy` after `validate` is validate's argument).
 */
export function invokedCommand(args: readonly string[]): CommandEntry | undefined {
  const words = args.filter((a) => !a.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return COMMANDS.find((c) => c.name === name);
}

/** Runs the CLI on `argv` (as `process.argv`) and resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  // A reader that goes away (`agjson reduce big.ndjson | head`) wants no more output; nothing failed.
  // Every command then ends quietly with status 0, whatever it would have ended with.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  const program = new Command()
    .name("agjson")
    .description("AgJSON v1 toolchain: generate, validate, reduce, normalize, proxy")
    .version(packageVersion(), "--version", "print the agjson version")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });

  const commands = new Map(COMMANDS.map((c) => [c.name, program.command(c.name).description(c.description)]));
  const invoked = invokedCommand(argv.slice(2));
  try {
    if (invoked !== undefined) await (await invoked.load()).defineCommand(commands.get(invoked.name)!, (code) => (exitCode = code));
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    process.stderr.write(`agjson: ${(err as Error).message}\n`);
    return 2;
  }
  return exitCode;
}
