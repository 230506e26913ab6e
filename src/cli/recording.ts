/**
 * A recorded AgEvent stream read whole, for the servers that replay one (`agjson serve --agui
 * --replay`, `agjson acp --replay`): NDJSON, a JSON array or SSE, each record validated (lenient,
 * §0.2). An invalid record is a usage error naming the file and the record; an event of a type this
 * version does not know is skipped with a line to `onSkipped`.
 */
import type { AgLenientEvent } from "../../generated/types.js";
import { DEFAULT_PARSE_CAPS, parseCapped, validateEvent } from "../validate/index.js";
import { openInput, readRecords } from "./records.js";

/** The recording's events, or the message of the first record that is not a valid AgEvent. */
export async function readRecording(file: string, onSkipped: (line: string) => void): Promise<AgLenientEvent[] | string> {
  const events: AgLenientEvent[] = [];
  for await (const batch of readRecords(openInput(file), { format: "auto", maxRecordBytes: DEFAULT_PARSE_CAPS.maxBytes })) {
    for (const r of batch) {
      if ("error" in r) return `${file}: record ${r.index}: ${r.error}`;
      // Parsed under the §13 caps, so the value is judged as the JSON it is (`1e400` in an opaque
      // slot is valid JSON, §13.2), never walked as a hand-made object.
      const parsed = parseCapped(r.text);
      if (!parsed.ok) return `${file}: record ${r.index}: ${parsed.errors.map((e) => e.message).join("; ")}`;
      const v = validateEvent(parsed.value, { parsed: true });
      if (!v.ok) return `${file}: record ${r.index}: ${v.errors.map((e) => `${e.path || "/"}: ${e.message}`).join("; ")}`;
      if (v.known) events.push(v.event);
      else onSkipped(`${file}: record ${r.index}: unknown event type skipped (§0.2)`);
    }
  }
  return events;
}
