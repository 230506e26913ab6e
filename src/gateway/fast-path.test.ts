/**
 * The fast path against the validators: whenever it says valid, `validateEvent` under the same
 * posture says ok, for every conformance fixture (valid and invalid, several serializations), the
 * bench stream, the gateway tests' events, hand-picked edge cases and random mutations. And the
 * gateway with the fast path writes exactly what it writes without it.
 *
 * Reproduce one failure: `npx vitest run src/gateway/fast-path.test.ts -t "<test name>"`.
 */
import fc from "fast-check";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadValidateFixtures } from "../../conformance/validate-fixtures.js";
import { SEMANTIC_EVENT_TYPES } from "../validate/semantic.js";
import {
  FAST_PATH_LENIENT,
  FAST_PATH_LENIENT_UNIONS,
  FAST_PATH_STRICT,
  FAST_PATH_STRICT_UNIONS,
  type FastPathEntry,
  type FastPathUnion,
} from "../../generated/fast-path.js";
import { validateEvent } from "../validate/index.js";
import { createEventValidationStream, type EventValidationOptions } from "./event-validation-stream.js";
import { FastPath, UNSURE } from "./fast-path.js";
import type { Posture } from "./validator.js";
import { isRecord } from "../json-guards.js";

const POSTURES: Posture[] = ["lenient", "strict"];
// Each posture twice: with Node's native UTF-8 check and with the JavaScript one Web runtimes use.
const BACKENDS = [{}, { portable: true }] as const;
// The semantic layer's rule-bearing types are left to the validator, as the gateway leaves them.
const scanners = {
  lenient: BACKENDS.map((opts) => new FastPath("lenient", SEMANTIC_EVENT_TYPES, opts)),
  strict: BACKENDS.map((opts) => new FastPath("strict", SEMANTIC_EVENT_TYPES, opts)),
};
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const enc = new TextEncoder();

/**
 * Runs one payload through the fast path, in a Buffer and in a plain Uint8Array, alone and framed
 * at every alignment inside a larger buffer (the word-at-a-time scan reads across alignments, and
 * the bytes around a payload must never leak into its verdict); and, when it holds no line break, as
 * an SSE frame and an NDJSON line through `scanFrames`, which may leave a frame `check` accepts but
 * never takes one it refuses.
 * Fails if the fast path accepts what the validator refuses; returns whether `check` accepted.
 */
function judge(payload: Uint8Array | string, posture: Posture): boolean {
  const bytes = typeof payload === "string" ? enc.encode(payload) : payload;
  const verdicts: number[] = [];
  const views: [Uint8Array, number, number][] = [
    [Buffer.from(bytes), 0, bytes.length],
    [Uint8Array.from(bytes), 0, bytes.length],
  ];
  for (let pad = 0; pad < 4; pad++) {
    // Surrounded by bytes that would complete or extend a truncated payload.
    const framed = Buffer.concat([
      Buffer.from(" ".repeat(pad) + "data: "),
      Buffer.from(bytes),
      Buffer.from('"}\n\n{"type":"text.end","seq":1,"id":"x"}\n'),
    ]);
    views.push([framed, pad + 6, pad + 6 + bytes.length]);
  }
  for (const scanner of scanners[posture])
    for (const [view, start, end] of views) {
      scanner.forget();
      const verdict = scanner.check(view, start, end);
      verdicts.push(verdict);
      if (verdict === UNSURE) continue;
      const text = fatal.decode(bytes);
      const value = JSON.parse(text) as { type: string; seq: number };
      const result = validateEvent(value, { posture });
      expect(result, `fast path accepted under ${posture} what the validator refuses: ${text}`).toMatchObject({ ok: true, known: true });
      expect(scanner.types[verdict]).toBe(value.type);
      expect(scanner.seq).toBe(value.seq);
    }
  const next = enc.encode('{"type":"text.end","seq":1,"id":"x"}');
  // A payload holding a line break is not one SSE data line or NDJSON line: the framer cuts it there.
  const oneLine = !bytes.includes(0x0a) && !bytes.includes(0x0d);
  for (const scanner of oneLine ? scanners[posture] : []) {
    for (const lines of [false, true]) {
      const frame = lines ? [bytes, [0x0a]] : [enc.encode("data: "), bytes, [0x0a, 0x0a]];
      const run = Buffer.concat(
        [...frame, ...(lines ? [next, [0x0a]] : [enc.encode("data: "), next, [0x0a, 0x0a]])].map((b) => Uint8Array.from(b)),
      );
      const frameLength = frame.reduce((n, b) => n + b.length, 0);
      scanner.forget();
      const stop = scanner.scanFrames(run, 0, run.length, 1 << 20, 1, lines);
      if (stop === 0) continue;
      expect(stop, `scanFrames took a frame check refuses: ${Buffer.from(bytes).toString()}`).toBe(frameLength);
      expect(verdicts[0], `scanFrames took a frame check refuses: ${Buffer.from(bytes).toString()}`).not.toBe(UNSURE);
      expect(scanner.frames).toBe(1);
      expect(scanner.seq).toBe((JSON.parse(fatal.decode(bytes)) as { seq: number }).seq);
    }
  }
  expect(
    new Set(verdicts.map((v) => v === UNSURE)).size,
    `verdict depends on where the payload lies: ${Buffer.from(bytes).toString()}`,
  ).toBe(1);
  return verdicts[0] !== UNSURE;
}

/**
 * Runs `judge` on 3,000 payloads made from `seeds` by up to `maxEdits` byte edits each (insert,
 * delete or replace; a random byte, or one of `specials`: the bytes that break JSON and UTF-8).
 */
function judgeMutations(seeds: string[], specials: number[], maxEdits: number, teach = false): void {
  const seedBytes = seeds.map((t) => enc.encode(t));
  const mutation = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.integer({ min: 0, max: 255 }), fc.constantFrom(...specials));
  fc.assert(
    fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: maxEdits }), (which, edits) => {
      const seed = seedBytes[which % seedBytes.length]!;
      // `teach`: the seed first, so that the mutant meets the scanner's memory of its type and field order.
      if (teach) for (const posture of POSTURES) judge(seed, posture);
      const bytes = [...seed];
      for (const [at, op, anyByte, special] of edits) {
        const p = at % (bytes.length + 1);
        const b = op % 2 === 0 ? anyByte : special;
        if (op === 0 || op === 1) bytes.splice(p, 0, b);
        else if (op === 2) bytes.splice(p, 1);
        else bytes[p % bytes.length] = b;
      }
      for (const posture of POSTURES) judge(Uint8Array.from(bytes), posture);
    }),
    { numRuns: 3000 },
  );
}

/** The same document written in the ways producers write it. */
function serializations(doc: unknown): string[] {
  const out = [JSON.stringify(doc), JSON.stringify(doc, null, 2), JSON.stringify(doc, null, "\t")];
  if (doc !== null && typeof doc === "object" && !Array.isArray(doc)) {
    const entries = Object.entries(doc);
    const typeFirst = [...entries.filter(([k]) => k === "type"), ...entries.filter(([k]) => k !== "type")];
    out.push(JSON.stringify(Object.fromEntries(typeFirst)), JSON.stringify(Object.fromEntries([...entries].reverse())));
    out.push(` \r\n${JSON.stringify(Object.fromEntries(typeFirst)).replaceAll(",", " ,\t").replaceAll(":", " : ")}\n `);
  }
  return out;
}

const TABLES = { lenient: FAST_PATH_LENIENT, strict: FAST_PATH_STRICT };
const UNIONS = { lenient: FAST_PATH_LENIENT_UNIONS, strict: FAST_PATH_STRICT_UNIONS };

/** The index of `doc`'s field states in `entry.cross.allowed` (the encoding `FastPathCross` states). */
function crossIndex(entry: FastPathEntry, doc: Record<string, unknown>): number {
  let index = 0;
  for (const [name, radix] of Object.entries(entry.cross?.fields ?? {})) {
    if (!(name in doc)) continue;
    const check = entry.fields[name]!;
    const v = doc[name];
    const state = check.kind === "enum" ? check.values.indexOf(v as string) + 1 : check.kind === "boolean" && v === false ? 2 : 1;
    index += state * radix;
  }
  return index;
}

/**
 * Whether the table names every field of `doc` with a check it passes, and its cross-field rules
 * hold (what the fast path should accept). `nested`: an item of a union (any unknown field value
 * passes there, lenient); at the top, unknown fields must be scalars.
 */
function judgeableObject(entry: FastPathEntry, doc: Record<string, unknown>, posture: Posture, _nested: boolean): boolean {
  if (entry.cross !== undefined && entry.cross.allowed[crossIndex(entry, doc)] !== "1") return false;
  if (!entry.required.every((r) => r in doc)) return false;
  return Object.entries(doc).every(([k, v]) => {
    const check = entry.fields[k];
    if (check === undefined) return !entry.closed;
    switch (check.kind) {
      case "json":
        return true;
      case "object":
        return isRecord(v);
      case "string":
        return typeof v === "string";
      case "enum":
        return check.values.includes(v as string);
      case "boolean":
        return typeof v === "boolean";
      case "const":
        return v === check.value;
      case "integer":
        // The scanner reads at most 15 digits; a longer (still safe) integer is the validator's.
        return (
          typeof v === "number" && Number.isSafeInteger(v) && v < 1e15 && v >= (check.minimum ?? -Infinity) && v >= 0 && !Object.is(v, -0)
        );
      case "union-array":
        return Array.isArray(v) && v.every((item) => judgeableItem(UNIONS[posture][check.union]!, item, posture));
      case "union-object":
        return judgeableItem(UNIONS[posture][check.union]!, v, posture);
      case "unchecked":
        return false;
    }
  });
}

function judgeableItem(union: FastPathUnion, item: unknown, posture: Posture): boolean {
  if (!isRecord(item) || Object.keys(item)[0] !== union.tag || typeof item[union.tag] !== "string") return false;
  const tag = item[union.tag] as string;
  const variant = union.variants.find((v) => v.type === tag);
  if (variant !== undefined) return judgeableObject(variant, item, posture, true);
  return union.open && !(tag in union.excluded);
}

/**
 * `judge` on every serialization of `event` in both postures; returns how many it accepted. Useful
 * too, not only sound: an event the validator accepts and the table can judge must be accepted
 * written compactly (nested documents as the fixture `name` writes them).
 */
function judgeEverySerialization(event: Record<string, unknown>, name: string): number {
  let accepted = 0;
  for (const posture of POSTURES) {
    for (const text of serializations(event)) if (judge(text, posture)) accepted++;
    if (validateEvent(event, { posture }).ok && judgeable(event, posture))
      expect(judge(JSON.stringify(event), posture), `${name} (${posture})`).toBe(true);
  }
  return accepted;
}

/** Whether the fast path should accept `doc` (a flat event, or one holding union objects, it can judge). */
function judgeable(doc: Record<string, unknown>, posture: Posture): boolean {
  const entry = TABLES[posture].find((e) => e.type === doc.type);
  return entry !== undefined && judgeableObject(entry, doc, posture, false);
}

describe("the fast path never accepts what the validator refuses", () => {
  const fixtures = loadValidateFixtures(join(import.meta.dirname, "../../conformance/validate"));

  it("on every conformance fixture, valid and invalid, in both postures and several serializations", () => {
    let accepted = 0;
    for (const f of fixtures) {
      for (const posture of POSTURES) {
        for (const text of serializations(f.document)) if (judge(text, posture)) accepted++;
      }
    }
    // Not only sound but useful: the flat events among the fixtures do take the fast path.
    expect(accepted).toBeGreaterThan(100);
  });

  it("accepts every valid fixture it can judge, written type first", () => {
    for (const f of fixtures) {
      const doc = f.document as Record<string, unknown>;
      if (f.kind !== "event" || typeof doc?.type !== "string") continue;
      const typeFirst = JSON.stringify({ type: doc.type, ...doc });
      for (const posture of POSTURES) {
        const valid = validateEvent(doc, { posture });
        if (valid.ok && valid.known && !SEMANTIC_EVENT_TYPES.has(doc.type) && judgeable(doc, posture))
          expect(judge(typeFirst, posture), `${f.name} (${posture})`).toBe(true);
      }
    }
  });

  it("on every event of the bench stream; accepting every one it can judge", () => {
    for (const e of benchEvents()) {
      const text = JSON.stringify(e);
      for (const posture of POSTURES) expect(judge(text, posture), text).toBe(judgeable(e, posture));
    }
  });

  it("on every event the gateway tests send, accepting the valid flat ones", () => {
    for (const { event, valid } of gatewayTestEvents()) {
      const text = JSON.stringify(event);
      for (const posture of POSTURES) {
        const ok = judge(text, posture);
        if (!valid) expect(ok, text).toBe(false);
        else if (judgeable(event, posture)) expect(ok, text).toBe(true);
      }
    }
  });
});

const D = '{"type":"text.delta","seq":1,"id":"a"';

describe("edge cases: the fast path defers (or agrees with the validator)", () => {
  const unsure: [string, string | Uint8Array][] = [
    ["a duplicate key", `${D},"delta":"x","delta":"y"}`],
    ["a duplicate key whose first value is wrong", `${D},"delta":5,"delta":"y"}`],
    ["a duplicate type", `${D},"delta":"x","type":"text.delta"}`],
    ["an unknown escape", `${D},"delta":"a\\x"}`],
    ["a short \\u escape", `${D},"delta":"\\u12"}`],
    ["a \\u escape cut by the end", `${D},"delta":"\\u12`],
    ["an escaped key", `${D},"\\u0064elta":"x"}`],
    ["an escaped type", '{"type":"text.\\u0064elta","seq":1,"id":"a","delta":"x"}'],
    ["a raw control character", `${D},"delta":"a\u0001b"}`],
    ["a raw tab in a string", `${D},"delta":"a\tb"}`],
    ["seq 1.0", '{"type":"text.end","seq":1.0,"id":"a"}'],
    ["seq 1e2", '{"type":"text.end","seq":1e2,"id":"a"}'],
    ["seq 1E2", '{"type":"text.end","seq":1E2,"id":"a"}'],
    ["seq -0", '{"type":"text.end","seq":-0,"id":"a"}'],
    ["seq -1", '{"type":"text.end","seq":-1,"id":"a"}'],
    ["seq 01", '{"type":"text.end","seq":01,"id":"a"}'],
    ["seq 1.5", '{"type":"text.end","seq":1.5,"id":"a"}'],
    ["seq of 20 digits", '{"type":"text.end","seq":12345678901234567890,"id":"a"}'],
    ["seq as a string", '{"type":"text.end","seq":"1","id":"a"}'],
    ["seq null", '{"type":"text.end","seq":null,"id":"a"}'],
    ["a missing required field", '{"type":"text.delta","seq":1,"id":"a"}'],
    ["a null string field", `${D},"delta":null}`],
    ["a nested value in a string field", `${D},"delta":{"a":1}}`],
    ["an object field given a scalar", `${D},"delta":"x","_meta":1}`],
    ["an object field given an array", `${D},"delta":"x","_meta":[]}`],
    ["an object field given null", `${D},"delta":"x","_meta":null}`],
    ["a nested member without a value", `${D},"delta":"x","_meta":{"a":}}`],
    ["a nested member without a colon", `${D},"delta":"x","_meta":{"a" 1}}`],
    ["a nested member with another byte for its colon", `${D},"delta":"x","_meta":{"a";1}}`],
    ["a nested member without a name", `${D},"delta":"x","_meta":{1:2}}`],
    ["a nested trailing comma in an object", `${D},"delta":"x","_meta":{"a":1,}}`],
    ["a nested trailing comma in an array", `${D},"delta":"x","_meta":{"a":[1,]}}`],
    ["a nested leading comma", `${D},"delta":"x","_meta":{"a":[,1]}}`],
    ["mismatched nested brackets", `${D},"delta":"x","_meta":{"a":[1}}}`],
    ["an unclosed nested object", `${D},"delta":"x","_meta":{"a":{"b":1}}`],
    ["a nested bad escape", `${D},"delta":"x","_meta":{"a":"\\q"}}`],
    ["a nested bare word", `${D},"delta":"x","_meta":{"a":undefined}}`],
    ["nesting past the bitmask", `${D},"delta":"x","_meta":${"[".repeat(40)}${"]".repeat(40)}}`],
    ["a nested value where the table has a scalar", `${D},"delta":"x","id":{"a":1}}`],
    ["an enum value not in the enum", '{"type":"message.start","seq":1,"id":"m","role":"robot","turnId":"t","threadId":"th"}'],
    ["an enum value with an escape", '{"type":"message.start","seq":1,"id":"m","role":"us\\u0065r","turnId":"t","threadId":"th"}'],
    ["a const true given false", '{"type":"artifact.end","seq":1,"artifactId":"a","lastChunk":false}'],
    ["a boolean given null", '{"type":"guardrail.result","seq":1,"target":"input","passed":null}'],
    ["trailing garbage", `${D},"delta":"x"}x`],
    ["a second object", `${D},"delta":"x"}{}`],
    ["a trailing comma", `${D},"delta":"x",}`],
    ["a missing comma", `${D} "delta":"x"}`],
    ["a truncated payload", `${D},"delta":"x`],
    ["a truncated object", `${D},"delta":"x"`],
    ["type not first", '{"seq":1,"type":"text.end","id":"a"}'],
    ["an unknown type", '{"type":"vendor.thing.update","seq":1}'],
    ["an ext type", '{"type":"ext.acme.ping","seq":1}'],
    ["an empty payload", ""],
    ["an array", "[]"],
    ["a string", '"text.delta"'],
    ["an empty object", "{}"],
    ["a BOM", `\uFEFF${D},"delta":"x"}`],
    ["a non-breaking space as whitespace", `\u00A0${D},"delta":"x"}`],
    ["invalid UTF-8: 0xFF", bytesOf(`${D},"delta":"a`, [0xff], `"}`)],
    ["invalid UTF-8: an overlong NUL", bytesOf(`${D},"delta":"a`, [0xc0, 0x80], `"}`)],
    ["invalid UTF-8: an overlong slash", bytesOf(`${D},"delta":"a`, [0xe0, 0x80, 0xaf], `"}`)],
    ["invalid UTF-8: an encoded surrogate", bytesOf(`${D},"delta":"a`, [0xed, 0xa0, 0x80], `"}`)],
    ["invalid UTF-8: above U+10FFFF", bytesOf(`${D},"delta":"a`, [0xf4, 0x90, 0x80, 0x80], `"}`)],
    ["invalid UTF-8: an overlong four-byte form", bytesOf(`${D},"delta":"a`, [0xf0, 0x8f, 0xbf, 0xbf], `"}`)],
    ["invalid UTF-8: a lead byte past 0xF4", bytesOf(`${D},"delta":"a`, [0xf5, 0x80, 0x80, 0x80], `"}`)],
    ["invalid UTF-8: an overlong two-byte form", bytesOf(`${D},"delta":"a`, [0xc1, 0xbf], `"}`)],
    ["invalid UTF-8: a truncated sequence", bytesOf(`${D},"delta":"a`, [0xe2, 0x82], `"}`)],
    ["invalid UTF-8: a lone continuation byte", bytesOf(`${D},"delta":"a`, [0x80], `"}`)],
    ["invalid UTF-8 in an unknown key", bytesOf(`${D},"delta":"x","`, [0xff], `":1}`)],
    ["a malformed nested value in an unknown field", `${D},"delta":"x","extra":{"a":1,}}`],
    ["an unclosed array in an unknown field", `${D},"delta":"x","extra":[1}`],
    ["a malformed number in an unknown field", `${D},"delta":"x","extra":01}`],
    ["a bare minus in an unknown field", `${D},"delta":"x","extra":-}`],
    ["an unquoted word in an unknown field", `${D},"delta":"x","extra":nul}`],
  ];
  for (const [name, payload] of unsure) {
    it(`defers on ${name}`, () => {
      for (const posture of POSTURES) expect(judge(payload, posture), posture).toBe(false);
    });
  }

  const accepted: [string, string | Uint8Array, Posture[]][] = [
    ["a lone high surrogate escape", `${D},"delta":"\\ud800"}`, POSTURES],
    ["a lone low surrogate escape", `${D},"delta":"\\udc00 x"}`, POSTURES],
    ["a surrogate pair escape", `${D},"delta":"\\ud83c\\udf89"}`, POSTURES],
    ["every simple escape", `${D},"delta":"\\" \\\\ \\/ \\b \\f \\n \\r \\t"}`, POSTURES],
    ["four-byte UTF-8", `${D},"delta":"🎉 𝄞 世界 ü"}`, POSTURES],
    ["a literal U+FFFD", `${D},"delta":"\uFFFD"}`, POSTURES],
    ["the largest code point", bytesOf(`${D},"delta":"`, [0xf4, 0x8f, 0xbf, 0xbf], `"}`), POSTURES],
    ["whitespace everywhere", ` \t\r\n{ "type" : "text.delta" ,\n"seq"\t:\r1 , "id":"a","delta" : "x" }\n\t `, POSTURES],
    ["seq 0", '{"type":"text.end","seq":0,"id":"a"}', POSTURES],
    ["a 15-digit seq", '{"type":"text.end","seq":999999999999999,"id":"a"}', POSTURES],
    ["an unknown scalar field", `${D},"delta":"x","extra":-1.5e+3,"more":null,"yes":true,"no":false,"s":"\\u00e9"}`, ["lenient"]],
    ["an unknown non-ASCII key", `${D},"delta":"x","ключ":1}`, ["lenient"]],
    ["a nested value in an unknown field", `${D},"delta":"x","extra":{"a":[1,{"b":null}]},"more":[]}`, ["lenient"]],
    ["an enum value", '{"type":"message.start","seq":1,"id":"m","role":"user","turnId":"t","threadId":"th"}', POSTURES],
    ["a const true", '{"type":"artifact.end","seq":1,"artifactId":"a","lastChunk":true}', POSTURES],
    ["a boolean", '{"type":"guardrail.result","seq":1,"target":"input","passed":false}', POSTURES],
    [
      "an open bag with nested values",
      `${D},"delta":"x","_meta":{"a":[1,-2.5e3,{"b":null,"b":true}],"c":{},"d":[],"é":"\u00e9"},"providerMetadata":{ "x" : [ ] }}`,
      POSTURES,
    ],
    ["any JSON value", '{"type":"state.delta","seq":1,"patch":[{"op":"add","path":"/a","value":[1,2,{"x":"y"}]}]}', POSTURES],
    ["a scalar JSON value", '{"type":"state.snapshot","seq":1,"snapshot":"just a string"}', POSTURES],
    ["an assembled tool input", '{"type":"tool.args.assembled","seq":1,"toolCallId":"c","input":{"q":"agjson"}}', POSTURES],
  ];
  for (const [name, payload, postures] of accepted) {
    it(`accepts ${name} under ${postures.join(" and ")}`, () => {
      for (const posture of POSTURES) expect(judge(payload, posture), posture).toBe(postures.includes(posture));
    });
  }

  it("keeps nested values within the depth cap, as the depth guard counts it", () => {
    const within = enc.encode(`${D},"delta":"x","_meta":{"a":{"b":[]}}}`);
    const deeper = enc.encode(`${D},"delta":"x","_meta":{"a":{"b":[{}]}}}`);
    expect(new FastPath("lenient", new Set(), { maxDepth: 4 }).check(within, 0, within.length)).not.toBe(UNSURE);
    expect(new FastPath("lenient", new Set(), { maxDepth: 4 }).check(deeper, 0, deeper.length)).toBe(UNSURE);
    const flat = enc.encode(`${D},"delta":"x","_meta":{}}`);
    expect(new FastPath("lenient", new Set(), { maxDepth: 1 }).check(flat, 0, flat.length)).toBe(UNSURE);
    // An unknown field's value (lenient) counts as a declared opaque value does.
    const unknownWithin = enc.encode(`${D},"delta":"x","extra":{"a":{"b":[]}}}`);
    const unknownDeeper = enc.encode(`${D},"delta":"x","extra":{"a":{"b":[{}]}}}`);
    expect(new FastPath("lenient", new Set(), { maxDepth: 4 }).check(unknownWithin, 0, unknownWithin.length)).not.toBe(UNSURE);
    expect(new FastPath("lenient", new Set(), { maxDepth: 4 }).check(unknownDeeper, 0, unknownDeeper.length)).toBe(UNSURE);
  });

  it("takes exactly JSON's escapes: every byte after a backslash, in a key's value and in a bag's string", () => {
    const valid = new Set([...'"\\/bfnrt'].map((c) => c.charCodeAt(0)));
    for (let b = 0; b < 256; b++) {
      // `\u` is followed by "0041" so that it is complete; every other byte stands alone.
      const escapedBytes = b === 0x75 ? [0x5c, 0x75, 0x30, 0x30, 0x34, 0x31] : [0x5c, b];
      const accepted = valid.has(b) || b === 0x75;
      for (const posture of POSTURES) {
        expect(judge(bytesOf(`${D},"delta":"a`, escapedBytes, 'z"}'), posture), `escape byte ${b} in a string field`).toBe(accepted);
        expect(judge(bytesOf(`${D},"delta":"x","_meta":{"k":"a`, escapedBytes, 'z"}}'), posture), `escape byte ${b} in a bag`).toBe(
          accepted,
        );
      }
    }
  });

  it("never completes an escapedBytes or a string with bytes past the payload's end", () => {
    // `\"` and `\\` are taken without a call to the escapedBytes check: a backslash that is the payload's
    // last byte must not pair with the quote or backslash that follows it in the buffer.
    for (const after of ['"', "\\", '""}', '\\"}']) {
      for (const cut of [`${D},"delta":"ab\\`, `${D},"delta":"abcdefg\\`, `${D},"delta":"\\`]) {
        const bytes = enc.encode(cut + after);
        for (const scanner of [...scanners.lenient, ...scanners.strict]) {
          scanner.forget();
          expect(scanner.check(bytes, 0, enc.encode(cut).length), cut + after).toBe(UNSURE);
        }
      }
    }
    for (const posture of POSTURES) {
      expect(judge(`${D},"delta":"\\"}`, posture)).toBe(false);
      expect(judge(`${D},"delta":"\\\\"}`, posture)).toBe(true);
      expect(judge(`${D},"delta":"\\""}`, posture)).toBe(true);
      expect(judge(`${D},"delta":"\\\\\\"}`, posture)).toBe(false);
    }
  });

  it("finds every byte that ends or breaks a string wherever it lies in a four-byte word", () => {
    // The string scan tests four bytes at once; each byte value at each offset from the string's
    // start (so at each lane of the word) must stop it exactly where a byte-by-byte scan would; the
    // byte after it (X) makes a backslash an invalid escape and a quote end the string too early.
    for (let b = 0; b < 0x80; b++) {
      for (let at = 0; at < 8; at++) {
        const before = "abcdefgh".slice(0, at);
        const accepted = b >= 0x20 && b !== 0x22 && b !== 0x5c;
        for (const posture of POSTURES) {
          expect(judge(bytesOf(`${D},"delta":"${before}`, [b], 'X, the rest of the string"}'), posture), `byte ${b} at ${at}`).toBe(
            accepted,
          );
        }
      }
    }
  });

  it("forgets a buffer refilled in place", () => {
    const good = enc.encode(`${D},"delta":"ab"}`);
    const buffer = Buffer.from(good);
    const scanner = new FastPath("lenient");
    expect(scanner.check(buffer, 0, buffer.length)).not.toBe(UNSURE);
    buffer[buffer.length - 4] = 0xff;
    scanner.forget();
    expect(scanner.check(buffer, 0, buffer.length)).toBe(UNSURE);
  });
});

function bytesOf(before: string, raw: number[], after: string): Uint8Array {
  return Uint8Array.from([...enc.encode(before), ...raw, ...enc.encode(after)]);
}

describe("random payloads", () => {
  const NAMES = [
    "type",
    "seq",
    "id",
    "delta",
    "turnId",
    "role",
    "_meta",
    "extra",
    "lastChunk",
    "passed",
    "target",
    "ключ",
    "\\u0069d",
    "input",
    "toolCallId",
    "patch",
  ];
  const TYPES = [
    "text.delta",
    "text.end",
    "message.start",
    "artifact.end",
    "guardrail.result",
    "turn.abort",
    "vendor.x",
    "ext.acme.ping",
    "tool.args.assembled",
    "state.delta",
  ];
  const rawScalar = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => JSON.stringify(s)),
    fc.string({ unit: "binary", maxLength: 12 }).map((s) => JSON.stringify(s)),
    fc.constantFrom(
      '"\\ud800"',
      '"\\x"',
      '"a\\u00"',
      "0",
      "-0",
      "1",
      "1.0",
      "1e2",
      "01",
      "-1",
      "9007199254740993",
      "true",
      "false",
      "null",
      "{}",
      "[]",
      '"user"',
      '"input"',
    ),
    fc.json({ maxDepth: 4 }),
    fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(0, j.length - 1))),
    fc.constantFrom(
      '{"a":}',
      "[1,]",
      '{"a" 1}',
      "{1:2}",
      "[1}",
      '{"a":[]',
      '{"a":{"b":{"c":{"d":[[[[[[]]]]]]}}}}',
      '[ 1 , { "x" : null } ]',
    ),
    fc.integer({ min: 0, max: 1_000_000 }).map(String),
  );
  const member = fc.tuple(fc.constantFrom(...NAMES), rawScalar).map(([k, v]) => `"${k}":${v}`);
  const payload = fc
    .tuple(fc.constantFrom(...TYPES), fc.array(member, { maxLength: 7 }), fc.constantFrom("", " ", "\n"))
    .map(([type, members, ws]) => `{"type":"${type}"${members.map((m) => `,${ws}${m}`).join("")}}`);

  it("built from field names, scalars and odd values", () => {
    fc.assert(
      fc.property(payload, (text) => {
        for (const posture of POSTURES) judge(text, posture);
      }),
      { numRuns: 3000 },
    );
  });

  it("mutated byte by byte from valid events", () => {
    const seeds = [
      ...benchEvents().slice(0, 8),
      ...gatewayTestEvents()
        .slice(0, 8)
        .map((e) => e.event),
    ].map((e) => JSON.stringify(e));
    judgeMutations(seeds, [0x22, 0x5c, 0x7b, 0x7d, 0x2c, 0x3a, 0x30, 0x2d, 0x80, 0xc3, 0xed, 0xf0], 4);
  });
});

/** One block of every variant the table judges, each with some of its optional fields (§7). */
const EVERY_FLAT_BLOCK = [
  '{"type":"text","text":"a","providerMetadata":{"p":1},"_meta":{}}',
  '{"type":"resource-link","uri":"file:///a","mimeType":"text/plain"}',
  '{"type":"code","language":"js","code":"let a = \\"x\\";"}',
  '{"type":"code-result","outcome":"deadline_exceeded","output":""}',
  '{"type":"reasoning","text":"why","provider":"p","providerDetails":[1,{"a":null}],"itemId":"i"}',
  '{"type":"compaction","text":"short"}',
  '{"type":"search-result","url":"https://a","title":"t","pageAge":"1d"}',
  '{"type":"tool-call","toolCallId":"d","name":"n","input":{"q":[1]},"providerExecuted":false,"providerCallIndex":0,"toolMetadata":{}}',
  '{"type":"data","name":"n","data":null,"transient":true}',
  '{"type":"provider-raw","vendor":"v","raw":"x"}',
  '{"type":"tool-result","toolCallId":"d","content":[{"type":"text","text":"b"}],"outcome":"error","errorText":"e","isError":true}',
];

/** `tool.done` up to its `content`: the event whose blocks (§7) the table models as a union array. */
const T = '{"type":"tool.done","seq":4,"toolCallId":"c"';

/** A value that passes `check` (the least one), to fill required fields. */
function minimalValue(check: FastPathEntry["fields"][string]): unknown {
  switch (check.kind) {
    case "string":
      return "x";
    case "enum":
      return check.values[0];
    case "integer":
      return Math.max(0, check.minimum ?? 0);
    case "boolean":
      return true;
    case "const":
      return check.value;
    case "json":
      return null;
    case "union-array":
      return [];
    case "union-object": {
      // The least object of the union: its first variant's (a text block, a base64 source).
      const union = UNIONS.strict[check.union];
      return union?.variants[0] === undefined ? {} : minimalDoc(union.variants[0], union.tag);
    }
    default:
      return {};
  }
}

/** The entry's object with its tag first and only its required fields, each at its least value. */
function minimalDoc(entry: FastPathEntry, tag = "type"): Record<string, unknown> {
  const doc: Record<string, unknown> = { [tag]: entry.type };
  for (const r of entry.required) if (r !== tag) doc[r] = minimalValue(entry.fields[r]!);
  return doc;
}

/** Where `check` holds `union`: `doc` placed as that field's value (alone in an array for `union-array`). */
function placeIn(check: FastPathEntry["fields"][string], union: string): ((doc: unknown) => unknown) | undefined {
  if (check.kind === "union-array" && check.union === union) return (doc) => [doc];
  if (check.kind === "union-object" && check.union === union) return (doc) => doc;
  return undefined;
}

/**
 * Wraps an object of `union` into a least event that holds it: in the first event field holding the
 * union, else in a variant of a union that is itself held (an AgSource in an image block in
 * `content.block`, §2, §7).
 */
function wrapIn(
  posture: Posture,
  union: string,
  seen: ReadonlySet<string> = new Set(),
): (doc: Record<string, unknown>) => Record<string, unknown> {
  for (const host of TABLES[posture]) {
    for (const [field, check] of Object.entries(host.fields)) {
      const place = placeIn(check, union);
      if (place !== undefined) return (doc) => ({ ...minimalDoc(host), [field]: place(doc) });
    }
  }
  for (const [def, outer] of Object.entries(UNIONS[posture])) {
    if (seen.has(def) || def === union) continue;
    for (const variant of outer.variants) {
      for (const [field, check] of Object.entries(variant.fields)) {
        const place = placeIn(check, union);
        if (place === undefined) continue;
        const wrapOuter = wrapIn(posture, def, new Set([...seen, union]));
        return (doc) => wrapOuter({ ...minimalDoc(variant, outer.tag), [field]: place(doc) });
      }
    }
  }
  throw new Error(`no event entry holds the union ${union}`);
}

describe("arrays of tagged unions and cross-field rules (tool.done, §5, §7)", () => {
  const fixtures = loadValidateFixtures(join(import.meta.dirname, "../../conformance/validate"));

  it("covers tool.done and its flat block variants in both postures", () => {
    for (const posture of POSTURES) {
      expect(TABLES[posture].find((e) => e.type === "tool.done")?.fields.content).toEqual({ kind: "union-array", union: "AgBlock" });
      const blocks = UNIONS[posture].AgBlock!;
      expect(blocks.open).toBe(posture === "lenient");
      expect(blocks.variants.map((v) => v.type)).toEqual(
        expect.arrayContaining(["text", "code", "code-result", "reasoning", "tool-call", "tool-result", "data"]),
      );
    }
  });

  it("tabulates every cross-field rule as the validator decides it, and the scanner reads the table so", () => {
    let compared = 0;
    for (const posture of POSTURES) {
      const objects: [FastPathEntry, string, (doc: Record<string, unknown>) => Record<string, unknown>][] = [];
      for (const entry of TABLES[posture]) if (entry.cross !== undefined) objects.push([entry, "type", (doc) => doc]);
      for (const [def, union] of Object.entries(UNIONS[posture])) {
        const wrap = wrapIn(posture, def);
        for (const v of union.variants) if (v.cross !== undefined) objects.push([v, union.tag, wrap]);
      }
      expect(objects.map(([e]) => e.type)).toEqual(expect.arrayContaining(["tool.done", "tool-result"]));
      for (const [entry, tag, wrap] of objects) {
        const cross = entry.cross!;
        for (let index = 0; index < cross.allowed.length; index++) {
          const doc = minimalDoc(entry, tag);
          let unchecked = false;
          for (const [name, radix] of Object.entries(cross.fields)) {
            const check = entry.fields[name]!;
            const domain: unknown[] =
              check.kind === "enum" ? [...check.values] : check.kind === "boolean" ? [true, false] : [minimalValue(check)];
            const state = Math.floor(index / radix) % (domain.length + 1);
            if (state === 0) delete doc[name];
            else doc[name] = domain[state - 1];
            if (state !== 0 && check.kind === "unchecked") unchecked = true;
          }
          if (!entry.required.every((r) => r in doc)) continue;
          const wrapped = wrap(doc);
          const text = JSON.stringify(wrapped);
          const valid = validateEvent(wrapped, { posture }).ok;
          expect(valid, `${posture} ${entry.type} state ${index}: ${text}`).toBe(cross.allowed[index] === "1");
          expect(judge(text, posture), `${posture}: ${text}`).toBe(valid && !unchecked);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  it("on every block fixture inside tool.done.content: alone, after a valid block, inside a nested tool-result", () => {
    let accepted = 0;
    for (const f of fixtures) {
      if (f.kind !== "block" || !isRecord(f.document)) continue;
      const block = f.document;
      const events = [
        { type: "tool.done", seq: 1, toolCallId: "c", content: [block] },
        { type: "tool.done", seq: 2, toolCallId: "c", content: [{ type: "text", text: "a" }, block], outcome: "ok" },
        { type: "tool.done", seq: 3, toolCallId: "c", content: [{ type: "tool-result", toolCallId: "d", content: [block] }] },
      ];
      for (const event of events) accepted += judgeEverySerialization(event, f.name);
    }
    expect(accepted).toBeGreaterThan(200);
  });

  it("on every citation fixture inside a text block", () => {
    for (const f of fixtures) {
      if (f.exemplifies.endsWith("Citation") === false || !isRecord(f.document)) continue;
      judgeEverySerialization(
        { type: "tool.done", seq: 1, toolCallId: "c", content: [{ type: "text", text: "a", citations: [f.document] }] },
        f.name,
      );
    }
  });

  const unsure: [string, string][] = [
    ["content not an array", `${T},"content":{}}`],
    ["content null", `${T},"content":null}`],
    ["a content item not an object", `${T},"content":["text"]}`],
    ["an empty block", `${T},"content":[{}]}`],
    ["a block tag not first", `${T},"content":[{"text":"a","type":"text"}]}`],
    ["an escaped block tag", `${T},"content":[{"type":"te\\u0078t","text":"a"}]}`],
    ["an escaped block tag name", `${T},"content":[{"\\u0074ype":"text","text":"a"}]}`],
    ["a block tag that is not a string", `${T},"content":[{"type":1,"text":"a"}]}`],
    ["a block tag with a raw control character", `${T},"content":[{"type":"a\u0001b"}]}`],
    ["a second tag in a known block", `${T},"content":[{"type":"text","text":"a","type":"zzz"}]}`],
    ["a second tag in an unknown block", `${T},"content":[{"type":"zzz","type":5}]}`],
    ["a second, escaped tag in an unknown block", `${T},"content":[{"type":"zzz","\\u0074ype":5}]}`],
    ["a repeated block field", `${T},"content":[{"type":"text","text":"a","text":"b"}]}`],
    ["a block without a required field", `${T},"content":[{"type":"text"}]}`],
    ["a block field of the wrong kind", `${T},"content":[{"type":"text","text":5}]}`],
    ["a block enum value not in the enum", `${T},"content":[{"type":"code-result","outcome":"maybe","output":"x"}]}`],
    [
      "a block integer below its minimum",
      `${T},"content":[{"type":"tool-call","toolCallId":"d","name":"n","input":{},"providerCallIndex":-1}]}`,
    ],
    [
      "a block integer written 1.0",
      `${T},"content":[{"type":"tool-call","toolCallId":"d","name":"n","input":{},"providerCallIndex":1.0}]}`,
    ],
    ["a block the table cannot judge", `${T},"content":[{"type":"resource","resource":{"uri":"file:///a","text":"x"}}]}`],
    ["a block field the table cannot judge", `${T},"content":[{"type":"text","text":"a","annotations":{}}]}`],
    ["a trailing comma in content", `${T},"content":[{"type":"text","text":"a"},]}`],
    ["a leading comma in content", `${T},"content":[,{"type":"text","text":"a"}]}`],
    ["a missing comma in content", `${T},"content":[{"type":"text","text":"a"} {"type":"text","text":"b"}]}`],
    ["a trailing comma in a block", `${T},"content":[{"type":"text","text":"a",}]}`],
    ["an unclosed content array", `${T},"content":[{"type":"text","text":"a"}}`],
    ["an unclosed block", `${T},"content":[{"type":"text","text":"a"]}`],
    ["a truncated block", `${T},"content":[{"type":"text","text":"a`],
    ["no content", `${T}}`],
    ["a repeated content", `${T},"content":[],"content":[]}`],
    ["outcome error without errorText", `${T},"content":[],"outcome":"error"}`],
    ["errorText with outcome ok", `${T},"content":[],"outcome":"ok","errorText":"x"}`],
    ["errorText without outcome", `${T},"content":[],"errorText":"x"}`],
    ["isError true with outcome ok", `${T},"content":[],"outcome":"ok","isError":true}`],
    ["isError true without outcome", `${T},"content":[],"isError":true}`],
    ["isError false with outcome error", `${T},"content":[],"outcome":"error","errorText":"x","isError":false}`],
    ["pendingInput (unchecked) with input_required", `${T},"content":[],"outcome":"input_required","pendingInput":{}}`],
    ["pendingInput without input_required", `${T},"content":[],"outcome":"ok","pendingInput":{}}`],
    [
      "a nested tool-result breaking its cross-field rule",
      `${T},"content":[{"type":"tool-result","toolCallId":"d","content":[],"outcome":"error"}]}`,
    ],
    ["a nested tool-result with a bad block", `${T},"content":[{"type":"tool-result","toolCallId":"d","content":[{"type":"text"}]}]}`],
    [
      "blocks nested past the bitmask",
      `${T},"content":${'[{"type":"tool-result","toolCallId":"d","content":'.repeat(16)}[]${"}]".repeat(16)}}`,
    ],
    ["an unknown block with a malformed value", `${T},"content":[{"type":"zzz","a":[1,]}]}`],
    ["an unknown block with a bad escape", `${T},"content":[{"type":"zzz","a":"\\q"}]}`],
    ["an unknown block without a closing brace", `${T},"content":[{"type":"zzz","a":1]}`],
  ];
  for (const [name, payload] of unsure) {
    it(`defers on ${name}`, () => {
      for (const posture of POSTURES) expect(judge(payload, posture), posture).toBe(false);
    });
  }

  const accepted: [string, string, Posture[]][] = [
    ["the bench's tool.done", `${T},"content":[{"type":"text","text":"result result "}],"outcome":"ok"}`, POSTURES],
    ["an empty content", `${T},"content":[]}`, POSTURES],
    ["every flat block variant", `${T},"content":[${EVERY_FLAT_BLOCK.join(",")}]}`, POSTURES],
    [
      "every tool.done field it checks",
      `${T},"content":[],"id":"i","turnId":"t","messageId":"m","parentId":"p","_meta":{"a":1},"outcome":"error","structuredContent":{"a":[1]},"uiData":null,"sideData":"s","errorText":"e","errorCode":"E","providerMetadata":{},"toolMetadata":{},"dynamic":true,"isError":true,"skipSummarization":false,"more":true,"preliminary":true,"candidateIndex":2}`,
      POSTURES,
    ],
    ["isError false with outcome denied", `${T},"content":[],"outcome":"denied","isError":false}`, POSTURES],
    ["isError false without outcome", `${T},"content":[],"isError":false}`, POSTURES],
    [
      "whitespace around every content token",
      `${T}, "content" : [ { "type" : "text" , "text" : "a" } , {\n"type":"code","language":"js","code":""\t} ] }`,
      POSTURES,
    ],
    [
      "blocks nested within the bitmask",
      `${T},"content":${'[{"type":"tool-result","toolCallId":"d","content":'.repeat(13)}[]${"}]".repeat(13)}}`,
      POSTURES,
    ],
    [
      "an unknown block type",
      `${T},"content":[{"type":"zzz","a":{"b":[1,{"type":2}]},"ключ":null,"s":"\\u00e9"},{"type":"text","text":"a"}]}`,
      ["lenient"],
    ],
    ["an unknown block type with a non-ASCII tag", `${T},"content":[{"type":"ключ"}]}`, ["lenient"]],
    ["an unknown field in a block", `${T},"content":[{"type":"text","text":"a","extra":{"x":[1]}}]}`, ["lenient"]],
  ];
  for (const [name, payload, postures] of accepted) {
    it(`accepts ${name} under ${postures.join(" and ")}`, () => {
      for (const posture of POSTURES) expect(judge(payload, posture), posture).toBe(postures.includes(posture));
    });
  }

  it("keeps blocks within the depth cap, as the depth guard counts it", () => {
    const at = (payload: string, maxDepth: number) =>
      new FastPath("lenient", new Set(), { maxDepth }).check(enc.encode(payload), 0, enc.encode(payload).length) !== UNSURE;
    const meta = `${T},"content":[{"type":"text","text":"a","_meta":{}}]}`;
    expect(at(meta, 4)).toBe(true);
    expect(at(meta, 3)).toBe(false);
    const unknown = `${T},"content":[{"type":"zzz","a":[]}]}`;
    expect(at(unknown, 4)).toBe(true);
    expect(at(unknown, 3)).toBe(false);
    expect(at(`${T},"content":[{"type":"text","text":"a"}]}`, 3)).toBe(true);
    expect(at(`${T},"content":[{"type":"text","text":"a"}]}`, 2)).toBe(false);
    expect(at(`${T},"content":[]}`, 2)).toBe(true);
    expect(at(`${T},"content":[]}`, 1)).toBe(false);
  });
});

/** `content.block` up to its `block`: the event whose one block (§4, §7) the table models as a union object. */
const C = '{"type":"content.block","seq":5';

describe("single tagged-union objects (content.block, artifact.delta, a media block's source, turn.done's outcome; §2, §4, §7)", () => {
  const fixtures = loadValidateFixtures(join(import.meta.dirname, "../../conformance/validate"));

  it("covers them in both postures", () => {
    for (const posture of POSTURES) {
      const field = (type: string, name: string) => TABLES[posture].find((e) => e.type === type)?.fields[name];
      expect(field("content.block", "block")).toEqual({ kind: "union-object", union: "AgBlock" });
      expect(field("artifact.delta", "part")).toEqual({ kind: "union-object", union: "AgBlock" });
      expect(field("turn.done", "outcome")).toEqual({ kind: "union-object", union: "AgOutcome" });
      const image = UNIONS[posture].AgBlock!.variants.find((v) => v.type === "image");
      expect(image?.fields.source).toEqual({ kind: "union-object", union: "AgSource" });
      expect(UNIONS[posture].AgSource!.open).toBe(posture === "lenient");
      expect(UNIONS[posture].AgSource!.variants.map((v) => v.type).sort()).toEqual(["base64", "file", "url"]);
    }
  });

  it("on every block fixture as content.block's block and artifact.delta's part; every source fixture in an image block", () => {
    let accepted = 0;
    for (const f of fixtures) {
      if (f.kind !== "block" || !isRecord(f.document)) continue;
      const doc = f.document;
      const events: Record<string, unknown>[] = [
        { type: "content.block", seq: 1, block: doc },
        { type: "content.block", seq: 2, id: "b", block: doc, transient: true, candidateIndex: 0 },
        { type: "artifact.delta", seq: 3, artifactId: "a", part: doc, append: false },
        { type: "content.block", seq: 4, block: { type: "image", source: doc } },
        { type: "artifact.delta", seq: 5, artifactId: "a", part: { type: "audio", source: doc, _meta: {} }, append: true },
      ];
      for (const event of events) accepted += judgeEverySerialization(event, f.name);
    }
    expect(accepted).toBeGreaterThan(400);
  });

  it("on every outcome fixture as turn.done's outcome", () => {
    let accepted = 0;
    for (const f of fixtures) {
      if (!f.exemplifies.endsWith("Outcome") || !isRecord(f.document)) continue;
      accepted += judgeEverySerialization({ type: "turn.done", seq: 1, turnId: "t", outcome: f.document, finishReason: "stop" }, f.name);
    }
    expect(accepted).toBeGreaterThan(10);
  });

  const unsure: [string, string][] = [
    ["a block that is a string", `${C},"block":"text"}`],
    ["a block that is null", `${C},"block":null}`],
    ["a block that is an array", `${C},"block":[{"type":"text","text":"a"}]}`],
    ["an empty block", `${C},"block":{}}`],
    ["a block tag not first", `${C},"block":{"text":"a","type":"text"}}`],
    ["an escaped block tag", `${C},"block":{"type":"te\\u0078t","text":"a"}}`],
    ["a block tag that is not a string", `${C},"block":{"type":1}}`],
    ["a block without a required field", `${C},"block":{"type":"text"}}`],
    ["a block field of the wrong kind", `${C},"block":{"type":"text","text":[]}}`],
    ["a repeated block field", `${C},"block":{"type":"text","text":"a","text":"b"}}`],
    ["a second tag in an unknown block", `${C},"block":{"type":"zzz","type":5}}`],
    ["a repeated block", `${C},"block":{"type":"text","text":"a"},"block":{"type":"text","text":"b"}}`],
    ["no block", `${C}}`],
    ["an unclosed block", `${C},"block":{"type":"text","text":"a"}`],
    ["a trailing comma in a block", `${C},"block":{"type":"text","text":"a",}}`],
    ["a block the table cannot judge", `${C},"block":{"type":"resource","resource":{"uri":"file:///a","text":"x"}}}`],
    ["an image without a source", `${C},"block":{"type":"image"}}`],
    ["a source that is not an object", `${C},"block":{"type":"image","source":"https://x"}}`],
    ["a source without its tag first", `${C},"block":{"type":"image","source":{"url":"https://x","type":"url"}}}`],
    ["a source without a required field", `${C},"block":{"type":"image","source":{"type":"url"}}}`],
    ["a source field of the wrong kind", `${C},"block":{"type":"image","source":{"type":"base64","data":1,"mediaType":"image/png"}}}`],
    ["a source with a repeated tag", `${C},"block":{"type":"image","source":{"type":"zzz","type":"url"}}}`],
    ["an artifact part without its block tag", `{"type":"artifact.delta","seq":1,"artifactId":"a","part":{"text":"a"},"append":true}`],
    ["an artifact delta without append", `{"type":"artifact.delta","seq":1,"artifactId":"a","part":{"type":"text","text":"a"}}`],
    ["an outcome without a tag", `{"type":"turn.done","seq":1,"turnId":"t","outcome":{},"finishReason":"stop"}`],
  ];
  for (const [name, payload] of unsure) {
    it(`defers on ${name}`, () => {
      for (const posture of POSTURES) expect(judge(payload, posture), posture).toBe(false);
    });
  }

  const accepted: [string, string[], Posture[]][] = [
    ["every flat block as content.block's block", EVERY_FLAT_BLOCK.map((b) => `${C},"block":${b}}`), POSTURES],
    ["an image from a url", [`${C},"block":{"type":"image","source":{"type":"url","url":"https://x/a.png"}}}`], POSTURES],
    [
      "an artifact part",
      [`{"type":"artifact.delta","seq":1,"artifactId":"a","part":{"type":"code","language":"ts","code":"x"},"append":true,"turnId":"t"}`],
      POSTURES,
    ],
    ["whitespace around every block token", [`${C} , "block" : { "type" : "text" ,\n"text" : "a" } }`], POSTURES],
    ["an unknown block type", [`${C},"block":{"type":"zzz","a":{"b":[1]},"ключ":null}}`], ["lenient"]],
    ["an unknown source type", [`${C},"block":{"type":"image","source":{"type":"s3","bucket":"b"}}}`], ["lenient"]],
    ["an unknown field in a block", [`${C},"block":{"type":"text","text":"a","extra":[{}]}}`], ["lenient"]],
  ];
  for (const [name, payloads, postures] of accepted) {
    it(`accepts ${name} under ${postures.join(" and ")}`, () => {
      for (const payload of payloads)
        for (const posture of POSTURES) expect(judge(payload, posture), `${posture}: ${payload}`).toBe(postures.includes(posture));
    });
  }

  it("keeps a block within the depth cap, as the depth guard counts it", () => {
    const at = (payload: string, maxDepth: number) =>
      new FastPath("lenient", new Set(), { maxDepth }).check(enc.encode(payload), 0, enc.encode(payload).length) !== UNSURE;
    const text = `${C},"block":{"type":"text","text":"a"}}`;
    expect(at(text, 2)).toBe(true);
    expect(at(text, 1)).toBe(false);
    const image = `${C},"block":{"type":"image","source":{"type":"url","url":"u"}}}`;
    expect(at(image, 3)).toBe(true);
    expect(at(image, 2)).toBe(false);
    const unknown = `${C},"block":{"type":"zzz","a":[]}}`;
    expect(at(unknown, 3)).toBe(true);
    expect(at(unknown, 2)).toBe(false);
  });
});

describe("random payloads with blocks: tool.done, content.block, artifact.delta", () => {
  const blocks = UNIONS.strict.AgBlock!;
  const sources = UNIONS.strict.AgSource!;
  const eventEntry = (type: string) => TABLES.strict.find((e) => e.type === type)!;
  const ODD = [
    '"x"',
    "0",
    "7",
    "-1",
    "1.0",
    "true",
    "false",
    "null",
    "{}",
    "[]",
    '{"a":[1]}',
    '"ok"',
    '"error"',
    '"failed"',
    '"\\u0074ext"',
    '"é"',
    "[{}]",
    '[{"type":"text"}]',
    "{",
  ];
  const OTHER_TAGS = [...Object.keys(blocks.excluded), "zzz", "ext.x", ""];

  /** Members for an object of `entry`, mostly of the right kind, sometimes odd, missing or extra. */
  function members(entry: FastPathEntry, tie: (key: string) => fc.Arbitrary<unknown>, tag: string): fc.Arbitrary<string[]> {
    const names = Object.keys(entry.fields).filter((n) => n !== tag);
    const right = (name: string): fc.Arbitrary<string> => {
      const check = entry.fields[name]!;
      switch (check.kind) {
        case "string":
          return fc.string({ unit: "grapheme", maxLength: 8 }).map((v) => JSON.stringify(v));
        case "enum":
          return fc.constantFrom(...check.values.map((v) => JSON.stringify(v)));
        case "integer":
          return fc.nat({ max: 1000 }).map(String);
        case "boolean":
          return fc.boolean().map(String);
        case "json":
          return fc.json({ maxDepth: 2 });
        case "object":
          return fc.constantFrom("{}", '{"a":[1,{"b":null}]}');
        case "union-array":
          return tie("content") as fc.Arbitrary<string>;
        case "union-object":
          return (
            check.union === "AgBlock" ? tie("block") : check.union === "AgSource" ? tie("source") : fc.constantFrom("{}", '"x"')
          ) as fc.Arbitrary<string>;
        default:
          return fc.constantFrom("{}", '"x"');
      }
    };
    const member = (name: string) =>
      fc.oneof({ weight: 14, arbitrary: right(name) }, { weight: 1, arbitrary: fc.constantFrom(...ODD) }).map((v) => `"${name}":${v}`);
    const required = entry.required.filter((n) => n !== tag);
    const optional = names.filter((n) => !required.includes(n));
    return fc
      .tuple(
        fc.tuple(...required.map((n) => fc.option(member(n), { freq: 20 }))),
        fc.subarray(optional, { maxLength: Math.min(4, optional.length) }).chain((picked) => fc.tuple(...picked.map(member))),
        fc.option(fc.constantFrom('"extra":1', '"extra":{"a":[]}', '"type":"text"', '"ключ":"v"', '"\\u0074ext":"a"'), { freq: 6 }),
        fc.boolean(),
      )
      .map(([req, opt, extra, reverse]) => {
        const all = [...req.filter((m): m is string => m !== null), ...opt, ...(extra === null ? [] : [extra])];
        return reverse ? all.reverse() : all;
      });
  }

  /** An object of `union`: mostly a known variant with its tag first; sometimes another tag, or the tag missing or later. */
  function unionObject(union: FastPathUnion, otherTags: string[], tie: (key: string) => fc.Arbitrary<unknown>): fc.Arbitrary<string> {
    const known = union.variants.map((v) => v.type);
    return fc
      .oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: fc.constantFrom(...otherTags) })
      .chain((tag) => {
        const variant = union.variants.find((v) => v.type === tag);
        const body =
          variant === undefined
            ? fc.array(
                fc.tuple(fc.constantFrom("a", "text", union.tag, "b"), fc.constantFrom(...ODD)).map(([k, v]) => `"${k}":${v}`),
                { maxLength: 3 },
              )
            : members(variant, tie, union.tag);
        return fc.tuple(body, fc.nat({ max: 15 })).map(([ms, shape]) => {
          const tagMember = `${JSON.stringify(union.tag)}:${JSON.stringify(tag)}`;
          if (shape === 0) return `{${ms.join(",")}}`;
          if (shape === 1) return `{${[...ms, tagMember].join(",")}}`;
          return `{${[tagMember, ...ms].join(",")}}`;
        });
      });
  }

  const EVENT_TYPES = ["tool.done", "content.block", "artifact.delta"];
  const arbitraries = fc.letrec((tie) => ({
    content: fc.array(tie("block"), { maxLength: 3, depthIdentifier: "blocks" }).map((items) => `[${items.join(",")}]`),
    block: unionObject(blocks, OTHER_TAGS, tie),
    source: unionObject(sources, ["s3", "", "base64 "], tie),
    event: fc
      .constantFrom(...EVENT_TYPES)
      .chain((type) => members(eventEntry(type), tie, "type").map((ms) => `{${[`"type":${JSON.stringify(type)}`, ...ms].join(",")}}`)),
  }));

  it("built from the table: blocks of every variant, unknown and excluded tags, missing, extra and odd fields", () => {
    const accepted = { lenient: 0, strict: 0 };
    const valid = { lenient: 0, strict: 0 };
    const acceptedTypes = { lenient: new Set<string>(), strict: new Set<string>() };
    fc.assert(
      fc.property(arbitraries.event, (text) => {
        for (const posture of POSTURES) {
          if (judge(text, posture)) {
            accepted[posture]++;
            acceptedTypes[posture].add(text.slice('{"type":"'.length, text.indexOf('"', '{"type":"'.length)));
          }
          if (isValidText(text, posture)) valid[posture]++;
        }
      }),
      { numRuns: 3000 },
    );
    // Every event type takes the fast path under lenient; strict-valid payloads are rare here (closed
    // objects and an extra field one time in six), so the strict count is the one above.
    expect([...acceptedTypes.lenient].sort()).toEqual([...EVENT_TYPES].sort());
    // Not only sound but useful: most valid payloads take the fast path (the rest hold a field or
    // block the table cannot judge, an escaped key, a tag or type not first). Most of these payloads
    // are not valid: an odd value, a broken cross-field rule, an extra field in a closed object.
    expect(accepted.lenient).toBeGreaterThan(150);
    expect(valid.strict).toBeGreaterThan(20);
    expect(accepted.strict).toBeGreaterThan(valid.strict * 0.6);
  });

  it("mutated byte by byte from valid events holding blocks", () => {
    const seeds = [
      `${C},"block":{"type":"image","source":{"type":"url","url":"https://x/a.png"},"_meta":{"a":1}},"transient":false}`,
      `{"type":"artifact.delta","seq":9,"artifactId":"a","part":{"type":"text","text":"part"},"append":true}`,
      `${T},"content":[{"type":"text","text":"result result"}],"outcome":"ok"}`,
      `${T},"content":[${EVERY_FLAT_BLOCK_SEEDS.join(",")}],"outcome":"error","errorText":"e","isError":true}`,
      `${T},"content":[{"type":"tool-result","toolCallId":"d","content":[{"type":"code","language":"js","code":"x"}]},{"type":"zzz","a":[1]}],"more":true}`,
    ];
    judgeMutations(seeds, [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d, 0x2c, 0x3a, 0x30, 0x2d, 0x80, 0xc3], 3);
  });
});

function isValidText(text: string, posture: Posture): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  return validateEvent(value, { posture }).ok;
}

const EVERY_FLAT_BLOCK_SEEDS = [
  '{"type":"code-result","outcome":"ok","output":"1"}',
  '{"type":"tool-call","toolCallId":"d","name":"n","input":{"q":[1]},"providerCallIndex":3}',
  '{"type":"data","name":"n","data":{"a":"b"},"transient":false}',
  '{"type":"reasoning","text":"r"}',
];

/** A deep copy of a generated table that a test may edit. */
type Editable<T> = { -readonly [K in keyof T]: Editable<T[K]> };

describe("the proofs catch a wrong table", () => {
  type Table = Editable<{ entries: readonly FastPathEntry[]; unions: { readonly [def: string]: FastPathUnion } }>;
  /** Payloads on which a scanner with an edited table accepts what the validator refuses. */
  function wrongly(posture: Posture, edit: (table: Table) => void, payloads: string[]): string[] {
    const table: Table = structuredClone({ entries: TABLES[posture], unions: UNIONS[posture] }) as Table;
    edit(table);
    const scanner = new FastPath(posture, new Set(), { table });
    return payloads.filter((p) => {
      const bytes = enc.encode(p);
      if (scanner.check(bytes, 0, bytes.length) === UNSURE) return false;
      return !validateEvent(JSON.parse(p), { posture }).ok;
    });
  }
  const payloads = [
    `${T},"content":[],"outcome":"error"}`,
    `${T},"content":[{"type":"zzz"}]}`,
    `${T},"content":[{"type":"text"}]}`,
    `${T},"content":[{"type":"resource"}]}`,
    `{"type":"content.block","seq":5,"block":{"type":"zzz"}}`,
    `{"type":"content.block","seq":5,"block":{"type":"image","source":{"type":"s3"}}}`,
    `${T},"content":[{"type":"tool-result","toolCallId":"d","content":[],"errorText":"x"}]}`,
    // Flat events.
    `{"type":"text.delta","seq":1,"id":"a"}`,
    `{"type":"message.start","seq":1,"id":"m","role":"robot","turnId":"t","threadId":"h"}`,
  ];
  const entry = (t: Table, type: string) => t.entries.find((e) => e.type === type)!;
  const toolDone = (t: Table) => t.entries.find((e) => e.type === "tool.done")!;
  const variant = (t: Table, tag: string) => t.unions.AgBlock!.variants.find((v) => v.type === tag)!;

  it("the generated table passes", () => {
    for (const posture of POSTURES) expect(wrongly(posture, () => {}, payloads)).toEqual([]);
  });
  it("a cross-field table that allows every state", () => {
    expect(
      wrongly("strict", (t) => void (toolDone(t).cross!.allowed = toolDone(t).cross!.allowed.replaceAll("0", "1")), payloads),
    ).not.toEqual([]);
  });
  it("a cross-field table dropped from a variant", () => {
    expect(wrongly("lenient", (t) => void delete variant(t, "tool-result").cross, payloads)).not.toEqual([]);
  });
  it("a producer-strict union made open", () => {
    expect(wrongly("strict", (t) => void (t.unions.AgBlock!.open = true), payloads)).not.toEqual([]);
  });
  it("a producer-strict source union made open (a single union object inside a block)", () => {
    expect(wrongly("strict", (t) => void (t.unions.AgSource!.open = true), payloads)).not.toEqual([]);
  });
  it("a variant's required field dropped", () => {
    expect(wrongly("lenient", (t) => void (variant(t, "text").required = ["type"]), payloads)).not.toEqual([]);
  });
  it("a flat event's required field dropped", () => {
    for (const posture of POSTURES)
      expect(wrongly(posture, (t) => void (entry(t, "text.delta").required = ["type", "seq", "id"]), payloads)).not.toEqual([]);
  });
  it("a flat event's enum widened", () => {
    const widen = (t: Table) => {
      const role = entry(t, "message.start").fields.role!;
      if (role.kind === "enum") (role as { values: string[] }).values = [...role.values, "robot"];
    };
    for (const posture of POSTURES) expect(wrongly(posture, widen, payloads)).not.toEqual([]);
  });
  it("an excluded variant's tag forgotten (lenient then takes it as unknown)", () => {
    expect(wrongly("lenient", (t) => void delete t.unions.AgBlock!.excluded.resource, payloads)).not.toEqual([]);
  });
});

describe("a run of frames in one pass (scanFrames)", () => {
  it("judges a run of SSE frames: stops at the first frame it leaves to the framer, counts, keeps the last seq", () => {
    const scanner = new FastPath("lenient", new Set(["turn.start"]));
    const frame = (json: string, prefix = "data: ", end = "\n\n") => `${prefix}${json}${end}`;
    const run = [
      frame(`${D},"delta":"x"}`),
      frame('{"type":"text.end","seq":2,"id":"a"}', "data:"),
      frame(`${D},"delta":"y"}`.replace('"seq":1', '"seq":3')),
    ];
    const stops = [
      frame('{"type":"turn.start","seq":4,"threadId":"h","turnId":"t"}'), // a type the caller left to the validator
      frame(`${D},"delta":"x"}`, "data: ", "\r\n\r\n"), // CRLF is the framer's
      `: comment\n\n`,
      frame(`${C},"block":{"type":"resource","resource":{"uri":"u"}}}`), // a variant the table leaves out
      frame(`${D},"delta":"x","_meta":{"a":[1,{"b":null}]}}`, "data: ", "\r\n\n"), // a CR in the line's end
      frame(`${D},"delta":"x"}`).slice(0, -1), // cut before its blank line
      `id: 7\n${frame(`${D},"delta":"x"}`)}`,
      frame(`${D},"delta":"\\u00ff\\u0000 \\"q\\"","_meta":{"a":[1,{"b":null}]},"extra":[true]}`), // accepted: escapes, a bag, an unknown field
    ];
    for (const [k, tail] of stops.entries()) {
      const bytes = Buffer.from(run.join("") + tail + frame(`${D},"delta":"after"}`));
      scanner.forget();
      const stop = scanner.scanFrames(bytes, 0, bytes.length, 1 << 20, 1000);
      const head = Buffer.byteLength(run.join(""));
      if (k === stops.length - 1) {
        expect(scanner.frames).toBe(5);
        expect(stop).toBe(bytes.length);
        expect(scanner.seq).toBe(1);
      } else {
        expect(stop, tail).toBe(head);
        expect(scanner.frames).toBe(3);
        expect(scanner.seq).toBe(3);
      }
    }
  });

  it("reads the seq of the run's last frame from its own digits, whatever the digits before it", () => {
    // Only the last accepted frame's seq is read (after the run): each run ends on a different
    // number of digits, the frames before it with longer and shorter ones, at every alignment.
    for (const lines of [false, true]) {
      for (const last of [0, 7, 10, 99, 100, 123_456, 999_999_999_999_999]) {
        for (let pad = 0; pad < 4; pad++) {
          const payloads = [901_234, 5, last].map((seq) => `{"type":"text.delta","id":"a","delta":"${"x".repeat(pad)}","seq":${seq}}`);
          const text =
            payloads.map((p) => (lines ? `${p}\n` : `data: ${p}\n\n`)).join("") + (lines ? '{"type":"text.end","seq":12345' : "data: {");
          const bytes = Buffer.from(text);
          for (const scanner of scanners.lenient) {
            scanner.forget();
            expect(scanner.scanFrames(bytes, 0, bytes.length, 1 << 20, 1000, lines)).toBe(text.lastIndexOf(lines ? "{" : "data: "));
            expect(scanner.frames).toBe(3);
            expect(scanner.seq).toBe(last);
          }
        }
      }
    }
  });

  it("keeps the seq of the last run when a run accepts no frame", () => {
    const scanner = new FastPath("lenient");
    const good = Buffer.from('data: {"type":"text.delta","seq":77,"id":"a","delta":"x"}\n\n');
    expect(scanner.scanFrames(good, 0, good.length, 1 << 20, 1000)).toBe(good.length);
    expect(scanner.seq).toBe(77);
    const bad = Buffer.from('data: {"type":"text.delta","seq":78,"id":"a","delta":1}\n\n');
    scanner.forget();
    expect(scanner.scanFrames(bad, 0, bad.length, 1 << 20, 1000)).toBe(0);
    expect(scanner.frames).toBe(0);
    expect(scanner.seq).toBe(77);
  });

  it("reads an integer's minimum from the table (the generated one has only 0)", () => {
    const table = structuredClone({ entries: FAST_PATH_LENIENT, unions: FAST_PATH_LENIENT_UNIONS }) as Editable<{
      entries: FastPathEntry[];
      unions: { [def: string]: FastPathUnion };
    }>;
    const seq = table.entries.find((e) => e.type === "text.delta")!.fields.seq as { kind: "integer"; minimum?: number };
    seq.minimum = 5;
    const scanner = new FastPath("lenient", new Set(), { table });
    for (const [n, accepted] of [
      [4, false],
      [5, true],
      [12, true],
    ] as const) {
      const bytes = enc.encode(`{"type":"text.delta","seq":${n},"id":"a","delta":"x"}`);
      expect(scanner.check(bytes, 0, bytes.length) !== UNSURE, `seq ${n}`).toBe(accepted);
      const frame = Buffer.from(`data: {"type":"text.delta","seq":${n},"id":"a","delta":"x"}\n\n`);
      expect(scanner.scanFrames(frame, 0, frame.length, 1 << 20, 1) === frame.length, `seq ${n} framed`).toBe(accepted);
    }
  });

  it("takes unions in its stride: tool.done blocks (nested too), content.block, a media source", () => {
    const scanner = new FastPath("lenient");
    const frames = [
      `${T},"content":[{"type":"text","text":"r"},{"type":"tool-result","toolCallId":"d","content":[{"type":"text","text":"in"}]}],"outcome":"ok"}`,
      `${C},"block":{"type":"image","source":{"type":"url","url":"https://x/a.png"}}}`,
      `${C},"block":{"type":"zzz","anything":[{"a":null}]}}`,
      `{"type":"artifact.delta","seq":6,"artifactId":"a","part":{"type":"text","text":"p"},"append":true}`,
    ].map((json) => `data: ${json}\n\n`);
    const bytes = Buffer.from(frames.join(""));
    expect(scanner.scanFrames(bytes, 0, bytes.length, 1 << 20, 100)).toBe(bytes.length);
    expect(scanner.frames).toBe(4);
    expect(scanner.seq).toBe(6);
    const strict = new FastPath("strict");
    // The unknown block tag is the strict validator's to refuse: the scanner stops there.
    expect(strict.scanFrames(bytes, 0, bytes.length, 1 << 20, 100)).toBe(Buffer.byteLength(frames[0]! + frames[1]!));
  });

  it("judges a run of NDJSON lines the same way", () => {
    const scanner = new FastPath("lenient");
    const lines = [`${D},"delta":"x"}\n`, `${D},"delta":"y"}  \r\n`, `${T},"content":[],"outcome":"ok"}\n`];
    const stop = ` ${D},"delta":"z"}\n`; // leading whitespace: the framer's general path
    const bytes = Buffer.from(lines.join("") + stop);
    expect(scanner.scanFrames(bytes, 0, bytes.length, 1 << 20, 100, true)).toBe(Buffer.byteLength(lines.join("")));
    expect(scanner.frames).toBe(3);
    expect(scanner.seq).toBe(4);
    // An SSE scan of NDJSON takes nothing, and an NDJSON scan of SSE neither.
    expect(scanner.scanFrames(bytes, 0, bytes.length, 1 << 20, 100, false)).toBe(0);
    const sse = Buffer.from(`data: ${D},"delta":"x"}\n\n`);
    expect(scanner.scanFrames(sse, 0, sse.length, 1 << 20, 100, true)).toBe(0);
  });

  it("keeps within the event and frame-size caps it is given, and to the UTF-8 it is sure of", () => {
    const scanner = new FastPath("lenient");
    const one = `data: ${D},"delta":"ünï"}\n\n`;
    const bytes = Buffer.from(one.repeat(10));
    const size = Buffer.byteLength(one);
    expect(scanner.scanFrames(bytes, 0, bytes.length, size, 4)).toBe(4 * size);
    expect(scanner.frames).toBe(4);
    expect(scanner.scanFrames(bytes, 0, bytes.length, size - 1, 100)).toBe(0);
    expect(scanner.frames).toBe(0);
    expect(scanner.scanFrames(bytes, 2 * size, bytes.length, size, 100)).toBe(bytes.length);
    expect(scanner.frames).toBe(8);
    // Malformed UTF-8 in the chunk: its native check fails, so each sequence is checked on its own
    // (as without the native check) and the run stops at the malformed frame.
    const bad = Buffer.concat([Buffer.from(one.repeat(2)), Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0x0a, 0x0a])]);
    const portable = new FastPath("lenient", new Set(), { portable: true });
    for (const s of [scanner, portable]) {
      s.forget();
      expect(s.scanFrames(bad, 0, bad.length, 1 << 20, 100)).toBe(2 * size);
      expect(s.scanFrames(bytes, 0, bytes.length, 1 << 20, 100)).toBe(bytes.length);
    }
  });
});

describe("a payload shaped like its type's last one (the scanner tries the last type and each field's last successor first)", () => {
  const taught = `${D},"delta":"x"}`;
  const check = (scanner: FastPath, text: string) => {
    const bytes = enc.encode(text);
    scanner.forget();
    return scanner.check(bytes, 0, bytes.length);
  };

  it("accepts a payload of the taught shape, reading its own seq", () => {
    for (const posture of POSTURES) {
      const scanner = new FastPath(posture, SEMANTIC_EVENT_TYPES);
      expect(check(scanner, taught)).not.toBe(UNSURE);
      const next = '{"type":"text.delta","seq":42,"id":"bb","delta":"yy \\"q\\" ü \\u00e9 \\n"}';
      expect(check(scanner, next)).not.toBe(UNSURE);
      expect(scanner.seq).toBe(42);
      expect(judge(next, posture)).toBe(true);
    }
  });

  it("refuses after a taught payload what it refuses alone: each value is checked, every other byte compared", () => {
    const probes = [
      ['"seq":01', "a leading zero"],
      ['"seq":-1', "a negative seq"],
      ['"seq":1.0', "a fraction"],
      ['"seq":1e2', "an exponent"],
      ['"seq":1234567890123456', "sixteen digits"],
      ['"seq":"1"', "a string seq"],
      ['"seq":', "no value"],
    ] as const;
    for (const posture of POSTURES) {
      for (const [seq, why] of probes) {
        expect(judge(taught, posture)).toBe(true);
        expect(judge(taught.replace('"seq":1', seq), posture), why).toBe(false);
      }
      for (const delta of ['"\u0001"', '"\\x"', '"\\u12"', '"\\u12g4"', '"x', '"x\\"}', "1", '"x","delta":"y"']) {
        expect(judge(taught, posture)).toBe(true);
        expect(judge(`${D},"delta":${delta}}`, posture), delta).toBe(false);
      }
      // A constant byte changed: the general path decides (here: the required id renamed away,
      // an id that is not a string; and a second field added, which lenient takes as unknown).
      expect(judge(taught, posture)).toBe(true);
      expect(judge(taught.replace('"id"', '"ix"'), posture)).toBe(false);
      expect(judge(taught.replace('"id":"a"', '"id":7'), posture)).toBe(false);
      expect(judge(taught.replace("}", ',"extra":"a"}'), posture)).toBe(posture === "lenient");
    }
  });

  it("tries the type that followed the last one, and judges every other type as it would alone", () => {
    // A taught succession (text.delta → text.end → tool.start → text.delta …), then at each step
    // every type the scanner might guess there: the hinted one, a name that only begins like it or
    // extends it, one of another length, one the caller leaves to the validator.
    const payload = (type: string, rest: string) => `{"type":"${type}","seq":3,${rest}}`;
    const succession = [
      payload("text.delta", '"id":"a","delta":"x"'),
      payload("text.end", '"id":"a"'),
      payload("tool.start", '"toolCallId":"c","name":"n"'),
    ];
    const probes = [
      ...succession,
      payload("text.en", '"id":"a"'),
      payload("text.endX", '"id":"a"'),
      payload("text.end", '"id":7'),
      payload("tool.start", '"toolCallId":"c"'),
      payload("text.deltas", '"id":"a","delta":"x"'),
      payload("turn.start", '"threadId":"h","turnId":"t"'),
      payload("message.remove", '"id":"*"'),
    ];
    for (const posture of POSTURES) {
      const scanner = new FastPath(posture, SEMANTIC_EVENT_TYPES);
      for (const p of succession) expect(check(scanner, p), p).not.toBe(UNSURE);
      for (let round = 0; round < 3; round++) {
        for (const [k, taughtOne] of succession.entries()) {
          for (const probe of probes) {
            for (const p of succession.slice(0, k + 1)) check(scanner, p);
            const verdict = check(scanner, probe);
            const value = JSON.parse(probe) as { type: string };
            const result = validateEvent(value, { posture });
            if (verdict !== UNSURE) {
              expect(result, `${posture}: accepted after ${taughtOne}: ${probe}`).toMatchObject({ ok: true, known: true });
              expect(scanner.types[verdict]).toBe(value.type);
            }
            expect(verdict === UNSURE, `${posture}: alone and after ${taughtOne}: ${probe}`).toBe(
              check(new FastPath(posture, SEMANTIC_EVENT_TYPES), probe) === UNSURE,
            );
          }
        }
      }
    }
  });

  it("holds the minimum of an integer field (a table with one)", () => {
    const table = structuredClone({ entries: FAST_PATH_LENIENT, unions: FAST_PATH_LENIENT_UNIONS }) as Editable<{
      entries: FastPathEntry[];
      unions: { [def: string]: FastPathUnion };
    }>;
    (table.entries.find((e) => e.type === "text.delta")!.fields.seq as { kind: "integer"; minimum?: number }).minimum = 5;
    const scanner = new FastPath("lenient", new Set(), { table });
    const at = (n: number) => check(scanner, `{"type":"text.delta","seq":${n},"id":"a","delta":"x"}`);
    expect(at(7)).not.toBe(UNSURE);
    expect(at(5)).not.toBe(UNSURE);
    expect(at(4)).toBe(UNSURE);
    expect(at(0)).toBe(UNSURE);
  });

  it("holds each scanner to its own depth cap, whatever another scanner of the same table accepted", () => {
    const deep = new FastPath("lenient");
    const shallow = new FastPath("lenient", new Set(), { maxDepth: 3 });
    // The event, then {"a":{"b":[1]}} three levels below it: four levels, over a cap of 3.
    const nested = (seq: number) => `{"type":"text.delta","seq":${seq},"id":"a","delta":"x","extra":{"a":{"b":[1]}}}`;
    expect(check(deep, nested(1))).not.toBe(UNSURE);
    expect(check(shallow, nested(2))).toBe(UNSURE);
    expect(check(deep, nested(3))).not.toBe(UNSURE);
    const flat = (seq: number) => `{"type":"text.delta","seq":${seq},"id":"a","delta":"x","extra":[1]}`;
    expect(check(shallow, flat(4))).not.toBe(UNSURE);
    expect(check(deep, flat(5))).not.toBe(UNSURE);
    expect(check(shallow, nested(6))).toBe(UNSURE);
  });

  it("takes a line break as whitespace in check only: after a payload holding one, scanFrames still stops at a data line's end", () => {
    const scanner = new FastPath("lenient");
    const spaced = (seq: number) => `{"type":"text.delta","seq":${seq},"id":"a",\n"delta":"x"}`;
    expect(check(scanner, spaced(1))).not.toBe(UNSURE);
    expect(check(scanner, spaced(2))).not.toBe(UNSURE);
    const frames = Buffer.from(`data: ${spaced(3)}\n\ndata: ${D},"delta":"x"}\n\n`);
    scanner.forget();
    expect(scanner.scanFrames(frames, 0, frames.length, 1 << 20, 100)).toBe(0);
    const lines = Buffer.from(`${spaced(4)}\n${D},"delta":"x"}\n`);
    scanner.forget();
    expect(scanner.scanFrames(lines, 0, lines.length, 1 << 20, 100, true)).toBe(0);
  });

  it("mutants of a payload just taught, byte by byte: never accepted where the validator refuses", () => {
    const seeds = [
      ...benchEvents().slice(0, 8),
      ...gatewayTestEvents()
        .slice(0, 8)
        .map((e) => e.event),
    ].map((e) => JSON.stringify(e));
    judgeMutations(seeds, [0x22, 0x5c, 0x7b, 0x7d, 0x2c, 0x3a, 0x30, 0x2d, 0x31, 0x80, 0xc3, 0x0a], 3, true);
  });
});

describe("the gateway with and without the fast path", () => {
  async function output(input: Uint8Array[], opts: EventValidationOptions): Promise<{ bytes: string; stats: unknown }> {
    const stream = createEventValidationStream(opts);
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        for (const part of input) c.enqueue(part);
        c.close();
      },
    });
    const chunks: Uint8Array[] = [];
    const reader = source.pipeThrough(stream).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    const { peakBufferedBytes: _peak, ...stats } = stream.stats;
    return { bytes: Buffer.concat(chunks).toString("latin1"), stats };
  }

  it("writes the same bytes and counts the same events", async () => {
    // An injected validator (even one wrapping the default) turns the fast path off.
    const injected = (x: unknown, o?: { posture?: Posture }) => validateEvent(x, o);
    const frames = [...gatewayTestEvents().map((e) => e.event), ...benchEvents().slice(0, 300)].map((e, k) => {
      const json = JSON.stringify(e);
      return k % 3 === 0 ? `data: ${json}\n\n` : k % 3 === 1 ? `data:${json}\r\n\r\n` : `id: ${k}\ndata: ${json}\n\n`;
    });
    frames.push(`data: ${D},"delta":"x","delta":5}\n\n`, `data: ${D},"delta":"x"}\n\n`, 'data: {"type":"turn.abort","seq":9}\n\n');
    frames.push(
      `data: ${D},"delta":"x","_meta":{"a":[{"b":1}]}}\n\n`,
      `data: ${D},"delta":"x","_meta":{}}\n\n`,
      `data: ${D},"delta":"x","_meta":{"a":}}\n\n`,
    );
    // Single union objects and a lenient event's unknown nested fields: valid, unknown-tag and broken.
    frames.push(
      `data: ${C},"block":{"type":"image","source":{"type":"url","url":"https://x/a.png"}}}\n\n`,
      `data: ${C},"block":{"type":"zzz","a":[{"b":[]}]}}\n\n`,
      `data: ${C},"block":{"type":"image","source":{"type":"url"}}}\n\n`,
      `data: {"type":"artifact.delta","seq":6,"artifactId":"a","part":{"type":"text","text":"p"},"append":true}\n\n`,
      `data: ${D},"delta":"x","extra":{"a":[[{}]]}}\n\n`,
    );
    const mixed = Buffer.from(frames.join(""));
    // The shape producers write, where scanFrames takes long runs of frames at once.
    const plain = Buffer.from(
      [...gatewayTestEvents().map((e) => e.event), ...benchEvents()].map((e) => `data: ${JSON.stringify(e)}\n\n`).join(""),
    );
    // NDJSON: LF and CRLF lines, a blank line, a line with leading space, a broken one.
    const ndjson = Buffer.from(
      [...gatewayTestEvents().map((e) => e.event), ...benchEvents()]
        .map((e, k) =>
          k % 17 === 5 ? ` ${JSON.stringify(e)}\r\n` : k % 11 === 3 ? `${JSON.stringify(e)}\r\n\n` : `${JSON.stringify(e)}\n`,
        )
        .join("") + `${D},"delta":"x"\n${D},"delta":"y"}\n`,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(mixed, plain, ndjson),
        fc.array(fc.nat({ max: mixed.length }), { maxLength: 12 }),
        fc.constantFrom(...POSTURES),
        fc.constantFrom("drop" as const, "terminate" as const),
        fc.constantFrom(1, 2, 3, 64),
        fc.constantFrom({}, { maxEvents: 40 }, { maxEventBytes: 200 }),
        async (whole, cuts, posture, onInvalid, maxDepth, limits) => {
          const points = [0, ...[...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b), whole.length];
          const chunks = points
            .slice(1)
            .map((p, k) => whole.subarray(points[k], p))
            .filter((c) => c.length > 0);
          const caps = { maxDepth: maxDepth, ...limits };
          const fast = await output(chunks, { posture, onInvalid, turnId: "tu", caps });
          const slow = await output(chunks, { posture, onInvalid, turnId: "tu", caps, validate: injected });
          expect(fast).toEqual(slow);
        },
      ),
      { numRuns: 80 },
    );
  });
});

/** The events of `bench/gateway.ts`'s stream (the same shapes; a short run of it). */
function benchEvents(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let seq = 0;
  const push = (e: Record<string, unknown>) => out.push({ ...e, seq: seq++ });
  push({ type: "turn.start", threadId: "th", turnId: "tu" });
  push({ type: "message.start", id: "m", role: "assistant", turnId: "tu", threadId: "th" });
  let block = 0;
  push({ type: "text.start", id: `t${block}` });
  while (seq < 200) {
    if (seq % 50 === 0) {
      push({ type: "text.end", id: `t${block}` });
      const id = `call_${seq}`;
      push({ type: "tool.start", toolCallId: id, name: "search" });
      push({ type: "tool.args.delta", toolCallId: id, delta: '{"q":"agjson gateway"}' });
      push({ type: "tool.args.assembled", toolCallId: id, input: { q: "agjson gateway" } });
      push({ type: "tool.done", toolCallId: id, content: [{ type: "text", text: "result ".repeat(20) }], outcome: "ok" });
      block++;
      push({ type: "text.start", id: `t${block}` });
    } else {
      push({
        type: "text.delta",
        id: `t${block}`,
        delta: `token ${seq} — some streamed text with ünïcødé and "quotes" ${"x".repeat(seq % 7)}`,
      });
    }
  }
  push({ type: "text.end", id: `t${block}` });
  push({ type: "message.end", id: "m" });
  push({ type: "turn.done", turnId: "tu", outcome: { type: "success" }, finishReason: "stop" });
  return out;
}

/** The events `gateway.test.ts` and `event-validation-stream.test.ts` send (their shapes). */
function gatewayTestEvents(): { event: Record<string, unknown>; valid: boolean }[] {
  const v = (event: Record<string, unknown>) => ({ event, valid: true });
  const x = (event: Record<string, unknown>) => ({ event, valid: false });
  return [
    v({ type: "turn.start", seq: 0, threadId: "thread-1", turnId: "turn-1" }),
    v({ type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "turn-1", threadId: "thread-1" }),
    v({ type: "text.start", seq: 2, id: "t1" }),
    x({ type: "text.delta", seq: 3, id: "t1", delta: 42 }),
    v({ type: "vendor.thing.update", seq: 4, note: "unknown type" }),
    v({ type: "text.delta", seq: 5, id: "t1", delta: "x".repeat(3000) }),
    v({ type: "text.delta", seq: 6, id: "t1", delta: `δ6 — ünïcødé 世界 🎉 "quoted" \\ back\nline` }),
    v({ type: "text.delta", seq: 7, id: "b", delta: "crlf" }),
    x({ type: "text.delta", seq: 8, id: "b", delta: 7 }),
    x({ type: "text.delta", seq: 9 }),
    v({ type: "text.delta", seq: 10, id: "b", delta: "x", surprise: true }),
    v({ type: "text.end", seq: 11, id: "t1" }),
    v({ type: "message.end", seq: 12, id: "m1" }),
    v({ type: "turn.done", seq: 13, turnId: "turn-1", outcome: { type: "success" }, finishReason: "stop" }),
    v({ type: "turn.error", seq: 14, turnId: "turn-1", message: "boom", code: "x", retriable: true }),
    v({ type: "error", seq: 15, code: "agjson.gateway.invalid-event", message: "dropped", retriable: false }),
  ];
}
