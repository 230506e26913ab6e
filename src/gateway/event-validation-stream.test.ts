/** The validating transform on its own, in memory: policies, seq/turn bookkeeping, caps, formats. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadValidateFixtures } from "../../conformance/validate-fixtures.js";
import { validateEvent } from "../validate/index.js";
import { DEFAULT_CAPS, HARD_CAPS, resolveCaps } from "./caps.js";
import { createEventValidationStream, pipeUpstream, type EventValidationOptions, type GatewayReport } from "./event-validation-stream.js";
import { TURN_CLOSING_TYPES, TURN_OPENING_TYPES } from "./event-validation-core.js";
import { GATEWAY_META_KEY } from "./gateway-events.js";
import { SseFramer } from "../wire/sse-framer.js";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

async function run(input: (string | Uint8Array)[], opts: EventValidationOptions = {}): Promise<string> {
  return dec.decode(await runBytes(input, opts));
}

async function runBytes(input: (string | Uint8Array)[], opts: EventValidationOptions = {}): Promise<Buffer> {
  return Buffer.concat(await runChunks(input, opts));
}

/** The output as the chunks the stream enqueued. */
async function runChunks(input: (string | Uint8Array)[], opts: EventValidationOptions = {}): Promise<Uint8Array[]> {
  const stream = createEventValidationStream(opts);
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      for (const part of input) c.enqueue(typeof part === "string" ? enc.encode(part) : part);
      c.close();
    },
  });
  const out: Uint8Array[] = [];
  const reader = source.pipeThrough(stream).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.push(value);
  }
  return out;
}

const ev = (e: Record<string, unknown>) => `data: ${JSON.stringify(e)}\n\n`;
const start = (seq: number, turnId = "t1") => ev({ type: "turn.start", seq, threadId: "th", turnId });
const delta = (seq: number, d: unknown = "x") => ev({ type: "text.delta", seq, id: "b", delta: d });
const done = (seq: number, turnId = "t1") => ev({ type: "turn.done", seq, turnId, outcome: { type: "success" }, finishReason: "stop" });

function events(text: string, format: "sse" | "ndjson" = "sse"): Record<string, unknown>[] {
  const lines =
    format === "sse"
      ? text
          .split("\n\n")
          .filter(Boolean)
          .map((f) => f.replace(/^data: /, ""))
      : text.split("\n").filter(Boolean);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("createEventValidationStream", () => {
  it("passes a valid stream through byte-identical, BOM and comments included", async () => {
    const input = `\uFEFF: hello\n\n${start(0)}${delta(1)}${done(2)}`;
    expect(await run([input])).toBe(input);
  });

  it("gives gateway events the next seq after the last written one, even for consecutive drops (INV-SEQ)", async () => {
    const out = events(await run([start(0), delta(1, 5), delta(2, 6), delta(3), done(4)]));
    expect(out.map((e) => [e.type, e.seq])).toEqual([
      ["turn.start", 0],
      ["error", 1],
      ["error", 2],
      ["text.delta", 3],
      ["turn.done", 4],
    ]);
    for (const e of out) expect(validateEvent(e, { posture: "strict" }).ok).toBe(true);
    const meta = out[1]!._meta as Record<string, Record<string, unknown>>;
    expect(meta[GATEWAY_META_KEY]).toMatchObject({ reason: "invalid-event", droppedSeq: 1, droppedType: "text.delta", issueCount: 1 });
  });

  it("terminate closes every open turn innermost first, then ends", async () => {
    const sub = ev({ type: "subagent.start", seq: 1, turnId: "t2", parentTurnId: "t1" });
    const out = events(await run([start(0), sub, delta(2, 5), delta(3)], { onInvalid: "terminate" }));
    expect(out.map((e) => [e.type, e.seq, e.turnId])).toEqual([
      ["turn.start", 0, "t1"],
      ["subagent.start", 1, "t2"],
      ["turn.error", 2, "t2"],
      ["turn.error", 3, "t1"],
    ]);
  });

  it("after every turn closed, a terminal condition is reported as a non-terminal error, not a second close", async () => {
    const out = events(await run([start(0), done(1), delta(2, 5)], { onInvalid: "terminate" }));
    expect(out.at(-1)).toMatchObject({ type: "error", seq: 2, code: "agjson.gateway.invalid-event" });
  });

  it("refuses invalid JSON, malformed UTF-8 and over-deep events", async () => {
    const bad = Uint8Array.from([
      ...enc.encode('data: {"type":"text.delta","seq":1,"id":"b","delta":"'),
      0xc3,
      0x28,
      ...enc.encode('"}\n\n'),
    ]);
    const deep = `data: {"type":"state.snapshot","seq":1,"snapshot":${"[".repeat(70)}${"]".repeat(70)}}\n\n`;
    const reports: GatewayReport[] = [];
    const out = events(
      await run([start(0), "data: {nope\n\n", bad, deep, ev({ type: "state.snapshot", seq: 1, snapshot: "\uFFFD ok" })], {
        onReport: (r) => reports.push(r),
      }),
    );
    // None of the three refused frames has a readable seq, and the upstream's next event (seq 1)
    // shows they took no slot: their errors wait for the stream's end (D31).
    expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
      ["turn.start", 0],
      ["state.snapshot", 1],
      ["agjson.gateway.invalid-json", 2],
      ["agjson.gateway.invalid-json", 3],
      ["agjson.gateway.event-too-deep", 4],
      ["agjson.gateway.upstream-truncated", 5],
    ]);
    expect(reports.map((r) => [r.reason, r.terminal])).toEqual([
      ["invalid-json", false],
      ["invalid-json", false],
      ["event-too-deep", false],
      ["upstream-truncated", true],
    ]);
  });

  it("lenient forwards unknown types and fields; strict refuses both", async () => {
    const unknownType = ev({ type: "future.thing.start", seq: 1 });
    const unknownField = ev({ type: "text.delta", seq: 2, id: "b", delta: "x", futureField: 1 });
    const input = [start(0), unknownType, unknownField, done(3)];
    const lenient = createEventValidationStream();
    expect(await run(input)).toBe(input.join(""));
    expect(lenient.stats.unknown).toBe(0);
    const strictOut = events(await run(input, { posture: "strict" }));
    expect(strictOut.map((e) => e.code ?? e.type)).toEqual([
      "turn.start",
      "agjson.gateway.invalid-event",
      "agjson.gateway.invalid-event",
      "turn.done",
    ]);
  });

  it("frames NDJSON (sniffed) and answers in NDJSON", async () => {
    const input = ['{"type":"turn.start","seq":0,"threadId":"th","turnId":"t1"}\n', '{"type":"text.delta","seq":1}\n'];
    const out = await run(input);
    expect(out.startsWith(input[0]!)).toBe(true);
    expect(events(out, "ndjson").map((e) => e.type)).toEqual(["turn.start", "error", "turn.error"]);
  });

  it("ends the stream after maxInvalidEvents drops", async () => {
    const input = [start(0), ...Array.from({ length: 10 }, (_, k) => delta(k + 1, k))];
    const out = events(await run(input, { caps: { maxInvalidEvents: 3 } }));
    expect(out.map((e) => e.code ?? e.type)).toEqual([
      "turn.start",
      "agjson.gateway.invalid-event",
      "agjson.gateway.invalid-event",
      "agjson.gateway.invalid-event",
      "agjson.gateway.too-many-invalid-events",
    ]);
    expect(out.at(-1)).toMatchObject({ type: "turn.error", turnId: "t1", seq: 4 });
  });

  it("pipeUpstream turns a source error into a retriable turn.error", async () => {
    let step = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        if (step++ === 0) c.enqueue(enc.encode(start(0)));
        else c.error(new Error("socket hang up"));
      },
    });
    const stream = createEventValidationStream({ turnId: "t1" });
    const text = await new Response(pipeUpstream(source, stream)).text();
    expect(events(text).at(-1)).toMatchObject({
      type: "turn.error",
      seq: 1,
      turnId: "t1",
      retriable: true,
      code: "agjson.gateway.upstream-disconnected",
    });
    expect(stream.stats.ended?.reason).toBe("upstream-disconnected");
  });

  // docs/spec-decisions.md D31: a refused frame whose seq cannot be read gets its error in a
  // slot only when the upstream's next event shows the frame took one; else at the stream's end.
  describe("a refused frame whose seq cannot be read never takes a seq the upstream uses (§5.0 INV-SEQ)", () => {
    const garbage = "data: {nope\n\n";
    const mangled = 'data: {"type":"text.delta","seq":1,"id":"b","delta":\n\n';
    const ordinals = (out: Record<string, unknown>[]) => out.map((e) => e.seq);
    const gapFree = (out: Record<string, unknown>[]) => expect(ordinals(out)).toEqual(out.map((_, i) => i));

    it.each([
      ["one chunk (the fast path)", (parts: string[]) => [parts.join("")]],
      ["a chunk per frame", (parts: string[]) => parts],
    ])("%s: a frame that took no slot has its error after the upstream's last event", async (_name, chunks) => {
      const out = events(await run(chunks([start(0), garbage, delta(1), delta(2), done(3)])));
      expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["text.delta", 1],
        ["text.delta", 2],
        ["turn.done", 3],
        ["agjson.gateway.invalid-json", 4],
      ]);
      for (const e of out) expect(validateEvent(e, { posture: "strict" }).ok).toBe(true);
    });

    it("a frame that took a slot (the next event skips one) has its error in that slot, before the next event", async () => {
      const out = events(await run([`${start(0)}${mangled}${delta(2)}${done(3)}`]));
      expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["agjson.gateway.invalid-json", 1],
        ["text.delta", 2],
        ["turn.done", 3],
      ]);
    });

    it("of several, as many as the upstream skipped take slots, in order; the rest go to the end", async () => {
      const tooDeep = `data: {"type":"state.snapshot","seq":1,"snapshot":${"[".repeat(70)}${"]".repeat(70)}}\n\n`;
      const out = events(await run([start(0), tooDeep, garbage, delta(2), done(3)]));
      expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["agjson.gateway.event-too-deep", 1],
        ["text.delta", 2],
        ["turn.done", 3],
        ["agjson.gateway.invalid-json", 4],
      ]);
    });

    it("held errors come before the terminal events when the stream ends early, and in NDJSON too", async () => {
      const line = (e: Record<string, unknown>) => `${JSON.stringify(e)}\n`;
      const ndjson = events(
        await run(
          [
            line({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" }),
            "not json\n",
            line({ type: "text.delta", seq: 1, id: "b", delta: "x" }),
          ],
          {
            format: "ndjson",
          },
        ),
        "ndjson",
      );
      expect(ndjson.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["text.delta", 1],
        ["agjson.gateway.invalid-json", 2],
        ["agjson.gateway.upstream-truncated", 3],
      ]);
      gapFree(ndjson);
    });

    it("a new invoke after a refused frame (a backward jump): the error waits for the end, no seq is repeated", async () => {
      const out = events(await run([start(0), done(1), garbage, start(0, "t2"), done(1, "t2")]));
      expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["turn.done", 1],
        ["turn.start", 0],
        ["turn.done", 1],
        ["agjson.gateway.invalid-json", 2],
      ]);
    });

    it("onInvalid terminate still ends the stream at the refused frame", async () => {
      const out = events(await run([start(0), garbage, delta(1)], { onInvalid: "terminate" }));
      expect(out.map((e) => [e.code ?? e.type, e.seq])).toEqual([
        ["turn.start", 0],
        ["agjson.gateway.invalid-json", 1],
      ]);
    });

    it("property: whatever mix of events, slot-taking and slot-less refused frames, the client's seqs are 0, 1, 2, … (INV-SEQ)", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom("event", "slot", "no-slot"), { maxLength: 24 }),
          fc.boolean(),
          async (kinds, oneChunk) => {
            let seq = 0;
            const frames = [start(0)];
            for (const kind of kinds) {
              if (kind === "event") frames.push(delta(++seq));
              else if (kind === "slot") frames.push(mangled.replace('"seq":1', `"seq":${++seq}`));
              else frames.push(garbage);
            }
            frames.push(done(++seq));
            const out = events(await run(oneChunk ? [frames.join("")] : frames));
            gapFree(out);
            expect(out.filter((e) => e.type === "error")).toHaveLength(kinds.filter((k) => k !== "event").length);
            expect(out.filter((e) => e.type !== "error").map((e) => e.type)).toEqual([
              "turn.start",
              ...kinds.filter((k) => k === "event").map(() => "text.delta"),
              "turn.done",
            ]);
          },
        ),
        { numRuns: 200 },
      );
    });

    it("in a stream of refusals and events, no seq reaches the client twice or out of order", async () => {
      const input = [
        start(0),
        garbage,
        delta(1),
        mangled.replace('"seq":1', '"seq":2'),
        garbage,
        delta(3),
        garbage,
        garbage,
        delta(4),
        done(5),
      ];
      for (const chunks of [[input.join("")], input]) {
        const out = events(await run(chunks));
        gapFree(out);
        expect(out.filter((e) => e.type === "error")).toHaveLength(5);
      }
    });
  });

  // docs/spec-decisions.md D19: a frame with no event takes no event and no seq slot; it is counted.
  it("skips an empty data: and SSE's [DONE] without an event or a seq slot, and counts them in the summary", async () => {
    const summaries: unknown[] = [];
    const reports: GatewayReport[] = [];
    const input = [start(0), "data:\n\n", delta(1), "data: [DONE]\n\n", "data:   \n\n", done(2), "data: [DONE]\n\n"];
    const out = await run(input, { onSummary: (s) => summaries.push(s), onReport: (r) => reports.push(r) });
    expect(out).toBe(`${start(0)}${delta(1)}${done(2)}`);
    expect(reports).toEqual([]);
    expect(summaries).toEqual([expect.objectContaining({ events: 3, forwarded: 3, dropped: 0, skipped: 4, ended: null })]);
    // The same frames in one chunk (the in-chunk path) are skipped alike.
    expect(await run([input.join("")])).toBe(`${start(0)}${delta(1)}${done(2)}`);
  });

  it("NDJSON: a [DONE] line is not SSE's sentinel: it is refused as not JSON", async () => {
    const line = (e: Record<string, unknown>) => `${JSON.stringify(e)}\n`;
    const out = events(
      await run([line({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" }), "[DONE]\n"], { format: "ndjson" }),
      "ndjson",
    );
    expect(out.map((e) => [e.type, e.seq])).toEqual([
      ["turn.start", 0],
      ["error", 1],
      ["turn.error", 2],
    ]);
  });

  it("a stream that never opened a turn names opts.turnId in its terminal event", async () => {
    const out = events(await run([delta(0, 1)], { onInvalid: "terminate", turnId: "from-input" }));
    expect(out).toEqual([expect.objectContaining({ type: "turn.error", seq: 0, turnId: "from-input" })]);
  });
});

describe("in-chunk fast path", () => {
  it("forwards a run of valid frames of one chunk as one slice, then the refusal, then the next run", async () => {
    const chunks = await runChunks([start(0) + delta(1) + delta(2, 5) + delta(3) + done(4)]);
    const text = chunks.map((c) => dec.decode(c));
    expect(text).toHaveLength(3);
    expect(text[0]).toBe(start(0) + delta(1));
    expect(events(text[1]!)).toMatchObject([{ type: "error", seq: 2, code: "agjson.gateway.invalid-event" }]);
    expect(text[2]).toBe(delta(3) + done(4));
  });

  it("is byte-identical whatever the cut: frames spanning chunks, CRLF, a multi-byte character split", async () => {
    const crlf = `data: ${JSON.stringify({ type: "text.delta", seq: 1, id: "b", delta: "crlf" })}\r\n\r\n`;
    const input = enc.encode(start(0) + crlf + delta(2, "héllo — 世界 🎉") + ": ping\n\n" + delta(3) + done(4));
    for (let cut = 0; cut <= input.length; cut++) {
      const out = await runBytes([input.subarray(0, cut), input.subarray(cut)].filter((c) => c.length > 0));
      expect(out.equals(input)).toBe(true);
    }
  });

  it("refuses an invalid CRLF frame and malformed UTF-8 inside a run, keeping its neighbours", async () => {
    const badCrlf = `data: ${JSON.stringify({ type: "text.delta", seq: 2, id: "b", delta: 7 })}\r\n\r\n`;
    const badUtf8 = Uint8Array.from([
      ...enc.encode('data: {"type":"text.delta","seq":3,"id":"b","delta":"'),
      0xe4,
      0xb8,
      ...enc.encode('"}\n\n'),
    ]);
    const input = Buffer.concat([enc.encode(start(0) + delta(1) + badCrlf), badUtf8, enc.encode(delta(4) + done(5))]);
    const out = events(await run([input]));
    expect(out.map((e) => e.code ?? e.type)).toEqual([
      "turn.start",
      "text.delta",
      "agjson.gateway.invalid-event",
      "agjson.gateway.invalid-json",
      "text.delta",
      "turn.done",
    ]);
  });

  it("checks depth per payload among shallow neighbours, brackets inside strings included", async () => {
    const brackets = ev({ type: "text.delta", seq: 1, id: "b", delta: "{[{[{[{[{[" });
    const deep = `data: {"type":"state.snapshot","seq":2,"snapshot":${"[".repeat(5)}${"]".repeat(5)}}\n\n`;
    const out = events(await run([start(0) + brackets + deep + delta(3) + done(4)], { caps: { maxDepth: 4 } }));
    expect(out.map((e) => e.code ?? e.type)).toEqual([
      "turn.start",
      "text.delta",
      "agjson.gateway.event-too-deep",
      "text.delta",
      "turn.done",
    ]);
  });

  it("NDJSON: CRLF lines and blank lines pass byte-identical; an invalid line in a run is replaced", async () => {
    const line = (e: Record<string, unknown>, eol = "\n") => JSON.stringify(e) + eol;
    const input =
      line({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" }, "\r\n") +
      "\n" +
      line({ type: "text.delta", seq: 1, id: "b", delta: "é" }) +
      line({ type: "text.delta", seq: 2, id: "b", delta: 2 }) +
      line({ type: "turn.done", seq: 3, turnId: "t1", outcome: { type: "success" }, finishReason: "stop" }, "\r\n");
    expect(events(await run([input]), "ndjson").map((e) => e.code ?? e.type)).toEqual([
      "turn.start",
      "text.delta",
      "agjson.gateway.invalid-event",
      "turn.done",
    ]);
    const valid = input.replace(line({ type: "text.delta", seq: 2, id: "b", delta: 2 }), "");
    expect(await run([valid])).toBe(valid);
  });
});

describe("caps", () => {
  it("merges overrides and refuses out-of-range values instead of clamping", () => {
    expect(resolveCaps({ maxDepth: 10 }).maxDepth).toBe(10);
    expect(resolveCaps().maxEventBytes).toBe(DEFAULT_CAPS.maxEventBytes);
    expect(() => resolveCaps({ maxDepth: 0 })).toThrow(/maxDepth=0 is out of bounds/);
    expect(() => resolveCaps({ maxEventBytes: HARD_CAPS.maxEventBytes + 1 })).toThrow(RangeError);
    expect(() => resolveCaps({ maxEvents: 1.5 })).toThrow(RangeError);
    expect(() => resolveCaps({ bogus: 1 } as never)).toThrow(/unknown cap "bogus"/);
    expect(() => createEventValidationStream({ posture: "loose" as never })).toThrow(/posture/);
  });
});

describe("property: whatever the input, the output is well-formed", () => {
  it("forwards input frames byte-identical and in order, or replaces them with strict-valid gateway events", async () => {
    const frameArb = fc.oneof(
      fc.nat(50).map((seq) => delta(seq)),
      fc.nat(50).map((seq) => delta(seq, seq)),
      fc.nat(50).map((seq) => start(seq)),
      fc.nat(50).map((seq) => done(seq)),
      fc.constant(": ping\n\n"),
      fc.constant("data: {\n\n"),
      fc.string({ maxLength: 40 }).map((s) => `data: ${JSON.stringify(s)}\n\n`),
      fc.string({ maxLength: 300 }).map((s) => `data: {"type":"text.delta","seq":1,"id":"b","delta":${JSON.stringify(s)}}\r\n\r\n`),
      fc
        .uint8Array({ maxLength: 60 })
        .map((b) => Buffer.concat([Buffer.from(": "), Buffer.from(b.filter((x) => x !== 10 && x !== 13)), Buffer.from("\n\n")])),
      fc
        .uint8Array({ maxLength: 60 })
        .map((b) => Buffer.concat([Buffer.from("data: "), Buffer.from(b.filter((x) => x !== 10 && x !== 13)), Buffer.from("\n\n")])),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(frameArb, { maxLength: 25 }),
        fc.array(fc.nat(400), { maxLength: 8 }),
        fc.constantFrom<"drop" | "terminate">("drop", "terminate"),
        async (frames, cuts, onInvalid) => {
          const input = Buffer.concat(frames.map((f) => (typeof f === "string" ? Buffer.from(f) : f)));
          const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let at = 0;
          for (const p of [...points, input.length]) {
            chunks.push(input.subarray(at, p));
            at = p;
          }
          const out = await runBytes(
            chunks.filter((c) => c.length > 0),
            { onInvalid, format: "sse", caps: { maxEventBytes: 200 } },
          );
          const inputFrames: string[] = [];
          new SseFramer(
            { maxFrameBytes: 1 << 20 },
            (f) => f.kind !== "oversized" && inputFrames.push(Buffer.from(f.raw).toString("hex")),
          ).push(input);
          const produced: { hex: string; data?: string }[] = [];
          const framer = new SseFramer({ maxFrameBytes: 1 << 20 }, (f) => {
            if (f.kind === "oversized") throw new Error("output frame oversized");
            produced.push({
              hex: Buffer.from(f.raw).toString("hex"),
              ...(f.kind === "event" ? { data: Buffer.from(f.data).toString("utf8") } : {}),
            });
          });
          framer.push(out);
          expect(framer.end()).toBe(0);
          let cursor = 0;
          for (const frame of produced) {
            const found = inputFrames.indexOf(frame.hex, cursor);
            if (found >= 0) {
              cursor = found + 1;
              continue;
            }
            const event = JSON.parse(frame.data!) as Record<string, unknown>;
            expect(String(event.code)).toMatch(/^agjson\.gateway\./);
            expect(validateEvent(event, { posture: "strict" }).ok).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("turn bookkeeping follows the schema's fold table (x-agjson-fold, §5, INV-TURN §5.0)", () => {
  const schema = JSON.parse(readFileSync(join(import.meta.dirname, "../../schema/event.schema.json"), "utf8")) as {
    $defs: Record<string, Record<string, unknown>>;
  };
  /** The event types the schema itself marks with a fold kind, read from the schema file, not from generated/. */
  const typesFolding = (kind: string) =>
    Object.values(schema.$defs)
      .filter((def) => def["x-agjson-fold"] === kind)
      .map((def) => (def.properties as { type: { const: string } }).type.const)
      .sort();
  const fixtures = loadValidateFixtures(join(import.meta.dirname, "../../conformance/validate"));
  /** A strict-valid conformance fixture of `type`, as a mutable copy. */
  const fixtureOf = (type: string) => {
    const found = fixtures.find(
      (f) => f.kind === "event" && f.strict === "valid" && f.semantic === undefined && (f.document as { type?: unknown }).type === type,
    );
    if (found === undefined) throw new Error(`no strict-valid fixture of ${type}`);
    return structuredClone(found.document) as Record<string, unknown>;
  };

  it("opens and closes exactly the turns the schema's turn-open and turn-close events name", async () => {
    expect([...TURN_OPENING_TYPES].sort()).toEqual(typesFolding("turn-open"));
    expect([...TURN_CLOSING_TYPES].sort()).toEqual(typesFolding("turn-close"));
    expect(TURN_OPENING_TYPES.size).toBeGreaterThan(0);
    expect(TURN_CLOSING_TYPES.size).toBeGreaterThan(0);
    for (const opening of typesFolding("turn-open")) {
      const open = { ...fixtureOf(opening), seq: 0, turnId: "gw-open" };
      // Left open, the turn is closed by the gateway when upstream ends (INV-TURN §5.0).
      const left = events(await run([ev(open)]));
      expect(left.at(-1), opening).toMatchObject({ type: "turn.error", turnId: "gw-open", code: "agjson.gateway.upstream-truncated" });
      for (const closing of typesFolding("turn-close")) {
        const close = { ...fixtureOf(closing), seq: 1 };
        if ("turnId" in close) close.turnId = "gw-open";
        const out = events(await run([ev(open), ev(close)]));
        expect(
          out.map((e) => e.type),
          `${opening} then ${closing}`,
        ).toEqual([opening, closing]);
      }
    }
  });
});
