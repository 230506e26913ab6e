/**
 * §13.2 and issue 20 item 12: a number inside an opaque carrier (`providerMetadata`, a
 * `provider-raw` block, tool arguments and results, message metadata, state) leaves `agjson
 * reduce` byte-identical even when a double cannot hold it; a number the schema types (`seq`, a
 * token count) is judged and folded as the double it is. A `seq` that is not a safe integer is
 * refused by `validate --posture strict` and by `reduce` (the gateway's side is pinned in
 * fidelity-hostile-and-numbers.test.ts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runReduce } from "../../src/cli/reduce-command.js";
import { JsonNumberText, hasInexactNumber, parseExactNumbers, stringifyExact } from "../../src/wire/exact-numbers.js";
import { agjson, chunked, collector, enc, reduceDefaults } from "./support.js";

/** Number spellings a double cannot write back verbatim. */
const INEXACT = [
  "12345678901234567890123",
  "1e400",
  "-1E+400",
  "0.1000000000000000055511151231257827",
  "-0",
  "-0.0",
  "1.0",
  "1E2",
  "99999999999999999999",
  "5e-400",
];

const stream = (n: string) => [
  `{"type":"turn.start","seq":0,"threadId":"th","turnId":"t1"}`,
  `{"type":"message.start","seq":1,"id":"m1","role":"assistant","turnId":"t1","threadId":"th"}`,
  `{"type":"text.start","seq":2,"id":"x1","messageId":"m1","providerMetadata":{"n":${n},"list":[${n},7],"__proto__":{"polluted":${n}}}}`,
  `{"type":"text.delta","seq":3,"id":"x1","delta":"${n}"}`,
  `{"type":"text.end","seq":4,"id":"x1"}`,
  `{"type":"tool.start","seq":5,"toolCallId":"c1","name":"f","messageId":"m1"}`,
  `{"type":"tool.args.assembled","seq":6,"toolCallId":"c1","input":{"n":${n}}}`,
  `{"type":"tool.done","seq":7,"toolCallId":"c1","content":[{"type":"provider-raw","vendor":"acme","raw":{"n":${n}}}],"structuredContent":{"n":${n}}}`,
  `{"type":"message.metadata","seq":8,"messageId":"m1","metadata":{"n":${n}}}`,
  `{"type":"message.end","seq":9.0,"id":"m1","turnId":"t1","usage":{"inputTokens":10.0,"outputTokens":1}}`,
  `{"type":"state.snapshot","seq":10,"snapshot":{"a":${n},"b":{"c":${n}}}}`,
  `{"type":"state.delta","seq":11,"patch":[{"op":"copy","from":"/b","path":"/d"},{"op":"test","path":"/a","value":${n}}]}`,
  `{"type":"state.delta","seq":12,"patch":{"node":{"e":${n}}}}`,
  `{"type":"turn.done","seq":13,"turnId":"t1","outcome":{"type":"success"},"finishReason":"stop"}`,
];

async function reduceText(lines: string[], pretty = false): Promise<{ code: number; text: string }> {
  const c = collector();
  const code = await runReduce(chunked(enc(lines.join("\n") + "\n"), 97), { ...reduceDefaults, pretty }, c.out, (l) => c.errors.push(l));
  return { code, text: c.lines().join("\n") };
}

/** The value at `path` (property names and indexes) of a tree parsed with number texts kept. */
function at(tree: unknown, ...path: (string | number)[]): unknown {
  let v = tree;
  for (const key of path) v = (v as Record<string | number, unknown>)[key];
  return v;
}

describe("agjson reduce keeps opaque numbers byte-identical (§13.2)", () => {
  for (const n of INEXACT) {
    for (const pretty of [false, true]) {
      it(`${n} in every opaque carrier${pretty ? " (--pretty)" : ""}`, async () => {
        const { code, text } = await reduceText(stream(n), pretty);
        expect(code).toBe(0);
        const doc = parseExactNumbers(text);
        expect(at(doc, "errors")).toEqual([]);
        expect(at(doc, "needsResync")).toBe(false);
        const msg = ["result", "messages", 0] as const;
        const places: (string | number)[][] = [
          [...msg, "content", 0, "providerMetadata", "n"],
          [...msg, "content", 0, "providerMetadata", "list", 0],
          [...msg, "content", 0, "providerMetadata", "__proto__", "polluted"],
          [...msg, "content", 1, "input", "n"],
          [...msg, "content", 2, "content", 0, "raw", "n"],
          [...msg, "content", 2, "structuredContent", "n"],
          [...msg, "metadata", "n"],
          ["result", "state", "a"],
          ["result", "state", "b", "c"],
          ["result", "state", "d", "c"],
          ["result", "state", "e"],
        ];
        for (const place of places) {
          const leaf = at(doc, ...place);
          expect(leaf, place.join("/")).toBeInstanceOf(JsonNumberText);
          expect((leaf as JsonNumberText).text, place.join("/")).toBe(n);
        }
        // A text delta that spells the number is a string, untouched.
        expect(at(doc, ...msg, "content", 0, "text")).toBe(n);
        // Typed numbers are the doubles they were judged as: `9.0` folded as seq 9, `10.0` tokens as 10.
        expect(at(doc, ...msg, "usage", "inputTokens")).toBe(10);
        expect(text).toContain(pretty ? `"inputTokens": 10,` : `"inputTokens":10,`);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        // The document is JSON that any reader parses, with the nearest doubles.
        expect(() => JSON.parse(text) as unknown).not.toThrow();
      });
    }
  }

  it("an input with no inexact number prints as before, byte for byte", async () => {
    const lines = stream("42");
    expect(lines.some(hasInexactNumber)).toBe(true); // `9.0`, `10.0` in the typed fields
    const plain = lines.map((l) => l.replace("9.0", "9").replace("10.0", "10"));
    expect(plain.some(hasInexactNumber)).toBe(false);
    const exact = await reduceText(lines);
    const before = await reduceText(plain);
    expect(exact.text).toBe(before.text);
    expect(JSON.parse(before.text)).toMatchObject({ errors: [], needsResync: false });
  });

  it("through the built CLI: the bytes of an oversized integer reach stdout", () => {
    const r = agjson(["reduce", "-"], stream("12345678901234567890123").join("\n") + "\n");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain(`"providerMetadata":{"n":12345678901234567890123,"list":[12345678901234567890123,7]`);
  });
});

describe("seq is a safe integer at every CLI boundary (§5.0 INV-SEQ)", () => {
  const unsafe = ["9007199254740992", "1e400", "123456789012345678901234567890", "-1", "1.5"];
  for (const seq of unsafe) {
    it(`seq ${seq}: validate --posture strict exits 1 naming /seq; reduce rejects the record and folds the rest`, async () => {
      const line = `{"type":"text.delta","seq":${seq},"id":"b","delta":"x"}`;
      const v = agjson(["validate", "--posture", "strict", "-"], line + "\n");
      expect(v.code).toBe(1);
      expect(v.out).toContain("/seq");
      const { code, text } = await reduceText([`{"type":"turn.start","seq":0,"threadId":"th","turnId":"t1"}`, line]);
      expect(code).toBe(1);
      const doc = JSON.parse(text) as {
        errors: { kind: string; index: number; errors: { path: string }[] }[];
        result: { turns: unknown[] };
      };
      expect(doc.errors).toHaveLength(1);
      expect(doc.errors[0]).toMatchObject({ kind: "invalid-event", index: 1 });
      expect(doc.errors[0]?.errors[0]?.path).toBe("/seq");
      expect(doc.result.turns).toHaveLength(1);
      expect(text).not.toContain('"seq":null');
    });
  }
});

describe("the exact-number reader and writer agree with JSON (properties)", () => {
  const numberText = fc
    .tuple(
      fc.boolean(),
      fc.oneof(fc.constant("0"), fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String)),
      fc.option(fc.stringMatching(/^[0-9]{1,40}$/)),
      fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), fc.integer({ min: 0, max: 500 }))),
    )
    .map(
      ([neg, int, frac, exp]) =>
        `${neg ? "-" : ""}${int}${frac !== null ? `.${frac}` : ""}${exp !== null ? `${exp[0]}${exp[1]}${exp[2]}` : ""}`,
    );

  it("stringifyExact is JSON.stringify on values without number texts (compact and indented)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 2), (v, indent) => {
        expect(stringifyExact(v, indent)).toBe(JSON.stringify(v, null, indent));
      }),
    );
  });

  it("parseExactNumbers is JSON.parse on canonical JSON, and writes any number spelling back verbatim", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        expect(hasInexactNumber(text)).toBe(false);
        expect(parseExactNumbers(text)).toStrictEqual(JSON.parse(text));
      }),
    );
    fc.assert(
      fc.property(fc.array(numberText, { minLength: 1, maxLength: 5 }), fc.string(), (nums, s) => {
        const text = `{"s":${JSON.stringify(s)},"a":[${nums.join(",")}],"o":{"k":${nums[0]}}}`;
        const parsed = parseExactNumbers(text);
        expect(stringifyExact(parsed)).toBe(text);
        expect(hasInexactNumber(text)).toBe(nums.some((n) => JSON.stringify(JSON.parse(n)) !== n));
      }),
    );
  });
});
