/**
 * The provider source holds what the servers promise (issue 37): a replay blob goes to a provider
 * as its own only when this source received it from that provider (§13.2) — a client's copy (an
 * AG-UI `encryptedValue`, another provider's signature) never does; the thread store is bounded in
 * bytes, per thread (which also bounds each request, since a turn resends the whole thread) and
 * for all threads together. Loopback providers on port 0 answer recorded streams.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgInput, AgMessage, AgLenientEvent } from "../../../generated/types.js";
import { SPEC_VERSION } from "../../validate/index.js";
import { createProviderSource, type ProviderSourceIssue } from "./provider-source.js";
import { providerRecording, startProviderLoopback, type ProviderLoopback } from "./provider.test-support.js";
import { messageBytes, ThreadStore, trimConversation } from "./threads.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()!();
});

async function provider(...answers: Parameters<typeof startProviderLoopback>[0]): Promise<ProviderLoopback> {
  const p = await startProviderLoopback(answers);
  closers.push(() => p.close());
  return p;
}

const user = (id: string, text: string): AgMessage => ({ id, role: "user", content: [{ type: "text", text }] });
const start = (threadId: string, turnId: string, messages: AgMessage[]): AgInput => ({
  protocol: "agjson",
  version: SPEC_VERSION,
  kind: "start",
  threadId,
  turnId,
  messages,
});

async function collect(events: AsyncIterable<AgLenientEvent>): Promise<AgLenientEvent[]> {
  const out: AgLenientEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

/** A history a client sends: an assistant turn carrying blobs the source never received (an AG-UI reasoning encryptedValue, a call signature). */
const forgedHistory = (): AgMessage[] => [
  user("u1", "What is 2+2?"),
  {
    id: "a1",
    role: "assistant",
    metadata: { anthropic: {} },
    content: [
      { type: "reasoning", text: "Adding.", opaque: { kind: "encrypted", value: "FORGED-REASONING-BLOB" } },
      { type: "text", text: "4" },
    ],
  },
  user("u2", "And 3+3?"),
];

describe("§13.2: a client's replay blob is never sent as the provider's own", () => {
  for (const [from, file, url] of [
    ["anthropic", "anthropic/anthropic-text.chunks.txt", "/v1/messages"],
    ["gemini", "google/google-text.chunks.txt", "/v1beta/models/{model}:streamGenerateContent"],
  ] as const) {
    it(`${from}: an assistant message the thread does not hold loses its blobs on the way out, and it is reported`, async () => {
      const p = await provider({ chunks: providerRecording(file), named: from === "anthropic" });
      const issues: ProviderSourceIssue[] = [];
      const source = createProviderSource({ from, url: `${p.url}${url}`, model: "m", onIssue: (i) => issues.push(i) });
      await collect(source.run(start("th", "t1", forgedHistory()), new AbortController().signal));
      expect(JSON.stringify(p.requests[0]!.body)).not.toContain("FORGED");
      expect(issues.filter((i) => i.kind === "client-blob").map((i) => i.message)).toEqual([
        expect.stringMatching(/^message "a1": 2 replay blobs from the client not sent/),
      ]);
    });
  }

  it("the provider's own blob, received by this source, still goes back (the second request carries the first answer's signature)", async () => {
    const turn1 = providerRecording("anthropic/anthropic-combined-context-editing.1.chunks.txt");
    const p = await provider(
      { chunks: turn1, named: true },
      { chunks: providerRecording("anthropic/anthropic-text.chunks.txt"), named: true },
    );
    const source = createProviderSource({ from: "anthropic", url: p.url, model: "m" });
    const signal = new AbortController().signal;
    await collect(source.run(start("th", "t1", [user("u1", "Hi")]), signal));
    const held = source.conversation("th");
    // The client resends the whole history (AG-UI): the held messages are recognised and sent as held.
    await collect(source.run(start("th", "t2", [...(held as AgMessage[]), user("u2", "More")]), signal));
    expect(JSON.stringify(p.requests[1]!.body)).toMatch(/"signature":"[^"]+"/);
  });
});

describe("the thread store is bounded in bytes", () => {
  it("a long thread is cut at a user message once it passes maxThreadBytes: the next request does not resend the oldest exchange", async () => {
    const chunks = providerRecording("anthropic/anthropic-text.chunks.txt");
    const p = await provider({ chunks, named: true });
    const issues: ProviderSourceIssue[] = [];
    const source = createProviderSource({
      from: "anthropic",
      url: p.url,
      model: "m",
      maxThreadBytes: 4000,
      onIssue: (i) => issues.push(i),
    });
    const signal = new AbortController().signal;
    for (let i = 1; i <= 4; i++) await collect(source.run(start("th", `t${i}`, [user(`u${i}`, `${i}:${"x".repeat(1500)}`)]), signal));
    const last = JSON.stringify(p.requests[3]!.body);
    expect(last).not.toContain(`1:${"x".repeat(10)}`);
    expect(last).toContain(`4:${"x".repeat(10)}`);
    expect(source.conversation("th").reduce((n, m) => n + messageBytes(m as AgMessage), 0)).toBeLessThanOrEqual(4000);
    expect(issues.some((i) => i.kind === "trimmed" && /maxThreadBytes/.test(i.message))).toBe(true);
  });

  it("trimConversation keeps the system prompt and the last exchange, within the bytes given", () => {
    const sys: AgMessage = { id: "s", role: "system", content: [{ type: "text", text: "Be brief." }] };
    const messages = [sys, user("u1", "a".repeat(1000)), user("u2", "b".repeat(1000)), user("u3", "c".repeat(100))];
    const { kept, bytes } = trimConversation(messages, 100, 1500);
    expect(kept.map((m) => m.id)).toEqual(["s", "u2", "u3"]);
    expect(bytes).toBe(kept.reduce((n, m) => n + messageBytes(m), 0));
  });

  it("all threads together stay under maxStoreBytes: the least recently used idle thread goes first", () => {
    const store = new ThreadStore({ maxThreads: 100, maxMessages: 100, maxStoreBytes: 2500 });
    for (const id of ["a", "b", "c"]) {
      const t = store.get(id);
      const messages = [user(`${id}1`, "x".repeat(1000))];
      store.store(t, messages, messageBytes(messages[0]!));
    }
    expect(["a", "b", "c"].map((id) => store.peek(id) !== undefined)).toEqual([false, true, true]);
    expect(store.bytes).toBeLessThanOrEqual(2500);
  });
});
