// Append-only text for streamed blocks (INV-DELTA: blind concatenation). Deltas are pushed onto a
// chunk list — O(1), and no intermediate string is retained per delta — and joined when the text
// is read; a read joins only the chunks that arrived since the previous read, so a live client
// reading after every push stays linear overall.
//
// The buffer is one field on its owner (a streamed block state, or a TextBuffer for an extra
// reasoning part), whose value says where the text stands: no delta yet, a chunk list while the
// block streams, the joined string once its `*.end` closed it for good. A block state lives as
// long as the fold (8 bytes a field on Node's 64-bit heap), so the block needs no separate text,
// chunk-list, `ended` or "a delta arrived" field: the chunk list is created on the first delta and
// dropped when its block ends, and a finished block retains only its joined string.

/**
 * Where the text of a holder stands:
 * - `undefined`: open, no delta yet;
 * - `string[]`: open, a delta arrived: the text read so far (if a read flattened it) first, then
 *   the deltas since;
 * - `string`: closed by its `*.end` (no delta appends after it), the whole text;
 * - `null`: closed before any delta arrived (the text is empty, and the block carries none).
 */
export type TextState = string[] | string | null | undefined;

/** Anything that accumulates `*.delta` text. */
export interface TextHolder {
  text: TextState;
}

/** APPEND one delta (the holder is open: its `*.end` has not passed). */
export function appendText(holder: TextHolder, delta: string): void {
  const chunks = holder.text;
  if (Array.isArray(chunks)) chunks.push(delta);
  else holder.text = [delta];
}

/**
 * The text so far. An open holder's chunks become one, its first: the chunks since the last read
 * are joined and appended to the first (a concatenation, so the text a read already joined is
 * not copied again).
 */
export function flattenText(holder: TextHolder): string {
  const text = holder.text;
  if (typeof text === "string") return text;
  if (text == null) return "";
  if (text.length <= 1) return text[0] ?? "";
  const first = text[0] ?? "";
  text[0] = "";
  const joined = first + text.join("");
  holder.text = [joined];
  return joined;
}

/** Flattens the text for good: the owner's `*.end` passed, so no delta appends after this. */
export function closeText(holder: TextHolder): void {
  const text = holder.text;
  // One flat string: every chunk is copied once more here (the prefix of a mid-stream read
  // included), instead of keeping a concatenation of the prefix and the rest.
  if (Array.isArray(text)) holder.text = text.length === 1 ? (text[0] ?? "") : text.join("");
  else if (text === undefined) holder.text = null;
}

/** Whether {@link closeText} closed the holder. */
export function isClosed(holder: TextHolder): boolean {
  const text = holder.text;
  return typeof text === "string" || text === null;
}

/** Whether a delta arrived (a reasoning block carries `text` only then). */
export function hasDelta(holder: TextHolder): boolean {
  const text = holder.text;
  return typeof text === "string" || Array.isArray(text);
}

/** Drops the text of a removed block, keeping whether it was closed (and whether a delta arrived). */
export function releaseText(holder: TextHolder): void {
  const text = holder.text;
  if (typeof text === "string") holder.text = "";
  else if (Array.isArray(text)) holder.text = [];
}

/** A standalone holder (extra reasoning summary parts). */
export class TextBuffer implements TextHolder {
  text: TextState = undefined;
}
