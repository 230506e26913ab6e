// The fold's list of every message in opening order (§5 message order), which grows with the
// stream. One array would be regrown by copying — 1.5× each time, in large-object space once it is
// big, so a long fold allocates and faults in its list several times over — and keeps up to half
// its slots spare. Fixed-size chunks are allocated once each and never copied.

/** Slots per chunk: 8 KB of pointers, small beside the fold state of 1,024 messages. */
export const MESSAGE_CHUNK = 1024;

/** An append-only list in fixed-size chunks (generic only so that it can be tested alone). */
export class MessageList<T> implements Iterable<T> {
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
    const at = this.count % MESSAGE_CHUNK;
    if (tail !== undefined && at !== 0) {
      if (this.chunks.length === 1) tail.push(item);
      else tail[at] = item;
    } else if (this.count === 0) {
      // The first chunk grows by push, so a short fold does not hold 1,024 empty slots.
      this.chunks.push((this.tail = [item]));
    } else {
      const chunk = new Array<T>(MESSAGE_CHUNK);
      chunk[0] = item;
      this.chunks.push((this.tail = chunk));
    }
    this.count++;
  }

  // The `as T` reads below: every slot under `count` is filled, which the index type cannot say.

  /** Calls `fn` on every item, in order. */
  forEach(fn: (item: T) => void): void {
    let left = this.count;
    for (const chunk of this.chunks) {
      const end = Math.min(left, MESSAGE_CHUNK);
      for (let i = 0; i < end; i++) fn(chunk[i] as T);
      left -= end;
    }
  }

  *[Symbol.iterator](): Iterator<T> {
    let left = this.count;
    for (const chunk of this.chunks) {
      const end = Math.min(left, MESSAGE_CHUNK);
      for (let i = 0; i < end; i++) yield chunk[i] as T;
      left -= end;
    }
  }

  /** A new list of the items `keep` accepts, in order. */
  filter(keep: (item: T) => boolean): MessageList<T> {
    const kept = new MessageList<T>();
    this.forEach((item) => {
      if (keep(item)) kept.push(item);
    });
    return kept;
  }
}
