/**
 * `agjson acp --upstream URL [--from API --model ID] [--header "N: v"]… | --replay FILE`: an ACP
 * agent on stdio (docs/bridges/acp.md) in front of an agjson endpoint, a raw provider API (through a
 * provider source) or a recording. stdout is the JSON-RPC channel, so every diagnostic goes to stderr.
 * The agent ends with its editor: stdin closed ends every running prompt and the process.
 */
import { Option } from "commander";
import { capsFromOptions, sharedCapHelp } from "./cap-options.js";
import type { DefineCommand } from "./command.js";
import { chooseSource, openSource, collect, escapeForLog, FROM_VALUES, SOURCE_DEADLINE_FLAGS, type SourceFlags } from "./source-options.js";
import { packageVersion } from "./version.js";

/** Adds acp's options and action; the ACP bridge loads only when it runs. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .option(
      "--upstream <url>",
      "agjson endpoint: POST AgInput, streams AgEvent SSE/NDJSON (with --from: a provider API's streaming endpoint)",
    )
    .option("--replay <file>", "recorded AgEvent stream, one turn per prompt")
    .addOption(new Option("--from <api>", "the provider API --upstream speaks").choices(FROM_VALUES))
    .option("--model <id>", "the model each provider request names (with --from)")
    .option("--header <line>", '"Name: value" sent on every --upstream request (repeatable)', collect);
  for (const o of SOURCE_DEADLINE_FLAGS) cmd.option(`${o.flag} <n>`, sharedCapHelp(o));
  cmd.action(async (opts: AcpCommandOptions) => setExitCode(await acpCommand(opts)));
};

export interface AcpCommandOptions extends SourceFlags {
  idleTimeoutMs?: string;
  wallTimeoutMs?: string;
}

/** One stderr line; upstream-controlled text in it cannot forge another or drive the terminal. */
const log = (line: string): void => void process.stderr.write(`${escapeForLog(line)}\n`);

/** How long running work may take to wind down once the client is gone, before the process exits. */
const EXIT_GRACE_MS = 2000;

export async function acpCommand(opts: AcpCommandOptions): Promise<number> {
  const choice = chooseSource(opts, "give exactly one of --upstream URL or --replay FILE");
  if (typeof choice === "string") {
    log(`agjson acp: ${choice}`);
    return 2;
  }
  let deadlines: ReturnType<typeof capsFromOptions>;
  try {
    deadlines = capsFromOptions(
      opts as Record<string, unknown>,
      SOURCE_DEADLINE_FLAGS.map((o) => o.cap),
    );
  } catch (err) {
    log(`agjson acp: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  let bridge: typeof import("../bridges/acp/index.js");
  try {
    bridge = await import("../bridges/acp/index.js");
  } catch (err) {
    log(
      `agjson acp: needs @agentclientprotocol/sdk (an optional peer dependency): npm install "@agentclientprotocol/sdk@^2.4" (${err instanceof Error ? err.message : String(err)})`,
    );
    return 2;
  }
  const opened = await openSource(choice, deadlines, (line) => log(`agjson acp: ${line}`));
  if (typeof opened === "number") return opened;
  const source = opened.source;
  // The package layout puts this module at different depths (src/cli under vitest, dist/esm/src/cli
  // built): packageVersion() walks up to agjson's own package.json instead of a fixed relative path.
  const end = await bridge.serveAcpStdio({ source, name: "agjson", version: packageVersion(), log });
  let code = 0;
  if (end.error !== undefined) {
    code = 1;
    log(
      end.error.name === "MessageTooLargeError"
        ? `agjson acp: a message from the client is over the ACP SDK's line cap (${end.error.message}); the connection is closed`
        : `agjson acp: the ACP connection failed: ${end.error.message}`,
    );
  }
  // The prompts were ended with the connection; a socket or timer a source still holds must not keep
  // an orphan agent alive behind a closed editor.
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
  return code;
}
