// Append-only text for streamed blocks (INV-DELTA: blind concatenation). Deltas are pushed onto a
// chunk list — O(1), and no intermediate string is retained per delta — and joined when the text
// is read; a read joins only the chunks that arrived since the previous read, so a live client
// reading after every push stays linear overall.

/** Accumulates `*.delta` text. */
export class TextBuffer {
  private joined = "";
  private readonly chunks: string[] = [];

  /** APPEND one delta. */
  append(delta: string): void {
    this.chunks.push(delta);
  }

  /** The text so far. */
  toString(): string {
    if (this.chunks.length > 0) {
      this.joined += this.chunks.length === 1 ? this.chunks[0] : this.chunks.join("");
      this.chunks.length = 0;
    }
    return this.joined;
  }
}
