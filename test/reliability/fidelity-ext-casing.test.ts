/**
 * §0.4: every segment of a wire `type` is lowercase, kebab-case inside — the vendor-defined key of
 * `ext.<vendor>.<key>` included (free in vocabulary, not in casing). Strict rejects any other
 * casing; lenient skips such a type as unknown (§0.2). Property-tested over generated segments.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { isKnownEventType, validateEvent } from "../../src/validate/index.js";

const lower = fc.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/);
const badSegment = fc.oneof(
  fc.stringMatching(/^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/), // camelCase
  fc.stringMatching(/^[a-z0-9]+(_[a-z0-9]+)+$/), // snake_case
  fc.stringMatching(/^[A-Z][A-Za-z0-9]*$/), // PascalCase
);
const runs = { numRuns: Number(process.env.AGJSON_FUZZ_RUNS ?? 300) };

describe("ext.<vendor>.<key> casing (§0.4)", () => {
  it("every all-lowercase kebab segmenting is valid in both postures", () => {
    fc.assert(
      fc.property(lower, fc.array(lower, { minLength: 1, maxLength: 4 }), (vendor, key) => {
        const type = `ext.${vendor}.${key.join(".")}`;
        for (const posture of ["strict", "lenient"] as const) {
          const r = validateEvent({ type, seq: 0 }, { posture });
          expect(r.ok && r.known, `${posture} ${type}`).toBe(true);
        }
      }),
      runs,
    );
  });

  it("one badly cased segment anywhere: strict rejects naming /type, lenient skips it as unknown", () => {
    fc.assert(
      fc.property(lower, fc.array(lower, { minLength: 1, maxLength: 3 }), badSegment, fc.nat(), (vendor, key, bad, at) => {
        const segments = [vendor, ...key];
        segments[at % segments.length] = bad;
        const type = `ext.${segments.join(".")}`;
        const strict = validateEvent({ type, seq: 0 }, { posture: "strict" });
        expect(strict.ok, type).toBe(false);
        if (!strict.ok) expect(strict.errors.some((e) => e.path === "/type")).toBe(true);
        const lenient = validateEvent({ type, seq: 0 }, { posture: "lenient" });
        expect(lenient.ok && !lenient.known, type).toBe(true);
        expect(isKnownEventType(type)).toBe(false);
      }),
      runs,
    );
  });

  it("the issue's own case: ext.acme.billing.quota-warning.softLimit", () => {
    expect(validateEvent({ type: "ext.acme.billing.quota-warning.softLimit", seq: 1 }, { posture: "strict" }).ok).toBe(false);
    expect(validateEvent({ type: "ext.acme.billing.quota-warning.soft-limit", seq: 1 }, { posture: "strict" }).ok).toBe(true);
  });
});
