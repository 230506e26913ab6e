/**
 * `agjson inspect [FILE] [--from F] [--port N] [--host H] [--no-open]` (docs/inspect.md): opens the
 * stream in the local inspector page and prints one line, the page's URL with its per-run token;
 * runs until interrupted. Without a file the page starts empty (drop or paste one there).
 */
import { spawn } from "node:child_process";
import { Option } from "commander";
import type { InspectorOptions, RunningInspector } from "../inspect/server.js";
import { DEFAULT_MAX_UPLOAD_BYTES, startInspector } from "../inspect/server.js";
import { INSPECT_FROM, loadInspectSource } from "./inspect-source.js";
import type { DefineCommand } from "./command.js";
import { readInputBytes } from "./records.js";

/** The defaults of `agjson inspect`'s listening options. */
export const INSPECT_DEFAULTS = { port: "0", host: "127.0.0.1" } as const;

/** Adds inspect's argument, options and action; `--from` takes agjson or a facet (INSPECT_FROM). */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .argument("[file]", "input file, or - for stdin; without it the page starts empty (drop or paste a file there)")
    .addOption(
      new Option("--from <facet>", "agjson (AgEvents) or a facet: what the input is, instead of detecting it").choices(INSPECT_FROM),
    )
    .option("--port <n>", "port to listen on (0 picks a free one)", INSPECT_DEFAULTS.port)
    .option("--host <host>", "interface to listen on (a non-loopback one is warned about)", INSPECT_DEFAULTS.host)
    .option("--no-open", "only print the URL; do not open the system browser")
    .option("--max-upload-bytes <n>", `largest file the page may upload (default ${DEFAULT_MAX_UPLOAD_BYTES})`)
    .action(async (file: string | undefined, opts: InspectCliOptions) => setExitCode(await inspectCommand(file, opts)));
};

export interface InspectCliOptions {
  from?: string;
  port: string;
  host: string;
  open: boolean;
  maxUploadBytes?: string;
}

const log = (line: string): void => void process.stderr.write(`agjson inspect: ${line}\n`);

/** Loopback names; any other `--host` exposes the page (and the stream) to the network. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Starts the inspector on the command's `--host` / `--port`, warning when the host is not loopback. */
export async function startInspectorFor(host: string, port: number, extra: Partial<InspectorOptions> = {}): Promise<RunningInspector> {
  if (!isLoopback(host))
    log(`warning: --host ${host} is not a loopback address; anyone who can reach it and has the URL can read the streams`);
  return startInspector({ host, port, load: loadInspectSource, formats: INSPECT_FROM, ...extra });
}

/** Opens `url` in the system browser where there is one; a failure only says so. */
export function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === "darwin"
      ? ["open", [url]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", url]]
        : ["xdg-open", [url]];
  try {
    const child = spawn(cmd as string, args as string[], { stdio: "ignore", detached: true });
    child.on("error", () => log("no system browser to open; open the URL above yourself"));
    child.unref();
  } catch {
    log("no system browser to open; open the URL above yourself");
  }
}

/** Parses `--port`; a usage error names the flag. */
export function portOf(raw: string): number | string {
  const port = Number(raw);
  return /^\d+$/.test(raw) && port <= 65535 ? port : `--port must be a port number (got "${raw}")`;
}

export async function inspectCommand(file: string | undefined, opts: InspectCliOptions): Promise<number> {
  const port = portOf(opts.port);
  if (typeof port === "string") {
    log(port);
    return 2;
  }
  let maxUploadBytes: number | undefined;
  if (opts.maxUploadBytes !== undefined) {
    maxUploadBytes = Number(opts.maxUploadBytes);
    if (!/^\d+$/.test(opts.maxUploadBytes) || maxUploadBytes < 1) {
      log(`--max-upload-bytes must be a positive integer (got "${opts.maxUploadBytes}")`);
      return 2;
    }
  }
  let source: Exclude<Awaited<ReturnType<typeof loadInspectSource>>, string> | undefined;
  if (file !== undefined) {
    let bytes: Uint8Array;
    try {
      bytes = await readInputBytes(file);
    } catch (err) {
      log(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
    const loaded = await loadInspectSource(bytes, file === "-" ? "stdin" : file, opts.from);
    if (typeof loaded === "string") {
      log(loaded);
      return 2;
    }
    source = loaded;
  }
  let inspector: RunningInspector;
  try {
    inspector = await startInspectorFor(opts.host, port, maxUploadBytes !== undefined ? { maxUploadBytes } : {});
  } catch (err) {
    log(err instanceof Error ? err.message : String(err));
    return 2;
  }
  if (source !== undefined) {
    const doc = inspector.add(source);
    if (doc.meta.note !== undefined) log(doc.meta.note);
  }
  process.stdout.write(`${inspector.url}\n`);
  if (opts.open) openBrowser(inspector.url);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await inspector.close();
  return 0;
}
