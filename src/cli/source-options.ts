/**
 * The event-source flags `agjson serve --agui` and `agjson acp` share: `--upstream URL` alone is an
 * agjson endpoint (AgInput POSTed, AgEvent SSE/NDJSON back); with `--from <api>` and `--model <id>`
 * it is a raw provider API fronted by a provider source (src/bridges/provider); `--header "Name:
 * value"` (repeatable) goes on every upstream request either way. A bad combination is a usage
 * error naming the flag.
 */
import type { AgLenientEvent } from "../../generated/types.js";
import type { ProviderApi, ProviderSourceIssue } from "../bridges/provider/index.js";
import type { AgEventSource } from "../bridges/source/index.js";
import { REINPUT_TARGETS } from "../reinput/index.js";

/** The flags as commander parses them. */
export interface SourceFlags {
  upstream?: string;
  replay?: string;
  from?: string;
  model?: string;
  header?: string[];
}

/** The checked flags: where the events come from. */
export type SourceChoice =
  | { kind: "replay"; file: string }
  | { kind: "agjson"; url: string; headers: Record<string, string> }
  | { kind: "provider"; from: ProviderApi; url: string; model: string; headers: Record<string, string> };

/**
 * The provider APIs `--from` takes: the re-input targets, each normalized by its facet (the
 * provider bridge's `PROVIDER_APIS` is this table too).
 */
export const FROM_VALUES: readonly ProviderApi[] = REINPUT_TARGETS;

/**
 * A cap or deadline flag shared with `agjson proxy` (same name, default and ceiling; the help line
 * reads the gateway's DEFAULT_CAPS / HARD_CAPS through cap-options.ts's `sharedCapHelp`).
 */
export interface SharedCapFlag {
  cap: "maxConnections" | "maxBufferedBytes" | "headerTimeoutMs" | "bodyTimeoutMs" | "idleTimeoutMs" | "wallTimeoutMs";
  flag: string;
  what: string;
}

/** The gateway's server caps, as `agjson serve` takes them. */
export const SERVER_CAP_FLAGS: readonly SharedCapFlag[] = [
  { cap: "maxConnections", flag: "--max-connections", what: "requests served at once, more get 503" },
  { cap: "maxBufferedBytes", flag: "--max-buffered-bytes", what: "bytes queued for all clients together, more get 503" },
  { cap: "headerTimeoutMs", flag: "--header-timeout-ms", what: "longest wait for a request's headers" },
  { cap: "bodyTimeoutMs", flag: "--body-timeout-ms", what: "longest wait for a request's body, then 408" },
];

/** The gateway's stream deadlines, as the sources of `serve` and `acp` take them. */
export const SOURCE_DEADLINE_FLAGS: readonly SharedCapFlag[] = [
  { cap: "idleTimeoutMs", flag: "--idle-timeout-ms", what: "longest silence from the upstream, headers included" },
  { cap: "wallTimeoutMs", flag: "--wall-timeout-ms", what: "longest run against the upstream" },
];

/**
 * A diagnostic line made safe for a terminal and a line-oriented log: control characters (a
 * newline that would forge a second line, an ANSI escape that would drive the terminal, C1 and
 * the Unicode line separators) are written as escapes. Client- and upstream-controlled text
 * (a threadId, an upstream's error body) reaches the operator's stderr this way only.
 */
export function escapeForLog(line: string): string {
  return line.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Commander's collector for a repeatable flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** HTTP header names (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--header` lines as a header record; a malformed one is an error naming it. */
function headersOf(lines: readonly string[]): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon).trim() : "";
    const value = colon > 0 ? line.slice(colon + 1).trim() : "";
    if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) return `--header must be "Name: value" with a valid header name (got "${line}")`;
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

/**
 * Checks the source flags; a string is the usage error to print (exit 2). `neither` is the line for
 * no source or two (each command names its sources in its own order).
 */
export function chooseSource(flags: SourceFlags, neither: string): SourceChoice | string {
  if ((flags.upstream === undefined) === (flags.replay === undefined)) return neither;
  const headerLines = flags.header ?? [];
  if (flags.replay !== undefined) {
    if (flags.from !== undefined) return "--from names the provider API behind --upstream; a --replay recording is already AgJSON";
    if (flags.model !== undefined) return "--model goes with --from and --upstream, not --replay";
    if (headerLines.length > 0) return "--header goes on --upstream requests, not --replay";
    return { kind: "replay", file: flags.replay };
  }
  let url: URL;
  try {
    url = new URL(flags.upstream!);
  } catch {
    return `--upstream must be an absolute URL (got "${flags.upstream}")`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `--upstream must be an http: or https: URL (got "${flags.upstream}")`;
  // Credentials in the URL would ride every log line and error that names it: they go in a header.
  if (url.username !== "" || url.password !== "")
    return `--upstream must not carry credentials (user:password@); send them with --header "Authorization: …" instead`;
  const headers = headersOf(headerLines);
  if (typeof headers === "string") return headers;
  if (flags.from === undefined) {
    if (flags.model !== undefined)
      return "--model needs --from <api>: without --from, --upstream is an agjson endpoint, which picks its own model";
    return { kind: "agjson", url: url.href, headers };
  }
  if (flags.model === undefined || flags.model.trim() === "")
    return `--from ${flags.from} needs --model <id>: a provider API serves many models`;
  // The user's URL as given: Gemini's {model} placeholder must survive URL normalization.
  return { kind: "provider", from: flags.from as ProviderApi, url: flags.upstream!, model: flags.model, headers };
}

/**
 * The event source a checked choice names, and a phrase saying what it serves; or the exit status
 * (2) after `log` said why (a recording that cannot be read). `deadlines`: the source's idle and
 * wall deadlines from the shared flags. The bridges load here, on first use, so each command still
 * loads only what it runs (test/cli-loading.test.ts).
 */
export async function openSource(
  choice: SourceChoice,
  deadlines: { idleTimeoutMs?: number; wallTimeoutMs?: number },
  log: (line: string) => void,
): Promise<{ source: AgEventSource; what: string } | number> {
  const { createReplaySource, createUpstreamSource, redactUrl } = await import("../bridges/source/index.js");
  if (choice.kind === "provider") {
    const { createProviderSource } = await import("../bridges/provider/index.js");
    const source = createProviderSource({
      from: choice.from,
      url: choice.url,
      model: choice.model,
      headers: choice.headers,
      ...deadlines,
      onIssue: (issue) => log(describeProviderIssue(issue)),
    });
    return { source, what: `fronting the ${choice.from} API at ${redactUrl(choice.url)} (model ${choice.model})` };
  }
  if (choice.kind === "agjson") {
    const source = createUpstreamSource(choice.url, {
      headers: choice.headers,
      ...deadlines,
      onIssue: (issue) => log(`upstream record ${issue.index}: ${issue.message}`),
    });
    return { source, what: `forwarding to ${redactUrl(choice.url)}` };
  }
  let events: AgLenientEvent[] | string;
  try {
    const { readRecording } = await import("./recording.js");
    events = await readRecording(choice.file, log);
  } catch (err) {
    log(`cannot read ${choice.file}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  if (typeof events === "string") {
    log(events);
    return 2;
  }
  const replay = createReplaySource(events);
  const turns = replay.remaining;
  return { source: replay, what: `replaying ${choice.file} (${turns} recorded turn${turns === 1 ? "" : "s"}, one per request)` };
}

/** One diagnostic line for a provider source issue (re-input's report entries never carry a replay blob, §13.2). */
export function describeProviderIssue(issue: ProviderSourceIssue): string {
  const where = `thread ${issue.threadId} turn ${issue.turnId}`;
  if (issue.kind === "reinput")
    return `${where}: reinput ${issue.entry.action} (${issue.entry.reason}) message ${issue.entry.messageId}: ${issue.entry.detail}`;
  if (issue.kind === "run-config") return `${where}: not sent: ${issue.message}`;
  return `${where}: ${issue.message}`;
}
