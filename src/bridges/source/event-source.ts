/**
 * The event source a bridge fronts: given an AgInput (a new prompt, or a resume carrying HITL
 * answers, §3.1) it streams the AgEvents of the turn(s) that input starts. Implementations: an
 * upstream agjson endpoint over HTTP (`upstream-source.ts`) and a recorded stream
 * (`replay-source.ts`).
 */
import type { AgInput, AgLenientEvent } from "../../../generated/types.js";
import type { LenientKnownEvent } from "../../validate/index.js";
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
  /** Called for each record that is not a valid AgEvent, or an unknown type (§0.2: skipped). */
  onIssue?: (issue: AgSourceIssue) => void;
}

/**
 * AgEvents out of an SSE or NDJSON byte stream (sniffed from the first byte, as the gateway does).
 * Each record is validated in the consumer-lenient posture before it is passed on (§5 trust
 * boundary, §0.2): invalid records and unknown types are reported through `onIssue`, never folded.
 */
export async function* parseEventStream(bytes: AsyncIterable<Uint8Array>, options: AgStreamParseOptions = {}): AsyncGenerator<LenientKnownEvent> {
  const maxFrameBytes = options.maxRecordBytes ?? 16 << 20;
  let index = 0;
  const ready: LenientKnownEvent[] = [];
  const onFrame = (frame: Frame): void => {
    if (frame.kind === "oversized") {
      options.onIssue?.({ index: index++, message: `record exceeds ${maxFrameBytes} bytes; dropped` });
      return;
    }
    if (frame.kind !== "event") return;
    // AgJSON is UTF-8 JSON (§4): a record that is not UTF-8 is refused, never decoded to U+FFFD and
    // passed on, as the gateway and the CLI refuse it.
    const decoded = decodeUtf8Strict(frame.data);
    if (!decoded.ok) {
      options.onIssue?.({ index: index++, message: `invalid UTF-8 at byte ${decoded.offset} of the record: AgJSON is UTF-8 JSON (§4); dropped` });
      return;
    }
    const text = decoded.text.trim();
    if (text === "" || text === "[DONE]") return;
    const at = index++;
    const v = validateEventText(text);
    if (!v.ok) {
      const first = v.errors[0];
      options.onIssue?.({ index: at, message: `not a valid AgEvent${first ? ` (${first.path || "/"}: ${first.message})` : ""}; dropped` });
    } else if (!v.known) {
      options.onIssue?.({ index: at, message: `unknown event type skipped (§0.2)` });
    } else {
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
  if (dangling > 0) options.onIssue?.({ index, message: `stream ended inside a record (${dangling} bytes); dropped` });
}
