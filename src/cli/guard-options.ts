/**
 * The request guard's flags, the same on every command that listens (`proxy`, `serve`):
 * `--allowed-host NAME` (repeatable) and `--token-file FILE`, or the token in `AGJSON_TOKEN`
 * (docs/gateway.md "Running it safely"). The guard itself is the gateway's (`agjson/gateway`).
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";

/** The environment variable a bearer token may come from when `--token-file` is not given. */
export const TOKEN_ENV = "AGJSON_TOKEN";

/** The guard flags as commander parses them. */
export interface GuardFlags {
  allowedHost?: string[];
  tokenFile?: string;
}

/** Adds `--allowed-host` and `--token-file` to a listening command. */
export function addGuardOptions(cmd: Command): Command {
  return cmd
    .option(
      "--allowed-host <name>",
      "also answer requests whose Host is this name (a server behind a proxy, on a LAN; .example.com covers subdomains; * turns the DNS-rebinding check off); localhost, *.localhost, IP addresses and --host are always answered (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      "--token-file <file>",
      `every request needs "Authorization: Bearer <token>", the token being this file's content (or, without the flag, ${TOKEN_ENV})`,
    );
}

/**
 * The guard options the flags and the environment ask for. A token file that cannot be read, is
 * empty or holds more than one visible-ASCII word, and an `--allowed-host` that is no host name,
 * are usage errors naming the flag (thrown); `--allowed-host *` is allowed with a warning.
 */
export async function guardOptionsOf(
  flags: GuardFlags,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): Promise<{ allowedHosts?: string[]; token?: string; tokenFrom?: string }> {
  const out: { allowedHosts?: string[]; token?: string; tokenFrom?: string } = {};
  // The library's own rule, named by the flag (loaded only by the commands that listen).
  const { createRequestGuard } = await import("../gateway/index.js");
  if (flags.allowedHost !== undefined) {
    for (const name of flags.allowedHost) {
      try {
        createRequestGuard({ allowedHosts: [name] });
      } catch {
        throw new Error(`--allowed-host must be a host name alone, such as agent.example.com or .example.com, or * (got "${name}")`);
      }
    }
    if (flags.allowedHost.includes("*"))
      warn(
        "warning: --allowed-host * turns off the Host check: a web page that points its own domain at this address (DNS rebinding) can reach this server",
      );
    out.allowedHosts = flags.allowedHost;
  }
  let raw: string | undefined;
  if (flags.tokenFile !== undefined) {
    try {
      raw = readFileSync(flags.tokenFile, "utf8");
    } catch (err) {
      throw new Error(`--token-file: cannot read ${flags.tokenFile}: ${err instanceof Error ? err.message : String(err)}`);
    }
    out.tokenFrom = flags.tokenFile;
  } else if (env[TOKEN_ENV] !== undefined && env[TOKEN_ENV] !== "") {
    raw = env[TOKEN_ENV];
    out.tokenFrom = TOKEN_ENV;
  }
  if (raw !== undefined) {
    // A trailing newline is how a token file is usually written; it is no part of the token.
    const token = raw.trim();
    const where = flags.tokenFile !== undefined ? `--token-file ${flags.tokenFile}` : TOKEN_ENV;
    if (token === "") throw new Error(`${where} holds no token`);
    try {
      createRequestGuard({ token });
    } catch {
      throw new Error(`${where}: a bearer token is one word of visible ASCII characters (RFC 6750 §2.1)`);
    }
    out.token = token;
  }
  return out;
}
