/** AG-UI events on the wire as the AG-UI HTTP transport reads them: one SSE `data:` frame each. */
import type { AgUiEvent } from "./vocabulary.js";

/** One SSE frame for an AG-UI event (JSON has no raw newlines, so one `data:` line suffices). */
export function encodeAgUiSse(event: AgUiEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
