/** `agjson proxy`: runs the validating gateway until interrupted. */
import { startProxy } from "../gateway/index.js";
import { capsFromOptions } from "./cap-options.js";
import { guardOptionsOf, type GuardFlags } from "./guard-options.js";

/** Options as commander parses them. */
export type ProxyCliOptions = { upstream: string; port: string; host: string; posture: string; onInvalid: string; cors?: string; inspect?: boolean } & GuardFlags & Record<string, unknown>;

export async function proxyCommand(opts: ProxyCliOptions): Promise<number> {
  if (opts.posture !== "strict" && opts.posture !== "lenient") throw new Error(`--posture must be strict or lenient (got "${opts.posture}")`);
  if (opts.onInvalid !== "drop" && opts.onInvalid !== "terminate") throw new Error(`--on-invalid must be drop or terminate (got "${opts.onInvalid}")`);
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (got "${opts.port}")`);
  let upstream: URL;
  try {
    upstream = new URL(opts.upstream);
  } catch {
    throw new Error(`--upstream must be an absolute URL (got "${opts.upstream}")`);
  }
  if (upstream.protocol !== "http:" && upstream.protocol !== "https:") throw new Error(`--upstream must be an http: or https: URL (got "${opts.upstream}")`);
  if (opts.cors !== undefined && opts.cors !== "*" && !/^https?:\/\/[^/\s]+$/.test(opts.cors)) throw new Error(`--cors must be an origin such as https://app.example or * (got "${opts.cors}")`);
  const caps = capsFromOptions(opts);
  const guard = await guardOptionsOf(opts, process.env, (line) => process.stderr.write(`agjson proxy: ${line}\n`));
  // --inspect (docs/inspect.md): the page taps the upstream fetch, so each stream shows as it flows.
  const tap = opts.inspect === true ? await (await import("./inspect-live.js")).startLiveTap(opts.host, (l) => process.stderr.write(`agjson proxy: ${l}\n`)) : undefined;
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
