/**
 * `agjson serve --agui (--replay FILE | --upstream URL [--from API --model ID] [--header "N: v"]…)`:
 * an AG-UI endpoint over HTTP (docs/bridges/ag-ui.md "Serving AG-UI"). Each POSTed
 * RunAgentInput is checked and projected to an AgInput, run against the event source — a recording,
 * an agjson endpoint, or a raw provider API through a provider source — and answered with AG-UI
 * SSE. Diagnostics go to stderr; the first line names the URL to point an AG-UI `HttpAgent` at.
 */
import { Option } from "commander";
import type { AgInputProjectionOptions } from "../bridges/ag-ui/index.js";
import type { DefineCommand } from "./command.js";
import { capsFromOptions, sharedCapHelp } from "./cap-options.js";
import { AG_UI_SERVER_DEFAULTS, DEFAULT_AG_UI_INPUT_CAPS, HARD_AG_UI_INPUT_CAPS, type AgUiInputCaps } from "../bridges/ag-ui/input-caps.js";
import { addGuardOptions, guardOptionsOf, type GuardFlags } from "./guard-options.js";
import {
  chooseSource,
  openSource,
  collect,
  escapeForLog,
  FROM_VALUES,
  SERVER_CAP_FLAGS,
  SOURCE_DEADLINE_FLAGS,
  type SourceFlags,
} from "./source-options.js";

/** Options as commander parses them. */
export interface ServeCliOptions extends SourceFlags, GuardFlags {
  agui?: boolean;
  port: string;
  host: string;
  cors?: string;
  forwardedProps: (typeof FORWARDED_PROPS_POLICIES)[number];
  carry: boolean;
  path: string;
  inspect?: boolean;
  [cap: string]: unknown;
}

/** One stderr line; client- and upstream-controlled text in it cannot forge another or drive the terminal. */
const log = (line: string): void => void process.stderr.write(`agjson serve: ${escapeForLog(line)}\n`);

/** `maxBodyBytes` → `--max-body-bytes`. */
function flagOf(cap: string): string {
  return `--${cap.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

const CAP_KEYS = Object.keys(DEFAULT_AG_UI_INPUT_CAPS) as (keyof AgUiInputCaps)[];

/** What `--forwarded-props` takes: the AG-UI projection's `forwardedProps` policies. */
export const FORWARDED_PROPS_POLICIES = ["drop", "metadata"] as const satisfies readonly NonNullable<
  AgInputProjectionOptions["forwardedProps"]
>[];

/** Adds serve's options and action; the bridge and the validators are imported only when it runs. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .option("--agui", "speak AG-UI 1.0 (RunAgentInput in, AG-UI SSE out)")
    .option("--replay <file>", "recorded AgEvent stream (NDJSON, JSON array or SSE), one recorded turn per request")
    .option(
      "--upstream <url>",
      "agjson agent host (POST AgInput, streams AgEvent SSE/NDJSON back), or with --from a provider API's streaming endpoint",
    )
    .addOption(
      new Option(
        "--from <api>",
        "the provider API --upstream speaks (requests built by reinput, answers normalized by that facet)",
      ).choices(FROM_VALUES),
    )
    .option("--model <id>", "the model each provider request names (with --from)")
    .option("--header <line>", '"Name: value" sent on every --upstream request, e.g. credentials (repeatable)', collect)
    .option("--port <n>", "port to listen on (0 picks a free one)", String(AG_UI_SERVER_DEFAULTS.port))
    .option("--host <host>", "interface to listen on", AG_UI_SERVER_DEFAULTS.host)
    .option("--cors <origin>", "answer CORS preflights for this browser origin, or * for any")
    .addOption(
      new Option(
        "--forwarded-props <policy>",
        'metadata projects RunAgentInput.forwardedProps to AgInput metadata["ag-ui/forwardedProps"]; drop leaves them out',
      )
        .choices(FORWARDED_PROPS_POLICIES)
        .default(FORWARDED_PROPS_POLICIES[0]),
    )
    .option("--no-carry", "leave AgJSON-only fields out of the AG-UI events (no metadata.agjson)")
    .option("--path <path>", "the one path served (POST RunAgentInput); any other is 404", "/")
    .option("--inspect", "also start the inspector page: every run appears there live (its URL on stderr)");
  // The gateway's server caps and the source's deadlines, by agjson proxy's names and defaults.
  for (const o of [...SERVER_CAP_FLAGS, ...SOURCE_DEADLINE_FLAGS]) cmd.option(`${o.flag} <n>`, sharedCapHelp(o));
  addGuardOptions(cmd);
  for (const key of CAP_KEYS)
    cmd.option(
      `${flagOf(key)} <n>`,
      `RunAgentInput cap ${key} (default ${DEFAULT_AG_UI_INPUT_CAPS[key]}, at most ${HARD_AG_UI_INPUT_CAPS[key]})`,
    );
  cmd.action(async (opts: ServeCliOptions) => setExitCode(await serveCommand(opts)));
};

/** Caps given on the command line; a value that is not an integer is a usage error naming the flag. */
function capsOf(opts: ServeCliOptions): Partial<AgUiInputCaps> | string {
  const caps: Partial<AgUiInputCaps> = {};
  for (const key of CAP_KEYS) {
    const raw = opts[key];
    if (raw === undefined) continue;
    const n = Number(raw);
    if (typeof raw !== "string" || !/^\d+$/.test(raw) || n < 1 || n > HARD_AG_UI_INPUT_CAPS[key])
      return `${flagOf(key)} must be an integer from 1 to ${HARD_AG_UI_INPUT_CAPS[key]} (got "${String(raw)}")`;
    caps[key] = n;
  }
  return caps;
}

/** Runs the server until SIGINT / SIGTERM; resolves to the exit code. */
export async function serveCommand(opts: ServeCliOptions): Promise<number> {
  if (opts.agui !== true) {
    log("say which protocol to serve: --agui (AG-UI 1.0)");
    return 2;
  }
  const choice = chooseSource(opts, "give exactly one of --replay FILE or --upstream URL");
  if (typeof choice === "string") {
    log(choice);
    return 2;
  }
  const port = Number(opts.port);
  if (!/^\d+$/.test(opts.port) || port > 65535) {
    log(`--port must be a port number (got "${opts.port}")`);
    return 2;
  }
  if (opts.cors !== undefined && opts.cors !== "*" && !/^https?:\/\/[^/\s]+$/.test(opts.cors)) {
    log(`--cors must be an origin such as https://app.example or * (got "${opts.cors}")`);
    return 2;
  }
  const caps = capsOf(opts);
  if (typeof caps === "string") {
    log(caps);
    return 2;
  }
  if (!opts.path.startsWith("/") || /[?#\s]/.test(opts.path)) {
    log(`--path must be an absolute path such as / or /agent (got "${opts.path}")`);
    return 2;
  }
  let guard: Awaited<ReturnType<typeof guardOptionsOf>>;
  let serverCaps: ReturnType<typeof capsFromOptions>;
  try {
    guard = await guardOptionsOf(opts, process.env, log);
    serverCaps = capsFromOptions(
      opts,
      [...SERVER_CAP_FLAGS, ...SOURCE_DEADLINE_FLAGS].map((o) => o.cap),
    );
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    return 2;
  }
  const deadlines = {
    ...(serverCaps.idleTimeoutMs !== undefined ? { idleTimeoutMs: serverCaps.idleTimeoutMs } : {}),
    ...(serverCaps.wallTimeoutMs !== undefined ? { wallTimeoutMs: serverCaps.wallTimeoutMs } : {}),
  };

  const opened = await openSource(choice, deadlines, log);
  if (typeof opened === "number") return opened;
  let source = opened.source;
  const what = opened.what;

  // --inspect (docs/inspect.md): the page taps the event source, so each run shows as it flows.
  const tap = opts.inspect === true ? await (await import("./inspect-live.js")).startLiveTap(opts.host, log) : undefined;
  if (tap !== undefined) source = tap.source(source);

  let bridge: typeof import("../bridges/ag-ui/index.js");
  try {
    bridge = await import("../bridges/ag-ui/index.js");
  } catch (err) {
    log(
      `--agui needs @ag-ui/core and zod (optional peer dependencies): npm install "@ag-ui/core@^1" zod (${err instanceof Error ? err.message : String(err)})`,
    );
    await tap?.inspector.close();
    return 2;
  }
  let server: Awaited<ReturnType<typeof bridge.startAgUiServer>>;
  try {
    server = await bridge.startAgUiServer({
      source,
      port,
      host: opts.host,
      caps,
      forwardedProps: opts.forwardedProps,
      carry: opts.carry,
      path: opts.path,
      serverCaps,
      ...(opts.cors !== undefined ? { cors: opts.cors } : {}),
      allowedHosts: guard.allowedHosts,
      token: guard.token,
      onInput: (input, dropped) => {
        log(
          `run ${input.turnId} (${input.kind}) on thread ${input.threadId}${dropped.length > 0 ? `; dropped ${dropped.join("; ")}` : ""}`,
        );
      },
      onIssue: (message) => log(message),
    });
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    await tap?.inspector.close();
    return 2;
  }
  log(
    `AG-UI endpoint on ${server.url} (POST RunAgentInput), ${what}${guard.tokenFrom !== undefined ? `; bearer token from ${guard.tokenFrom}` : ""}`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  await tap?.inspector.close();
  return 0;
}
