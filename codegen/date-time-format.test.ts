/**
 * The generated validators' `date-time` (RFC 3339 §5.6) gives ajv-formats' full-mode verdict — the
 * canonical reference's (`canonical-ajv.ts`) — on every string: the edges one by one, then strings
 * built from date-time parts and mutated, so the replacement changed no document's verdict.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { isDateTime } from "./date-time-format.js";

const reference = (fullFormats["date-time"] as { validate: (s: string) => boolean }).validate;

describe("isDateTime (the generated validators' date-time format)", () => {
  const edges: [string, boolean][] = [
    ["2026-12-07T17:10:57Z", true],
    ["2026-12-07t17:10:57z", true],
    ["2026-12-07 17:10:57+01:00", true],
    ["2026-12-07\t17:10:57+0100", true],
    ["2026-12-07\u300017:10:57+01", true],
    ["2026-12-07T17:10:57.123456789-05:30", true],
    ["2026-12-07T17:10:57", false], // the offset is required
    ["2026-12-07", false],
    ["2026-12-07TT17:10:57Z", false],
    ["2026-12-07T17:10:57Z ", false],
    ["2026-12-07T17:10:57Zt", false],
    ["2024-02-29T00:00:00Z", true], // leap year
    ["2023-02-29T00:00:00Z", false],
    ["1900-02-29T00:00:00Z", false], // a century is no leap year…
    ["2000-02-29T00:00:00Z", true], // …unless divisible by 400
    ["2026-04-31T00:00:00Z", false],
    ["2026-13-01T00:00:00Z", false],
    ["2026-00-01T00:00:00Z", false],
    ["2026-01-00T00:00:00Z", false],
    ["2026-12-07T24:00:00Z", false],
    ["2026-12-07T23:60:00Z", false],
    ["2026-12-07T23:59:60Z", true], // a leap second at 23:59 UTC
    ["2026-12-07T23:59:60.999Z", true],
    ["2026-12-07T22:59:60Z", false],
    ["2026-12-07T15:59:60-08:00", true], // 23:59:60 UTC seen from UTC-8
    ["2026-12-08T00:29:60+00:30", true], // 23:59:60 UTC seen from UTC+0:30
    ["2026-12-07T23:59:61Z", false],
    ["2026-12-07T17:10:57+24:00", false],
    ["2026-12-07T17:10:57+01:60", false],
    ["2026-12-07T17:10:57+1:00", false],
    ["２０２６-12-07T17:10:57Z", false], // \d is ASCII only
    ["", false],
  ];
  it.each(edges)("%j → %s, as ajv-formats", (text, verdict) => {
    expect(reference(text)).toBe(verdict);
    expect(isDateTime(text)).toBe(verdict);
  });

  it("agrees with ajv-formats on date-time-shaped strings, mutated", () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, "0"));
    const part = fc.tuple(
      fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, "0")),
      two(14),
      two(33),
      fc.constantFrom("T", "t", " ", "\t", "\n", "\u00a0", "x", "TT", ""),
      two(25),
      two(61),
      two(62),
      fc.constantFrom("", ".5", ".000001", ".", ".a"),
      fc.constantFrom("Z", "z", "", "+00:00", "-08:00", "+05:30", "+0530", "+05", "+24:00", "-00:60", "+5:30", "Z+01:00"),
    );
    const text = part.chain((p) =>
      fc.oneof(
        fc.constant(`${p[0]}-${p[1]}-${p[2]}${p[3]}${p[4]}:${p[5]}:${p[6]}${p[7]}${p[8]}`),
        // One character changed, inserted or removed anywhere.
        fc.tuple(fc.nat(), fc.constantFrom("", "0", "9", ":", "-", "T", "Z", " ", "+"), fc.boolean()).map(([at, c, replace]) => {
          const s = `${p[0]}-${p[1]}-${p[2]}${p[3]}${p[4]}:${p[5]}:${p[6]}${p[7]}${p[8]}`;
          const i = at % (s.length + 1);
          return s.slice(0, i) + c + s.slice(replace ? i + 1 : i);
        }),
      ),
    );
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(text, (s) => {
        expect(isDateTime(s), JSON.stringify(s)).toBe(reference(s));
        seen[reference(s) ? "valid" : "invalid"]++;
      }),
      { numRuns: 20_000 },
    );
    // Both verdicts are exercised, not only refusals.
    expect(seen.valid).toBeGreaterThan(1_000);
    expect(seen.invalid).toBeGreaterThan(1_000);
  });
});
