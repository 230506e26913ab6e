/**
 * `agjson acp --upstream URL | --replay FILE`: an ACP agent on stdio (docs/bridges/acp.md). stdout
 * is the JSON-RPC channel, so every diagnostic goes to stderr.
 */
import type { AgEvent } from "../../generated/types.js";
import { validateEvent } from "../validate/index.js";
import { DEFAULT_PARSE_CAPS } from "../validate/index.js";
import { openInput, readRecords } from "./records.js";
import { packageVersion } from "./version.js";

export interface AcpCommandOptions {
  upstream?: string;
  replay?: string;
}

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** Reads a recorded AgEvent stream (NDJSON, JSON array or SSE); an invalid record is a usage error naming it. */
async function readRecording(file: string): Promise<AgEvent[] | string> {
  const events: AgEvent[] = [];
  for await (const batch of readRecords(openInput(file), { format: "auto", maxRecordBytes: DEFAULT_PARSE_CAPS.maxBytes })) for (const r of batch) {
    if ("error" in r) return `${file}: record ${r.index}: ${r.error}`;
    let value: unknown;
    try {
      value = JSON.parse(r.text);
    } catch (err) {
      return `${file}: record ${r.index}: not JSON (${err instanceof Error ? err.message : String(err)})`;
    }
    const v = validateEvent(value);
    if (!v.ok) return `${file}: record ${r.index}: ${v.errors.map((e) => `${e.path || "/"}: ${e.message}`).join("; ")}`;
    if (v.known) events.push(v.event);
    else log(`agjson acp: ${file}: record ${r.index}: unknown event type skipped (§0.2)`);
  }
  return events;
}

export async function acpCommand(opts: AcpCommandOptions): Promise<number> {
  if ((opts.upstream === undefined) === (opts.replay === undefined)) {
    log("agjson acp: give exactly one of --upstream URL or --replay FILE");
    return 2;
  }
  let bridge: typeof import("../bridges/acp/index.js");
  try {
    bridge = await import("../bridges/acp/index.js");
  } catch (err) {
    log(`agjson acp: needs @agentclientprotocol/sdk (an optional peer dependency): npm install @agentclientprotocol/sdk@^2.4 (${err instanceof Error ? err.message : String(err)})`);
    return 2;
  }
  let source;
  if (opts.upstream !== undefined) {
    try {
      new URL(opts.upstream);
    } catch {
      log(`agjson acp: --upstream must be an absolute URL (got "${opts.upstream}")`);
      return 2;
    }
    source = bridge.createUpstreamSource(opts.upstream, { onIssue: (issue) => log(`agjson acp: upstream record ${issue.index}: ${issue.message}`) });
  } else {
    let events: AgEvent[] | string;
    try {
      events = await readRecording(opts.replay!);
    } catch (err) {
      log(`agjson acp: cannot read ${opts.replay}: ${err instanceof Error ? err.message : String(err)}`);
      return 2;
    }
    if (typeof events === "string") {
      log(`agjson acp: ${events}`);
      return 2;
    }
    source = bridge.createReplaySource(events);
  }
  // The package layout puts this module at different depths (src/cli under vitest, dist/esm/src/cli
  // built): packageVersion() walks up to agjson's own package.json instead of a fixed relative path.
  await bridge.serveAcpStdio({ source, name: "agjson", version: packageVersion(), log });
  return 0;
}
