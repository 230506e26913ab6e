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
