/** `agjson proxy`: runs the validating gateway until interrupted. */
import { Option } from "commander";
import { GATEWAY_DEFAULTS, INVALID_POLICIES, PROXY_DEFAULTS, startProxy, type InvalidPolicy, type Posture } from "../gateway/index.js";
import { POSTURES } from "../validate/index.js";
import { CAP_OPTIONS, capHelp, capsFromOptions } from "./cap-options.js";
import { addGuardOptions, guardOptionsOf, type GuardFlags } from "./guard-options.js";
import type { DefineCommand } from "./command.js";

/** Options as commander parses them. */
export type ProxyCliOptions = {
  upstream: string;
  port: string;
  host: string;
  posture: Posture;
  onInvalid: InvalidPolicy;
  cors?: string;
  inspect?: boolean;
} & GuardFlags &
  Record<string, unknown>;

/** Adds proxy's options (the gateway's defaults and choices, one flag per cap) and action. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .requiredOption("--upstream <url>", "the agent host's URL (POST AgInput, streams AgEvents back)")
    .option("--port <n>", "port to listen on", String(PROXY_DEFAULTS.port))
    .option("--host <host>", "interface to listen on", PROXY_DEFAULTS.host)
    .addOption(
      new Option("--posture <posture>", "how events and inputs are judged (§0.2)").choices(POSTURES).default(GATEWAY_DEFAULTS.posture),
    )
    .addOption(
      new Option("--on-invalid <policy>", "what an invalid event does: dropped, or the stream ended")
        .choices(INVALID_POLICIES)
        .default(GATEWAY_DEFAULTS.onInvalid),
    )
    .option("--cors <origin>", "answer CORS preflights (OPTIONS) for this browser origin, or * for any; without it OPTIONS is 405")
    .option("--inspect", "also start the inspector page: every stream through the proxy appears there live (its URL on stderr)");
  addGuardOptions(cmd);
  for (const o of CAP_OPTIONS) cmd.option(`${o.flag} <n>`, capHelp(o));
  cmd.action(async (opts: ProxyCliOptions) => setExitCode(await proxyCommand(opts)));
};

export async function proxyCommand(opts: ProxyCliOptions): Promise<number> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (got "${opts.port}")`);
  let upstream: URL;
  try {
    upstream = new URL(opts.upstream);
  } catch {
    throw new Error(`--upstream must be an absolute URL (got "${opts.upstream}")`);
  }
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:")
    throw new Error(`--upstream must be an http: or https: URL (got "${opts.upstream}")`);
  if (opts.cors !== undefined && opts.cors !== "*" && !/^https?:\/\/[^/\s]+$/.test(opts.cors))
    throw new Error(`--cors must be an origin such as https://app.example or * (got "${opts.cors}")`);
  const caps = capsFromOptions(opts);
  const guard = await guardOptionsOf(opts, process.env, (line) => process.stderr.write(`agjson proxy: ${line}\n`));
  // --inspect (docs/inspect.md): the page taps the upstream fetch, so each stream shows as it flows.
  const tap =
    opts.inspect === true
      ? await (await import("./inspect-live.js")).startLiveTap(opts.host, (l) => process.stderr.write(`agjson proxy: ${l}\n`))
      : undefined;
  const proxy = await startProxy({
    upstream,
    port,
    host: opts.host,
    posture: opts.posture,
    onInvalid: opts.onInvalid,
    caps,
    ...(opts.cors === undefined ? {} : { cors: opts.cors }),
    allowedHosts: guard.allowedHosts,
    token: guard.token,
    ...(tap === undefined ? {} : { fetch: tap.fetch(fetch) }),
    onReport: (r) => process.stderr.write(`agjson proxy: ${JSON.stringify(r)}\n`),
    // One line per stream when it closes: its counters, frames skipped for carrying no event among them (D19).
    onSummary: (s) => process.stderr.write(`agjson proxy: stream summary ${JSON.stringify(s)}\n`),
  }).catch(async (err: unknown) => {
    await tap?.inspector.close();
    throw err;
  });
  const set = Object.entries(caps).map(([k, v]) => `${k}=${v}`);
  process.stderr.write(
    `agjson proxy: listening on ${proxy.url}, forwarding to ${upstream.href} (${opts.posture}, on invalid: ${opts.onInvalid}` +
      `${set.length > 0 ? `; caps ${set.join(", ")}` : ""}${guard.tokenFrom !== undefined ? `; bearer token from ${guard.tokenFrom}` : ""})\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await proxy.close();
  await tap?.inspector.close();
  return 0;
}
