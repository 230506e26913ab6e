/**
 * `agjson reinput` as a user runs it (docs/cli.md, docs/reinput.md; issue 18): the built bin, real
 * processes, files and stdin. Every `--to` prints what the library returns for the same messages
 * and one stderr line per report entry; `--on-invalid` error / repair; every bad input gets its
 * documented exit status (0 done, 1 an invalid message or a list the target cannot accept, 2 usage/IO).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgMessage } from "../generated/lenient-types.js";
import { normalizeAll, readNativeChunks, type FacetName } from "../src/normalize/index.js";
import { reduce } from "../src/reduce/index.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "../src/reinput/index.js";
import { parseExactNumbers, stringifyExact } from "../src/wire/exact-numbers.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin/agjson.js");
const dir = mkdtempSync(join(tmpdir(), "agjson-reinput-"));

function agjson(args: string[], input?: string): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { input, encoding: "utf8", cwd: root });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

function conversation(facet: FacetName, fixture: string): AgMessage[] {
  const chunks = readNativeChunks(readFileSync(join(root, "fixtures/providers", fixture), "utf8"));
  const user: AgMessage = { id: "u0", role: "user", content: [{ type: "text", text: "Go on." }] };
  return [user, ...reduce(normalizeAll(facet, chunks)).result.messages];
}

const TARGETS = [
  { to: "anthropic", fn: toAnthropic, source: conversation("anthropic", "anthropic/anthropic-web-search-tool.1.chunks.txt") },
  {
    to: "openai-responses",
    fn: toOpenAIResponses,
    source: conversation("openai-responses", "openai-responses/azure-reasoning-encrypted-content.1.chunks.txt"),
  },
  { to: "openai-chat", fn: toOpenAIChat, source: conversation("openai-chat", "openai-chat/openai-text.chunks.txt") },
  { to: "gemini", fn: toGemini, source: conversation("gemini", "google/google-tool-call.chunks.txt") },
] as const;

describe("agjson reinput --to <target>: the library's request on stdout, its report on stderr", () => {
  it("the conversations exercise the report (some entry to print)", () => {
    expect(TARGETS.map((t) => t.fn(t.source, { onInvalid: "repair" }).report.length).reduce((a, b) => a + b)).toBeGreaterThan(0);
  });
  for (const t of TARGETS) {
    it(`--to ${t.to}`, () => {
      const expected = t.fn(t.source, { onInvalid: "repair" });
      const r = agjson(["reinput", "--to", t.to, "--on-invalid", "repair", file(`${t.to}.json`, t.source)]);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toEqual(JSON.parse(JSON.stringify(expected.request)));
      const lines = r.err.split("\n").filter((l) => l.startsWith("reinput: "));
      expect(lines).toHaveLength(expected.report.length);
      expected.report.forEach((e, i) => expect(lines[i]).toContain(`${e.action} [${e.reason}] message "${e.messageId}"`));
    });
  }

  it("reads an AgReduceResult, `agjson reduce` output ({result}) and an AgMessage[], from a file or stdin, alike", () => {
    const messages = TARGETS[1].source;
    const forms = [messages, { messages, turns: [], artifacts: [] }, { result: { messages }, errors: [] }];
    const outs = forms.flatMap((doc, i) => [
      agjson(["reinput", "--to", "openai-responses", "--on-invalid", "repair", file(`form-${i}.json`, doc)]),
      agjson(["reinput", "--to", "openai-responses", "--on-invalid", "repair", "-"], JSON.stringify(doc)),
      agjson(["reinput", "--to", "openai-responses", "--on-invalid", "repair"], JSON.stringify(doc)),
    ]);
    for (const r of outs) expect(r.code, r.err).toBe(0);
    expect(new Set(outs.map((r) => r.out)).size).toBe(1);
  });

  it("--system-role developer sends system messages as developer; --pretty indents", () => {
    const messages: AgMessage[] = [
      { id: "s", role: "system", content: [{ type: "text", text: "Be brief." }] },
      { id: "u", role: "user", content: [{ type: "text", text: "Hi" }] },
    ];
    const r = agjson(["reinput", "--to", "openai-responses", "--system-role", "developer", "--pretty", file("system.json", messages)]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('\n  "input": [');
    expect(JSON.parse(r.out).input[0]).toEqual({ type: "message", role: "developer", content: "Be brief." });
  });
});

describe("agjson reinput --on-invalid", () => {
  const unanswered: AgMessage[] = [
    { id: "u", role: "user", content: [{ type: "text", text: "Weather?" }] },
    { id: "a", role: "assistant", content: [{ type: "tool-call", toolCallId: "call_1", name: "get_weather", input: { city: "SF" } }] },
  ];

  for (const to of ["anthropic", "openai-responses", "openai-chat", "gemini"]) {
    it(`${to}: error (the default) refuses a call never answered, naming the message; repair sends a synthetic result and reports it`, () => {
      const path = file(`unanswered-${to}.json`, unanswered);
      for (const args of [[], ["--on-invalid", "error"]]) {
        const r = agjson(["reinput", "--to", to, ...args, path]);
        expect(r.code).toBe(1);
        expect(r.out).toBe("");
        expect(r.err).toMatch(/^agjson reinput: unanswered-call: Message "a" \(index 1\) calls tool "get_weather"/);
      }
      const r = agjson(["reinput", "--to", to, "--on-invalid", "repair", path]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain('reinput: repaired [unanswered-call] message "a" (#1)');
      expect(r.out).toContain("No result was recorded for this tool call.");
    });
  }

  it("repair drops a result that answers no call, and says so", () => {
    const orphan: AgMessage[] = [
      { id: "u", role: "user", content: [{ type: "text", text: "Hi" }] },
      { id: "t", role: "tool", content: [{ type: "tool-result", toolCallId: "nobody", content: [{ type: "text", text: "x" }] }] },
    ];
    const path = file("orphan.json", orphan);
    expect(agjson(["reinput", "--to", "anthropic", path]).err).toMatch(
      /orphan-result: Message "t" \(index 1\) block 0 answers toolCallId "nobody"/,
    );
    const r = agjson(["reinput", "--to", "anthropic", "--on-invalid", "repair", path]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("repaired [orphan-result]");
    expect(JSON.parse(r.out).messages).toEqual([{ role: "user", content: [{ type: "text", text: "Hi" }] }]);
  });
});

describe("agjson reinput: bad input", () => {
  const badUtf8 = join(dir, "latin1.json");
  writeFileSync(
    badUtf8,
    Buffer.concat([
      Buffer.from('[{"id":"u","role":"user","content":[{"type":"text","text":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}]}]'),
    ]),
  );
  const ok = file("ok.json", [{ id: "u", role: "user", content: [{ type: "text", text: "Hi" }] }]);
  const cases: { name: string; args: string[]; input?: string; code: number; err: RegExp }[] = [
    { name: "no --to", args: ["reinput", ok], code: 2, err: /required option '--to <target>'/ },
    {
      name: "an unknown --to",
      args: ["reinput", "--to", "cohere", ok],
      code: 2,
      err: /option '--to <target>' argument 'cohere' is invalid\. Allowed choices are anthropic, openai-responses, openai-chat, gemini\./,
    },
    {
      name: "an unknown --on-invalid",
      args: ["reinput", "--to", "gemini", "--on-invalid", "ignore", ok],
      code: 2,
      err: /option '--on-invalid <policy>' argument 'ignore' is invalid\. Allowed choices are error, repair\./,
    },
    {
      name: "an unknown --system-role",
      args: ["reinput", "--to", "openai-chat", "--system-role", "admin", ok],
      code: 2,
      err: /option '--system-role <role>' argument 'admin' is invalid\. Allowed choices are system, developer\./,
    },
    {
      name: "a missing file",
      args: ["reinput", "--to", "gemini", join(dir, "missing.json")],
      code: 2,
      err: /cannot read .*missing\.json: ENOENT/,
    },
    { name: "not JSON", args: ["reinput", "--to", "gemini", "-"], input: "role: user\n", code: 1, err: /not a JSON document/ },
    {
      name: "JSON that holds no messages",
      args: ["reinput", "--to", "gemini", "-"],
      input: '{"turns":[]}',
      code: 1,
      err: /expected an AgReduceResult/,
    },
    { name: "a scalar", args: ["reinput", "--to", "gemini", "-"], input: "42", code: 1, err: /expected an AgReduceResult/ },
    {
      name: "an invalid message",
      args: ["reinput", "--to", "gemini", "-"],
      input: '[{"id":"m","role":"narrator","content":[]}]',
      code: 1,
      err: /message 0: \/role/,
    },
    {
      name: "a message that is not an object",
      args: ["reinput", "--to", "anthropic", "-"],
      input: '["hello"]',
      code: 1,
      err: /message 0: /,
    },
    {
      name: "bytes that are not UTF-8 (§4)",
      args: ["reinput", "--to", "anthropic", badUtf8],
      code: 1,
      err: /invalid UTF-8 at byte 62: AgJSON is UTF-8 JSON/,
    },
  ];
  for (const c of cases) {
    it(`${c.name}: exit ${c.code}, a message on stderr, nothing on stdout`, () => {
      const r = agjson(c.args, c.input);
      expect(r.code).toBe(c.code);
      expect(r.out).toBe("");
      expect(r.err).toMatch(c.err);
      expect(r.err).not.toMatch(/\n\s+at /); // a message, never a stack trace
    });
  }
});

describe("agjson reduce | agjson reinput: what is replayed keeps its bytes (§13.2)", () => {
  /** Four numbers a double cannot write back: past the range, negative zero, 34 digits, 23 digits. */
  const NUMBERS = `{"big":1e400,"neg0":-0,"exact":0.1000000000000000055511151231257827,"huge":12345678901234567890123}`;
  const events = file(
    "exact-numbers.ndjson",
    [
      `{"type":"turn.start","seq":0,"threadId":"th","turnId":"t1"}`,
      `{"type":"message.start","seq":1,"id":"m1","role":"assistant","turnId":"t1","threadId":"th"}`,
      `{"type":"tool.start","seq":2,"toolCallId":"call_1","name":"f","messageId":"m1"}`,
      `{"type":"tool.args.assembled","seq":3,"toolCallId":"call_1","input":${NUMBERS}}`,
      `{"type":"tool.done","seq":4,"toolCallId":"call_1","content":[{"type":"data","name":"d","data":${NUMBERS}}],"structuredContent":${NUMBERS}}`,
      `{"type":"message.end","seq":5,"id":"m1","turnId":"t1"}`,
      `{"type":"turn.done","seq":6,"turnId":"t1","outcome":{"type":"success"},"finishReason":"tool_calls"}`,
    ].join("\n"),
  );
  /** Where each target carries the call's input and the result: as JSON, or as a JSON string (results' parts joined by "\n"). */
  const WHERE = {
    anthropic: {
      json: ["/messages/0/content/0/input"],
      text: ["/messages/1/content/0/content/0/text", "/messages/1/content/0/content/1/text"],
    },
    "openai-responses": { json: [], text: ["/input/0/arguments", "/input/1/output"] },
    "openai-chat": { json: [], text: ["/messages/0/tool_calls/0/function/arguments", "/messages/1/content"] },
    gemini: {
      json: ["/contents/0/parts/0/functionCall/args", "/contents/1/parts/0/functionResponse/response/output"],
      text: ["/contents/1/parts/0/functionResponse/response/content"],
    },
  } as const;
  const at = (value: unknown, pointer: string): unknown =>
    pointer
      .split("/")
      .slice(1)
      .reduce((v, key) => (v as Record<string, unknown>)[key], value);

  const reduced = agjson(["reduce", events]);

  it("reduce keeps the four numbers of the tool input and the result", () => {
    expect(reduced.code, reduced.err).toBe(0);
    expect(reduced.out.split(NUMBERS)).toHaveLength(4);
  });

  for (const [to, where] of Object.entries(WHERE)) {
    it(`--to ${to}: the tool input and the tool result keep every number's text, as JSON and inside JSON strings`, () => {
      const r = agjson(["reinput", "--to", to], reduced.out);
      expect(r.code, r.err).toBe(0);
      const request = parseExactNumbers(r.out);
      for (const p of where.json) expect(stringifyExact(at(request, p)), p).toBe(NUMBERS);
      for (const p of where.text) {
        const text = at(request, p);
        expect(typeof text, p).toBe("string");
        for (const part of (text as string).split("\n")) expect(part, p).toBe(NUMBERS);
      }
      // Only the library's report: no number was changed, so none is mentioned.
      expect(r.err.split("\n").filter((l) => l !== "" && !l.startsWith("reinput: "))).toEqual([]);
    });
  }

  it("--pretty writes the kept numbers as they came", () => {
    const r = agjson(["reinput", "--to", "gemini", "--pretty"], reduced.out);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      `\n              "big": 1e400,\n              "neg0": -0,\n              "exact": 0.1000000000000000055511151231257827,`,
    );
  });

  it("a number the schema types is read as its double and said so on stderr; the opaque ones beside it keep their text", () => {
    const messages = `[{"id":"u","role":"user","content":[{"type":"text","text":"Go."}]},
      {"id":"a","role":"assistant","content":[
        {"type":"tool-call","toolCallId":"call_1","name":"f","providerCallIndex":1.0,"input":{"big":1e400}},
        {"type":"tool-result","toolCallId":"call_1","content":[{"type":"text","text":"ok"}]}]}]`;
    const r = agjson(["reinput", "--to", "openai-chat", file("typed-number.json", messages)]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe(
      "agjson reinput: message 1: /content/0/providerCallIndex: a number the schema types is read as its nearest double; only opaque values keep their text (§13.2)\n",
    );
    expect(JSON.parse(r.out).messages[1].tool_calls[0].function.arguments).toBe(`{"big":1e400}`);
  });
});
