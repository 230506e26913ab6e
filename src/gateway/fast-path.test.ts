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
import { FAST_PATH_LENIENT, FAST_PATH_STRICT } from "../../generated/fast-path.js";
import { validateEvent } from "../validate/index.js";
import { createEventValidationStream, type EventValidationOptions } from "./event-validation-stream.js";
import { FastPath, UNSURE } from "./fast-path.js";
import type { Posture } from "./validator.js";

const POSTURES: Posture[] = ["lenient", "strict"];
// Each posture twice: with Node's native UTF-8 check, and with the JavaScript one Web runtimes use.
const scanners = {
  lenient: [new FastPath("lenient"), new FastPath("lenient", new Set(), { portable: true })],
  strict: [new FastPath("strict"), new FastPath("strict", new Set(), { portable: true })],
};
const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const enc = new TextEncoder();

/**
 * Runs one payload through the fast path, in a Buffer and in a plain Uint8Array, alone and framed
 * at every alignment inside a larger buffer (the word-at-a-time scan depends on alignment, and the
 * bytes around a payload must never leak into its verdict). Fails if the fast path accepts what
 * the validator refuses; returns whether it accepted.
 */
function judge(payload: Uint8Array | string, posture: Posture): boolean {
  const bytes = typeof payload === "string" ? enc.encode(payload) : payload;
  const verdicts: number[] = [];
  const views: [Uint8Array, number, number][] = [[Buffer.from(bytes), 0, bytes.length], [Uint8Array.from(bytes), 0, bytes.length]];
  for (let pad = 0; pad < 4; pad++) {
    // Surrounded by bytes that would complete or extend a truncated payload.
    const framed = Buffer.concat([Buffer.from(" ".repeat(pad) + "data: "), Buffer.from(bytes), Buffer.from('"}\n\n{"type":"text.end","seq":1,"id":"x"}\n')]);
    views.push([framed, pad + 6, pad + 6 + bytes.length]);
  }
  for (const scanner of scanners[posture]) for (const [view, start, end] of views) {
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
  expect(new Set(verdicts.map((v) => v === UNSURE)).size, `verdict depends on where the payload lies: ${Buffer.from(bytes).toString()}`).toBe(1);
  return verdicts[0] !== UNSURE;
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

/** Whether the table names every field of `doc` with a check (what the fast path should accept). */
function judgeable(doc: Record<string, unknown>, posture: Posture): boolean {
  const entry = TABLES[posture].find((e) => e.type === doc.type);
  if (entry === undefined) return false;
  return Object.entries(doc).every(([k, v]) => {
    const check = entry.fields[k];
    if (check === undefined) return !entry.closed && (v === null || ["string", "number", "boolean"].includes(typeof v));
    if (check.kind === "json") return true;
    if (check.kind === "object") return typeof v === "object" && v !== null && !Array.isArray(v);
    return check.kind !== "unchecked" && (typeof v !== "number" || (Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)));
  });
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
        if (valid.ok && valid.known && judgeable(doc, posture)) expect(judge(typeFirst, posture), `${f.name} (${posture})`).toBe(true);
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
    ["a nested value in an unknown field", `${D},"delta":"x","extra":{"a":1}}`],
    ["an array in an unknown field", `${D},"delta":"x","extra":[1]}`],
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
    ["an enum value", '{"type":"message.start","seq":1,"id":"m","role":"user","turnId":"t","threadId":"th"}', POSTURES],
    ["a const true", '{"type":"artifact.end","seq":1,"artifactId":"a","lastChunk":true}', POSTURES],
    ["a boolean", '{"type":"guardrail.result","seq":1,"target":"input","passed":false}', POSTURES],
    ["an open bag with nested values", `${D},"delta":"x","_meta":{"a":[1,-2.5e3,{"b":null,"b":true}],"c":{},"d":[],"é":"\u00e9"},"providerMetadata":{ "x" : [ ] }}`, POSTURES],
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
  const NAMES = ["type", "seq", "id", "delta", "turnId", "role", "_meta", "extra", "lastChunk", "passed", "target", "ключ", "\\u0069d", "input", "toolCallId", "patch"];
  const TYPES = ["text.delta", "text.end", "message.start", "artifact.end", "guardrail.result", "turn.abort", "vendor.x", "ext.acme.ping", "tool.args.assembled", "state.delta"];
  const rawScalar = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => JSON.stringify(s)),
    fc.string({ unit: "binary", maxLength: 12 }).map((s) => JSON.stringify(s)),
    fc.constantFrom('"\\ud800"', '"\\x"', '"a\\u00"', "0", "-0", "1", "1.0", "1e2", "01", "-1", "9007199254740993", "true", "false", "null", "{}", "[]", '"user"', '"input"'),
    fc.json({ maxDepth: 4 }),
    fc.json({ maxDepth: 3 }).map((j) => j.slice(0, Math.max(0, j.length - 1))),
    fc.constantFrom('{"a":}', "[1,]", '{"a" 1}', "{1:2}", "[1}", '{"a":[]', '{"a":{"b":{"c":{"d":[[[[[[]]]]]]}}}}', '[ 1 , { "x" : null } ]'),
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
    const seeds = [...benchEvents().slice(0, 8), ...gatewayTestEvents().slice(0, 8).map((e) => e.event)].map((e) => enc.encode(JSON.stringify(e)));
    const mutation = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x22, 0x5c, 0x7b, 0x7d, 0x2c, 0x3a, 0x30, 0x2d, 0x80, 0xc3, 0xed, 0xf0));
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }), (which, edits) => {
        let bytes = [...seeds[which % seeds.length]!];
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
    frames.push(`data: ${D},"delta":"x","delta":5}\n\n`, `data: ${D},"delta":"x"}\n\n`, "data: {\"type\":\"turn.abort\",\"seq\":9}\n\n");
    frames.push(`data: ${D},"delta":"x","_meta":{"a":[{"b":1}]}}\n\n`, `data: ${D},"delta":"x","_meta":{}}\n\n`, `data: ${D},"delta":"x","_meta":{"a":}}\n\n`);
    const whole = Buffer.from(frames.join(""));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat({ max: whole.length }), { maxLength: 12 }), fc.constantFrom(...POSTURES), fc.constantFrom("drop" as const, "terminate" as const), fc.constantFrom(1, 2, 3, 64), async (cuts, posture, onInvalid, maxDepth) => {
        const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), whole.length];
        const chunks = points.slice(1).map((p, k) => whole.subarray(points[k], p)).filter((c) => c.length > 0);
        const caps = { maxDepth: maxDepth };
        const fast = await output(chunks, { posture, onInvalid, turnId: "tu", caps });
        const slow = await output(chunks, { posture, onInvalid, turnId: "tu", caps, validate: injected });
        expect(fast).toEqual(slow);
      }),
      { numRuns: 40 },
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
      push({ type: "text.delta", id: `t${block}`, delta: `token ${seq} — some streamed text with ünïcødé and "quotes" ${"x".repeat(seq % 7)}` });
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
