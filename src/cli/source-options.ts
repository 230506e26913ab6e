/**
 * The event-source flags `agjson serve --agui` and `agjson acp` share: `--upstream URL` alone is an
 * agjson endpoint (AgInput POSTed, AgEvent SSE/NDJSON back); with `--from <api>` and `--model <id>`
 * it is a raw provider API fronted by a provider source (src/bridges/provider); `--header "Name:
 * value"` (repeatable) goes on every upstream request either way. A bad combination is a usage
 * error naming the flag.
 */
import type { ProviderApi, ProviderSourceIssue } from "../bridges/provider/index.js";

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
 * The provider APIs `--from` takes (the re-input targets, each normalized by its facet): the
 * bridge's `PROVIDER_APIS`, written out so that registering the commands does not load the bridge
 * (~70 ms); provider-source-cli.test.ts holds the two equal.
 */
export const FROM_VALUES: readonly ProviderApi[] = ["anthropic", "openai-responses", "openai-chat", "gemini"];

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
  const headers = headersOf(headerLines);
  if (typeof headers === "string") return headers;
  if (flags.from === undefined) {
    if (flags.model !== undefined) return "--model needs --from <api>: without --from, --upstream is an agjson endpoint, which picks its own model";
    return { kind: "agjson", url: url.href, headers };
  }
  if (!(FROM_VALUES as readonly string[]).includes(flags.from)) return `--from must be one of ${FROM_VALUES.join(", ")} (got "${flags.from}")`;
  if (flags.model === undefined || flags.model.trim() === "") return `--from ${flags.from} needs --model <id>: a provider API serves many models`;
  // The user's URL as given: Gemini's {model} placeholder must survive URL normalization.
  return { kind: "provider", from: flags.from as ProviderApi, url: flags.upstream!, model: flags.model, headers };
}

/** One diagnostic line for a provider source issue (re-input's report entries never carry a replay blob, §13.2). */
export function describeProviderIssue(issue: ProviderSourceIssue): string {
  const where = `thread ${issue.threadId} turn ${issue.turnId}`;
  if (issue.kind === "reinput") return `${where}: reinput ${issue.entry.action} (${issue.entry.reason}) message ${issue.entry.messageId}: ${issue.entry.detail}`;
  if (issue.kind === "run-config") return `${where}: not sent: ${issue.message}`;
  return `${where}: ${issue.message}`;
}
