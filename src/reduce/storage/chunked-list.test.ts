// ChunkedList (chunked-list.ts): the chunked, append-only lists of the fold (its messages, the
// entries of its id registries). Sizes around the chunk boundaries must read back exactly as an
// array would.
import { describe, expect, it } from "vitest";
import { CHUNK, ChunkedList } from "./chunked-list.js";

function listOf(n: number): ChunkedList<number> {
  const list = new ChunkedList<number>();
  for (let i = 0; i < n; i++) list.push(i);
  return list;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe("ChunkedList", () => {
  const sizes = [0, 1, 2, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 7];

  it.each(sizes)("holds %i items in order (length, forEach, iteration)", (n) => {
    const list = listOf(n);
    expect(list.length).toBe(n);
    const seen: number[] = [];
    list.forEach((item) => seen.push(item));
    expect(seen).toEqual(range(n));
    expect([...list]).toEqual(range(n));
  });

  it.each(sizes)("filters %i items into a new list, keeping order, and the new list grows on", (n) => {
    const list = listOf(n);
    const odd = list.filter((item) => item % 2 === 1);
    expect([...odd]).toEqual(range(n).filter((item) => item % 2 === 1));
    expect([...list]).toEqual(range(n));
    odd.push(-1);
    expect(odd.length).toBe(Math.floor(n / 2) + 1);
    expect([...odd].at(-1)).toBe(-1);
  });

  it.each(sizes)("reads and replaces any of %i items by index", (n) => {
    const list = listOf(n);
    for (let i = 0; i < n; i++) expect(list.get(i)).toBe(i);
    for (let i = 0; i < n; i += 3) list.set(i, -i);
    expect([...list]).toEqual(range(n).map((i) => (i % 3 === 0 ? -i : i)));
  });

  it("keeps undefined items as items", () => {
    const list = new ChunkedList<number | undefined>();
    for (let i = 0; i < CHUNK + 2; i++) list.push(i % 3 === 0 ? undefined : i);
    expect([...list]).toEqual(range(CHUNK + 2).map((i) => (i % 3 === 0 ? undefined : i)));
  });
});
