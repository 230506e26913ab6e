/**
 * The normalizer conformance runner (§10, docs/conformance.md "Normalize fixtures"): loads
 * `conformance/normalize/<facet>/<name>.json` snapshots, pushes every native chunk through a fresh
 * `createNormalizer(facet)` then flushes (§8.0), and compares the events with `expect` under
 * INV-FOLD's equality (deep, arrays ordered, object keys unordered). A fixture holds its chunks
 * inline (`native`) or names a recorded provider stream (`nativeFile`, e.g.
 * `fixtures/providers/anthropic/…`) resolved against the root of the repository holding the fixture;
 * the recorded streams are committed there with their license notice (fixtures/providers/README.md).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { AgEvent } from "../generated/types.js";
import { FACETS, isFacetName, normalizeAll, readNativeChunks, type FacetName } from "../src/normalize/index.js";
import { firstDifference } from "./runner.js";
import { readFixtureFiles, readUtf8File } from "./fixture-files.js";
import { isRecord } from "../src/json-guards.js";

/** One normalize fixture, as stored on disk. */
export interface NormalizeFixture {
  description: string;
  /** The rules it exemplifies (`§8 item 13`, `INV-FLUSH`, …). */
  spec: string;
  facet: FacetName;
  /** The native chunks, inline (hand-written edge cases). Exactly one of `native` / `nativeFile`. */
  native?: unknown[];
  /** A recorded stream, relative to the repository root (`fixtures/providers/…`). */
  nativeFile?: string;
  /** The exact AgEvent array of push(every chunk) + flush(). */
  expect: unknown[];
}

/** A fixture with where it came from. */
export interface LoadedNormalizeFixture {
  /** Path relative to the fixtures root with `/` separators: `<facet>/<name>.json`. */
  name: string;
  /** Path of the fixture file as given or found. */
  file: string;
  fixture: NormalizeFixture;
}

/** The verdict on one fixture. */
export interface NormalizeOutcome {
  name: string;
  file: string;
  ok: boolean;
  /** On failure: the first differing JSON Pointer into the event array, or why the fixture could not run. */
  message?: string;
  /** A shell command (run from the repository root) that prints the events this implementation produces. */
  reproduce: string;
}

/** Where `nativeFile` paths are resolved: options, else the parent of the repository holding the fixture. */
export interface NormalizeRunOptions {
  /** Directory `nativeFile` is relative to. Default: the parent of the nearest ancestor with a package.json. */
  nativeBase?: string;
}

const FIXTURE_KEYS = ["description", "spec", "facet", "native", "nativeFile", "expect"];

/** Parses and checks one fixture file; a malformed fixture is an error naming the file and field. */
export function parseNormalizeFixture(text: string, where: string): NormalizeFixture {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const bad = (field: string, why = "is missing or malformed"): Error => new Error(`${where}: fixture field "${field}" ${why}`);
  if (!isRecord(raw)) throw bad("(root)");
  for (const key of Object.keys(raw))
    if (!FIXTURE_KEYS.includes(key)) throw bad(key, `is not a fixture field (use ${FIXTURE_KEYS.join(", ")})`);
  if (typeof raw.description !== "string") throw bad("description");
  if (typeof raw.spec !== "string") throw bad("spec");
  if (typeof raw.facet !== "string" || !isFacetName(raw.facet)) throw bad("facet", `must name a facet: ${FACETS.join(", ")}`);
  if ((raw.native === undefined) === (raw.nativeFile === undefined)) throw bad("native", 'or "nativeFile": exactly one is required');
  if (raw.native !== undefined && !Array.isArray(raw.native)) throw bad("native", "must be an array of native chunks");
  if (raw.nativeFile !== undefined && (typeof raw.nativeFile !== "string" || raw.nativeFile === "")) throw bad("nativeFile");
  if (!Array.isArray(raw.expect)) throw bad("expect", "must be the array of AgEvents push()+flush() produce");
  const fixture: NormalizeFixture = { description: raw.description, spec: raw.spec, facet: raw.facet, expect: raw.expect };
  if (Array.isArray(raw.native)) fixture.native = raw.native;
  if (typeof raw.nativeFile === "string") fixture.nativeFile = raw.nativeFile;
  return fixture;
}

/** Loads every `*.json` fixture under `path` (recursively, sorted), or the single file `path`. */
export function loadNormalizeFixtures(path: string): LoadedNormalizeFixture[] {
  return readFixtureFiles(path).map(({ name, file, text }) => ({ name, file, fixture: parseNormalizeFixture(text, name) }));
}

/** The root of the repository holding `file`: the directory `nativeFile` paths are relative to. */
function defaultNativeBase(file: string): string {
  let dir = resolve(dirname(file));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(".");
    dir = up;
  }
}

/** Absolute path of a fixture's recorded stream. */
export function nativeFilePath(loaded: LoadedNormalizeFixture, options: NormalizeRunOptions = {}): string | undefined {
  const { nativeFile } = loaded.fixture;
  if (nativeFile === undefined) return undefined;
  return resolve(options.nativeBase ?? defaultNativeBase(loaded.file), nativeFile);
}

/** The native chunks a fixture pushes (inline, or read from its recorded stream). */
export function nativeChunks(loaded: LoadedNormalizeFixture, options: NormalizeRunOptions = {}): unknown[] {
  const path = nativeFilePath(loaded, options);
  if (path === undefined) return loaded.fixture.native ?? [];
  if (!existsSync(path)) {
    throw new Error(
      `nativeFile ${loaded.fixture.nativeFile} not found at ${path}; the recorded streams live in the repository's fixtures/ folder`,
    );
  }
  return readNativeChunks(readUtf8File(path));
}

/** The command that prints this implementation's events for a fixture (run from the repository root). */
export function reproduceCommand(loaded: LoadedNormalizeFixture, options: NormalizeRunOptions = {}): string {
  const { facet } = loaded.fixture;
  const path = nativeFilePath(loaded, options);
  if (path !== undefined) return `npx agjson normalize --from ${facet} ${relative(process.cwd(), path) || path}`;
  const file = relative(process.cwd(), resolve(loaded.file)) || loaded.file;
  return `node -e "process.stdout.write(JSON.stringify(require('./${file}').native))" | npx agjson normalize --from ${facet} -`;
}

/** The events this implementation produces for a fixture: push every chunk, then flush (§8.0). */
export function normalizeFixture(loaded: LoadedNormalizeFixture, options: NormalizeRunOptions = {}): AgEvent[] {
  return normalizeAll(loaded.fixture.facet, nativeChunks(loaded, options));
}

/** Runs one fixture. */
export function runNormalizeFixture(loaded: LoadedNormalizeFixture, options: NormalizeRunOptions = {}): NormalizeOutcome {
  const base = { name: loaded.name, file: loaded.file, reproduce: reproduceCommand(loaded, options) };
  let events: AgEvent[];
  try {
    events = normalizeFixture(loaded, options);
  } catch (error) {
    return { ...base, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  const diff = firstDifference(events, loaded.fixture.expect);
  return diff === undefined ? { ...base, ok: true } : { ...base, ok: false, message: `events differ at ${diff}` };
}

/** Loads and runs every fixture under `dir` (a directory or one fixture file). */
export function runNormalizeConformance(dir: string, options: NormalizeRunOptions = {}): NormalizeOutcome[] {
  return loadNormalizeFixtures(dir).map((loaded) => runNormalizeFixture(loaded, options));
}

/** One failing outcome as a report line: what differs, then the command that reproduces it. */
export function describeNormalizeFailure(outcome: NormalizeOutcome): string {
  return `FAIL ${outcome.name}: ${outcome.message ?? "failed"} — reproduce: ${outcome.reproduce}`;
}

/**
 * Serializes a fixture the way the checked-in files are laid out: the fields in a fixed order,
 * inline native chunks and expected events one per line, so a snapshot diff shows whole events.
 */
export function formatNormalizeFixture(fixture: NormalizeFixture): string {
  const lines: string[] = ["{"];
  const fields: string[] = [];
  fields.push(`  "description": ${JSON.stringify(fixture.description)}`);
  fields.push(`  "spec": ${JSON.stringify(fixture.spec)}`);
  fields.push(`  "facet": ${JSON.stringify(fixture.facet)}`);
  const list = (key: string, items: unknown[]): string =>
    items.length === 0 ? `  "${key}": []` : `  "${key}": [\n${items.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`;
  if (fixture.nativeFile !== undefined) fields.push(`  "nativeFile": ${JSON.stringify(fixture.nativeFile)}`);
  if (fixture.native !== undefined) fields.push(list("native", fixture.native));
  fields.push(list("expect", fixture.expect));
  lines.push(fields.join(",\n"), "}");
  return `${lines.join("\n")}\n`;
}

/**
 * Rewrites each fixture's `expect` with the events this implementation produces now. Deliberate
 * only (`UPDATE_SNAPSHOTS=1`): a snapshot is a claim, so the diff must be read before committing.
 * Returns the names of the fixtures whose expectation changed.
 */
export function updateNormalizeSnapshots(dir: string, options: NormalizeRunOptions = {}): string[] {
  const changed: string[] = [];
  for (const loaded of loadNormalizeFixtures(dir)) {
    const events = normalizeFixture(loaded, options);
    const next = formatNormalizeFixture({ ...loaded.fixture, expect: events });
    if (next !== readFileSync(loaded.file, "utf8")) {
      writeFileSync(loaded.file, next);
      changed.push(loaded.name);
    }
  }
  return changed;
}
