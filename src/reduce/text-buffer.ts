// Append-only text for streamed blocks (INV-DELTA: blind concatenation). Deltas are pushed onto a
// chunk list — O(1), and no intermediate string is retained per delta — and joined when the text
// is read; a read joins only the chunks that arrived since the previous read, so a live client
// reading after every push stays linear overall.
//
// The buffer is two fields on its owner (a streamed block state, or a TextBuffer for an extra
// reasoning part) rather than an object of its own: the chunk list is created on the first delta
// and dropped when it is flattened, so a finished block retains only its joined string. A block's
// `*.end` closes its buffer for good (`chunks: null`), so the block needs no `ended` field of its own.

/** Anything that accumulates `*.delta` text: the flattened prefix plus the chunks since. */
export interface TextHolder {
  /** Text flattened so far. */
  text: string;
  /**
   * Deltas appended since the last flatten; `undefined` when there are none; `null` once
   * {@link closeText} flattened the text for good (callers append nothing after that).
   */
  chunks: string[] | undefined | null;
}

/** APPEND one delta. */
export function appendText(holder: TextHolder, delta: string): void {
  const chunks = holder.chunks;
  if (chunks == null) holder.chunks = [delta];
  else chunks.push(delta);
}

/** The text so far; joins pending chunks once and releases the chunk list. */
export function flattenText(holder: TextHolder): string {
  const chunks = holder.chunks;
  if (chunks != null) {
    holder.text += chunks.length === 1 ? chunks[0] : chunks.join("");
    holder.chunks = undefined;
  }
  return holder.text;
}

/** Flattens the text for good: the owner's `*.end` passed, so no delta appends after this. */
export function closeText(holder: TextHolder): void {
  flattenText(holder);
  holder.chunks = null;
}

/** Whether {@link closeText} closed the holder. */
export function isClosed(holder: TextHolder): boolean {
  return holder.chunks === null;
}

/** A standalone holder (extra reasoning summary parts). */
export class TextBuffer implements TextHolder {
  text = "";
  chunks: string[] | undefined | null = undefined;
}
