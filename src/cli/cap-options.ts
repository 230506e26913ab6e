/**
 * `agjson proxy`'s cap options: one per cap (docs/gateway.md, "Caps"), named after it
 * (`maxEventBytes` is `--max-event-bytes`). Loaded (with the gateway) only by the command modules
 * of `proxy`, `serve` and `acp` (the latter two share the server caps and deadlines, `only`).
 */
import { DEFAULT_CAPS, HARD_CAPS, resolveCaps, type GatewayCaps } from "../gateway/index.js";
import type { SharedCapFlag } from "./source-options.js";

export const CAP_OPTIONS: readonly { cap: keyof GatewayCaps; flag: string; unit: string; what: string }[] = [
  { cap: "maxEventBytes", flag: "--max-event-bytes", unit: "bytes", what: "largest event frame on the wire" },
  { cap: "maxDepth", flag: "--max-depth", unit: "levels", what: "deepest JSON nesting in an event" },
  { cap: "maxEvents", flag: "--max-events", unit: "events", what: "events per stream" },
  { cap: "maxStreamBytes", flag: "--max-stream-bytes", unit: "bytes", what: "bytes per stream" },
  { cap: "maxInvalidEvents", flag: "--max-invalid-events", unit: "events", what: "events dropped before the stream is ended" },
  { cap: "idleTimeoutMs", flag: "--idle-timeout-ms", unit: "ms", what: "longest silence from upstream" },
  { cap: "wallTimeoutMs", flag: "--wall-timeout-ms", unit: "ms", what: "longest stream" },
  { cap: "maxInputBytes", flag: "--max-input-bytes", unit: "bytes", what: "largest AgInput request body" },
  { cap: "maxInputDepth", flag: "--max-input-depth", unit: "levels", what: "deepest JSON nesting in an AgInput" },
  { cap: "maxConnections", flag: "--max-connections", unit: "requests", what: "requests served at once (more get 503)" },
  { cap: "maxBufferedBytes", flag: "--max-buffered-bytes", unit: "bytes", what: "bytes held for all streams together (more get 503)" },
  { cap: "headerTimeoutMs", flag: "--header-timeout-ms", unit: "ms", what: "longest wait for a request's headers" },
  { cap: "bodyTimeoutMs", flag: "--body-timeout-ms", unit: "ms", what: "longest wait for a request's body (then 408)" },
];

/** The `--help` line of a cap option: what it bounds, its unit, default and ceiling. */
export function capHelp(o: (typeof CAP_OPTIONS)[number]): string {
  return `${o.what} (default ${DEFAULT_CAPS[o.cap]} ${o.unit}, at most ${HARD_CAPS[o.cap]})`;
}

/** The `--help` line of a cap flag `serve` / `acp` share with proxy: their own wording, the gateway's numbers. */
export function sharedCapHelp(f: SharedCapFlag): string {
  const unit = CAP_OPTIONS.find((o) => o.cap === f.cap)!.unit;
  return `${f.what} (default ${DEFAULT_CAPS[f.cap]} ${unit}, at most ${HARD_CAPS[f.cap]})`;
}

/** commander's key for an option's value: `--max-event-bytes` → `maxEventBytes`. */
function optionKey(flag: string): string {
  return flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * The caps given on the command line, each held to the library's own rule (`resolveCaps`: an
 * integer in 1..ceiling, never clamped) but named by its flag in the error. Only plain digits are
 * numbers here (`1e3`, `0x10`, ` 5 ` are refused, which `Number` would take).
 */
export function capsFromOptions(opts: Record<string, unknown>, only?: readonly (keyof GatewayCaps)[]): Partial<GatewayCaps> {
  const caps: Partial<GatewayCaps> = {};
  for (const o of CAP_OPTIONS) {
    if (only !== undefined && !only.includes(o.cap)) continue;
    const given = opts[optionKey(o.flag)];
    if (given === undefined) continue;
    const text = String(given);
    const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
    try {
      resolveCaps({ [o.cap]: value });
    } catch {
      throw new Error(`${o.flag} must be an integer in 1..${HARD_CAPS[o.cap]} (${o.unit}; got "${text}")`);
    }
    caps[o.cap] = value;
  }
  return caps;
}
