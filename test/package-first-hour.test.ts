/**
 * The library's first hour (issue 35): the packed tarball installed into a fresh project, as a new
 * user gets it, and small programs compiled under a strict `node16` tsconfig with
 * `skipLibCheck: false` (so every declaration the package ships is checked) and run with Node.
 * Each test is one thing a new user meets: the README's quick start run as written on a stream with
 * an invalid event in the middle (§5 Trust boundary, §10 item 20); one name per type; the bridges
 * taking what `reduce()` takes; the AG-UI output side with `@ag-ui/core` alone; the docs reachable
 * from npm; the exhaustive switch; a normalizer fed raw text (§8.0).
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { KNOWN_EVENT_TYPES } from "../generated/fold-scaffold.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const API_MD = readFileSync(join(ROOT, "docs/api.md"), "utf8");
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
const GITHUB = "https://github.com/silverprotocol/agjson";

// Each test compiles a program with tsc against the package's declarations: tens of seconds when the
// machine is busy with the rest of `make test`.
vi.setConfig({ testTimeout: 300_000 });

let work = "";
let project = "";
let packed: { size: number; unpackedSize: number; files: { path: string }[] };

function run(cmd: string, args: string[], cwd = project): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: "false" } });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * Compiles `name`.mts alone under the strict node16 profile a user's project has (skipLibCheck
 * false: the package's own declarations are checked too) and returns tsc's diagnostics ("" when it
 * compiles). The JavaScript is emitted to out/ either way.
 */
function compile(name: string, source: string, overrides: Record<string, string> = {}): string {
  writeFileSync(join(project, `${name}.mts`), source);
  const tsconfig = `tsconfig.${name}.json`;
  writeFileSync(
    join(project, tsconfig),
    JSON.stringify({
      compilerOptions: {
        module: "node16",
        moduleResolution: "node16",
        target: "es2022",
        lib: ["es2022"],
        strict: true,
        skipLibCheck: false,
        types: ["node"],
        outDir: "out",
        rootDir: ".",
        ...overrides,
      },
      files: [`${name}.mts`],
    }),
  );
  const r = run(process.execPath, [TSC, "-p", tsconfig]);
  return (r.stdout + r.stderr).trim();
}

/** Runs the emitted out/`name`.mjs and parses the last line it prints. */
function execute(name: string): unknown {
  const out = ok(run(process.execPath, [join("out", `${name}.mjs`)]), `node out/${name}.mjs`)
    .trim()
    .split("\n");
  return JSON.parse(out[out.length - 1]!);
}

/** The first ```ts block of the README section `heading`. */
function readmeSnippet(heading: string): string {
  const at = README.indexOf(`\n## ${heading}\n`);
  expect(at, `README has a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const block = /```ts\n([\s\S]*?)```/.exec(README.slice(at));
  expect(block, `README's "${heading}" section has a ts block`).not.toBeNull();
  return block![1]!;
}

// Two turns, with one invalid text.delta (a number for `delta`) and one line that is not JSON at all
// in the middle of the first: what the quick start must fold past (§10 item 20).
const TWO_TURNS = [
  `{"type":"turn.start","seq":0,"threadId":"th","turnId":"t1"}`,
  `{"type":"message.start","seq":1,"id":"m1","role":"assistant","turnId":"t1","threadId":"th"}`,
  `{"type":"text.start","seq":2,"id":"x1","turnId":"t1","messageId":"m1"}`,
  `{"type":"text.delta","seq":3,"id":"x1","delta":"Hello"}`,
  `{"type":"text.delta","seq":4,"id":"x1","delta":42}`,
  `{"type":"text.delta","seq":5,"id":"x1","delta":" world"}`,
  `this line is not JSON`,
  `{"type":"text.end","seq":6,"id":"x1"}`,
  `{"type":"message.end","seq":7,"id":"m1"}`,
  `{"type":"turn.done","seq":8,"turnId":"t1","outcome":{"type":"success"},"finishReason":"stop"}`,
  `{"type":"turn.start","seq":9,"threadId":"th","turnId":"t2"}`,
  `{"type":"message.start","seq":10,"id":"m2","role":"assistant","turnId":"t2","threadId":"th"}`,
  `{"type":"text.start","seq":11,"id":"x2","turnId":"t2","messageId":"m2"}`,
  `{"type":"text.delta","seq":12,"id":"x2","delta":"Second turn"}`,
  `{"type":"text.end","seq":13,"id":"x2"}`,
  `{"type":"message.end","seq":14,"id":"m2"}`,
  `{"type":"turn.done","seq":15,"turnId":"t2","outcome":{"type":"success"},"finishReason":"stop"}`,
];

// A valid stream with an event of a type this version does not know (§0.2) in the middle.
const WITH_UNKNOWN = JSON.stringify([
  { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" },
  { type: "message.start", seq: 1, id: "m1", role: "assistant", turnId: "t1", threadId: "th" },
  { type: "text.start", seq: 2, id: "x1", turnId: "t1", messageId: "m1" },
  { type: "text.delta", seq: 3, id: "x1", delta: "Hi" },
  { type: "future.thing", seq: 4, turnId: "t1", detail: 1 },
  { type: "text.end", seq: 5, id: "x1" },
  { type: "message.end", seq: 6, id: "m1" },
  { type: "turn.done", seq: 7, turnId: "t1", outcome: { type: "success" }, finishReason: "stop" },
]);

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist/esm/src/index.js"))) throw new Error("dist/ is missing: run `make build` first");
  work = mkdtempSync(join(tmpdir(), "agjson-first-hour-"));
  // --ignore-scripts: dist/ is already built (make test builds first); pack what is there.
  const out = ok(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT), "npm pack");
  const info = (JSON.parse(out) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[])[0]!;
  packed = info;
  project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "first-hour", version: "0.0.0", private: true, type: "module" }, null, 2),
  );
  // What a user of the README installs: the package, the AG-UI peer the docs name for toAgUi (and
  // not zod, which only its input side needs), and Node's types for `node:fs`.
  ok(
    run("npm", [
      "install",
      ...NPM_FLAGS,
      join(work, info.filename),
      `@ag-ui/core@${pkg.peerDependencies["@ag-ui/core"]}`,
      `@types/node@${pkg.devDependencies["@types/node"]}`,
    ]),
    "npm install",
  );
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the quick start (README)", () => {
  it("as written, folds both turns of a stream with an invalid event and a non-JSON line in the middle, and reports the two as the caller's", () => {
    writeFileSync(join(project, "events.ndjson"), TWO_TURNS.join("\n") + "\n");
    const snippet = readmeSnippet("Quick start");
    const report = `
import { isKnownBlock as firstHourIsKnownBlock } from "agjson";
console.log(JSON.stringify({
  texts: result.messages.map((m) => m.content.map((b) => (firstHourIsKnownBlock(b) && b.type === "text" ? b.text : "")).join("")),
  turns: result.turns.map((t) => t.turnId),
  needsResync, errors: errors.length, rejected: rejected.map((r) => r.index),
}));
`;
    expect(compile("quickstart", snippet + report)).toBe("");
    expect(execute("quickstart")).toEqual({
      texts: ["Hello world", "Second turn"],
      turns: ["t1", "t2"],
      needsResync: false,
      errors: 0,
      rejected: [4, 6],
    });
  });

  it("validating by hand: leaving refused events out parks the fold with an issue that names the fix; noteRejected() keeps it folding", () => {
    const source = `
import { readFileSync } from "node:fs";
import { createReducer, reduce, validateEvent, type AgLenientEvent } from "agjson";
const valid: AgLenientEvent[] = [];
const live = createReducer();
for (const line of readFileSync("events.ndjson", "utf8").split("\\n")) {
  if (line.trim() === "") continue;
  let value: unknown;
  try { value = JSON.parse(line); } catch { live.noteRejected(); continue; }
  const v = validateEvent(value);
  if (v.ok) { valid.push(v.event); live.push(v.event); } else live.noteRejected();
}
const dropped = reduce(valid);
console.log(JSON.stringify({
  dropped: { turns: dropped.result.turns.length, needsResync: dropped.needsResync, issue: dropped.errors[0]?.message ?? "" },
  noted: { turns: live.result.turns.length, needsResync: live.needsResync },
}));
`;
    expect(compile("by-hand", source)).toBe("");
    const out = execute("by-hand") as { dropped: { turns: number; needsResync: boolean; issue: string }; noted: unknown };
    expect(out.noted).toEqual({ turns: 2, needsResync: false });
    expect(out.dropped.turns).toBe(1);
    expect(out.dropped.needsResync).toBe(true);
    expect(out.dropped.issue).toMatch(/noteRejected\(\)/);
    expect(out.dropped.issue).toMatch(/createValidatingReducer\(\)/);
  });

  it("docs/api.md and docs/reduce.md name the validating surfaces and say what each path does with a bad event", () => {
    for (const doc of [API_MD, readFileSync(join(ROOT, "docs/reduce.md"), "utf8")]) {
      expect(doc).toMatch(/reduceUntrusted/);
      expect(doc).toMatch(/createValidatingReducer/);
      expect(doc).toMatch(/noteRejected\(\)/);
      expect(doc).toMatch(/\*\*parks\*\*/);
    }
    expect(API_MD.indexOf("## Quick start")).toBeLessThan(API_MD.indexOf("## Entry points"));
  });
});

describe("one name per thing", () => {
  it("reduce() takes AgLenientEvent and returns an AgLenientReduceResult, both exported beside it (root and agjson/reduce)", () => {
    const source = `
import { createReducer, reduce, type AgLenientEvent, type AgLenientReduceResult, type AgReduceOutput } from "agjson";
import { reduce as reduceEntry, type AgLenientEvent as EntryEvent, type AgLenientReduceResult as EntryResult } from "agjson/reduce";
import type { AgEvent } from "agjson";
const events: AgLenientEvent[] = ${WITH_UNKNOWN};
const out: AgReduceOutput = reduce(events);
const r: AgLenientReduceResult = out.result;
const e: EntryResult = reduceEntry(events satisfies EntryEvent[]).result;
const live = createReducer();
for (const ev of events) live.push(ev);
const l: AgLenientReduceResult = live.result;
// A producer's strict events fold too: an AgEvent is an AgLenientEvent.
export const foldProduced = (produced: AgEvent[]): AgLenientReduceResult => reduce(produced).result;
console.log(JSON.stringify([r.messages.length, e.messages.length, l.messages.length]));
`;
    expect(compile("names", source)).toBe("");
    expect(execute("names")).toEqual([1, 1, 1]);
  });

  it("assigning the fold's result to the strict AgReduceResult fails with two different names in the message", () => {
    const diagnostics = compile(
      "names-strict",
      `
import { reduce, type AgReduceResult } from "agjson";
export const r: AgReduceResult = reduce([]).result;
`,
    );
    expect(diagnostics).toMatch(/'AgLenientReduceResult' is not assignable to type 'AgReduceResult'/);
  });
});

describe("the bridges take what reduce() takes", () => {
  it("toAgUi, the UI message stream and the event sources type-check on AgLenientEvent[] and pass an unknown type on as at run time", () => {
    const source = `
import type { AgLenientEvent } from "agjson";
import { toAgUi, createAgUiEncoder } from "agjson/bridges/ag-ui";
import { toUIMessageStream, createUIMessageStreamTransform } from "agjson/bridges/ui-message-stream";
import { createReplaySource, splitTurns, type AgEventSource } from "agjson/bridges/source";
const events: AgLenientEvent[] = ${WITH_UNKNOWN};
const agUi = toAgUi(events);
const encoder = createAgUiEncoder();
for (const e of events) encoder.push(e);
const chunks: unknown[] = [];
const reader = toUIMessageStream(events).getReader();
for (;;) { const r = await reader.read(); if (r.done) break; chunks.push(r.value); }
const transform = createUIMessageStreamTransform();
for (const e of events) transform.push(e);
const mine: AgEventSource = { async *run() { yield* events; } };
const replay: AgEventSource = createReplaySource(events);
void mine; void replay;
console.log(JSON.stringify({
  agUi: agUi.filter((e) => e.type === "CUSTOM").map((e) => (e as { name: string }).name),
  ui: chunks.map((c) => (c as { type: string }).type).filter((t) => t.startsWith("data-agjson-future")),
  turns: splitTurns(events).length,
}));
`;
    expect(compile("bridges", source)).toBe("");
    expect(execute("bridges")).toEqual({ agUi: ["agjson.future.thing"], ui: ["data-agjson-future.thing"], turns: 1 });
  });
});

describe("agjson/bridges/ag-ui with @ag-ui/core alone", () => {
  it("type-checks the output side (skipLibCheck false) with no zod installed; the docs say what the input side needs", () => {
    expect(existsSync(join(project, "node_modules/zod"))).toBe(false);
    const diagnostics = compile(
      "ag-ui-output",
      `
import { toAgUi, encodeAgUiSse, type AgUiEvent } from "agjson/bridges/ag-ui";
const out: AgUiEvent[] = toAgUi([{ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" }]);
console.log(JSON.stringify({ first: out[0]?.type, encoded: out.every((e) => encodeAgUiSse(e).startsWith("data: ")) }));
`,
    );
    expect(diagnostics).toBe("");
    expect(execute("ag-ui-output")).toEqual({ first: "RUN_STARTED", encoded: true });
    expect(README).toMatch(/`@ag-ui\/core`[^|]*the AG-UI [*_]input[*_] side also `zod`/);
    expect(API_MD).toMatch(/type-checks with it alone/);
  });
});

describe("the package as npm shows it", () => {
  it("names its repository, homepage and issue tracker, and runs no script on install", () => {
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/agjson/package.json"), "utf8")) as {
      repository?: { url?: string };
      homepage?: string;
      bugs?: { url?: string };
      scripts?: Record<string, string>;
    };
    expect(manifest.repository?.url).toBe(`git+${GITHUB}.git`);
    expect(manifest.homepage).toMatch(new RegExp(`^${GITHUB}`));
    expect(manifest.bugs?.url).toBe(`${GITHUB}/issues`);
    const lifecycle = Object.keys(manifest.scripts ?? {}).filter((s) => ["preinstall", "install", "postinstall", "prepare"].includes(s));
    expect(lifecycle).toEqual([]);
  });

  it("links every doc the README names so the link works from npm, and its size figures are current", () => {
    const shipped = new Set(packed.files.map((f) => f.path));
    const readme = readFileSync(join(project, "node_modules/agjson/README.md"), "utf8");
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => !t.startsWith(`${GITHUB}/`) && !t.startsWith("https://") && !shipped.has(t))).toEqual([]);
    // A docs/… path in prose would not open from npm either: each one is inside a link.
    const bare = [...readme.matchAll(/(?<![/\w[])docs\/[\w./-]*\.md/g)].map((m) => m[0]);
    expect(bare).toEqual([]);
    const figures = /([\d.]+) MB unpacked, ([\d.]+) MB packed/.exec(readme);
    expect(figures).not.toBeNull();
    expect(Math.abs(Number(figures![1]) - packed.unpackedSize / 1e6)).toBeLessThan(0.03);
    expect(Math.abs(Number(figures![2]) - packed.size / 1e6)).toBeLessThan(0.03);
  });

  it("README is a user's guide first: install, quick start, where the rest is, then the contributor set-up with make demo and make test", () => {
    const at = (h: string): number => README.indexOf(`\n## ${h}`);
    const order = ["Install", "Quick start", "Where the rest is", "Contributing"].map(at);
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const contributing = README.slice(at("Contributing"));
    expect(contributing).toMatch(/^make demo /m);
    expect(contributing).toMatch(/^make test /m);
  });
});

describe("an exhaustive switch", () => {
  const cases = KNOWN_EVENT_TYPES.map((t) => `    case ${JSON.stringify(t)}: return;`).join("\n");
  it("compiles on strict AgEvent and on AgLenientEvent with a never check, the ext.* arm taken by isExtEvent", () => {
    const source = `
import { isExtEvent, isKnownEvent, isKnownEventType, type AgEvent, type AgKnownEvent, type AgKnownEventType, type AgLenientEvent, type Lenient } from "agjson";
export function onEvent(e: AgEvent): void {
  switch (e.type) {
${cases}
    default: {
      if (isExtEvent(e)) return;
      const unhandled: never = e;
      return unhandled;
    }
  }
}
export function onLenient(e: AgLenientEvent): void {
  if (!isKnownEvent(e)) return;
  switch (e.type) {
${cases}
    default: {
      if (isExtEvent(e)) return;
      const unhandled: never = e;
      return unhandled;
    }
  }
}
// "Known" in a type name never takes in ext.*, strict or lenient.
type ExtIn<T> = Extract<T, { type: \`ext.\${string}\` }>;
export const noExt: [ExtIn<AgKnownEvent>, ExtIn<Lenient.AgKnownEvent>] extends [never, never] ? true : false = true;
// isKnownEventType narrows a string.
const seen: string[] = ["text.delta", "ext.acme.thing", "made.up"];
const narrowed: (AgKnownEventType | \`ext.\${string}.\${string}\`)[] = seen.filter(isKnownEventType);
console.log(JSON.stringify({ narrowed, ext: isExtEvent({ type: "ext.acme.thing", seq: 0 }) }));
`;
    expect(compile("switch", source)).toBe("");
    expect(execute("switch")).toEqual({ narrowed: ["text.delta", "ext.acme.thing"], ext: true });
  });

  it("docs/api.md shows the idiom for both postures; the deprecated LenientKnownEvent is said to be so", () => {
    const section = API_MD.slice(API_MD.indexOf("### An exhaustive switch"));
    expect(section).toMatch(/function onEvent\(e: AgEvent\)[\s\S]*isExtEvent\(e\)[\s\S]*const unhandled: never = e/);
    expect(section).toMatch(/function onLenient\(e: AgLenientEvent\)[\s\S]*isKnownEvent\(e\)[\s\S]*const unhandled: never = e/);
    expect(API_MD).not.toMatch(/LenientKnownEvent/);
    const declarations = readFileSync(join(project, "node_modules/agjson/dist/cjs/src/validate/core.d.ts"), "utf8");
    expect(declarations).toMatch(/@deprecated[\s\S]*?\*\/\s*export type LenientKnownEvent\b/);
  });
});

describe("a normalizer fed raw text", () => {
  it("carries the string unparsed with a reason saying what it got and what to pass", () => {
    const source = `
import { createNormalizer, readNativeChunks } from "agjson";
const line = '{"type":"message_start","message":{"id":"msg_1","role":"assistant","model":"m","content":[]}}';
const raw = createNormalizer("anthropic").push(line);
const parsed = createNormalizer("anthropic").push(readNativeChunks(line)[0]);
console.log(JSON.stringify({ raw: raw.map((e) => [e.type, (e as { reason?: string }).reason ?? ""]), parsed: parsed.map((e) => e.type) }));
`;
    expect(compile("normalize-text", source)).toBe("");
    const out = execute("normalize-text") as { raw: [string, string][]; parsed: string[] };
    expect(out.raw).toHaveLength(1);
    expect(out.raw[0]![0]).toBe("ext.anthropic.unparsed");
    expect(out.raw[0]![1]).toMatch(
      /^got a string \("\{\\"type\\":\\"message_start.*"…?\): push parsed JSON chunks — readNativeChunks\(text\)/,
    );
    expect(out.parsed).toContain("turn.start");
  });
});

// Last: the ACP SDK brings zod with it (a peer it needs), which the AG-UI test above must not see.
describe("the ACP bridge takes what reduce() takes", () => {
  it("the ACP mapper and agent source take them too (after installing the ACP SDK)", () => {
    ok(
      run("npm", ["install", ...NPM_FLAGS, `@agentclientprotocol/sdk@${pkg.peerDependencies["@agentclientprotocol/sdk"]}`]),
      "npm install <ACP SDK>",
    );
    const source = `
import type { AgLenientEvent } from "agjson";
import { createAcpUpdateMapper, createAcpAgent, type AgEventSource } from "agjson/bridges/acp";
const events: AgLenientEvent[] = ${WITH_UNKNOWN};
const mapper = createAcpUpdateMapper();
const ext = events.flatMap((e) => mapper.push(e)).flatMap((o) => (o.kind === "ext" ? [o.event.type] : []));
const source: AgEventSource = { async *run() { yield* events; } };
createAcpAgent({ source });
console.log(JSON.stringify(ext.filter((t) => t === "future.thing")));
`;
    // Bundler resolution: under node16 the ACP entry's CommonJS declarations import the ESM-only SDK
    // without a resolution-mode (TS1479/TS1541), which test/package-smoke.test.ts's per-entry
    // node16 compile covers; here the point is the event type the mapper and the source take.
    expect(compile("acp", source, { module: "preserve", moduleResolution: "bundler" })).toBe("");
    expect(execute("acp")).toEqual(["future.thing"]);
  }, 300_000);
});
