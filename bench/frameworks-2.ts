/**
 * Framework-facet throughput (`make bench`): every committed recording of the Claude Agent SDK,
 * LangGraph and ADK (`record/recordings/<framework>/*.native.ndjson`, read from the repository
 * root — the working directory of `node bench/run.mjs`) pushed through its facet, in a loop. Per
 * facet: native events/s for JSON.parse + normalize, for the normalizer alone, and the normalizer's
 * cost as a ratio of JSON.parse of the same lines (the baseline, measured in the same run).
 * Times are process CPU time, best of several passes; nothing here asserts a time.
 *
 * Run alone: node bench/run.mjs frameworks-2   (options after --: --passes N, --min-ms N)
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createNormalizer, type FacetName } from "../src/normalize/index.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const PASSES = arg("passes", 7);
const MIN_PASS_MS = arg("min-ms", 150);
const FRAMEWORKS: FacetName[] = ["claude-agent-sdk", "langgraph", "adk"];
const RECORDINGS = join(process.cwd(), "record/recordings");

/** The native lines of every recording of a framework, one array per recording. */
function load(framework: string): string[][] {
  const dir = join(RECORDINGS, framework);
  if (!existsSync(dir)) throw new Error(`no recordings at ${dir}: run from the repository root`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".native.ndjson"))
    .sort()
    .map((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== ""),
    );
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Best-of-PASSES CPU ms per native event of `work` over every recording. */
function measure(files: string[][], work: (lines: string[]) => number): number {
  const events = files.reduce((n, f) => n + f.length, 0);
  let best = Infinity;
  let sink = 0;
  for (let p = 0; p < PASSES; p++) {
    const start = cpuMs();
    let rounds = 0;
    do {
      for (const f of files) sink += work(f);
      rounds++;
    } while (cpuMs() - start < MIN_PASS_MS);
    best = Math.min(best, (cpuMs() - start) / (rounds * events));
  }
  if (sink === -1) console.log("unreachable");
  return best;
}

console.log("facet              events  parse+normalize ev/s  normalize ev/s  normalize / JSON.parse");
for (const framework of FRAMEWORKS) {
  const files = load(framework);
  const parsed = files.map((f) => f.map((l) => JSON.parse(l) as unknown));
  const events = files.reduce((n, f) => n + f.length, 0);
  const parseOnly = measure(files, (lines) => lines.reduce((n, l) => n + (JSON.parse(l) === null ? 0 : 1), 0));
  const both = measure(files, (lines) => {
    const n = createNormalizer(framework);
    let out = 0;
    for (const l of lines) out += n.push(JSON.parse(l)).length;
    return out + n.flush().length;
  });
  let i = 0;
  const byFile = new Map(files.map((f) => [f, parsed[i++]!]));
  const alone = measure(files, (lines) => {
    const n = createNormalizer(framework);
    let out = 0;
    for (const c of byFile.get(lines)!) out += n.push(c).length;
    return out + n.flush().length;
  });
  const rate = (msPerEvent: number): string => Math.round(1000 / msPerEvent).toLocaleString("en-US");
  console.log(
    `${framework.padEnd(18)} ${String(events).padStart(6)}  ${rate(both).padStart(20)}  ${rate(alone).padStart(14)}  ${(alone / parseOnly).toFixed(2).padStart(21)}`,
  );
}
