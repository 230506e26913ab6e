#!/usr/bin/env node
// Records real agent frameworks offline (docs/record.md). Three modes:
//   node record/record.mjs --framework <name> --fixtures <dir> --out <dir>   every stream file of <dir>
//   node record/record.mjs [--framework <name>] [--out <dir>]                 the committed scenarios
//   node record/record.mjs --check [--framework <name>]                       re-record into a temp dir and compare
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatOfFile, readChunkFile, splitResponses, toolCallsIn } from "./lib/provider-streams.mjs";
import { maskVolatile } from "./lib/volatile.mjs";
import { sameByLanes } from "./lib/lanes.mjs";
import { observedCommand, readTrace, targetOf, traceSupport } from "./lib/proctrace.mjs";

const RECORD_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.dirname(RECORD_DIR);
const SCENARIOS_DIR = path.join(RECORD_DIR, "scenarios");
const RECORDINGS_DIR = path.join(RECORD_DIR, "recordings");

/** Environment every framework run gets: no tracing export, telemetry or update checks (docs/record.md "Offline"). */
const OFFLINE_ENV = {
  OPENAI_AGENTS_DISABLE_TRACING: "1",
  OPENAI_AGENTS_DONT_LOG_MODEL_DATA: "1",
  OTEL_SDK_DISABLED: "true",
  OTEL_TRACES_EXPORTER: "none",
  DO_NOT_TRACK: "1",
  DISABLE_TELEMETRY: "1",
  LANGCHAIN_TRACING_V2: "false",
  LANGSMITH_TRACING: "false",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_AUTOUPDATER: "1",
  NO_UPDATE_NOTIFIER: "1",
  npm_config_update_notifier: "false",
  HTTP_PROXY: "",
  HTTPS_PROXY: "",
  http_proxy: "",
  https_proxy: "",
  // Placeholder keys: SDKs refuse to start without one; the replay server never checks them.
  OPENAI_API_KEY: "sk-replay",
  ANTHROPIC_API_KEY: "sk-ant-replay",
  GOOGLE_API_KEY: "replay",
  GEMINI_API_KEY: "replay",
};

function parseArgs(argv) {
  const args = { scenarios: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--framework") args.framework = value();
    else if (a === "--fixtures") args.fixtures = value();
    else if (a === "--out") args.out = value();
    else if (a === "--scenario") args.scenarios.push(value());
    else if (a === "--check") args.check = true;
    else if (a === "--self-test") args.selfTest = true;
    else if (a === "--help" || a === "-h") args.help = true;
    else fail(`unknown argument ${a} (see --help)`);
  }
  return args;
}

function fail(message) {
  process.stderr.write(`record: ${message}\n`);
  process.exit(2);
}

const USAGE = `usage:
  node record/record.mjs --framework <name> --fixtures <dir> --out <dir>
  node record/record.mjs [--framework <name>] [--scenario <file>]... [--out <dir>]
  node record/record.mjs --check [--framework <name>]
  node record/record.mjs --self-test
frameworks: ${listFrameworks().join(", ")}`;

function listFrameworks() {
  return fs
    .readdirSync(path.join(RECORD_DIR, "frameworks"))
    .filter((f) => f.endsWith(".mjs"))
    .map((f) => f.slice(0, -4))
    .sort();
}

function adapterUrl(framework) {
  const file = path.join(RECORD_DIR, "frameworks", `${framework}.mjs`);
  if (!fs.existsSync(file)) fail(`no adapter record/frameworks/${framework}.mjs (have: ${listFrameworks().join(", ")})`);
  return pathToFileURL(file).href;
}

async function loadAdapter(framework) {
  return (await import(adapterUrl(framework))).default;
}

/** A scenario's `streams` entries resolved to HTTP responses, in serving order. */
function resolveResponses(scenario, baseDir) {
  const out = [];
  for (const s of scenario.streams ?? []) {
    const entry = typeof s === "string" ? { file: s } : s;
    if (entry.httpStatus !== undefined) {
      if (!entry.provider) throw new Error(`an httpStatus entry needs "provider"`);
      out.push({ format: entry.provider, httpStatus: entry.httpStatus, body: entry.body, label: `HTTP ${entry.httpStatus}` });
      continue;
    }
    const file = path.resolve(baseDir, entry.file);
    const chunks = readChunkFile(file);
    const format = entry.provider ?? formatOfFile(file, chunks);
    if (!format) throw new Error(`${entry.file}: cannot tell which provider API this stream is from; add "provider"`);
    const parts = splitResponses(format, chunks);
    const picked = entry.response === undefined ? parts.map((p, i) => [p, i]) : [[parts[entry.response], entry.response]];
    if (entry.nonStreaming && format !== "anthropic") throw new Error(`${entry.file}: "nonStreaming" is implemented for anthropic only`);
    for (const [p, i] of picked.flatMap((x) => Array(entry.repeat ?? 1).fill(x))) {
      if (!p) throw new Error(`${entry.file}: has no response #${i}`);
      const how = entry.cutAfter !== undefined ? ` cut after ${entry.cutAfter}` : entry.nonStreaming ? " non-streaming" : "";
      out.push({
        format,
        chunks: p,
        label: `${path.relative(REPO_ROOT, file)}${parts.length > 1 ? `#${i}` : ""}${how}`,
        ...(entry.cutAfter !== undefined ? { cutAfter: entry.cutAfter } : {}),
        ...(entry.nonStreaming ? { nonStreaming: true } : {}),
      });
    }
  }
  return out;
}

/** Runs one scenario in a child process with the network guard; returns its problems (empty = recorded). */
function runScenario(framework, name, scenario, responses, outDir) {
  return runObserved(adapterUrl(framework), `${framework}/${name}`, { name, ...scenario }, responses, outDir).problems;
}

/**
 * Runs one job (adapter + scenario) in its own Node process with netguard.cjs preloaded, the whole
 * process tree under strace (lib/proctrace.mjs), in a loopback-only network namespace when the
 * kernel allows one. Fails the run on any observed peer address that is not loopback, and when the
 * replay server answered requests the trace never saw a connect for (a blind observer proves nothing).
 */
function runObserved(adapter, label, scenario, responses, outDir, { quiet = false } = {}) {
  fs.mkdirSync(outDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agjson-record-"));
  const job = {
    adapterUrl: adapter,
    scenario,
    responses,
    nativeFile: path.join(outDir, `${scenario.name}.native.ndjson`),
    finalFile: path.join(outDir, `${scenario.name}.final.json`),
    resultFile: path.join(tmp, "result.json"),
  };
  fs.writeFileSync(path.join(tmp, "job.json"), JSON.stringify(job));
  const guard = path.join(RECORD_DIR, "lib", "netguard.cjs");
  const support = traceSupport();
  const traceLog = path.join(tmp, "strace.log");
  let result = { problems: [] };
  let trace = { calls: [], programs: [] };
  let child = {};
  if (!support.strace) {
    result.problems.push(`cannot observe the run's processes: ${support.straceWhy || "strace failed"}`);
  } else {
    const [cmd, ...argv] = observedCommand(
      [process.execPath, path.join(RECORD_DIR, "lib", "run-scenario.mjs"), path.join(tmp, "job.json")],
      { log: traceLog, isolate: support.netns },
    );
    child = spawnSync(cmd, argv, {
      env: { ...process.env, ...OFFLINE_ENV, NODE_OPTIONS: `--require ${guard}`, AGJSON_RECORD_NETLOG_QUIET: "1" },
      encoding: "utf8",
      timeout: 120_000,
      killSignal: "SIGKILL",
      maxBuffer: 64 * 1024 * 1024,
    });
    try {
      result = JSON.parse(fs.readFileSync(job.resultFile, "utf8"));
    } catch {
      result.problems.push(`the run ended without a result (exit ${child.status}${child.signal ? `, ${child.signal}` : ""})`);
    }
    try {
      trace = readTrace(traceLog);
    } catch (e) {
      result.problems.push(`the process trace is unreadable: ${e.message}`);
    }
    const away = trace.calls.filter((c) => !c.local);
    if (away.length) {
      result.problems.push(
        `network: ${away.length} non-loopback address(es) used by the run's processes: ${away.map((c) => `${c.exe}[${c.pid}] ${c.syscall} ${targetOf(c)}`).join(", ")}`,
      );
    }
    const served = (result.requests ?? []).length;
    const toReplay = trace.calls.filter((c) => c.syscall === "connect" && c.local && c.port === result.replayPort);
    if (served > 0 && toReplay.length === 0) {
      result.problems.push(
        `the process trace saw no connect to the replay server (port ${result.replayPort}) although it served ${served} request(s): the observer is blind`,
      );
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const inet = trace.calls.filter((c) => c.family === "AF_INET" || c.family === "AF_INET6");
  const byTarget = new Map();
  for (const c of inet) {
    const key = `${c.port === result.replayPort ? "replay" : targetOf(c)} ← ${c.exe}`;
    byTarget.set(key, (byTarget.get(key) ?? 0) + 1);
  }
  const connects = [...byTarget].map(([k, n]) => `${k} ×${n}`).join(", ") || "none";
  const isolation = support.netns ? "loopback-only netns" : "host network";
  if (quiet) return { problems: result.problems, trace, result };
  process.stderr.write(
    `record: ${label}: ${result.problems.length ? "FAILED" : "ok"} (${(result.requests ?? []).length} request(s); traced: ${trace.programs.join(", ") || "nothing"}; ${isolation}; connects: ${connects})\n`,
  );
  if (result.problems.length) {
    for (const p of result.problems) process.stderr.write(`  - ${p}\n`);
    if (child.stderr)
      process.stderr.write(
        child.stderr
          .split("\n")
          .slice(-30)
          .map((l) => `  | ${l}`)
          .join("\n") + "\n",
      );
  }
  return { problems: result.problems, trace, result };
}

/**
 * The offline guard proven on this machine before anything is recorded: a child process outside
 * netguard.cjs's reach (a Node started with an environment of its own, as the Claude Agent SDK
 * starts its binary) connecting to loopback must be seen in the trace and pass; the same child
 * connecting to 192.0.2.1 (TEST-NET-1, RFC 5737) must fail the run. Returns the failures.
 */
function selfTest() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agjson-record-selftest-"));
  const probe = pathToFileURL(path.join(RECORD_DIR, "lib", "probe-adapter.mjs")).href;
  const failures = [];
  const near = runObserved(probe, "self-test", { name: "loopback", options: { target: "replay" } }, [], tmp, { quiet: true });
  const nearPid = near.result.final?.framework?.childPid;
  if (near.problems.length) failures.push(`a child's loopback connect failed the run: ${near.problems.join("; ")}`);
  else if (!near.trace.calls.some((c) => c.pid === nearPid && c.syscall === "connect" && c.port === near.result.replayPort)) {
    failures.push(`the trace did not see the child process [${nearPid}] connect to the replay server`);
  }
  const far = runObserved(probe, "self-test", { name: "away", options: { target: "192.0.2.1:9" } }, [], tmp, { quiet: true });
  const farPid = far.result.final?.framework?.childPid;
  if (!far.problems.some((p) => p.startsWith("network:") && p.includes(`[${farPid}] connect 192.0.2.1:9`))) {
    failures.push(`a child process's connect to 192.0.2.1:9 did not fail the run (problems: ${far.problems.join("; ") || "none"})`);
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const isolation = traceSupport().netns ? "loopback-only netns" : "host network";
  process.stderr.write(
    failures.length
      ? `record: self-test FAILED — the offline proof does not hold here:\n${failures.map((f) => `  - ${f}\n`).join("")}`
      : `record: self-test ok (a subprocess outside netguard is traced: loopback connect seen, 192.0.2.1:9 fails the run; ${isolation})\n`,
  );
  return failures;
}

function scenarioFiles(framework, explicit) {
  if (explicit.length) return explicit.map((f) => path.resolve(f));
  const frameworks = framework
    ? [framework]
    : fs
        .readdirSync(SCENARIOS_DIR)
        .filter((d) => fs.statSync(path.join(SCENARIOS_DIR, d)).isDirectory())
        .sort();
  return frameworks.flatMap((fw) => {
    const dir = path.join(SCENARIOS_DIR, fw);
    return fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
          .map((f) => path.join(dir, f))
      : [];
  });
}

/** Scenario mode: every committed scenario (or the named ones) into `<out>/<framework>/`. */
function recordScenarios(args, outRoot) {
  let failed = 0;
  const written = [];
  for (const file of scenarioFiles(args.framework, args.scenarios)) {
    const scenario = JSON.parse(fs.readFileSync(file, "utf8"));
    const name = path.basename(file, ".json");
    if (!scenario.framework) fail(`${file}: no "framework"`);
    const responses = resolveResponses(scenario, REPO_ROOT);
    const outDir = path.join(outRoot, scenario.framework);
    if (runScenario(scenario.framework, name, scenario, responses, outDir).length) failed++;
    written.push(path.join(scenario.framework, name));
  }
  return { failed, written };
}

/** Folder mode: one run per stream file of `dir` the framework can speak; others skipped with a note. */
async function recordFolder(args) {
  const adapter = await loadAdapter(args.framework);
  const files = fs
    .readdirSync(args.fixtures, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(".chunks.txt"))
    .sort();
  let failed = 0;
  let recorded = 0;
  for (const rel of files) {
    const file = path.resolve(args.fixtures, rel);
    const chunks = readChunkFile(file);
    const format = formatOfFile(file, chunks);
    if (!format || !adapter.providers.includes(format)) {
      process.stderr.write(
        `record: skip ${rel}: ${args.framework} speaks ${adapter.providers.join(", ")}, this stream is ${format ?? "of an unknown provider"}\n`,
      );
      continue;
    }
    const tools = Object.fromEntries(toolCallsIn(format, chunks).map((n) => [n, {}]));
    const scenario = { framework: args.framework, streams: [{ file, provider: format }], tools, input: "Hello" };
    const name = rel.replace(/\.chunks\.txt$/, "").replaceAll(path.sep, "__");
    if (runScenario(args.framework, name, scenario, resolveResponses(scenario, "/"), args.out).length) failed++;
    else recorded++;
  }
  process.stderr.write(`record: ${recorded} recorded, ${failed} failed, into ${args.out}\n`);
  return failed;
}

/** Check mode: re-record into a temp folder and compare with the committed recordings, volatile fields masked. */
function check(args) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agjson-record-check-"));
  const { failed, written } = recordScenarios(args, tmp);
  const diffs = [];
  for (const rel of written) {
    for (const ext of [".native.ndjson", ".final.json"]) {
      const committed = path.join(RECORDINGS_DIR, rel + ext);
      const fresh = path.join(tmp, rel + ext);
      if (!fs.existsSync(fresh)) continue; // a failed run is already counted
      if (!fs.existsSync(committed)) {
        diffs.push(`${rel}${ext}: not committed (run make record)`);
        continue;
      }
      const [committedText, freshText] = [fs.readFileSync(committed, "utf8"), fs.readFileSync(fresh, "utf8")];
      const a = maskVolatile(committedText, ext.endsWith(".ndjson"));
      const b = maskVolatile(freshText, ext.endsWith(".ndjson"));
      const at = a.findIndex((l, i) => l !== b[i]);
      const framework = rel.split("/")[0];
      if ((at >= 0 || a.length !== b.length) && ext === ".native.ndjson" && sameByLanes(framework, committedText, freshText)) {
        process.stderr.write(
          `record-check: ${rel}${ext}: concurrent agents interleaved differently; each lane matches (docs/record.md "Lanes")\n`,
        );
        continue;
      }
      if (at >= 0 || a.length !== b.length) {
        const line = at >= 0 ? at : Math.min(a.length, b.length);
        const [x, y] = [a[line] ?? "<end>", b[line] ?? "<end>"];
        let col = 0;
        while (col < x.length && x[col] === y[col]) col++;
        const around = (s) => s.slice(Math.max(0, col - 120), col + 120);
        diffs.push(
          `${rel}${ext}: differs at line ${line + 1}, column ${col + 1}\n    committed: …${around(x)}…\n    fresh:     …${around(y)}…`,
        );
      }
    }
  }
  for (const d of diffs) process.stderr.write(`record-check: ${d}\n`);
  if (!failed && !diffs.length) fs.rmSync(tmp, { recursive: true, force: true });
  else process.stderr.write(`record-check: fresh recordings kept in ${tmp}\n`);
  process.stderr.write(`record-check: ${written.length} scenario(s), ${failed} failed run(s), ${diffs.length} difference(s)\n`);
  return failed + diffs.length;
}

const args = parseArgs(process.argv.slice(2));
if (args.help) {
  process.stdout.write(USAGE + "\n");
  process.exit(0);
}
let bad;
if (args.fixtures) {
  if (!args.framework || !args.out) fail("--fixtures needs --framework and --out");
  bad = await recordFolder(args);
} else if (args.selfTest) {
  bad = selfTest().length;
} else if (args.check) {
  bad = selfTest().length || check(args);
} else {
  bad = recordScenarios(args, args.out ? path.resolve(args.out) : RECORDINGS_DIR).failed;
}
process.exit(bad ? 1 : 0);
