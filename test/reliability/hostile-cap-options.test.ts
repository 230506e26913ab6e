/**
 * The library validators' caps (§13; docs/reliability.md: "a value outside 1..ceiling is refused
 * when given … a RangeError naming the cap, never clamped"). Before: `parseCapped` spread the
 * caller's caps over the defaults and compared, so `{ maxBytes: undefined }` (an optional setting
 * passed through), `NaN` or a string switched the cap off — every comparison with it false — and a
 * 10 MiB or 100,000-deep document passed `validateEventText`; 0 or a negative refused every document
 * as over a "-1-byte cap". The object walk's `maxDepth` had the same hole. Now an absent cap is its
 * default and anything but a whole number ≥ 1 is a RangeError naming it.
 */
import { describe, expect, it } from "vitest";
import { resolveCaps } from "../../src/gateway/caps.js";
import { resolveAgUiInputCaps } from "../../src/bridges/ag-ui/input-caps.js";
import { parseCapped, validateEvent, validateEventText, validateInput, validateMessage } from "../../src/validate/index.js";

const big = JSON.stringify({ type: "text.delta", seq: 0, id: "a", delta: "x".repeat((1 << 20) + 10) });
const deepText = `{"type":"state.snapshot","seq":0,"snapshot":${"[".repeat(1000)}${"]".repeat(1000)}}`;

describe("a cap the caller leaves undefined is the default, never off (§13)", () => {
  it("validateEventText / parseCapped: { maxBytes: undefined, maxDepth: undefined } keep 1 MiB and 64 levels", () => {
    for (const validate of [
      (t: string) => validateEventText(t, { caps: { maxBytes: undefined, maxDepth: undefined } }),
      (t: string) => parseCapped(t, { maxBytes: undefined, maxDepth: undefined }),
    ]) {
      expect(validate(big)).toMatchObject({ ok: false, errors: [{ keyword: "cap", message: "document exceeds the 1048576-byte cap" }] });
      expect(validate(deepText)).toMatchObject({
        ok: false,
        errors: [{ keyword: "cap", message: "document nests deeper than the 64-level cap" }],
      });
    }
  });

  it("validateEvent: { maxDepth: undefined } keeps 64", () => {
    let v: unknown = 1;
    for (let i = 0; i < 100; i++) v = [v];
    expect(validateEvent({ type: "state.snapshot", seq: 0, snapshot: v }, { maxDepth: undefined })).toMatchObject({
      ok: false,
      errors: [{ keyword: "cap" }],
    });
  });
});

describe("a cap that is not a whole number ≥ 1 is a RangeError naming it, never clamped or switched off", () => {
  for (const bad of [NaN, 0, -1, 1.5, Infinity, "10", null]) {
    it(`caps.maxBytes / caps.maxDepth / maxDepth = ${String(bad)}`, () => {
      expect(() => validateEventText(big, { caps: { maxBytes: bad as never } })).toThrow(RangeError);
      expect(() => validateEventText(big, { caps: { maxBytes: bad as never } })).toThrow(/caps\.maxBytes/);
      expect(() => parseCapped(deepText, { maxDepth: bad as never })).toThrow(/caps\.maxDepth/);
      for (const validate of [validateEvent, validateInput, validateMessage])
        expect(() => validate({}, { maxDepth: bad as never })).toThrow(/maxDepth/);
    });
  }

  it("a value the validators are handed still never makes them throw: only the caller's own options can", () => {
    expect(() =>
      validateEvent(
        new Proxy(
          {},
          {
            get: () => {
              throw new Error("boom");
            },
          },
        ),
        { maxDepth: 10 },
      ),
    ).not.toThrow();
  });
});

describe("gateway and AG-UI input caps: an unknown cap is refused even when named like an Object.prototype member", () => {
  // Before: `key in DEFAULT_CAPS` found Object.prototype's toString/constructor, so
  // `{ toString: 5 }` passed as a known cap (its "ceiling" a function) instead of the documented
  // "unknown cap" RangeError.
  for (const key of ["toString", "constructor", "hasOwnProperty", "zzzUnknown"]) {
    it(`resolveCaps({ ${key}: 5 }) / resolveAgUiInputCaps({ ${key}: 5 })`, () => {
      expect(() => resolveCaps({ [key]: 5 } as never)).toThrow(/unknown cap/);
      expect(() => resolveAgUiInputCaps({ [key]: 5 } as never)).toThrow(/unknown AG-UI input cap/);
    });
  }
});
