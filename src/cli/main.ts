/**
 * The `agjson` command line (docs/cli.md). Each command lives in its own module and is loaded only
 * when run, so `npx agjson validate` never pulls in the generator's dev-time dependencies.
 */
import { Command, CommanderError } from "commander";
import { packageVersion } from "./version.js";
import { FROM_VALUES } from "./source-options.js";
import { addGuardOptions } from "./guard-options.js";
import { INPUT_CAP_OPTIONS, MAX_ERRORS, inputCapHelp, inputCapsFromOptions, positiveIntegerOption } from "./input-options.js";

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

  program
    .command("gen")
    .description("regenerate generated/ from schema/ (or, with --check, fail when it is stale); with --lang, write code for your project")
    .option("--check", "compare instead of writing; exit 1 naming each stale file")
    .option("--lang <lang>", "ts, python or go: emit that language's types (and, for ts, validators) from the shipped schemas")
    .option("--out <dir>", "with --lang: the folder to write into")
    .action(async (opts: { check?: boolean; lang?: string; out?: string }) => {
      const { genCommand } = await import("./gen-command.js");
      exitCode = await genCommand({ check: Boolean(opts.check), lang: opts.lang, out: opts.out, version: packageVersion() });
    });

  const formatOption = (v: string) => {
    if (v !== "ndjson" && v !== "json" && v !== "sse" && v !== "auto") throw new Error(`--format must be ndjson, json, sse or auto (got "${v}")`);
    return v;
  };

  program
    .command("validate")
    .description("validate each record of FILE (or stdin): NDJSON, a JSON array, or SSE")
    .argument("[file]", "input file, or - for stdin")
    .option("--posture <posture>", "strict (producer) or lenient (consumer)", "lenient")
    .option("--kind <kind>", "event, input or message", "event")
    .option("--json", "print one JSON line per record")
    .option("--format <format>", "ndjson, json, sse or auto", formatOption, "auto")
    .option(`${INPUT_CAP_OPTIONS[0]!.flag} <n>`, inputCapHelp(INPUT_CAP_OPTIONS[0]!))
    .option(`${INPUT_CAP_OPTIONS[1]!.flag} <n>`, inputCapHelp(INPUT_CAP_OPTIONS[1]!))
    .option(`${MAX_ERRORS.flag} <n>`, `problems listed per invalid document (default ${MAX_ERRORS.default})`)
    .action(async (file: string | undefined, opts: { posture: string; kind: string; json?: boolean; format: "ndjson" | "json" | "sse" | "auto"; maxErrors?: string } & Record<string, unknown>) => {
      if (opts.posture !== "strict" && opts.posture !== "lenient") throw new Error(`--posture must be strict or lenient (got "${opts.posture}")`);
      if (opts.kind !== "event" && opts.kind !== "input" && opts.kind !== "message") throw new Error(`--kind must be event, input or message (got "${opts.kind}")`);
      const caps = inputCapsFromOptions(opts);
      const maxErrors = positiveIntegerOption(MAX_ERRORS.flag, opts.maxErrors, MAX_ERRORS.default, MAX_ERRORS.ceiling);
      const { validateCommand } = await import("./validate-command.js");
      exitCode = await validateCommand(file, { posture: opts.posture, kind: opts.kind, json: Boolean(opts.json), format: opts.format, maxErrors, ...caps });
    });

  program
    .command("reduce")
    .description("validate (lenient) then fold the events of FILE (or stdin) into an AgReduceResult")
    .argument("[file]", "input file, or - for stdin")
    .option("--format <format>", "ndjson, json, sse or auto", formatOption, "auto")
    .option("--pretty", "indent the JSON output")
    .option(`${INPUT_CAP_OPTIONS[0]!.flag} <n>`, inputCapHelp(INPUT_CAP_OPTIONS[0]!))
    .option(`${INPUT_CAP_OPTIONS[1]!.flag} <n>`, inputCapHelp(INPUT_CAP_OPTIONS[1]!))
    .option(`${MAX_ERRORS.flag} <n>`, "invalid records listed in the output; the rest are counted (default 1000)")
    .action(async (file: string | undefined, opts: { format: "ndjson" | "json" | "sse" | "auto"; pretty?: boolean; maxErrors?: string } & Record<string, unknown>) => {
      const caps = inputCapsFromOptions(opts);
      const maxErrors = positiveIntegerOption(MAX_ERRORS.flag, opts.maxErrors, 1000, MAX_ERRORS.ceiling);
      const { reduceCommand } = await import("./reduce-command.js");
      exitCode = await reduceCommand(file, { format: opts.format, pretty: Boolean(opts.pretty), maxErrors, ...caps });
    });

  const normalize = program
    .command("normalize")
    .description("turn a provider stream (chunk-per-line or raw SSE) into AgEvent NDJSON")
    .requiredOption("--from <facet>", "the provider API or agent framework the input comes from (`agjson normalize --help` lists them)")
    .argument("[file]", "input file, or - for stdin")
    .option(`${INPUT_CAP_OPTIONS[0]!.flag} <n>`, "largest native chunk (default 16777216 bytes)")
    .option(`${INPUT_CAP_OPTIONS[1]!.flag} <n>`, inputCapHelp(INPUT_CAP_OPTIONS[1]!))
    .action(async (file: string | undefined, opts: { from: string } & Record<string, unknown>) => {
      const { normalizeCommand, NORMALIZE_DEFAULT_CAPS } = await import("./normalize-command.js");
      exitCode = await normalizeCommand(file, opts.from, inputCapsFromOptions(opts, NORMALIZE_DEFAULT_CAPS));
    });

  // The `--from` facets are FACET_TABLE's, read when normalize runs or prints its help (its module loads only then).
  program.hook("preSubcommand", async (_program, command) => {
    if (command !== normalize) return;
    const { fromOptionHelp } = await import("./normalize-command.js");
    const from = normalize.options.find((o) => o.long === "--from");
    if (from) from.description = fromOptionHelp();
  });

  program
    .command("conformance")
    .description("run the conformance fixtures (validate/, reduce/) against this implementation")
    .argument("[dir]", "a conformance folder, one of its fixture folders, or one fixture file")
    .action(async (dir: string | undefined) => {
      const { conformanceCommand } = await import("./conformance-command.js");
      exitCode = conformanceCommand(dir);
    });

  const proxy = program
    .command("proxy")
    .description("run the validating gateway in front of an agent host")
    .requiredOption("--upstream <url>", "the agent host's URL (POST AgInput, streams AgEvents back)")
    .option("--port <n>", "port to listen on", "8787")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--posture <posture>", "strict or lenient", "lenient")
    .option("--on-invalid <policy>", "drop or terminate", "drop")
    .option("--cors <origin>", "answer CORS preflights (OPTIONS) for this browser origin, or * for any; without it OPTIONS is 405")
    .option("--inspect", "also start the inspector page: every stream through the proxy appears there live (its URL on stderr)");
  addGuardOptions(proxy);
  if (argv.slice(2).includes("proxy")) {
    const { CAP_OPTIONS, capHelp } = await import("./cap-options.js");
    for (const o of CAP_OPTIONS) proxy.option(`${o.flag} <n>`, capHelp(o));
  }
  proxy.action(async (opts: import("./proxy-command.js").ProxyCliOptions) => {
    const { proxyCommand } = await import("./proxy-command.js");
    exitCode = await proxyCommand(opts);
  });

  (await import("./reinput-command.js")).registerReinputCommand(program, (code) => (exitCode = code));
  program.command("convert").description("convert an AgEvent stream (NDJSON, JSON array or SSE) for a front end: AG-UI events (NDJSON, or SSE with --sse) or the AI SDK UI message stream (SSE)").requiredOption("--to <target>", "ag-ui or ui-message-stream").option("--sse", "ag-ui: frame the output as SSE").option("--format <format>", "ndjson, json, sse or auto", formatOption, "auto").argument("[file]", "input file, or - for stdin").action(async (file: string | undefined, opts: { to: string; sse?: boolean; format: "ndjson" | "json" | "sse" | "auto" }) => void (exitCode = await (await import("./convert-command.js")).convertCommand(file, opts.to, opts.format, Boolean(opts.sse))));
  program.command("acp").description("run an ACP agent on stdio in front of an agjson upstream, a provider API (--from) or a recorded stream").option("--upstream <url>", "agjson endpoint: POST AgInput, streams AgEvent SSE/NDJSON (with --from: a provider API's streaming endpoint)").option("--replay <file>", "recorded AgEvent stream, one turn per prompt").option("--from <api>", `the provider API --upstream speaks: ${FROM_VALUES.join(" | ")}`).option("--model <id>", "the model each provider request names (with --from)").option("--header <line>", "\"Name: value\" sent on every --upstream request (repeatable)", (v: string, prev: string[] = []) => [...prev, v]).option("--idle-timeout-ms <n>", "longest silence from the upstream, headers included (default 60000 ms, at most 1800000)").option("--wall-timeout-ms <n>", "longest run against the upstream (default 600000 ms, at most 21600000)").action(async (opts: import("./acp-command.js").AcpCommandOptions) => void (exitCode = await (await import("./acp-command.js")).acpCommand(opts)));
  (await import("./serve-command.js")).registerServeCommand(program, (code) => (exitCode = code));
  program
    .command("inspect")
    .description("open a stream (any facet, an AgEvent stream or an AgReduceResult) in the local inspector page; prints its URL")
    .argument("[file]", "input file, or - for stdin; without it the page starts empty (drop or paste a file there)")
    .option("--from <facet>", "agjson (AgEvents) or a facet: what the input is, instead of detecting it")
    .option("--port <n>", "port to listen on (0 picks a free one)", "0")
    .option("--host <host>", "interface to listen on (a non-loopback one is warned about)", "127.0.0.1")
    .option("--no-open", "only print the URL; do not open the system browser")
    .option("--max-upload-bytes <n>", "largest file the page may upload (default 67108864)")
    .action(async (file: string | undefined, opts: import("./inspect-command.js").InspectCliOptions) => void (exitCode = await (await import("./inspect-command.js")).inspectCommand(file, opts)));

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    process.stderr.write(`agjson: ${(err as Error).message}\n`);
    return 2;
  }
  return exitCode;
}
