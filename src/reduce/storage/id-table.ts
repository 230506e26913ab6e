// The fold's id registries (message ids, streamed block ids, toolCallIds): string-keyed tables that
// keep every id for the whole fold (§5.0 INV-BLOCK: an id stays taken; INV-MSG: a late event for a
// sealed message or an ended block is still recognized), so they grow with the stream, and most of
// their lookups are of an id never seen before.
//
// Why not a Map: a Map finds a key through a bucket and a chain of entries, and rejects each entry
// of the chain by reading its key string. In a fold of millions of events those are three or four
// cache misses per new id, and every block, message and tool call brings one: that made the
// registries the part of the fold whose cost grew fastest with its length. Here the entries are
// kept in insertion order, appended (a new id writes where the previous one did), and found
// through an index of (hash, entry) pairs in one Int32Array with linear probing: a new id is
// rejected by comparing numbers in one cache line, without reading any key string.
//
// The hash is computed here (JavaScript has no access to the engine's string hash) and seeded per
// table at random, as the engine seeds its own, so that colliding ids cannot simply be looked up
// in advance. Like the engine's, it is not a keyed cryptographic hash: a stream crafted against it
// could still make lookups slow, as it could for a Map.

import { ChunkedList } from "./chunked-list.js";

const MIN_SLOTS = 16;

/** A string-keyed hash table: insertion-ordered entries under an open-addressing index. */
export class IdTable<V> {
  /**
   * The index: slot `s` holds the key's hash at `2s` and its entry number + 1 at `2s + 1`; 0 there
   * marks a free slot. At most three quarters of the slots are used.
   */
  private index = new Int32Array(2 * MIN_SLOTS);
  private mask = MIN_SLOTS - 1;
  /**
   * Entry `e`: key at `2e`, value at `2e + 1`; a deleted entry holds `undefined` in both. Chunked:
   * appending never copies the entries, and a new entry lands next to the previous one.
   */
  private entries = new ChunkedList<unknown>();
  private count = 0;
  private readonly seed = (Math.random() * 0x100000000) | 0;
  /**
   * The key of the last lookup that missed, its hash and the free slot where its probe ended:
   * the fold asks for an id before it registers it (`get`/`has`, then `set`), so `set` of that
   * key places it there without hashing or probing again. Any change to the index forgets it.
   */
  private missKey: string | undefined = undefined;
  private missHash = 0;
  private missSlot = 0;

  /** Number of entries. */
  get size(): number {
    return this.count;
  }

  /** The value of `key`, if any. */
  get(key: string): V | undefined {
    const slot = this.find(key, this.hash(key));
    // The value of a found entry is a V: the array is untyped only because keys and values interleave.
    return slot < 0 ? undefined : (this.entries.get(2 * this.entryAt(slot) + 1) as V);
  }

  /** Whether `key` has an entry. */
  has(key: string): boolean {
    return this.find(key, this.hash(key)) >= 0;
  }

  /** Sets the value of `key` (a new key becomes the last entry). */
  set(key: string, value: V): void {
    let hash: number;
    let free: number;
    if (key === this.missKey) {
      hash = this.missHash;
      free = this.missSlot;
    } else {
      hash = this.hash(key);
      const slot = this.find(key, hash);
      if (slot >= 0) {
        this.entries.set(2 * this.entryAt(slot) + 1, value);
        return;
      }
      free = this.missSlot;
    }
    this.missKey = undefined;
    const entry = this.entries.length / 2;
    // At most three quarters of the slots used: a miss then probes a few slots, mostly in one cache line.
    if ((this.count + 1) * 4 > (this.mask + 1) * 3) {
      this.grow();
      this.place(hash, entry);
    } else {
      this.index[2 * free] = hash;
      this.index[2 * free + 1] = entry + 1;
    }
    this.entries.push(key);
    this.entries.push(value);
    this.count++;
  }

  /** Removes the entry of `key`; whether there was one. */
  delete(key: string): boolean {
    let free = this.find(key, this.hash(key));
    if (free < 0) return false;
    this.missKey = undefined;
    const entry = this.entryAt(free);
    this.entries.set(2 * entry, undefined);
    this.entries.set(2 * entry + 1, undefined);
    this.count--;
    const { index, mask } = this;
    // Backward-shift deletion: each later slot of the probe run whose home does not lie cyclically
    // in (free, slot] moves into the freed slot, so that no lookup stops early at the hole.
    for (let slot = (free + 1) & mask; index[2 * slot + 1] !== 0; slot = (slot + 1) & mask) {
      const home = (index[2 * slot] ?? 0) & mask;
      if (free <= slot ? free < home && home <= slot : free < home || home <= slot) continue;
      index[2 * free] = index[2 * slot] ?? 0;
      index[2 * free + 1] = index[2 * slot + 1] ?? 0;
      free = slot;
    }
    index[2 * free] = 0;
    index[2 * free + 1] = 0;
    // Deleted entries are dropped once they outnumber the live ones (amortized O(1) per delete).
    if (this.entries.length / 2 - this.count > this.count + MIN_SLOTS) this.compact();
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.missKey = undefined;
    this.index = new Int32Array(2 * MIN_SLOTS);
    this.mask = MIN_SLOTS - 1;
    this.entries = new ChunkedList();
    this.count = 0;
  }

  /** Calls `fn` on every entry, in insertion order. */
  forEach(fn: (value: V, key: string) => void): void {
    const entries = this.entries;
    for (let at = 0; at < entries.length; at += 2) {
      const key = entries.get(at);
      // A live entry holds a string key and a V value.
      if (typeof key === "string") fn(entries.get(at + 1) as V, key);
    }
  }

  /** Seeded FNV-1a over the UTF-16 code units, finished with MurmurHash3's mix. */
  private hash(key: string): number {
    let hash = this.seed ^ key.length;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash ^= hash >>> 16;
    return hash;
  }

  /** The entry number the used slot `slot` points at. */
  private entryAt(slot: number): number {
    return (this.index[2 * slot + 1] ?? 0) - 1;
  }

  /** Slot of `key`, or -1. Other keys are told apart by hash first, so a miss reads no key string. */
  private find(key: string, hash: number): number {
    const { index, mask, entries } = this;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = (index[2 * slot + 1] ?? 0) - 1;
      if (entry < 0) {
        this.missKey = key;
        this.missHash = hash;
        this.missSlot = slot;
        return -1;
      }
      if (index[2 * slot] === hash && entries.get(2 * entry) === key) return slot;
    }
  }

  /** Points the first free slot of `hash`'s probe run at entry `entry`. */
  private place(hash: number, entry: number): void {
    const { index, mask } = this;
    let slot = hash & mask;
    while (index[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
    index[2 * slot] = hash;
    index[2 * slot + 1] = entry + 1;
  }

  /** Doubles the index; slots move by their stored hashes, so no key is read or hashed again. */
  private grow(): void {
    const old = this.index;
    const oldSlots = old.length / 2;
    this.index = new Int32Array(4 * oldSlots);
    this.mask = 2 * oldSlots - 1;
    for (let slot = 0; slot < oldSlots; slot++) {
      const entry = (old[2 * slot + 1] ?? 0) - 1;
      if (entry >= 0) this.place(old[2 * slot] ?? 0, entry);
    }
  }

  /** Rebuilds entries and index without the deleted entries (keys are hashed again). */
  private compact(): void {
    this.missKey = undefined;
    const old = this.entries;
    this.index = new Int32Array(2 * (this.mask + 1));
    this.entries = new ChunkedList();
    for (let at = 0; at < old.length; at += 2) {
      const key = old.get(at);
      if (typeof key !== "string") continue;
      this.place(this.hash(key), this.entries.length / 2);
      this.entries.push(key);
      this.entries.push(old.get(at + 1));
    }
  }
}
