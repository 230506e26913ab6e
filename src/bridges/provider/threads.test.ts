/**
 * The provider source's thread store: which input messages are new to a thread (a client resending
 * its whole history, as AG-UI's does, against one sending only the new message, as ACP's does), the
 * per-thread message bound cut at a user message, and the thread-count bound (least recently used).
 */
import { describe, expect, it } from "vitest";
import type { AgMessage } from "../../../generated/types.js";
import { newMessages, ThreadStore, trimConversation, type ProviderThread } from "./threads.js";

const msg = (id: string, role: AgMessage["role"], blockId?: string): AgMessage => ({
  id,
  role,
  content: [{ type: "text", text: id, ...(blockId !== undefined ? { id: blockId } : {}) }],
});
const thread = (messages: AgMessage[]): ProviderThread => ({ id: "th", messages, pendingAsks: [], busy: false, bytes: 0 });

describe("newMessages", () => {
  const held = thread([msg("u1", "user"), msg("a1", "assistant", "txt_a1")]);

  it("a resent history: only what follows the last message the thread holds", () => {
    // The client's own split of the answer (a reasoning message of its own id) precedes the held id.
    expect(
      newMessages(held, [msg("u1", "user"), msg("client-reasoning", "assistant"), msg("a1", "assistant"), msg("u2", "user")]).map(
        (m) => m.id,
      ),
    ).toEqual(["u2"]);
    // A client message known by a block id of the held answer counts as held too.
    expect(
      newMessages(held, [msg("u1", "user"), msg("txt_a1", "assistant"), msg("tool-1", "tool"), msg("u2", "user")]).map((m) => m.id),
    ).toEqual(["tool-1", "u2"]);
  });

  it("only the new message, or a thread the store never saw: all of it", () => {
    expect(newMessages(held, [msg("u2", "user")]).map((m) => m.id)).toEqual(["u2"]);
    expect(newMessages(thread([]), [msg("u1", "user"), msg("a1", "assistant"), msg("u2", "user")]).map((m) => m.id)).toEqual([
      "u1",
      "a1",
      "u2",
    ]);
  });
});

describe("trimConversation", () => {
  it("drops the oldest exchanges at a user message, keeping the system prompt", () => {
    const messages = [
      msg("s", "system"),
      msg("u1", "user"),
      msg("a1", "assistant"),
      msg("t1", "tool"),
      msg("a1b", "assistant"),
      msg("u2", "user"),
      msg("a2", "assistant"),
    ];
    expect(trimConversation(messages, 4)).toMatchObject({ kept: [messages[0], messages[5], messages[6]], dropped: 4 });
    expect(trimConversation(messages, 7)).toMatchObject({ kept: messages, dropped: 0 });
  });
});

describe("ThreadStore", () => {
  it("keeps at most maxThreads, dropping the least recently used and never a busy one", () => {
    const store = new ThreadStore({ maxThreads: 2, maxMessages: 10 });
    store.get("a").busy = true;
    store.get("b");
    store.get("c");
    expect([store.peek("a"), store.peek("b"), store.peek("c")].map((t) => t?.id)).toEqual(["a", undefined, "c"]);
    store.peek("a")!.busy = false;
    store.get("c");
    store.get("d");
    expect(store.size).toBe(2);
    expect(store.peek("a")).toBeUndefined();
  });
});
