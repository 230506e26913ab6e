// One scenario in its own process (spawned by record.mjs with netguard.cjs preloaded), so module
// state of one framework run can never leak into the next recording. Argument: a job file.
import fs from "node:fs";
import { encodeNative } from "./native-json.mjs";
import { startReplayServer } from "./replay-server.mjs";
import { buildStubTools } from "./stub-tools.mjs";

const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const netlog = globalThis.__agjsonNetlog;
if (!Array.isArray(netlog)) {
  process.stderr.write("run-scenario: netguard.cjs is not loaded; refusing to run a framework without it\n");
  process.exit(2);
}

const problems = [];
const lines = [];
let final;
const adapter = (await import(job.adapterUrl)).default;
const server = await startReplayServer({ responses: job.responses, handleRequest: adapter.handleRequest });
try {
  final = await adapter.run({
    baseUrl: server.baseUrl,
    scenario: job.scenario,
    tools: buildStubTools(job.scenario.tools),
    emit: (event) => lines.push(encodeNative(event)),
  });
} catch (e) {
  problems.push(`adapter threw: ${e?.stack ?? e}`);
} finally {
  await server.close();
}
problems.push(...server.problems.map((p) => `replay: ${p}`));
const unserved = server.unserved();
if (unserved.length) problems.push(`replay: the framework never requested ${unserved.length} scenario response(s): ${unserved.join(", ")}`);
const offLoopback = netlog.filter((n) => !n.allowed);
if (offLoopback.length)
  problems.push(`network: ${offLoopback.length} non-loopback attempt(s): ${offLoopback.map((n) => `${n.kind} ${n.target}`).join(", ")}`);
if (final !== undefined && lines.length === 0) problems.push("the framework streamed no events");

if (final !== undefined) {
  fs.writeFileSync(job.nativeFile, lines.map((l) => l + "\n").join(""));
  fs.writeFileSync(job.finalFile, JSON.stringify(JSON.parse(encodeNative(final)), null, 2) + "\n");
}
fs.writeFileSync(
  job.resultFile,
  JSON.stringify({ problems, requests: server.requests, netlog, replayPort: server.port, pid: process.pid, final: final ?? null }),
);
process.exit(problems.length ? 1 : 0);
