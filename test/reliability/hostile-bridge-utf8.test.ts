/**
 * Issue 20 item 10 at the bridges' byte boundaries: AgJSON is UTF-8 JSON (§4), so bytes that are
 * not UTF-8 are refused naming their offset — never decoded to U+FFFD and passed on as if the
 * producer had sent that text. The gateway and the CLI already refuse them; the bridges read their
 * upstreams with decoders of their own: the agjson endpoint behind `agjson acp --upstream` and
 * `agjson serve --agui --upstream` (`parseEventStream`, §5 trust boundary: the record is dropped
 * and reported) and the provider API behind `--from` (`createProviderSource`: the chunk is reported
 * and skipped, as `agjson normalize` does, and the turn still closes, INV-TURN).
 */
import { describe, expect, it } from "vitest";
import { parseEventStream, type AgSourceIssue } from "../../src/bridges/source/index.js";
import { createProviderSource, type ProviderSourceIssue } from "../../src/bridges/provider/provider-source.js";
import type { AgLenientEvent } from "../../generated/types.js";
import type { Lenient } from "../../src/validate/index.js";
import { chunked, enc } from "./support.js";

const BAD_SEQUENCES = [[0xff], [0xc3], [0xe2, 0x28, 0xa1], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]];

/** Three records; the middle one's string holds `bad` at byte `offset` of that record. */
function streamWith(bad: number[], format: "ndjson" | "sse"): { bytes: Uint8Array; offset: number } {
  const rec = (seq: number) => JSON.stringify({ type: "text.delta", seq, id: "t1", delta: "hi" });
  const head = `{"type":"text.delta","seq":1,"id":"t1","delta":"h`;
  const wrap = (r: string) => (format === "sse" ? `data: ${r}\n\n` : `${r}\n`);
  const prefix = wrap(rec(0)) + (format === "sse" ? "data: " : "");
  const bytes = new Uint8Array([...enc(prefix + head), ...bad, ...enc(`"}` + (format === "sse" ? "\n\n" : "\n") + wrap(rec(2)))]);
  return { bytes, offset: enc(head).length };
}

describe("agjson endpoint upstream (acp --upstream, serve --agui --upstream): a record that is not UTF-8 is dropped and named (§4, §5 trust boundary)", () => {
  for (const format of ["ndjson", "sse"] as const) {
    it(`${format}: the bad record never reaches the bridge, its offset is reported, the rest pass, whatever the chunking`, async () => {
      for (const bad of BAD_SEQUENCES) {
        const { bytes, offset } = streamWith(bad, format);
        for (const size of [1, 3, 64, 1 << 20]) {
          const issues: AgSourceIssue[] = [];
          const events: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] = [];
          for await (const e of parseEventStream(chunked(bytes, size), { onIssue: (i) => issues.push(i) })) events.push(e);
          expect(events.map((e) => e.seq)).toEqual([0, 2]);
          expect(events.every((e) => e.type === "text.delta" && !e.delta.includes("\uFFFD"))).toBe(true);
          expect(issues).toEqual([
            { index: 1, message: `invalid UTF-8 at byte ${offset} of the record: AgJSON is UTF-8 JSON (§4); dropped` },
          ]);
        }
      }
    });
  }

  it("a literal U+FFFD (well-formed UTF-8) still passes", async () => {
    const text = JSON.stringify({ type: "text.delta", seq: 0, id: "t1", delta: "a\uFFFDb" }) + "\n";
    const events: AgLenientEvent[] = [];
    const issues: AgSourceIssue[] = [];
    for await (const e of parseEventStream(chunked(enc(text), 2), { onIssue: (i) => issues.push(i) })) events.push(e);
    expect(issues).toEqual([]);
    expect(events).toEqual([{ type: "text.delta", seq: 0, id: "t1", delta: "a\uFFFDb" }]);
  });
});

describe("provider upstream (acp/serve --from): a chunk that is not UTF-8 is reported and skipped, never normalized as U+FFFD (§4, §8.0)", () => {
  const chunks = (name: string) => [
    {
      type: "message_start",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [],
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok " } },
    name,
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
    { type: "message_stop" },
  ];

  it("the bad chunk is named with its offset; the text around it streams and the turn closes", async () => {
    for (const bad of BAD_SEQUENCES) {
      const before = `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x`;
      const parts = chunks("BAD").map((c) => (c === "BAD" ? null : `data: ${JSON.stringify(c)}\n\n`));
      const bytes = new Uint8Array(parts.flatMap((p) => (p === null ? [...enc(before), ...bad, ...enc(`"}}\n\n`)] : [...enc(p)])));
      const fakeFetch: typeof fetch = async () =>
        new Response(
          new ReadableStream({
            start(c) {
              for (let i = 0; i < bytes.length; i += 5) c.enqueue(bytes.slice(i, i + 5));
              c.close();
            },
          }),
          { status: 200, headers: { "content-type": "text/event-stream" } },
        );
      const issues: ProviderSourceIssue[] = [];
      const source = createProviderSource({
        from: "anthropic",
        url: "http://provider.invalid/v1/messages",
        model: "claude",
        fetch: fakeFetch,
        onIssue: (i) => issues.push(i),
      });
      const input = {
        kind: "start",
        protocol: "agjson",
        version: "1.0.0-draft.1",
        threadId: "th",
        turnId: "u1",
        messages: [{ id: "m0", role: "user", content: [{ type: "text", text: "hi" }] }],
      } as const;
      const events: AgLenientEvent[] = [];
      for await (const e of source.run(input as never, new AbortController().signal)) events.push(e as AgLenientEvent);
      const text = events.flatMap((e) => (e.type === "text.delta" ? [e.delta] : [])).join("");
      expect(text).toBe("ok ");
      expect(events.at(-1)?.type).toBe("turn.done");
      const offset = enc(before.slice("data: ".length)).length;
      expect(issues.filter((i) => i.kind === "stream").map((i) => (i as { message: string }).message)).toEqual([
        `anthropic provider sent a chunk that is not UTF-8 (invalid UTF-8 at byte ${offset} of the chunk, §4); skipped`,
      ]);
    }
  });
});
