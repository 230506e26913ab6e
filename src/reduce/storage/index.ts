// Storage of the fold: the two containers whose size grows with the stream, behind the small
// interfaces the §5 rules use. The rules ask only "which entity has this id" (IdRegistry: message
// ids, streamed block ids, toolCallIds — §5.0 INV-BLOCK, INV-MSG) and "every message in opening
// order" (AppendList — §5 block insertion order, message order). How they are laid out for a
// fold of millions of events — an open-addressing index over chunked entries (id-table.ts),
// fixed-size chunks that are never copied (chunked-list.ts) — is this folder's concern alone;
// docs/reduce.md gives the measurements behind it.

import { ChunkedList } from "./chunked-list.js";
import { IdTable } from "./id-table.js";

/** A string-keyed table of the fold's entities; iteration is in insertion order. */
export interface IdRegistry<V> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  /** Sets the value of `key` (a new key becomes the last entry). */
  set(key: string, value: V): void;
  /** Removes the entry of `key`; whether there was one. */
  delete(key: string): boolean;
  clear(): void;
  forEach(fn: (value: V, key: string) => void): void;
}

/** An append-only list of the fold's entities, in insertion order. */
export interface AppendList<T> extends Iterable<T> {
  readonly length: number;
  push(item: T): void;
  forEach(fn: (item: T) => void): void;
  /** A new list of the items `keep` accepts, in order. */
  filter(keep: (item: T) => boolean): AppendList<T>;
}

/** A new, empty id registry. */
export function createIdRegistry<V>(): IdRegistry<V> {
  return new IdTable<V>();
}

/** A new, empty append-only list. */
export function createAppendList<T>(): AppendList<T> {
  return new ChunkedList<T>();
}
