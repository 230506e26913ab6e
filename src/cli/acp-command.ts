/**
 * `agjson acp --upstream URL [--from API --model ID] [--header "N: v"]… | --replay FILE`: an ACP
 * agent on stdio (docs/bridges/acp.md) in front of an agjson endpoint, a raw provider API (through a
 * provider source) or a recording. stdout is the JSON-RPC channel, so every diagnostic goes to stderr.
 */
import type { LenientKnownEvent as AgEvent } from "../validate/index.js";
import { readRecording } from "./recording.js";
import { chooseSource, describeProviderIssue, type SourceFlags } from "./source-options.js";
import { packageVersion } from "./version.js";

export type AcpCommandOptions = SourceFlags;

const log = (line: string): void => void process.stderr.write(`${line}\n`);

export async function acpCommand(opts: AcpCommandOptions): Promise<number> {
  const choice = chooseSource(opts, "give exactly one of --upstream URL or --replay FILE");
  if (typeof choice === "string") {
    log(`agjson acp: ${choice}`);
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
  if (choice.kind === "provider") {
    const { createProviderSource } = await import("../bridges/provider/index.js");
    source = createProviderSource({ from: choice.from, url: choice.url, model: choice.model, headers: choice.headers, onIssue: (issue) => log(`agjson acp: ${describeProviderIssue(issue)}`) });
  } else if (choice.kind === "agjson") {
    source = bridge.createUpstreamSource(choice.url, { headers: choice.headers, onIssue: (issue) => log(`agjson acp: upstream record ${issue.index}: ${issue.message}`) });
  } else {
    let events: AgEvent[] | string;
    try {
      events = await readRecording(choice.file, (line) => log(`agjson acp: ${line}`));
    } catch (err) {
      log(`agjson acp: cannot read ${choice.file}: ${err instanceof Error ? err.message : String(err)}`);
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
