// MessageList: the chunked, append-only list of the fold's messages (message-list.ts). Sizes
// around the chunk boundaries must read back exactly as an array would.
import { describe, expect, it } from "vitest";
import { MESSAGE_CHUNK, MessageList } from "./message-list.js";

function listOf(n: number): MessageList<number> {
  const list = new MessageList<number>();
  for (let i = 0; i < n; i++) list.push(i);
  return list;
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe("MessageList", () => {
  const sizes = [0, 1, 2, MESSAGE_CHUNK - 1, MESSAGE_CHUNK, MESSAGE_CHUNK + 1, 3 * MESSAGE_CHUNK, 3 * MESSAGE_CHUNK + 7];

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

  it("keeps undefined items as items", () => {
    const list = new MessageList<number | undefined>();
    for (let i = 0; i < MESSAGE_CHUNK + 2; i++) list.push(i % 3 === 0 ? undefined : i);
    expect([...list]).toEqual(range(MESSAGE_CHUNK + 2).map((i) => (i % 3 === 0 ? undefined : i)));
  });
});
