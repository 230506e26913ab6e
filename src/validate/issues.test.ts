/**
 * The issues a validator reports name what to change: a broken cross-field rule (§2.2 errorText /
 * isError / outcome, §5 message.remove "*", memory.write value|patch) is reported by the ways to
 * satisfy it, never by AJV's `not` ("the condition holds") or its summary that names no field.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedValidator } from "../../conformance/generated-validators.js";
import { loadValidateFixtures } from "../../conformance/validate-fixtures.js";
import { toIssues } from "./issues.js";
import { validateBlock, validateEvent, validateInput, validateMessage } from "./index.js";

const fixtures = loadValidateFixtures(join(import.meta.dirname, "../../conformance/validate"));

describe("issues of a broken cross-field rule", () => {
  it("a tool.done with outcome error and no errorText: the one missing field (§2.2)", () => {
    const r = validateEvent({ type: "tool.done", seq: 2, toolCallId: "c", outcome: "error" }, { posture: "strict" });
    expect(r.ok ? [] : r.errors).toEqual([
      {
        path: "/errorText",
        keyword: "required",
        spec: "§4",
        message: 'missing required field "errorText" (a cross-field rule requires it here)',
      },
    ]);
  });

  it("isError true with outcome ok: one issue naming both ways out (§2.2)", () => {
    const r = validateEvent({ type: "tool.done", seq: 2, toolCallId: "c", outcome: "ok", isError: true }, { posture: "lenient" });
    expect(r.ok ? [] : r.errors).toEqual([
      {
        path: "",
        keyword: "anyOf",
        spec: "§4",
        message: 'breaks a cross-field rule; any one of these satisfies it: /outcome must be "error"; or /isError must be false',
      },
    ]);
  });

  it("memory.write with neither value nor patch: either field", () => {
    const r = validateEvent({ type: "memory.write", seq: 1, id: "m", scope: "thread", key: "k" }, { posture: "strict" });
    expect(r.ok ? [] : r.errors).toEqual([
      {
        path: "",
        keyword: "oneOf",
        spec: "§4",
        message: "breaks a cross-field rule; any one of these satisfies it: /value present; or /patch present",
      },
    ]);
  });

  it("inside a message and a block, the issue points at the nested field", () => {
    const block = { type: "tool-result", toolCallId: "c", content: [], outcome: "error" };
    const m = validateMessage({ id: "m", role: "tool", content: [block] }, { posture: "strict" });
    expect(m.ok ? [] : m.errors.map((e) => [e.path, e.keyword])).toEqual([["/content/0/errorText", "required"]]);
    const b = validateBlock(block, { posture: "lenient" });
    expect(b.ok ? [] : b.errors.map((e) => [e.path, e.keyword])).toEqual([["/errorText", "required"]]);
  });

  it("two alternatives that both pass are still named as such (oneOf, more than one)", () => {
    const r = validateEvent(
      { type: "memory.write", seq: 1, id: "m", scope: "thread", key: "k", value: 1, patch: [] },
      { posture: "strict" },
    );
    expect(r.ok ? [] : r.errors.map((e) => e.keyword)).toEqual(["oneOf"]);
  });
});

describe("every invalid conformance fixture, both postures", () => {
  const invalid = fixtures.flatMap((f) =>
    (["strict", "lenient"] as const).flatMap((posture) => {
      if (f[posture] !== "invalid" || f.semantic !== undefined) return [];
      const v = generatedValidator(posture, f.def ?? f.exemplifies);
      return v(f.document) ? [] : [{ name: `${f.name} (${posture})`, issues: toIssues(v.errors, f.spec) }];
    }),
  );

  it("covers the fixtures that break a cross-field rule", () => {
    expect(
      invalid.filter((x) => x.issues.some((i) => i.keyword === "anyOf" || i.message.includes("cross-field rule"))).length,
    ).toBeGreaterThan(15);
  });

  it("reports each broken rule once, by a way to satisfy it where it has one", () => {
    // Left as AJV words them: the untagged union AgSourcePayload (its alternatives are `$ref`s, each
    // failing with its own precise errors), never a cross-field rule of one object.
    const vague = invalid.flatMap((x) =>
      x.issues
        .filter(
          (i) =>
            i.keyword === "not" ||
            ((i.keyword === "anyOf" || i.keyword === "oneOf") &&
              !i.message.includes("/") &&
              !i.message.includes("more than one") &&
              !i.message.includes("only apart")),
        )
        .map((i) => `${x.name}: ${i.keyword}`),
    );
    expect([...new Set(vague.map((v) => v.split("/")[0]))].sort()).toEqual([
      "AgDocumentSourcePayload",
      "AgSourcePayload",
      "AgUrlSourcePayload",
    ]);
  });

  it("both of two exclusive fields: one issue, not one per alternative", () => {
    const both = invalid.find((x) => x.name === "AgA2uiError/both-fields.json (strict)");
    expect(both?.issues.map((i) => i.keyword)).toEqual(["oneOf"]);
  });
});

describe("an unknown field under producer-strict says where this object carries extras (§0.2, §12)", () => {
  const hintOf = (r: { ok: boolean; errors?: readonly { message: string }[] }) =>
    r.ok ? undefined : /\(([^()]*)\)$/.exec(r.errors![0]!.message)?.[1];

  it("an AgInput envelope has metadata, no _meta (§3)", () => {
    const input = { protocol: "agjson", version: "1.0.0", kind: "start", threadId: "th", turnId: "t", messages: [], _meta: { x: 1 } };
    const r = validateInput(input, { posture: "strict" });
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(["/_meta"]);
    expect(hintOf(r)).toBe("use metadata for extras");
  });

  it("an event names the carriers its type declares", () => {
    expect(hintOf(validateEvent({ type: "turn.start", seq: 0, threadId: "th", turnId: "t", foo: 1 }, { posture: "strict" }))).toBe(
      "use _meta for extras",
    );
    expect(hintOf(validateEvent({ type: "text.delta", seq: 0, id: "x", delta: "d", foo: 1 }, { posture: "strict" }))).toBe(
      "use _meta or providerMetadata for extras",
    );
  });

  it("an object with no carrier points at an enclosing one", () => {
    const r = validateEvent({ type: "message.end", seq: 0, id: "x", usage: { inputTokens: 1, foo: 2 } }, { posture: "strict" });
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(["/usage/foo"]);
    expect(hintOf(r)).toBe("this object has no field for extras: carry them in an enclosing object's _meta");
  });

  it("an additionalProperties error from another validator names every carrier", () => {
    const issues = toIssues(
      [{ instancePath: "", schemaPath: "#/additionalProperties", keyword: "additionalProperties", params: { additionalProperty: "x" } }],
      "§4",
    );
    expect(issues[0]!.message).toMatch(/carry extras in the object's _meta, providerMetadata or metadata, whichever it has\)$/);
  });
});
