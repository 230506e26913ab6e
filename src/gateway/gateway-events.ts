/**
 * The events the gateway itself writes into a stream: the non-terminal `error` advisory (§4) after a
 * dropped frame and the terminal `turn.error` (§4, INV-TURN §5.0) when a stream must end. Both use
 * only fields of the AgEvent base and their own arm, so they pass producer-strict validation; the
 * details ride in `_meta` under a namespaced key (§0.4, §12: `_meta` is the host-annotation bag).
 */

import type { ValidationIssue } from "./validator.js";

export type { StreamFormat } from "../wire/auto-framer.js";
import type { StreamFormat } from "../wire/auto-framer.js";

/** The `_meta` key under which the gateway puts machine-readable details of what it did. */
export const GATEWAY_META_KEY = "agjson/gateway";

/** Why the gateway wrote an event; the wire `code` is `agjson.gateway.<reason>`. */
export type GatewayReason =
  | "invalid-event"
  | "invalid-json"
  | "event-too-large"
  | "event-too-deep"
  | "too-many-events"
  | "too-many-invalid-events"
  | "stream-too-large"
  | "idle-timeout"
  | "wall-timeout"
  | "upstream-disconnected"
  | "upstream-truncated"
  | "upstream-unavailable"
  | "upstream-status"
  | "upstream-content-type";

/** The wire `code` for a reason. */
export function gatewayCode(reason: GatewayReason): string {
  return `agjson.gateway.${reason}`;
}

/** Most issues listed in one gateway event, so the event itself stays small whatever the input. */
export const MAX_REPORTED_ISSUES = 10;
const MAX_TEXT = 300;

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
}

/** Bounds an issue list for the wire: at most MAX_REPORTED_ISSUES entries, each string clipped. */
export function boundIssues(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => {
    const bounded: ValidationIssue = {
      path: clip(String(issue.path)),
      message: clip(String(issue.message)),
      keyword: clip(String(issue.keyword)),
    };
    if (issue.spec !== undefined) bounded.spec = clip(String(issue.spec));
    return bounded;
  });
}

/** Machine-readable details carried under `_meta["agjson/gateway"]`. */
export interface GatewayEventDetails {
  reason: GatewayReason;
  /** The issues that made a frame invalid (bounded; `issueCount` has the full number). */
  issues?: ValidationIssue[];
  issueCount?: number;
  /** The dropped frame's `seq` and `type`, when they could be read. */
  droppedSeq?: number;
  droppedType?: string;
  /** Wire size of the dropped frame (for `event-too-large`, the size when the cap was crossed). */
  droppedBytes?: number;
  /** The cap that was exceeded, when one was. */
  cap?: { name: string; limit: number };
}

export interface GatewayEventSpec {
  type: "error" | "turn.error";
  seq: number;
  message: string;
  reason: GatewayReason;
  retriable: boolean;
  turnId?: string;
  details: GatewayEventDetails;
}

/** Builds the AgEvent object (key order fixed: type, seq, turnId, code, message, retriable, _meta). */
export function buildGatewayEvent(spec: GatewayEventSpec): Record<string, unknown> {
  const event: Record<string, unknown> = { type: spec.type, seq: spec.seq };
  if (spec.turnId !== undefined) event.turnId = spec.turnId;
  event.code = gatewayCode(spec.reason);
  event.message = spec.message;
  event.retriable = spec.retriable;
  event._meta = { [GATEWAY_META_KEY]: spec.details };
  return event;
}

const encoder = new TextEncoder();

/** Frames one event in the stream's own framing: `data: …\n\n` for SSE, `…\n` for NDJSON. */
export function encodeFrame(format: StreamFormat, event: unknown): Uint8Array<ArrayBuffer> {
  // JSON.stringify escapes every LF/CR inside strings, so one data line always suffices.
  const json = JSON.stringify(event);
  return encoder.encode(format === "sse" ? `data: ${json}\n\n` : `${json}\n`);
}
