import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Frame, FrameSink } from "./frame.js";
import { DepthGuard, exceedsJsonDepth } from "./json-depth.js";
import { NdjsonFramer, parseNdjsonLine } from "./ndjson-framer.js";
import { SseFramer, parseSseFrame } from "./sse-framer.js";
import { AutoFramer } from "./auto-framer.js";

const enc = new TextEncoder();
const dec = new TextDecoder();

interface Seen {
  kind: Frame["kind"];
  raw: string;
  data?: string;
  eventName?: string;
  lastEventId?: string;
  byteLength?: number;
}

function snapshot(frame: Frame): Seen {
  if (frame.kind === "oversized") return { kind: "oversized", raw: "", byteLength: frame.byteLength };
  const seen: Seen = { kind: frame.kind, raw: Buffer.from(frame.raw).toString("hex") };
  if (frame.kind === "event") {
    seen.data = dec.decode(frame.data);
    if (frame.eventName !== undefined) seen.eventName = frame.eventName;
    if (frame.lastEventId !== undefined) seen.lastEventId = frame.lastEventId;
  }
  return seen;
}

type Make = (max: number, cb: (f: Frame) => void) => { push(c: Uint8Array): void; end(): number; bufferedBytes: number };
const sse: Make = (max, cb) => new SseFramer({ maxFrameBytes: max }, cb);
const ndjson: Make = (max, cb) => new NdjsonFramer({ maxFrameBytes: max }, cb);

function run(make: Make, chunks: Uint8Array[], max = 1 << 20): { frames: Seen[]; truncated: number; peak: number } {
  const frames: Seen[] = [];
  const framer = make(max, (f) => frames.push(snapshot(f)));
  let peak = 0;
  for (const c of chunks) {
    framer.push(c);
    peak = Math.max(peak, framer.bufferedBytes);
  }
  const truncated = framer.end();
  return { frames, truncated, peak };
}

/** Every way to cut `bytes` into two chunks, plus byte-by-byte, plus every three-way cut when small. */
function splits(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [[bytes]];
  for (let i = 0; i <= bytes.length; i++) out.push([bytes.subarray(0, i), bytes.subarray(i)]);
  out.push(Array.from(bytes, (b) => Uint8Array.of(b)));
  if (bytes.length <= 80) {
    for (let i = 1; i < bytes.length; i++) {
      for (let j = i + 1; j < bytes.length; j++) out.push([bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)]);
    }
  }
  return out;
}

function expectSplitInvariant(make: Make, text: string | Uint8Array, max?: number): Seen[] {
  const bytes = typeof text === "string" ? enc.encode(text) : text;
  // Where an oversized frame is noticed depends on the cut; that it is noticed, and once, does not.
  const normalize = (frames: Seen[]) =>
    frames.map((f) => {
      if (f.kind !== "oversized") return f;
      expect(f.byteLength).toBeGreaterThan(max ?? 0);
      return { kind: f.kind, raw: "" };
    });
  const whole = run(make, [bytes], max);
  whole.frames = normalize(whole.frames);
  for (const chunks of splits(bytes)) {
    const got = run(make, chunks, max);
    got.frames = normalize(got.frames);
    expect(got.frames).toEqual(whole.frames);
    expect(got.truncated).toBe(whole.truncated);
  }
  return whole.frames;
}

const hex = (s: string) => Buffer.from(s).toString("hex");

describe("SseFramer", () => {
  it("frames data lines, comments, id/event fields and multi-line data, whatever the split", () => {
    const text =
      ": keepalive\n\n" +
      'data: {"type":"turn.start","seq":0}\n\n' +
      'event: agjson\nid: 7\ndata: {"a":\ndata: 1}\n\n' +
      "id: 8\n\n" +
      "data:nospace\n: comment inside\n\n";
    const frames = expectSplitInvariant(sse, text);
    expect(frames).toEqual([
      { kind: "passthrough", raw: hex(": keepalive\n\n") },
      { kind: "event", raw: hex('data: {"type":"turn.start","seq":0}\n\n'), data: '{"type":"turn.start","seq":0}' },
      {
        kind: "event",
        raw: hex('event: agjson\nid: 7\ndata: {"a":\ndata: 1}\n\n'),
        data: '{"a":\n1}',
        eventName: "agjson",
        lastEventId: "7",
      },
      { kind: "passthrough", raw: hex("id: 8\n\n") },
      { kind: "event", raw: hex("data:nospace\n: comment inside\n\n"), data: "nospace" },
    ]);
  });

  it("accepts CRLF, CR and LF line ends, including a CRLF split across chunks", () => {
    const text = "data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\ndata: e\r\r\n";
    const frames = expectSplitInvariant(sse, text);
    expect(frames.map((f) => f.data)).toEqual(["a", "b", "c", "d\ne"]);
    expect(frames.map((f) => Buffer.from(f.raw, "hex").toString()).join("")).toBe(text);
  });

  it("keeps the LF of a frame-ending CRLF in the frame when the CR ends a chunk", () => {
    const { frames } = run(sse, [enc.encode("data: x\r\n\r"), enc.encode("\ndata: y\n\n")]);
    expect(frames.map((f) => Buffer.from(f.raw, "hex").toString())).toEqual(["data: x\r\n\r\n", "data: y\n\n"]);
  });

  it("keeps multi-byte UTF-8 split across chunks intact", () => {
    const text = 'data: {"t":"héllo — 世界 🎉"}\n\n';
    const frames = expectSplitInvariant(sse, text);
    expect(frames[0]!.data).toBe('{"t":"héllo — 世界 🎉"}');
  });

  it("strips a leading BOM (even split) and reports it as passthrough bytes", () => {
    const text = "\uFEFFdata: 1\n\n";
    const frames = expectSplitInvariant(sse, text);
    expect(frames).toEqual([
      { kind: "passthrough", raw: "efbbbf" },
      { kind: "event", raw: hex("data: 1\n\n"), data: "1" },
    ]);
    // A BOM-like prefix that is not a BOM is data.
    const notBom = run(sse, [Uint8Array.of(0xef, 0xbb), enc.encode("x\n\n")]);
    expect(notBom.frames).toEqual([{ kind: "passthrough", raw: "efbb780a0a" }]);
  });

  it("reports an incomplete trailing frame as truncated and never emits it", () => {
    const { frames, truncated } = run(sse, [enc.encode("data: 1\n\ndata: 2\n")]);
    expect(frames.map((f) => f.data)).toEqual(["1"]);
    expect(truncated).toBe(8);
    const crEnd = run(sse, [enc.encode("data: 1\r\r")]);
    expect(crEnd.frames.map((f) => f.data)).toEqual(["1"]);
    expect(crEnd.truncated).toBe(0);
  });

  it("reports an oversized frame once, when the cap is crossed, and resumes at the next frame", () => {
    const big = `data: ${"x".repeat(100)}\n\n`;
    const text = `data: 1\n\n${big}data: 2\n\n`;
    const frames = expectSplitInvariant(sse, text, 64);
    expect(frames.map((f) => f.kind)).toEqual(["event", "oversized", "event"]);
    expect(frames[2]!.data).toBe("2");
  });

  it("never buffers more than the cap of a line that never ends", () => {
    const frames: Frame[] = [];
    const framer = new SseFramer({ maxFrameBytes: 4096 }, (f) => frames.push(f));
    framer.push(enc.encode("data: "));
    const junk = new Uint8Array(1000).fill(0x61);
    let peak = 0;
    for (let k = 0; k < 10_000; k++) {
      framer.push(junk);
      peak = Math.max(peak, framer.bufferedBytes);
    }
    expect(peak).toBeLessThanOrEqual(4096);
    expect(frames.map((f) => f.kind)).toEqual(["oversized"]);
    expect(framer.end()).toBe(10_000 * 1000 + 6);
  });
});

describe("NdjsonFramer", () => {
  it("frames lines (LF or CRLF), passes blank lines through, whatever the split", () => {
    const text = '{"seq":0}\n\n{"seq":1,"t":"é世🎉"}\r\n  \n{"seq":2}\n';
    const frames = expectSplitInvariant(ndjson, text);
    expect(frames).toEqual([
      { kind: "event", raw: hex('{"seq":0}\n'), data: '{"seq":0}' },
      { kind: "passthrough", raw: hex("\n") },
      { kind: "event", raw: hex('{"seq":1,"t":"é世🎉"}\r\n'), data: '{"seq":1,"t":"é世🎉"}' },
      { kind: "passthrough", raw: hex("  \n") },
      { kind: "event", raw: hex('{"seq":2}\n'), data: '{"seq":2}' },
    ]);
  });

  it("accepts a final line without terminator, strips a BOM, caps long lines", () => {
    expect(expectSplitInvariant(ndjson, '\uFEFF{"a":1}\n{"b":2}')).toEqual([
      { kind: "passthrough", raw: "efbbbf" },
      { kind: "event", raw: hex('{"a":1}\n'), data: '{"a":1}' },
      { kind: "event", raw: hex('{"b":2}'), data: '{"b":2}' },
    ]);
    const frames = expectSplitInvariant(ndjson, `{"a":1}\n{"x":"${"y".repeat(80)}"}\n{"b":2}\n`, 32);
    expect(frames.map((f) => f.kind)).toEqual(["event", "oversized", "event"]);
  });
});

describe("AutoFramer", () => {
  it("picks NDJSON for a leading '{' and SSE otherwise", () => {
    const detect = (text: string) => {
      let format = "";
      const frames: Frame[] = [];
      const framer = new AutoFramer(
        { maxFrameBytes: 1024 },
        (f) => frames.push(f),
        (f) => (format = f),
      );
      for (const b of enc.encode(text)) framer.push(Uint8Array.of(b));
      framer.end();
      return { format, events: frames.filter((f) => f.kind === "event").length };
    };
    expect(detect('\uFEFF\n {"seq":0}\n{"seq":1}\n')).toEqual({ format: "ndjson", events: 2 });
    expect(detect(": hi\n\ndata: {}\n\n")).toEqual({ format: "sse", events: 1 });
  });
});

/** Runs a framer with a sink that records which path each frame took: `fast` counts in-chunk events. */
function runSink(format: "sse" | "ndjson", chunks: Uint8Array[], max = 1 << 20): { frames: Seen[]; fast: number } {
  const frames: Seen[] = [];
  let fast = 0;
  const sink: FrameSink = {
    chunkEvent(chunk, start, end, dataStart, dataEnd) {
      fast++;
      frames.push(snapshot({ kind: "event", raw: chunk.subarray(start, end), data: chunk.subarray(dataStart, dataEnd) }));
    },
    frame: (f) => frames.push(snapshot(f)),
  };
  const framer = format === "sse" ? new SseFramer({ maxFrameBytes: max }, sink) : new NdjsonFramer({ maxFrameBytes: max }, sink);
  for (const c of chunks) framer.push(c);
  framer.end();
  return { frames, fast };
}

describe("fast paths (in-chunk frames reported as offsets)", () => {
  it("SSE: one data line ending in a blank line, LF or CRLF, gives the frame the general parser gives", () => {
    const text = 'data: {"a":1}\n\ndata:{"b":2}\r\n\r\ndata: \n\ndata:\n\ndata:  two spaces\n\n';
    const { frames, fast } = runSink("sse", [enc.encode(text)]);
    expect(fast).toBe(5);
    for (const f of frames) expect(f).toEqual(snapshot(parseSseFrame(Buffer.from(f.raw, "hex"))));
    expect(frames.map((f) => f.data)).toEqual(['{"a":1}', '{"b":2}', "", "", " two spaces"]);
  });

  it("SSE: other shapes fall back to the line loop, with the same frames whatever the split", () => {
    const text =
      "data: a\rb\n\n" + // a lone CR ends the line: `b` is a field without value
      "data: x\n\r\n" +
      "data: y\r\n\n" +
      "data: 1\ndata: 2\n\n" +
      "event: e\ndata: 3\n\n" +
      ": c\n\n" +
      "data\n\n" +
      "dataX: 4\n\n" +
      'data: {"ok":1}\n\n';
    const frames = expectSplitInvariant(sse, text);
    expect(frames.map((f) => [f.kind, f.data, f.eventName])).toEqual([
      ["event", "a", undefined],
      ["event", "x", undefined],
      ["event", "y", undefined],
      ["event", "1\n2", undefined],
      ["event", "3", "e"],
      ["passthrough", undefined, undefined],
      ["event", "", undefined],
      ["passthrough", undefined, undefined],
      ["event", '{"ok":1}', undefined],
    ]);
    expect(runSink("sse", [enc.encode(text)]).frames).toEqual(frames);
  });

  it("SSE: a frame spanning chunks (split inside a UTF-8 sequence) takes the general path, its neighbours the fast one", () => {
    const chunks = [
      enc.encode('data: 1\n\ndata: {"x":"'),
      Uint8Array.of(0xc3),
      Uint8Array.from([0xa9, ...enc.encode('"}\n\ndata: 3\n\n')]),
    ];
    const { frames, fast } = runSink("sse", chunks);
    expect(frames.map((f) => f.data)).toEqual(["1", '{"x":"é"}', "3"]);
    expect(fast).toBe(2);
  });

  it("SSE: a frame over the cap inside one chunk is reported oversized, not forwarded", () => {
    const { frames, fast } = runSink("sse", [enc.encode("data: 0123456789\n\ndata: 1\n\n")], 12);
    expect(frames.map((f) => f.kind)).toEqual(["oversized", "event"]);
    expect(fast).toBe(1);
  });

  it("NDJSON: object lines (LF or CRLF) take the fast path; blank, non-object and spanning lines the general one", () => {
    const text = '{"a":1}\n{"b":2}\r\n\n  \r\n[1]\n{"c":\n';
    const { frames, fast } = runSink("ndjson", [enc.encode(text)]);
    expect(fast).toBe(3);
    for (const f of frames) expect(f).toEqual(snapshot(parseNdjsonLine(Buffer.from(f.raw, "hex"))));
    expect(frames.map((f) => f.data ?? f.kind)).toEqual(['{"a":1}', '{"b":2}', "passthrough", "passthrough", "[1]", '{"c":']);
    expect(expectSplitInvariant(ndjson, text)).toEqual(frames);
  });
});

describe("DepthGuard", () => {
  it("judges a reused buffer afresh after forget() (no stale bracket positions, §13 depth cap)", () => {
    const guard = new DepthGuard(3);
    const buf = Buffer.alloc(40, 0x20);
    buf.write('{"a":"bbbbbbbb"}', 0);
    expect(guard.exceeds(buf, 0, 16)).toBe(false);
    // The same buffer object now holds a too-deep payload past the last judged end.
    buf.write('{"a":[[[[1]]]]}', 20);
    guard.forget();
    expect(guard.exceeds(buf, 20, 35)).toBe(true);
    expect(exceedsJsonDepth(buf, 3, 20, 35)).toBe(true);
  });

  it("agrees with exceedsJsonDepth on consecutive payloads of one buffer", () => {
    const tricky = fc
      .string({ unit: fc.constantFrom('"', "\\", "[", "]", "{", "}", "x"), maxLength: 30 })
      .map((s) => JSON.stringify({ s }));
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.json({ maxDepth: 6 }), tricky), { minLength: 1, maxLength: 12 }), fc.nat(6), (texts, max) => {
        const bytes = Buffer.from(texts.join("\n"));
        const guard = new DepthGuard(max);
        let at = 0;
        for (const t of texts) {
          const end = at + Buffer.byteLength(t);
          expect(guard.exceeds(bytes, at, end)).toBe(exceedsJsonDepth(bytes, max, at, end));
          at = end + 1;
        }
        // Asked again out of order (a new chunk, or a retry), it still answers exactly.
        expect(guard.exceeds(bytes, 0, Buffer.byteLength(texts[0]!))).toBe(exceedsJsonDepth(bytes, max, 0, Buffer.byteLength(texts[0]!)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("exceedsJsonDepth", () => {
  it("counts nesting outside strings, honouring escapes", () => {
    const at = (s: string, max: number) => exceedsJsonDepth(enc.encode(s), max);
    expect(at('{"a":[1,{"b":2}]}', 3)).toBe(false);
    expect(at('{"a":[1,{"b":2}]}', 2)).toBe(true);
    expect(at('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(at('{"a":"\\\\"}', 1)).toBe(false);
    expect(at('{"a":"\\\\",  "b":[[1]]}', 2)).toBe(true);
    expect(at("[".repeat(1_000_000), 64)).toBe(true);
    // Escapes around the point where the scan switches from walking to indexOf.
    for (let pad = 55; pad < 75; pad++) {
      expect(at(`{"a":"${"x".repeat(pad)}\\"[[[[\\\\","b":[1]}`, 1)).toBe(true);
      expect(at(`{"a":"${"x".repeat(pad)}\\"[[[[\\\\","b":1}`, 1)).toBe(false);
    }
  });

  it("agrees with the depth of the parsed value on arbitrary JSON", () => {
    const depthOf = (v: unknown): number =>
      v !== null && typeof v === "object" ? 1 + Math.max(0, ...Object.values(v as object).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.json({ maxDepth: 8 }), (text) => {
        const depth = depthOf(JSON.parse(text));
        const bytes = enc.encode(text);
        expect(exceedsJsonDepth(bytes, depth)).toBe(false);
        if (depth > 0) expect(exceedsJsonDepth(bytes, depth - 1)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    const tricky = fc.string({ unit: fc.constantFrom('"', "\\", "[", "]", "{", "}", "x", "é"), minLength: 0, maxLength: 200 });
    fc.assert(
      fc.property(fc.array(tricky, { maxLength: 6 }), (strings) => {
        const bytes = enc.encode(JSON.stringify({ a: strings, b: [[1]] }));
        expect(exceedsJsonDepth(bytes, 3)).toBe(false);
        expect(exceedsJsonDepth(bytes, 2)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
