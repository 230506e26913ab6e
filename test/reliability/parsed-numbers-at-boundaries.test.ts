/**
 * §13.2 and RFC 8259 §6 at every boundary that parses text: a number JSON allows but a double
 * cannot hold (`1e400`, past the range; `0.1000000000000000055511151231257827` and
 * `12345678901234567890123`, past the precision) is valid JSON. Inside an opaque slot (`_meta`,
 * `providerMetadata`, state, tool input, message metadata) the schema leaves it open, so it is
 * accepted, and where the boundary forwards bytes it passes byte-identical. A value the project
 * parsed from text is never judged as a hand-made object: the hostile-object walk that refuses the
 * `Infinity` a hand-made object may hold (hostile-non-json-values.test.ts) does not run on it. A
 * number the schema types is judged as the double it parses to (`usage.inputTokens: 1e400` is
 * Infinity, not a JSON number the schema takes).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConvert } from "../../src/cli/convert-command.js";
import { readRecording } from "../../src/cli/recording.js";
import { runReinput } from "../../src/cli/reinput-command.js";
import { runValidate } from "../../src/cli/validate-command.js";
import { NORMALIZE_DEFAULT_CAPS, runNormalize } from "../../src/cli/normalize-command.js";
import { createNormalizer, readNativeChunks } from "../../src/normalize/index.js";
import { createRunAgentInputReader } from "../../src/bridges/ag-ui/input.js";
import { parseEventStream } from "../../src/bridges/source/index.js";
import { createFetchGatewayHandler } from "../../src/gateway/index.js";
import { chunked, collector, enc, validateDefaults } from "./support.js";

/** Spellings JSON allows that no double writes back: out of range, then past the precision. */
const NUMBERS = ["1e400", "-1E+400", "5e-400", "0.1000000000000000055511151231257827", "12345678901234567890123"];
/** An opaque value holding `n` at several depths. */
const opaque = (n: string) => `{"n":${n},"list":[${n},{"deep":${n}}]}`;

const inputText = (n: string) =>
  `{"protocol":"agjson","version":"1.0.0-draft.1","kind":"start","threadId":"th","turnId":"tu","messages":[{"id":"u","role":"user","content":[{"type":"text","text":"hi"}],"metadata":${opaque(n)}}],"state":${opaque(n)}}`;
const eventLines = (n: string) => [
  `{"type":"turn.start","seq":0,"threadId":"th","turnId":"tu","_meta":${opaque(n)}}`,
  `{"type":"message.start","seq":1,"id":"m","role":"assistant","turnId":"tu","threadId":"th","_meta":${opaque(n)}}`,
  `{"type":"text.start","seq":2,"id":"x","messageId":"m","providerMetadata":${opaque(n)}}`,
  `{"type":"text.end","seq":3,"id":"x"}`,
  `{"type":"tool.start","seq":4,"toolCallId":"c","name":"f","messageId":"m"}`,
  `{"type":"tool.args.assembled","seq":5,"toolCallId":"c","input":${opaque(n)}}`,
  `{"type":"message.end","seq":6,"id":"m"}`,
  `{"type":"ext.acme.reading","seq":7,"value":${n}}`,
  `{"type":"turn.done","seq":8,"turnId":"tu","outcome":{"type":"success"},"finishReason":"stop"}`,
];

describe("the gateway (§13.2): valid JSON with any number in an opaque slot passes, byte-identical", () => {
  for (const n of NUMBERS) {
    for (const posture of ["strict", "lenient"] as const) {
      it(`${posture}: ${n} in the AgInput's state and message metadata reaches the upstream; in events, the client`, async () => {
        const body = inputText(n);
        let forwarded: string | undefined;
        const upstream = async (_url: unknown, init?: RequestInit) => {
          forwarded = new TextDecoder().decode(init?.body as Uint8Array);
          return new Response(eventLines(n).join("\n") + "\n", { status: 200, headers: { "content-type": "application/x-ndjson" } });
        };
        const handler = createFetchGatewayHandler({ upstream: "http://upstream.invalid/", posture, fetch: upstream as typeof fetch });
        const res = await handler(
          new Request("http://gateway.invalid/", { method: "POST", headers: { "content-type": "application/json" }, body }),
        );
        const text = await res.text();
        expect(res.status, text).toBe(200);
        expect(forwarded).toBe(body);
        expect(text.split("\n").filter((l) => l !== "")).toEqual(eventLines(n));
      });
    }
  }
});

describe("the CLI: validate and convert accept the number in an opaque slot, and judge a typed one as its double", () => {
  for (const n of NUMBERS) {
    it(`validate (both postures) and convert --to ag-ui: ${n}`, async () => {
      for (const posture of ["strict", "lenient"] as const) {
        const c = collector();
        const code = await runValidate(chunked(enc(eventLines(n).join("\n") + "\n"), 61), { ...validateDefaults, posture }, c.out, (l) =>
          c.errors.push(l),
        );
        expect(code, c.lines().join("\n")).toBe(0);
      }
      let out = "";
      const errors: string[] = [];
      const code = await runConvert(
        chunked(enc(eventLines(n).join("\n") + "\n"), 61),
        "ag-ui",
        "auto",
        false,
        (t) => void (out += t),
        (l) => errors.push(l),
      );
      expect(errors).toEqual([]);
      expect(code).toBe(0);
      expect(out).toContain("RUN_FINISHED");
    });
  }

  it("a typed count of 1e400 is Infinity, which the schema's number refuses, in both postures", async () => {
    const line = `{"type":"turn.done","seq":0,"turnId":"tu","outcome":{"type":"success"},"finishReason":"stop","usage":{"inputTokens":1e400,"outputTokens":1}}`;
    for (const posture of ["strict", "lenient"] as const) {
      const c = collector();
      const code = await runValidate(chunked(enc(line + "\n"), 17), { ...validateDefaults, posture }, c.out, (l) => c.errors.push(l));
      expect(code).toBe(1);
      expect(c.lines().join("\n")).toContain("/usage/inputTokens");
    }
  });

  for (const n of NUMBERS) {
    it(`reinput: ${n} in a message's metadata and a tool call's input is no refusal`, async () => {
      const doc = `[{"id":"u","role":"user","content":[{"type":"text","text":"hi"}],"metadata":${opaque(n)}},{"id":"a","role":"assistant","content":[{"type":"tool-call","toolCallId":"c","name":"f","input":${opaque(n)}}]}]`;
      let out = "";
      let err = "";
      const code = await runReinput(
        enc(doc),
        { to: "anthropic", onInvalid: "repair" },
        (t) => void (out += t),
        (t) => void (err += t),
      );
      expect(err).not.toMatch(/message \d/);
      expect(code).toBe(0);
      expect(out).toContain('"tool_use"');
    });
  }
});

describe("the replay recording (agjson acp --replay, serve --agui --replay) and the bridges' event source", () => {
  for (const n of NUMBERS) {
    it(`a recording with ${n} in opaque slots is read whole`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "agjson-numbers-"));
      const file = join(dir, "recording.ndjson");
      writeFileSync(file, eventLines(n).join("\n") + "\n");
      const skipped: string[] = [];
      const events = await readRecording(file, (l) => skipped.push(l));
      expect(typeof events === "string" ? events : events.map((e) => e.type)).toEqual([
        "turn.start",
        "message.start",
        "text.start",
        "text.end",
        "tool.start",
        "tool.args.assembled",
        "message.end",
        "ext.acme.reading",
        "turn.done",
      ]);
      expect(skipped).toEqual([]);
    });

    it(`the upstream event source passes every event with ${n} on`, async () => {
      const issues: unknown[] = [];
      const events = [];
      for await (const e of parseEventStream(chunked(enc(eventLines(n).join("\n") + "\n"), 29), { onIssue: (i) => issues.push(i) }))
        events.push(e.type);
      expect(issues).toEqual([]);
      expect(events).toHaveLength(9);
    });
  }
});

describe("the AG-UI input (RunAgentInput → AgInput)", () => {
  for (const n of NUMBERS) {
    it(`${n} in state, forwardedProps and a tool call's arguments is no refusal`, async () => {
      const body = `{"threadId":"th","runId":"r","state":${opaque(n)},"forwardedProps":${opaque(n)},"tools":[],"context":[],"messages":[{"id":"u","role":"user","content":"hi"}]}`;
      const r = (await createRunAgentInputReader()).readBytes(enc(body));
      expect(r.ok ? "ok" : JSON.stringify(r.problem)).toBe("ok");
    });
  }
});

/** An Anthropic stream whose tool arguments (`partial_json`) hold `n`, and its message's `container` `inContainer`. */
const anthropicChunks = (n: string, inContainer = n) => [
  `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"container":${opaque(inContainer)},"usage":{"input_tokens":3,"output_tokens":1}}}`,
  `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
  JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: `{"n": ${n}, "list": [${n}` } }),
  JSON.stringify({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: `, {"deep": ${n}}]}` } }),
  `{"type":"content_block_stop","index":0}`,
  `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`,
  `{"type":"message_stop"}`,
];

describe("the normalizer (agjson normalize, readNativeChunks): provider values parsed from text are JSON values", () => {
  for (const n of NUMBERS) {
    it(`agjson normalize --from anthropic: ${n} in tool arguments is the tool call's input, no error, no unparsed`, async () => {
      const c = collector();
      const code = await runNormalize(
        chunked(enc(anthropicChunks(n).join("\n") + "\n"), 53),
        "anthropic",
        NORMALIZE_DEFAULT_CAPS,
        c.out,
        (l) => c.errors.push(l),
      );
      expect(c.errors).toEqual([]);
      expect(code).toBe(0);
      const events = c.lines().map((l) => JSON.parse(l) as { type: string; input?: unknown; delta?: string });
      expect(events.map((e) => e.type).filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
      // The argument text rides tool.args.delta byte-identical (§13.2), and so does each number of
      // the assembled input and of the provider's own fields the output carries.
      expect(
        events
          .filter((e) => e.type === "tool.args.delta")
          .map((e) => e.delta)
          .join(""),
      ).toBe(`{"n": ${n}, "list": [${n}, {"deep": ${n}}]}`);
      expect(c.lines().find((l) => l.includes('"tool.args.assembled"'))).toContain(`"input":${opaque(n)}`);
      expect(c.lines().join("\n")).toContain(`"container":${opaque(n)}`);
      expect(events.at(-1)?.type).toBe("turn.done");
    });

    it(`a library user's own JSON.parse of each chunk: ${n} in the arguments the engine parses is no refusal either`, () => {
      const normalizer = createNormalizer("anthropic");
      const events = [...anthropicChunks(n, "1").flatMap((l) => normalizer.push(JSON.parse(l))), ...normalizer.flush()];
      expect(events.map((e) => e.type).filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
      expect(events.find((e) => e.type === "tool.args.assembled")).toMatchObject({ input: JSON.parse(opaque(n)) });
    });
  }

  it("a hand-made chunk is still walked: a BigInt in the tool arguments' chunk never leaves the engine", () => {
    const normalizer = createNormalizer("anthropic");
    const chunks = anthropicChunks("1").map((l) => JSON.parse(l) as Record<string, unknown>);
    (chunks[0]!.message as Record<string, unknown>).container = { n: 10n };
    const events = [...chunks.flatMap((c) => normalizer.push(c)), ...normalizer.flush()];
    expect(() => JSON.stringify(events)).not.toThrow();
    expect(events.map((e) => e.type)).toContain("error");
    expect(events.at(-1)?.type).toBe("turn.done");
  });

  it("{ parsed: true }: a caller who parsed each chunk from text says so, and the provider's own 1e400 passes whole", () => {
    // The container rides providerMetadata, a slot no schema number judges: as JSON text it is
    // valid (§13.2); without the option the user's own JSON.parse result is a hand-made object.
    const normalizer = createNormalizer("anthropic", { parsed: true });
    const events = [...anthropicChunks("1", "1e400").flatMap((l) => normalizer.push(JSON.parse(l))), ...normalizer.flush()];
    expect(events.map((e) => e.type).filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
    expect(JSON.stringify(events)).toContain(`"container":{"n":null,"list":[null,{"deep":null}]}`);
    expect(events.at(-1)?.type).toBe("turn.done");
  });

  it("{ parsed: true } still holds the §13 depth cap on every event it emits", () => {
    // Depth 62 in the chunk is within the text cap; under providerMetadata.anthropic it passes 64.
    const deep = `${"[".repeat(59)}1${"]".repeat(59)}`;
    const normalizer = createNormalizer("anthropic", { parsed: true });
    const events = [...anthropicChunks("1", deep).flatMap((l) => normalizer.push(JSON.parse(l))), ...normalizer.flush()];
    const depth = (x: unknown): number => (typeof x === "object" && x !== null ? 1 + Math.max(0, ...Object.values(x).map(depth)) : 0);
    expect(Math.max(...events.map(depth))).toBeLessThanOrEqual(64);
    expect(events.map((e) => e.type)).toContain("ext.anthropic.unparsed");
    expect(events.at(-1)?.type).toBe("turn.done");
  });

  it("{ parsed } takes a boolean only: any other value is the caller's error, named", () => {
    for (const parsed of ["yes", 1, null]) {
      expect(() => createNormalizer("anthropic", { parsed } as unknown as { parsed: boolean })).toThrow(/parsed is/);
    }
    expect(() => createNormalizer("anthropic", { parsed: false })).not.toThrow();
  });

  it("chunks read with readNativeChunks are parsed values: the same stream read from text passes whole", () => {
    const normalizer = createNormalizer("anthropic");
    const events = [...readNativeChunks(anthropicChunks("1e400").join("\n")).flatMap((c) => normalizer.push(c)), ...normalizer.flush()];
    expect(events.map((e) => e.type).filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
  });
});

describe("the AG-UI input: a carried AgMessage (metadata.agjson.message) with the number in its metadata is restored", () => {
  for (const n of NUMBERS) {
    it(`${n}: the carried message is the AgMessage, not a field-by-field mapping`, async () => {
      const carried = `{"id":"a","role":"assistant","content":[{"type":"reasoning","text":"r","opaque":{"kind":"encrypted","value":"blob"}},{"type":"text","text":"hi"}],"metadata":${opaque(n)}}`;
      const body = `{"threadId":"th","runId":"r","state":{},"forwardedProps":{},"tools":[],"context":[],"messages":[{"id":"a","role":"assistant","content":"hi","metadata":{"agjson":{"message":${carried}}}}]}`;
      const r = (await createRunAgentInputReader({ honorCarry: true })).readBytes(enc(body));
      expect(r.ok ? "ok" : JSON.stringify(r.problem)).toBe("ok");
      if (r.ok && r.input.kind === "start") expect(r.input.messages).toEqual([JSON.parse(carried)]);
    });
  }
});

describe("the ag-ui facet (agjson normalize --from ag-ui): AG-UI values parsed from text are JSON values", () => {
  const aguiChunks = (n: string) => [
    `{"type":"RUN_STARTED","threadId":"th","runId":"r1"}`,
    `{"type":"STATE_SNAPSHOT","snapshot":${opaque(n)}}`,
    `{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
    `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}`,
    `{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
    `{"type":"RUN_FINISHED","threadId":"th","runId":"r1"}`,
  ];
  for (const n of NUMBERS) {
    it(`${n} in a STATE_SNAPSHOT reaches state.snapshot, written with its own text; no error, no unparsed`, async () => {
      const c = collector();
      const code = await runNormalize(chunked(enc(aguiChunks(n).join("\n") + "\n"), 41), "ag-ui", NORMALIZE_DEFAULT_CAPS, c.out, (l) =>
        c.errors.push(l),
      );
      expect(c.errors).toEqual([]);
      expect(code).toBe(0);
      const types = c.lines().map((l) => (JSON.parse(l) as { type: string }).type);
      expect(types.filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
      expect(c.lines().find((l) => l.includes('"state.snapshot"'))).toContain(`"snapshot":${opaque(n)}`);
    });
  }

  it("{ parsed: true }: the caller's own JSON.parse of each AG-UI chunk keeps 1e400 in the snapshot", () => {
    const normalizer = createNormalizer("ag-ui", { parsed: true });
    const events = [...aguiChunks("1e400").flatMap((l) => normalizer.push(JSON.parse(l))), ...normalizer.flush()];
    expect(events.map((e) => e.type).filter((t) => t === "error" || t.startsWith("ext."))).toEqual([]);
    expect(events.find((e) => e.type === "state.snapshot")).toMatchObject({ snapshot: JSON.parse(opaque("1e400")) });
  });

  it("a hand-made chunk is still walked: a BigInt in a STATE_SNAPSHOT never leaves the facet", () => {
    const normalizer = createNormalizer("ag-ui");
    const chunks = aguiChunks("1").map((l) => JSON.parse(l) as Record<string, unknown>);
    chunks[1]!.snapshot = { n: 10n };
    const events = [...chunks.flatMap((c) => normalizer.push(c)), ...normalizer.flush()];
    expect(() => JSON.stringify(events)).not.toThrow();
    expect(events.map((e) => e.type).some((t) => t === "error" || t.startsWith("ext."))).toBe(true);
  });
});
