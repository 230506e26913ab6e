/**
 * Normalizer throughput (`make bench`): every recorded provider stream of the corpus
 * (`fixtures/providers`, read from the repository root — the working directory
 * of `node bench/run.mjs`) pushed through its facet, in a loop. Per facet it prints native chunks/s
 * for the whole consumer pipeline (JSON.parse + normalize + validateEvent lenient + reduce) and for
 * the normalizer alone, and the normalizer's cost as a ratio of JSON.parse of the same chunks.
 * Times are process CPU time, best of several passes; nothing here asserts a time.
 *
 * Run alone: node bench/run.mjs normalize; then, with options, the bundle it built:
 * node .tmp/bench/normalize.mjs [--passes N] [--min-ms N] [--facet NAME]. `--facet` (repeatable, or
 * comma-separated) loads, warms and times that facet's files only, in a process of their own, so no
 * other facet's chunk shapes reach the JIT: the figure to compare one facet across two trees.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { AgEvent, AgLenientEvent } from "../generated/types.js";
import { FAMILY_GAPS, facetFor } from "../src/normalize/fixture-corpus.test-support.js";
import { FACETS, createNormalizer, readNativeChunks, type FacetName, type NormalizerOptions } from "../src/normalize/index.js";
import { reduce } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";

const args = process.argv.slice(2);
const arg = (name: string, fallback: number): number => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const PASSES = arg("passes", 7);
/** Each timed pass repeats the group's files until it has run at least this long. */
const MIN_PASS_MS = arg("min-ms", 150);
/** `--facet NAME` (repeatable, or comma-separated): time these facets only. */
const ONLY_FACETS = args.flatMap((a, i) => (args[i - 1] === "--facet" ? a.split(",") : []));

const CORPUS = resolve(process.env.AGJSON_PROVIDER_FIXTURES ?? join(process.cwd(), "fixtures/providers"));

/** One corpus file: its chunks as the wire carried them (JSON text) and parsed. */
interface BenchFile {
  file: string;
  facet: FacetName;
  texts: string[];
  chunks: unknown[];
}

function loadCorpus(): BenchFile[] {
  if (!existsSync(CORPUS)) {
    throw new Error(`no provider corpus at ${CORPUS}: run from the repository root, or set AGJSON_PROVIDER_FIXTURES`);
  }
  const files: BenchFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== "README.md") {
        const file = relative(CORPUS, path);
        const chunks = readNativeChunks(readFileSync(path, "utf8"));
        // The baseline parses exactly the bytes of each chunk (files are one compact chunk a line).
        files.push({ file, facet: facetFor(file), texts: chunks.map((c) => JSON.stringify(c)), chunks });
      }
    }
  };
  walk(CORPUS);
  return files;
}

/** Process CPU milliseconds (user + system): steadier than wall time on a shared machine. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

let sink = 0;
/** The CLI's and recordings' call: the caller says every chunk came from JSON text. */
const PARSED: NormalizerOptions = { parsed: true };

function parseAll(files: BenchFile[]): void {
  for (const f of files) for (const text of f.texts) if (JSON.parse(text) === null) sink++;
}

function normalizeOnly(files: BenchFile[], opts: NormalizerOptions = {}): void {
  for (const f of files) {
    const n = createNormalizer(f.facet, opts);
    for (const chunk of f.chunks) sink += n.push(chunk).length;
    sink += n.flush().length;
  }
}

/** The consumer pipeline on fresh parses (reduce() may keep references to event values). */
function pipeline(files: BenchFile[]): { events: number; invalid: number; resync: number } {
  let events = 0;
  let invalid = 0;
  let resync = 0;
  for (const f of files) {
    const n = createNormalizer(f.facet);
    const out: AgLenientEvent[] = [];
    const accept = (batch: AgEvent[]): void => {
      for (const ev of batch) {
        const v = validateEvent(ev, { posture: "lenient" });
        if (v.ok) out.push(v.event);
        else invalid++;
      }
    };
    for (const text of f.texts) accept(n.push(JSON.parse(text)));
    accept(n.flush());
    if (reduce(out).needsResync) resync++;
    events += out.length;
  }
  return { events, invalid, resync };
}

/** Best per-pass CPU time of `run` over `files`, each pass repeating them for at least MIN_PASS_MS; ms per repetition. */
function best(files: BenchFile[], run: (files: BenchFile[]) => unknown): number {
  let bestMs = Infinity;
  for (let pass = 0; pass < PASSES; pass++) {
    const start = cpuMs();
    let reps = 0;
    let elapsed = 0;
    do {
      run(files);
      reps++;
      elapsed = cpuMs() - start;
    } while (elapsed < MIN_PASS_MS);
    bestMs = Math.min(bestMs, elapsed / reps);
  }
  return bestMs;
}

const fmt = (n: number): string => Math.round(n).toLocaleString("en-US");
const pad = (s: string, n: number): string => s.padStart(n);

function main(): void {
  const gapFamilies = new Set(Object.keys(FAMILY_GAPS));
  const unknown = ONLY_FACETS.filter((f) => !(FACETS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new Error(`--facet ${unknown.join(", ")}: not a facet (${FACETS.join(", ")})`);
  const corpus = loadCorpus().filter(
    (f) => ONLY_FACETS.length === 0 || (ONLY_FACETS.includes(f.facet) && !gapFamilies.has(f.file.split("/")[0] ?? "")),
  );
  const groups: Array<{ label: string; files: BenchFile[] }> = FACETS.map((facet) => ({
    label: facet,
    files: corpus.filter((f) => f.facet === facet && !gapFamilies.has(f.file.split("/")[0] ?? "")),
  }));
  groups.push({ label: "no facet (gap)", files: corpus.filter((f) => gapFamilies.has(f.file.split("/")[0] ?? "")) });
  if (ONLY_FACETS.length !== 1) groups.push({ label: "all", files: corpus });

  // Warm-up, and the pipeline must be clean: every event valid, no fold needing a resync.
  const check = pipeline(corpus);
  if (check.invalid > 0 || check.resync > 0) {
    throw new Error(`bench corpus does not normalize cleanly: ${check.invalid} invalid events, ${check.resync} files needing resync`);
  }
  for (let i = 0; i < 3; i++) {
    parseAll(corpus);
    normalizeOnly(corpus);
    normalizeOnly(corpus, PARSED);
    pipeline(corpus);
  }

  const totalChunks = corpus.reduce((s, f) => s + f.chunks.length, 0);
  console.log(
    `normalize bench: ${corpus.length} files, ${fmt(totalChunks)} native chunks → ${fmt(check.events)} AgEvents (${relative(process.cwd(), CORPUS) || CORPUS}); CPU time, best of ${PASSES} passes`,
  );
  console.log(
    `${"facet".padEnd(21)}${pad("files", 6)}${pad("chunks", 8)}${pad("pipeline chunks/s", 20)}${pad("normalize chunks/s", 21)}${pad("normalize ÷ JSON.parse", 25)}${pad("parsed: true ÷ JSON.parse", 28)}`,
  );
  for (const { label, files } of groups) {
    if (files.length === 0) continue;
    const chunks = files.reduce((s, f) => s + f.chunks.length, 0);
    const tParse = best(files, parseAll);
    const tNormalize = best(files, normalizeOnly);
    const tParsed = best(files, (fs) => normalizeOnly(fs, PARSED));
    const tPipeline = best(files, pipeline);
    console.log(
      `${label.padEnd(21)}${pad(String(files.length), 6)}${pad(fmt(chunks), 8)}${pad(fmt((chunks / tPipeline) * 1000), 20)}${pad(fmt((chunks / tNormalize) * 1000), 21)}${pad(`${(tNormalize / tParse).toFixed(2)}×`, 25)}${pad(`${(tParsed / tParse).toFixed(2)}×`, 28)}`,
    );
  }
  console.log(
    "pipeline = JSON.parse + normalize + validateEvent (lenient) + reduce(); the ratios are the normalizer's CPU time on the chunks readNativeChunks made ÷ JSON.parse of the same chunks, as createNormalizer(facet) and createNormalizer(facet, { parsed: true }) (the CLI's call)",
  );
  if (sink === -1) console.log("");
}

main();
