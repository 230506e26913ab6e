import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { InputFormatSniffer, InputFramer, sniffInputFormat } from "./input-framer.js";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("sniffInputFormat: a leading `[`", () => {
  it("is NDJSON when the first line is a whole value followed by more values (LangGraph `[mode, chunk]` lines)", () => {
    expect(sniffInputFormat(bytes('["values",{"a":1}]\n["updates",{}]\n'), true)).toBe("ndjson");
  });
  it("is one JSON document when the array is the only value", () => {
    expect(sniffInputFormat(bytes('[{"a":1},{"b":2}]\n'), true)).toBe("json");
    expect(sniffInputFormat(bytes('[{"a":1},{"b":2}]'), true)).toBe("json");
  });
  it("is one JSON document when pretty-printed over several lines", () => {
    expect(sniffInputFormat(bytes('[\n  {"a":1},\n  {"b":2}\n]\n'), true)).toBe("json");
  });
  it("waits for more bytes while the choice is open", () => {
    expect(sniffInputFormat(bytes('["values",{"a"'), false)).toBeUndefined();
    expect(sniffInputFormat(bytes('["values",{}]\n'), false)).toBeUndefined();
    expect(sniffInputFormat(bytes('["values",{}]\n  '), false)).toBeUndefined();
  });
});

describe("InputFramer (auto): records that are arrays", () => {
  const frame = (text: string, chunkSize: number, maxFrameBytes = 1 << 20): { format: string | undefined; records: string[] } => {
    const records: string[] = [];
    const framer = new InputFramer("auto", { maxFrameBytes }, (f) => {
      if (f.kind === "event") records.push(new TextDecoder().decode(f.data));
    });
    const all = bytes(text);
    for (let i = 0; i < all.length; i += chunkSize) framer.push(all.subarray(i, i + chunkSize));
    framer.end();
    return { format: framer.format, records };
  };

  it("frames LangGraph `[mode, chunk]` lines one record per line, whatever the chunking", () => {
    const text = '["values",{"a":1}]\n["updates",{"b":[2]}]\n["custom","x"]\n';
    for (const size of [1, 3, 7, text.length]) {
      const got = frame(text, size);
      expect(got.format).toBe("ndjson");
      expect(got.records.map((r) => JSON.parse(r))).toEqual([
        ["values", { a: 1 }],
        ["updates", { b: [2] }],
        ["custom", "x"],
      ]);
    }
  });

  it("takes a one-line array longer than a frame's cap as a JSON document, framed element by element", () => {
    const got = frame(`[${'{"a":1},'.repeat(20)}{"a":2}]`, 4, 64);
    expect(got.format).toBe("json");
    expect(got.records).toHaveLength(21);
  });
});

describe("InputFormatSniffer: resumed over a growing input, it answers as a fresh sniff of the same bytes", () => {
  // Each byte is scanned once while the format is undecided (a long first line in small reads costs
  // one pass, not one per read); the answer must still be the one-shot sniff's at every prefix.
  const alphabet = fc.constantFrom(...'{}[]"\\ \t\r\n:ax1,'.split(""), "data", "event", "retry", "\ufeff");
  it("agrees at every prefix and at the end, for any cut", () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 10 }),
        (parts, cuts) => {
          const all = bytes(parts.join(""));
          const sniffer = new InputFormatSniffer();
          let end = 0;
          let k = 0;
          while (end < all.length) {
            end = Math.min(all.length, end + cuts[k++ % cuts.length]!);
            const resumed = sniffer.sniff(all.subarray(0, end), false);
            expect(resumed).toBe(sniffInputFormat(all.subarray(0, end), false));
            if (resumed !== undefined) return;
          }
          expect(sniffer.sniff(all, true)).toBe(sniffInputFormat(all, true));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("decides a first line cut into single bytes as it decides it whole", () => {
    const line = `{"type":"text.delta","seq":0,"_meta":${'{"a":"x\\"]"'.repeat(2000)}${"}".repeat(2000)}}\n{}\n`;
    const framer = new InputFramer("auto", { maxFrameBytes: 1 << 20 }, () => {});
    const all = bytes(line);
    for (let i = 0; i < all.length; i++) framer.push(all.subarray(i, i + 1));
    framer.end();
    expect(framer.format).toBe("ndjson");
  });
});
