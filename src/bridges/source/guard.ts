/**
 * What every networked event source holds to, as `agjson proxy` does (docs/gateway.md "Caps"): its
 * waits are bounded (the gateway's `idleTimeoutMs` and `wallTimeoutMs`, same names, same defaults),
 * an upstream's error body is read only as far as what is kept and only for so long, and a failure
 * has two tellings: a short reason a client may see (`publicMessage`: no URL, no upstream body) and
 * the operator's message, with credentials redacted (userinfo, query values, auth headers, the
 * source's own header values). A bridge answers an unauthenticated client; its upstream holds keys.
 */
import { DEFAULT_CAPS, HARD_CAPS } from "../../gateway/caps.js";

/** Who a source failure is down to: the upstream (the servers answer 502) or the client's input (4xx). */
export type AgSourceFault = "upstream" | "client";

/**
 * The typed failure of an event source. `message` is for the operator's log (already redacted);
 * `publicMessage` is what a client is told; `code` is stable.
 */
export class AgSourceError extends Error {
  override name = "AgSourceError";
  readonly publicMessage: string;
  readonly fault: AgSourceFault;
  /** The upstream's HTTP status, when it answered one. */
  readonly status?: number;
  constructor(
    readonly code: string,
    message: string,
    options: { publicMessage?: string; fault?: AgSourceFault; status?: number } = {},
  ) {
    super(message);
    this.publicMessage = options.publicMessage ?? "the agent behind this endpoint failed";
    this.fault = options.fault ?? "upstream";
    if (options.status !== undefined) this.status = options.status;
  }
}

/** The reason a client may be told for any error a source threw (a non-source error tells nothing). */
export function publicMessageOf(error: unknown): string {
  return error instanceof AgSourceError ? error.publicMessage : "the agent behind this endpoint failed";
}

/** The deadlines of one source run (names and defaults of the gateway's caps). */
export interface SourceDeadlines {
  /** Longest silence from upstream, ms: waiting for its response headers, then between reads (default 60,000). */
  idleTimeoutMs?: number;
  /** Longest run, ms, from the request to the stream's end (default 600,000). */
  wallTimeoutMs?: number;
}

/** The deadlines in force; a value out of the gateway's bounds is a RangeError naming it. */
export function resolveDeadlines(d: SourceDeadlines = {}): Required<SourceDeadlines> {
  const out = { idleTimeoutMs: DEFAULT_CAPS.idleTimeoutMs, wallTimeoutMs: DEFAULT_CAPS.wallTimeoutMs };
  for (const key of ["idleTimeoutMs", "wallTimeoutMs"] as const) {
    const v = d[key];
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 1 || v > HARD_CAPS[key])
      throw new RangeError(`${key} must be an integer from 1 to ${HARD_CAPS[key]} (got ${String(v)})`);
    out[key] = v;
  }
  return out;
}

/**
 * One run's timers: a signal that aborts when the caller's does, when the wall deadline passes, or
 * when the upstream is silent past the idle deadline (`touch()` on every read restarts it). The
 * reason a timer fired is `timedOut` ("idle" / "wall"), so a source can say "timeout".
 */
export class RunDeadline {
  readonly signal: AbortSignal;
  timedOut: "idle" | "wall" | undefined;
  private readonly controller = new AbortController();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly wall: ReturnType<typeof setTimeout>;
  private readonly onAbort = (): void => this.controller.abort(this.caller.reason);

  constructor(
    private readonly caller: AbortSignal,
    readonly limits: Required<SourceDeadlines>,
  ) {
    this.signal = this.controller.signal;
    if (caller.aborted) this.controller.abort(caller.reason);
    else caller.addEventListener("abort", this.onAbort, { once: true });
    this.wall = setTimeout(() => this.fire("wall"), limits.wallTimeoutMs);
    this.touch();
  }

  /** The upstream said something: the idle deadline starts again. */
  touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.fire("idle"), this.limits.idleTimeoutMs);
  }

  /** Stops the timers (the run ended). */
  dispose(): void {
    clearTimeout(this.idle);
    clearTimeout(this.wall);
    this.caller.removeEventListener("abort", this.onAbort);
  }

  /** What a timeout is called in a message. */
  describe(): string {
    return this.timedOut === "wall"
      ? `timeout: the run passed ${this.limits.wallTimeoutMs} ms (wallTimeoutMs)`
      : `timeout: the upstream sent nothing for ${this.limits.idleTimeoutMs} ms (idleTimeoutMs)`;
  }

  private fire(which: "idle" | "wall"): void {
    if (this.controller.signal.aborted) return;
    this.timedOut = which;
    this.dispose();
    this.controller.abort(new Error(this.describe()));
  }
}

/** A response body's chunks; every read restarts the idle deadline; cancelled when left early. */
export async function* bodyChunks(body: ReadableStream<Uint8Array>, deadline?: RunDeadline): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      deadline?.touch();
      yield r.value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The error-body bounds and reader are the gateway's, so every server reads an upstream's the same way. */
export { ERROR_BODY_BYTES, ERROR_BODY_MS, readErrorBody } from "../../gateway/upstream-refusal.js";

/** A URL as the operator's log shows it: no userinfo, every query value hidden (a Gemini `?key=`). */
export function redactUrl(url: string | URL): string {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return "<an unparsable URL>";
  }
  if (u.username !== "" || u.password !== "") {
    u.username = "";
    u.password = "";
  }
  const names = [...new Set(u.searchParams.keys())];
  u.search = "";
  const query = names.map((n) => `${encodeURIComponent(n)}=***`).join("&");
  return `${u.href}${query === "" ? "" : `?${query}`}`;
}

/** Header names whose values are credentials. */
const SECRET_HEADER =
  /\b(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key|cookie|set-cookie)\b(["']?\s*[:=]\s*["']?)[^\s"',;}]+(?:\s+[^\s"',;}]+)?/gi;
/** Bearer tokens, `sk-…` / `AIza…` style keys, and URLs (redacted as {@link redactUrl} does). */
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi;
const KEYS = /\b(?:sk-[A-Za-z0-9_-]{6,}|sk-ant-[A-Za-z0-9_-]{6,}|AIza[0-9A-Za-z_-]{16,})/g;
const URLS = /\bhttps?:\/\/[^\s"'<>\\]+/gi;

/**
 * A redactor for text that may echo credentials (an upstream's error body, an error message): the
 * source's own secret values (its header values) are cut wherever they appear, and the usual
 * shapes — auth headers, Bearer/Basic tokens, API-key forms, URL userinfo and query values.
 */
export function createRedactor(secrets: readonly string[] = []): (text: string) => string {
  const own = secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const s of own) out = out.split(s).join("***");
    return out
      .replace(URLS, (u) => redactUrl(u))
      .replace(SECRET_HEADER, (_m, name: string, sep: string) => `${name}${sep}***`)
      .replace(BEARER, (_m, scheme: string) => `${scheme} ***`)
      .replace(KEYS, "***");
  };
}
