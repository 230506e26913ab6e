/**
 * A recorded AgEvent stream as an event source, for demos and tests: the recording is cut into its
 * top-level turns (§1.1: turn.start … turn.done | turn.error | turn.abort, INV-TURN) and each input —
 * a new prompt or a resume (§3.1) — plays the next recorded turn. Events before the first
 * turn.start (agent.capabilities, …) play with the first turn.
 */
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import { isKnownEvent } from "../../../generated/schema-facts.js";
import type { AgEventSource } from "./event-source.js";

/** A recorded stream, split into the turns it will play one input at a time. */
export interface ReplaySource extends AgEventSource {
  /** Recorded turns not yet played. */
  readonly remaining: number;
}

/** Cuts a recorded stream into its top-level turns; nested (subagent) turns stay inside their parent. */
export function splitTurns(events: readonly AgLenientEvent[]): AgLenientEvent[][] {
  const turns: AgLenientEvent[][] = [];
  let current: AgLenientEvent[] = [];
  let top: string | undefined;
  const nested = new Set<string>();
  for (const event of events) {
    // Only the turn bounds are read; a type this version does not know (§0.2) is none of them.
    const e = isKnownEvent(event) ? event : undefined;
    if (e?.type === "subagent.start") nested.add(e.turnId);
    if (e?.type === "turn.start" && !nested.has(e.turnId)) {
      if (top !== undefined && top !== e.turnId && current.length > 0) {
        turns.push(current);
        current = [];
      }
      top = e.turnId;
    }
    current.push(event);
    const closes = e?.type === "turn.done" || e?.type === "turn.error" || e?.type === "turn.abort";
    if (closes && (e.turnId === undefined || e.turnId === top)) {
      turns.push(current);
      current = [];
      top = undefined;
    }
  }
  if (current.length > 0) turns.push(current);
  return turns;
}

/** The `turn.error` code of an input the recording has no turn left for. */
export const REPLAY_EXHAUSTED = "replay_exhausted";

/**
 * An event source replaying `events` one recorded turn per input. When the recording has no turn
 * left, the input gets a `turn.error` (code `replay_exhausted`) rather than silence.
 */
export function createReplaySource(events: readonly AgLenientEvent[]): ReplaySource {
  const turns = splitTurns(events);
  let next = 0;
  return {
    get remaining() {
      return turns.length - next;
    },
    async *run(input: AgInput, signal: AbortSignal): AsyncGenerator<AgLenientEvent> {
      const turn = turns[next++];
      if (turn === undefined) {
        yield {
          type: "turn.error",
          seq: 0,
          turnId: input.turnId,
          code: REPLAY_EXHAUSTED,
          message: `the recorded stream has no turn left for this ${input.kind} input (${turns.length} recorded)`,
        };
        return;
      }
      for (const e of turn) {
        if (signal.aborted) return;
        yield e;
      }
    },
  };
}
