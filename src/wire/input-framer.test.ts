import { describe, expect, it } from "vitest";
import { sniffInputFormat } from "./input-framer.js";

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
