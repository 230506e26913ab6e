/**
 * `createNormalizer` (§8.0) refuses what it cannot honour with a typed error, never a broken
 * Normalizer. Before: the facet was looked up on a plain object, so `createNormalizer("constructor")`
 * returned the options object and `createNormalizer("toString")` a string, each passed off as a
 * Normalizer (and "__proto__" threw "r is not a function"); a `threadId` that is not a string made
 * `turn.start` fail the output guard, so the stream carried no `turn.start` and every later event
 * had no owning turn (INV-TURN, INV-OWNER: the fold parks on its first content event); a `turnId`
 * object was stamped into every derived id as "[object Object]" (§0.5, §1.2).
 */
import { describe, expect, it } from "vitest";
import { createNormalizer, FACETS } from "../../src/normalize/index.js";
import { reduce } from "../../src/reduce/index.js";
import { runConvert } from "../../src/cli/convert-command.js";
import { normalizeAll, recordedStreams, type Recorded } from "./normalizer-mutation.js";

const anthropic = [
  {
    type: "message_start",
    message: { id: "msg", type: "message", role: "assistant", model: "x", content: [], usage: { input_tokens: 1, output_tokens: 0 } },
  },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "hi" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
  { type: "message_stop" },
];

describe("createNormalizer's facet name is looked up as a name, never on Object.prototype (§8.0)", () => {
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", ""]) {
    it(`"${name}" is the typed unknown-facet error`, () => {
      expect(() => createNormalizer(name as never)).toThrow(/No normalizer for facet/);
    });
  }

  it("every listed facet still builds a Normalizer", () => {
    for (const facet of FACETS) {
      const n = createNormalizer(facet);
      expect(typeof n.push).toBe("function");
      expect(typeof n.flush).toBe("function");
    }
  });
});

describe("createNormalizer's ids must be strings (§1.2, INV-TURN)", () => {
  for (const [what, opts] of [
    ["threadId 42", { threadId: 42 }],
    ["threadId null", { threadId: null }],
    ["turnId {}", { turnId: {} }],
    ["turnId 10n", { turnId: 10n }],
    ["turnId true", { turnId: true }],
  ] as const) {
    it(`${what}: a TypeError naming the option`, () => {
      const key = Object.keys(opts)[0]!;
      expect(() => createNormalizer("anthropic", opts as never)).toThrow(TypeError);
      expect(() => createNormalizer("anthropic", opts as never)).toThrow(new RegExp(key));
    });
  }

  it("options that are not an object: a TypeError", () => {
    expect(() => createNormalizer("anthropic", null as never)).toThrow(TypeError);
  });

  it("string ids (empty included, as the schema allows) open and close the turn the fold sees", () => {
    for (const opts of [{}, { threadId: "th", turnId: "t" }, { threadId: "" }]) {
      const n = createNormalizer("anthropic", opts);
      const events = [...anthropic.flatMap((c) => n.push(c)), ...n.flush()];
      expect(events[0]!.type).toBe("turn.start");
      const folded = reduce(events);
      expect(folded.errors).toEqual([]);
      expect(folded.needsResync).toBe(false);
      expect(folded.result.turns).toHaveLength(1);
    }
  });
});

describe("agjson convert --to takes only its targets' names (an Object.prototype name once crashed it)", () => {
  // Before: `--to constructor` found Object.prototype.constructor, passed the check and failed
  // later as "cannot read stdin: u.push is not a function" — a usage error misreported as I/O.
  for (const to of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    it(`--to ${to}: exit 2 naming the accepted targets`, async () => {
      const errors: string[] = [];
      let out = "";
      async function* input(): AsyncGenerator<Uint8Array> {
        yield new TextEncoder().encode('{"type":"text.delta","seq":0,"id":"a","delta":"x"}\n');
      }
      const code = await runConvert(
        input(),
        to,
        "auto",
        false,
        (t) => void (out += t),
        (l) => errors.push(l),
      );
      expect(code).toBe(2);
      expect(out).toBe("");
      expect(errors).toEqual([`--to must be one of ag-ui, ui-message-stream (got "${to}")`]);
    });
  }
});

describe("a provider string named like an Object.prototype member is read as any other unknown string (§8.0)", () => {
  // Before: the facets looked provider strings up in static tables with `in` / `table[key]`, so an
  // item type "toString" (openai-responses) was routed as a hosted tool whose name is a function —
  // degraded with an `invalid_provider_value` error blaming the provider for a value it never sent —
  // a Claude result subtype "constructor" closed the turn with no code, an openai-agents host error
  // named "constructor" lost its "host_error" code. Property: for every `type`/`subtype`/`name`
  // value of one recorded stream per facet, renaming it "toString" (or "constructor") gives the
  // events renaming it "zzzUnknown" gives, with the name substituted back.
  const renamed = (value: unknown, from: string, to: string): unknown =>
    JSON.parse(JSON.stringify(value).split(JSON.stringify(from)).join(JSON.stringify(to)));
  const stringsAt = (value: unknown, keys: ReadonlySet<string>, out = new Set<string>()): Set<string> => {
    if (Array.isArray(value)) for (const v of value) stringsAt(v, keys, out);
    else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) {
        if (keys.has(k) && typeof v === "string" && v !== "") out.add(v);
        stringsAt(v, keys, out);
      }
    }
    return out;
  };

  const recorded = recordedStreams();
  // Per facet, the first recorded stream that names anything (some streams carry no type, subtype
  // or name string at all: gemini's, openai-chat's, bedrock's first ones).
  const streams = (() => {
    const byFacet = new Map<string, { stream: Recorded; names: string[] }>();
    for (const r of recorded) {
      if (byFacet.has(r.facet)) continue;
      const names = [...stringsAt(r.chunks, new Set(["type", "subtype", "name"]))].slice(0, 40);
      if (names.length > 0) byFacet.set(r.facet, { stream: r, names });
    }
    return [...byFacet.values()];
  })();

  it("covers every facet with a recorded stream (bedrock's frames are keyed, not typed: its own test below)", () => {
    const facets = [...new Set(recorded.map((r) => r.facet))].filter((f) => f !== "bedrock");
    expect(streams.map((s) => s.stream.facet).sort()).toEqual(facets.sort());
  });

  for (const { stream, names } of streams) {
    it(`${stream.facet} (${stream.file}, ${names.length} names)`, () => {
      for (const name of names) {
        for (const hostile of ["toString", "constructor"]) {
          const unknown = normalizeAll(stream.facet, renamed(stream.chunks, name, "zzzUnknown") as unknown[]);
          const got = normalizeAll(stream.facet, renamed(stream.chunks, name, hostile) as unknown[]);
          const want = JSON.stringify(unknown).split("zzzUnknown").join(hostile);
          const text = JSON.stringify(got);
          let at = 0;
          while (at < text.length && text[at] === want[at]) at++;
          expect(text.slice(Math.max(0, at - 120), at + 120), `${name} → ${hostile}`).toBe(want.slice(Math.max(0, at - 120), at + 120));
        }
      }
    });
  }

  it("claude-agent-sdk: a result subtype named like a prototype member is the turn.error code, as any unknown subtype", () => {
    for (const subtype of ["constructor", "toString", "zzzUnknown"]) {
      const n = createNormalizer("claude-agent-sdk");
      const events = [
        ...n.push({ type: "system", subtype: "init", session_id: "s" }),
        ...n.push({ type: "result", subtype, is_error: true, session_id: "s" }),
        ...n.flush(),
      ];
      expect(events.some((e) => e.type === "error")).toBe(false);
      expect(events.find((e) => e.type === "turn.error")).toMatchObject({ code: subtype });
    }
  });

  it("bedrock: a frame keyed like a prototype member is an unknown frame, never an exception", () => {
    const types = (key: string) => {
      const n = createNormalizer("bedrock");
      return [...n.push({ messageStart: { role: "assistant" } }), ...n.push({ [key]: { message: "m" } }), ...n.flush()].map((e) => e.type);
    };
    expect(types("constructor")).toEqual(types("zzzUnknown"));
    expect(types("toString")).toEqual(types("zzzUnknown"));
  });

  it("openai-agents: a host error named like a prototype member keeps the host_error code", () => {
    for (const name of ["constructor", "toString"]) {
      const n = createNormalizer("openai-agents");
      const events = [...n.push({ type: "__host_error__", name, message: "m" }), ...n.flush()];
      expect(events.find((e) => e.type === "turn.error")).toMatchObject({ code: "host_error" });
    }
  });
});
