// Lists of the fold that grow with the stream: every message in opening order (§5 message order)
// and the entries of the id registries (id-table.ts). One array would be regrown by copying — 1.5×
// each time, in large-object space once it is big, so a long fold allocates and faults in its list
// several times over — and keeps up to half its slots spare. Fixed-size chunks are allocated once
// each and never copied.

/** log2 of the slots per chunk. */
const CHUNK_BITS = 10;
/** Slots per chunk: 8 KB of pointers, small beside the fold state that 1,024 messages hold. */
export const CHUNK = 1 << CHUNK_BITS;

/** An append-only list in fixed-size chunks, with indexed reads and writes. */
export class ChunkedList<T> implements Iterable<T> {
  private readonly chunks: T[][] = [];
  private tail: T[] | undefined = undefined;
  private count = 0;

  /** Number of items. */
  get length(): number {
    return this.count;
  }

  /** Appends `item`. */
  push(item: T): void {
    const tail = this.tail;
    const at = this.count & (CHUNK - 1);
    if (tail !== undefined && at !== 0) {
      if (this.chunks.length === 1) tail.push(item);
      else tail[at] = item;
    } else if (this.count === 0) {
      // The first chunk grows by push, so a short fold does not hold 1,024 empty slots.
      this.chunks.push((this.tail = [item]));
    } else {
      const chunk = new Array<T>(CHUNK);
      chunk[0] = item;
      this.chunks.push((this.tail = chunk));
    }
    this.count++;
  }

  // The `as T` reads below: every slot under `count` is filled, which the index type cannot say.

  /** The item at `at` (0 ≤ at < length). */
  get(at: number): T {
    return this.chunks[at >>> CHUNK_BITS]?.[at & (CHUNK - 1)] as T;
  }

  /** Replaces the item at `at` (0 ≤ at < length). */
  set(at: number, item: T): void {
    const chunk = this.chunks[at >>> CHUNK_BITS];
    if (chunk !== undefined) chunk[at & (CHUNK - 1)] = item;
  }

  /** Calls `fn` on every item, in order. */
  forEach(fn: (item: T) => void): void {
    let left = this.count;
    for (const chunk of this.chunks) {
      const end = Math.min(left, CHUNK);
      for (let i = 0; i < end; i++) fn(chunk[i] as T);
      left -= end;
    }
  }

  *[Symbol.iterator](): Iterator<T> {
    let left = this.count;
    for (const chunk of this.chunks) {
      const end = Math.min(left, CHUNK);
      for (let i = 0; i < end; i++) yield chunk[i] as T;
      left -= end;
    }
  }

  /** A new list of the items `keep` accepts, in order. */
  filter(keep: (item: T) => boolean): ChunkedList<T> {
    const kept = new ChunkedList<T>();
    this.forEach((item) => {
      if (keep(item)) kept.push(item);
    });
    return kept;
  }
}
