import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdFingerprints } from "./id-fingerprints.js";

describe("IdFingerprints (§5.0 INV-BLOCK: the ids an invoke used)", () => {
  it("answers as a Set of the strings does, on any sequence of adds and lookups", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.string({ maxLength: 6 })), { maxLength: 300 }), (ops) => {
        const set = new Set<string>();
        const fp = new IdFingerprints();
        for (const [adding, id] of ops) {
          if (adding) {
            expect(fp.add(id)).toBe(!set.has(id));
            set.add(id);
          } else expect(fp.has(id)).toBe(set.has(id));
        }
        expect(fp.size).toBe(set.size);
      }),
      { numRuns: 500 },
    );
  });

  it("keeps every id across growth, and tells apart ids that differ in one character or only in length", () => {
    const fp = new IdFingerprints();
    const ids: string[] = [];
    for (let i = 0; i < 50_000; i++) ids.push(`chatcmpl-${i}`, `chatcmpl-${i}:text:0`, `call_${i.toString(36)}`);
    for (const id of ids) expect(fp.add(id)).toBe(true);
    expect(fp.size).toBe(ids.length);
    for (const id of ids) if (!fp.has(id)) throw new Error(`lost ${id}`);
    let taken = 0;
    for (let i = 0; i < 50_000; i++)
      if (fp.has(`chatcmpl-${i}:text:1`) || fp.has(`call_${i.toString(36)}~`) || fp.has(`chatcmpl-${i}\u0000`)) taken++;
    expect(taken).toBe(0);
    expect(fp.has("")).toBe(false);
    expect(fp.add("")).toBe(true);
    expect(fp.has("")).toBe(true);
  });
});
