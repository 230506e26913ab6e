/**
 * What a client is told when an upstream agjson host answers with an error status, for every server
 * that stands in front of one (`agjson proxy`, and `agjson serve --upstream` through its event
 * source): a 4xx is the host refusing the client's own request (its AgInput, its credentials), so
 * the client gets that status and the host's reason; a 5xx, a 3xx, a 4xx about the hop between the
 * server and the host rather than the client's request, or no answer at all, is the upstream's
 * failure: 502. The error body is read only as far as it is kept (2 KiB) and only for so long (2 s),
 * and the reason taken from it is bounded and escaped before anyone sees it.
 */

import type { Readable } from "node:stream";
import { isRecord } from "../json-guards.js";

/** Most bytes of an upstream's error body read (and kept). */
export const ERROR_BODY_BYTES = 2048;
/** Longest wait for an upstream's error body, ms (it only adds colour to a failure already known). */
export const ERROR_BODY_MS = 2000;
/** Longest reason taken from an upstream's error body, characters. */
export const MAX_UPSTREAM_REASON = 300;

/**
 * 4xx statuses about the connection between the server and the upstream, not about the client's
 * request (RFC 9110 §15.5.8 407, §15.5.9 408, §15.5.20 421, §15.5.22 426): the client could not
 * fix them, so they are the upstream's failure.
 */
const HOP_STATUSES: ReadonlySet<number> = new Set([407, 408, 421, 426]);

/** An upstream's refusal of the client's request: the status the client gets and the host's reason. */
export interface UpstreamRefusal {
  /** The upstream's own 4xx. */
  status: number;
  /** The reason the host gave (its problem's `detail`, else `title`), bounded and escaped; absent when none. */
  reason?: string;
}

/**
 * The one rule: an upstream status that is the client's error (a 4xx that is not about the hop)
 * passes through with the host's reason; anything else answers null, for the server's 502.
 * `body` is the start of the error body as read by {@link readErrorBody}; `redact` cuts credentials
 * out of the reason before it is bounded (a server whose upstream requests carry its own keys).
 */
export function upstreamRefusal(status: number, body: string, redact: (text: string) => string = (t) => t): UpstreamRefusal | null {
  if (!Number.isInteger(status) || status < 400 || status > 499 || HOP_STATUSES.has(status)) return null;
  const reason = problemReason(body, redact);
  return reason === undefined ? { status } : { status, reason };
}

/** How a refusal reads to the client: the status and the host's reason. */
export function describeRefusal(refusal: UpstreamRefusal, who = "the upstream agent host"): string {
  return `${who} refused the request (HTTP ${refusal.status})${refusal.reason === undefined ? "" : `: ${refusal.reason}`}`;
}

/**
 * The reason in an RFC 9457 problem body: `detail`, else `title`. A body cut at the read cap is no
 * longer JSON, so the member is then found in the text as far as it was read.
 */
function problemReason(body: string, redact: (text: string) => string): string | undefined {
  let text: string | undefined;
  try {
    const v: unknown = JSON.parse(body);
    if (isRecord(v))
      text = typeof v.detail === "string" && v.detail.trim() !== "" ? v.detail : typeof v.title === "string" ? v.title : undefined;
  } catch {
    text = member(body, "detail") ?? member(body, "title");
  }
  if (text === undefined) return undefined;
  text = redact(text).trim();
  return text === "" ? undefined : escapeReason(text);
}

/**
 * A string member of a (possibly truncated) JSON object text, decoded; a value the read cap cut short
 * is kept as far as it goes, marked `…`. Undefined when absent.
 */
function member(text: string, name: string): string | undefined {
  const m = new RegExp(`"${name}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)("?)`).exec(text);
  if (m === null) return undefined;
  if (m[2] === '"') {
    try {
      return JSON.parse(`"${m[1]!}"`) as string;
    } catch {
      return undefined;
    }
  }
  // Cut short: the value may end inside a `\uXXXX` escape, so up to five characters are given up.
  for (let end = m[1]!.length; end >= Math.max(0, m[1]!.length - 5); end--) {
    try {
      return `${JSON.parse(`"${m[1]!.slice(0, end)}"`) as string}…`;
    } catch {
      // Inside an escape: one character fewer.
    }
  }
  return undefined;
}

/**
 * Bounded to {@link MAX_UPSTREAM_REASON} characters; control characters, line and paragraph
 * separators and bidirectional overrides are written as `\uXXXX`, so upstream text cannot forge a log
 * line or drive a terminal wherever the reason is shown.
 */
export function escapeReason(text: string): string {
  const cut = text.length > MAX_UPSTREAM_REASON ? `${text.slice(0, MAX_UPSTREAM_REASON)}…` : text;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/**
 * The start of an error response's body: at most `maxBytes` are read and the rest is cancelled
 * unread; a body still arriving after `timeoutMs` is cut where it is. Never throws.
 */
export async function readErrorBody(response: Response, maxBytes = ERROR_BODY_BYTES, timeoutMs = ERROR_BODY_MS): Promise<string> {
  const body = response.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), timeoutMs)));
  try {
    while (total < maxBytes) {
      const r = await Promise.race([reader.read(), late]);
      if (r === "late" || r.done) break;
      chunks.push(r.value.subarray(0, maxBytes - total));
      total += Math.min(r.value.byteLength, maxBytes - total);
    }
  } catch {
    // A body that breaks off is as much as was read.
  } finally {
    clearTimeout(timer);
    void reader.cancel().catch(() => undefined);
  }
  return joinText(chunks, total);
}

/** {@link readErrorBody} for a `node:http` response body; the caller destroys the request after. Never throws. */
export function readNodeErrorBody(body: Readable, maxBytes = ERROR_BODY_BYTES, timeoutMs = ERROR_BODY_MS): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let total = 0;
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      body.off("data", onData);
      body.off("end", done);
      body.off("close", done);
      body.off("error", done);
      resolve(joinText(chunks, total));
    };
    const onData = (chunk: Buffer): void => {
      const take = Math.min(chunk.byteLength, maxBytes - total);
      chunks.push(chunk.subarray(0, take));
      total += take;
      if (total >= maxBytes) done();
    };
    const timer = setTimeout(done, timeoutMs);
    body.on("data", onData);
    body.on("end", done);
    body.on("close", done);
    body.on("error", done);
  });
}

function joinText(chunks: Uint8Array[], total: number): string {
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
