/**
 * Resource caps for the validating gateway. Every cap has a safe default and a hard ceiling; a value
 * outside (0, ceiling] is refused when the stream or handler is constructed, never silently clamped,
 * so a typo in configuration cannot quietly turn a bound into "unbounded".
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/** Caps applied to one streamed response (AgEvent frames). */
export interface StreamCaps {
  /** Largest single frame (SSE event or NDJSON line), bytes on the wire. */
  maxEventBytes: number;
  /** Deepest JSON nesting inside one event, measured on the raw bytes before parsing. */
  maxDepth: number;
  /** Events (frames carrying data) per stream. */
  maxEvents: number;
  /** Bytes per stream, counted as received from upstream. */
  maxStreamBytes: number;
  /** Invalid events tolerated under `onInvalid: "drop"` before the stream is ended. */
  maxInvalidEvents: number;
  /** Longest silence from upstream, ms (SSE comments count as traffic). */
  idleTimeoutMs: number;
  /** Longest lifetime of one stream, ms. */
  wallTimeoutMs: number;
}

/** Caps applied to one POSTed AgInput request. */
export interface InputCaps {
  /** Largest request body, bytes; checked against Content-Length and while reading, before parsing. */
  maxInputBytes: number;
  /** Deepest JSON nesting in the body, measured on the raw bytes before parsing. */
  maxInputDepth: number;
}

/**
 * Caps over everything one gateway serves at once, and the deadlines a client must keep: a flood of
 * connections, or many slow readers each holding their share of output, is answered 503 with
 * `Retry-After` before it can exhaust the process.
 */
export interface ServerCaps {
  /** Requests served at the same time; one more is answered 503. */
  maxConnections: number;
  /** Bytes held for all open streams together (partial frames, output queued for slow clients). */
  maxBufferedBytes: number;
  /** Longest wait for a request's headers, ms (a standalone proxy's server enforces it). */
  headerTimeoutMs: number;
  /** Longest wait for a request's whole body, ms, counted from its arrival; then 408. */
  bodyTimeoutMs: number;
}

export type GatewayCaps = StreamCaps & InputCaps & ServerCaps;

/** The defaults: sized for agent turns (long tool loops, base64 images in tool results). */
export const DEFAULT_CAPS: Readonly<GatewayCaps> = Object.freeze({
  maxEventBytes: 1 * MiB,
  maxDepth: 64,
  maxEvents: 100_000,
  maxStreamBytes: 64 * MiB,
  maxInvalidEvents: 100,
  idleTimeoutMs: 60_000,
  wallTimeoutMs: 10 * 60_000,
  maxInputBytes: 1 * MiB,
  maxInputDepth: 64,
  maxConnections: 1024,
  maxBufferedBytes: 256 * MiB,
  headerTimeoutMs: 10_000,
  bodyTimeoutMs: 30_000,
});

/** The ceilings: a configured cap above these is a configuration error. */
export const HARD_CAPS: Readonly<GatewayCaps> = Object.freeze({
  maxEventBytes: 64 * MiB,
  maxDepth: 512,
  maxEvents: 10_000_000,
  maxStreamBytes: 4 * GiB,
  maxInvalidEvents: 1_000_000,
  idleTimeoutMs: 30 * 60_000,
  wallTimeoutMs: 6 * 60 * 60_000,
  maxInputBytes: 64 * MiB,
  maxInputDepth: 512,
  maxConnections: 1_000_000,
  maxBufferedBytes: 64 * GiB,
  headerTimeoutMs: 10 * 60_000,
  bodyTimeoutMs: 60 * 60_000,
});

/** Merges `overrides` onto the defaults; throws a RangeError naming the cap that is out of bounds. */
export function resolveCaps(overrides: Partial<GatewayCaps> = {}): GatewayCaps {
  const caps: GatewayCaps = { ...DEFAULT_CAPS };
  for (const key of Object.keys(overrides) as (keyof GatewayCaps)[]) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Object.hasOwn(DEFAULT_CAPS, key)) {
      throw new RangeError(`agjson gateway: unknown cap "${String(key)}"; known caps: ${Object.keys(DEFAULT_CAPS).join(", ")}`);
    }
    const ceiling = HARD_CAPS[key];
    if (typeof value !== "number" || !Number.isInteger(value) || value <= 0 || value > ceiling) {
      throw new RangeError(`agjson gateway: cap ${key}=${String(value)} is out of bounds; use an integer in 1..${ceiling}`);
    }
    caps[key] = value;
  }
  return caps;
}
