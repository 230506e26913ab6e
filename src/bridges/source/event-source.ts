/**
 * The event source a bridge fronts: given an AgInput (a new prompt, or a resume carrying HITL
 * answers, §3.1) it streams the AgEvents of the turn(s) that input starts. Implementations: an
 * upstream agjson endpoint over HTTP (`upstream-source.ts`) and a recorded stream
 * (`replay-source.ts`).
 */
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import type { Lenient } from "../../validate/index.js";
import { AutoFramer, decodeUtf8Strict } from "../../wire/index.js";
import type { Frame } from "../../wire/index.js";
import { validateEventText } from "../../validate/index.js";

/** Something wrong with a record the source received; the record was not passed on (§5 trust boundary). */
export interface AgSourceIssue {
  /** Index of the record in this run's stream. */
  index: number;
  message: string;
}

/** A source of AgEvents driven by AgInputs. */
export interface AgEventSource {
  /**
   * Streams the events answering `input`; stops early when `signal` aborts. Events are typed as
   * `reduce()` takes them: a type this version does not know (§0.2) may pass, and each bridge
   * handles it as it does at run time (docs/bridges/).
   */
  run(input: AgInput, signal: AbortSignal): AsyncIterable<AgLenientEvent>;
}

/** Options shared by the sources that parse a byte stream. */
export interface AgStreamParseOptions {
  /** Largest record, bytes (default 16 MiB). */
  maxRecordBytes?: number;
  /**
   * Called for each record that is not a valid AgEvent, an unknown type (§0.2: skipped) or a repeat
   * of the event before it (the same `seq`, INV-SEQ §5.0: dropped). The first
   * {@link MAX_LISTED_ISSUES} of a stream are reported one by one; the rest are counted and reported
   * once, when the stream ends, so a hostile upstream cannot flood the log.
   */
  onIssue?: (issue: AgSourceIssue) => void;
}

/** Issues of one stream reported one by one before the rest are summarised. */
export const MAX_LISTED_ISSUES = 20;

/**
 * AgEvents out of an SSE or NDJSON byte stream (sniffed from the first byte, as the gateway does).
 * Each record is validated in the consumer-lenient posture before it is passed on (§5 trust
 * boundary, §0.2): invalid records and unknown types are reported through `onIssue`, never folded.
 */
export async function* parseEventStream(
  bytes: AsyncIterable<Uint8Array>,
  options: AgStreamParseOptions = {},
): AsyncGenerator<Lenient.AgKnownEvent | Lenient.AgExtEvent> {
  const maxFrameBytes = options.maxRecordBytes ?? 16 << 20;
  let index = 0;
  let issues = 0;
  const report = (issue: AgSourceIssue): void => {
    if (++issues <= MAX_LISTED_ISSUES) options.onIssue?.(issue);
  };
  // INV-SEQ (§5.0): seq ascends within an invoke and may restart (a backward jump is a new invoke),
  // but an event with the seq of the one before it is that event again: a repeat is dropped, never
  // folded twice (doubled text, a second turn.start).
  let lastSeq: number | undefined;
  const ready: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] = [];
  const onFrame = (frame: Frame): void => {
    if (frame.kind === "oversized") {
      report({ index: index++, message: `record exceeds ${maxFrameBytes} bytes; dropped` });
      return;
    }
    if (frame.kind !== "event") return;
    // AgJSON is UTF-8 JSON (§4): a record that is not UTF-8 is refused, never decoded to U+FFFD and
    // passed on, as the gateway and the CLI refuse it.
    const decoded = decodeUtf8Strict(frame.data);
    if (!decoded.ok) {
      report({ index: index++, message: `invalid UTF-8 at byte ${decoded.offset} of the record: AgJSON is UTF-8 JSON (§4); dropped` });
      return;
    }
    const text = decoded.text.trim();
    if (text === "" || text === "[DONE]") return;
    const at = index++;
    const v = validateEventText(text);
    if (!v.ok) {
      const first = v.errors[0];
      report({ index: at, message: `not a valid AgEvent${first ? ` (${first.path || "/"}: ${first.message})` : ""}; dropped` });
    } else if (!v.known) {
      report({ index: at, message: `unknown event type skipped (§0.2)` });
    } else if (v.event.seq === lastSeq) {
      report({
        index: at,
        message: `a ${v.event.type} with seq ${lastSeq}, the seq of the event before it: a repeat, dropped (INV-SEQ §5.0)`,
      });
    } else {
      lastSeq = v.event.seq;
      ready.push(v.event);
    }
  };
  const framer = new AutoFramer({ maxFrameBytes }, onFrame, () => undefined);
  for await (const chunk of bytes) {
    framer.push(chunk);
    while (ready.length > 0) yield ready.shift()!;
  }
  const dangling = framer.end();
  while (ready.length > 0) yield ready.shift()!;
  if (dangling > 0) report({ index, message: `stream ended inside a record (${dangling} bytes); dropped` });
  if (issues > MAX_LISTED_ISSUES)
    options.onIssue?.({
      index,
      message: `${issues - MAX_LISTED_ISSUES} more records dropped or skipped after the first ${MAX_LISTED_ISSUES} listed (${issues} in all)`,
    });
}
