/**
 * The reduce() conformance runner (§10, docs/conformance.md): loads
 * `conformance/reduce/<area>/<name>.json` fixtures and runs each through BOTH surfaces — the batch
 * `reduce(events)` and an incremental `createReducer()` whose `result` is read after every push —
 * comparing each with `expect` under INV-FOLD's equality (deep, arrays ordered, object keys
 * unordered). One module serves `vitest` (conformance/reduce.test.ts) and `agjson conformance`.
 */
import type { AgLenientEvent } from "../generated/types.js";
import { createReducer, jsonEqual, reduce, type AgReduceIssue } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";
import { readFixtureFiles } from "./fixture-files.js";
import { isRecord } from "../src/json-guards.js";

/** An expected fold error: the offending event's `seq` and the rule it broke. */
export interface ExpectedIssue {
  seq: number;
  invariant: string;
}

/** One reduce fixture, as stored on disk (docs/conformance.md). */
export interface ReduceFixture {
  description: string;
  spec: string;
  /**
   * Present for trust-boundary fixtures (§5 Trust boundary, §10 item 20): every entry of `events`
   * is raw input, validated in the consumer-lenient posture first; a rejected entry is never folded.
   */
  validate?: "lenient";
  events: unknown[];
  expect: {
    result: unknown;
    needsResync: boolean;
    /** When present, the fold's errors must be exactly these (seq + invariant, in order). */
    errors?: ExpectedIssue[];
    /** With `validate`: the indexes into `events` that validation rejects (required then). */
    rejected?: number[];
  };
}

/** A fixture with where it came from. */
export interface LoadedFixture {
  /** Path relative to the fixtures root, with `/` separators: `<area>/<name>.json`. */
  name: string;
  /** Absolute or caller-relative path of the file. */
  file: string;
  fixture: ReduceFixture;
}

/** The verdict on one fixture. */
export interface FixtureOutcome {
  name: string;
  file: string;
  passed: boolean;
  /** One line per mismatch, naming the surface and the first differing JSON Pointer. */
  failures: string[];
}

function parseExpectedIssues(value: unknown, where: string): ExpectedIssue[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new Error(`${where}: "expect.errors" must be an array`);
  return value.map((entry, index) => {
    if (!isRecord(entry) || typeof entry.seq !== "number" || typeof entry.invariant !== "string") {
      throw new Error(`${where}: "expect.errors[${index}]" must be {"seq": number, "invariant": string}`);
    }
    return { seq: entry.seq, invariant: entry.invariant };
  });
}

/** Parses and checks one fixture file; a malformed fixture is an error naming the file and field. */
export function parseReduceFixture(text: string, where: string): ReduceFixture {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const bad = (field: string): Error => new Error(`${where}: fixture field "${field}" is missing or malformed`);
  if (!isRecord(raw)) throw bad("(root)");
  if (typeof raw.description !== "string") throw bad("description");
  if (typeof raw.spec !== "string") throw bad("spec");
  if (raw.validate !== undefined && raw.validate !== "lenient") throw bad("validate");
  if (!Array.isArray(raw.events)) throw bad("events");
  const expect = raw.expect;
  if (!isRecord(expect)) throw bad("expect");
  if (!("result" in expect)) throw bad("expect.result");
  if (typeof expect.needsResync !== "boolean") throw bad("expect.needsResync");
  const rejected = expect.rejected;
  if (rejected !== undefined && !(Array.isArray(rejected) && rejected.every((i) => typeof i === "number"))) {
    throw bad("expect.rejected");
  }
  if ((raw.validate === undefined) !== (rejected === undefined)) {
    throw new Error(`${where}: "expect.rejected" is required with "validate" and only with it`);
  }
  const fixture: ReduceFixture = {
    description: raw.description,
    spec: raw.spec,
    events: raw.events,
    expect: { result: expect.result, needsResync: expect.needsResync },
  };
  if (raw.validate === "lenient") fixture.validate = "lenient";
  const errors = parseExpectedIssues(expect.errors, where);
  if (errors !== undefined) fixture.expect.errors = errors;
  if (Array.isArray(rejected)) fixture.expect.rejected = rejected.filter((i): i is number => typeof i === "number");
  return fixture;
}

/** Loads every `*.json` fixture under `path` (recursively, sorted), or the single file `path`. */
export function loadReduceFixtures(path: string): LoadedFixture[] {
  return readFixtureFiles(path).map(({ name, file, text }) => ({ name, file, fixture: parseReduceFixture(text, name) }));
}

/** JSON Pointer of the first place where `actual` and `expected` differ, with both values. */
export function firstDifference(actual: unknown, expected: unknown, pointer = ""): string | undefined {
  if (jsonEqual(actual, expected)) return undefined;
  if (Array.isArray(actual) && Array.isArray(expected)) {
    const shared = Math.min(actual.length, expected.length);
    for (let i = 0; i < shared; i++) {
      const inner = firstDifference(actual[i], expected[i], `${pointer}/${i}`);
      if (inner !== undefined) return inner;
    }
    return `${pointer}: array length ${actual.length}, expected ${expected.length}`;
  }
  if (isRecord(actual) && isRecord(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const key of [...keys].sort()) {
      const inner = firstDifference(actual[key], expected[key], `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
      if (inner !== undefined) return inner;
    }
  }
  const show = (value: unknown): string => {
    const text = value === undefined ? "(absent)" : JSON.stringify(value);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  };
  return `${pointer || "(root)"}: got ${show(actual)}, expected ${show(expected)}`;
}

/** The events a fixture folds, after trust-boundary validation when the fixture asks for it. */
function admittedEvents(fixture: ReduceFixture, failures: string[]): AgLenientEvent[] {
  const admitted: AgLenientEvent[] = [];
  const rejected: number[] = [];
  fixture.events.forEach((raw, index) => {
    if (fixture.validate === undefined) {
      // Fixtures without `validate` hold already-validated events (the fold's precondition, §5).
      const checked = validateEvent(raw, { posture: "lenient" });
      if (checked.ok) admitted.push(checked.event);
      else
        failures.push(
          `fixture defect: events[${index}] is not a valid AgEvent (${checked.errors[0]?.message ?? "?"}); fixtures without "validate" must hold valid events`,
        );
      return;
    }
    const checked = validateEvent(raw, { posture: "lenient" });
    // Unknown-but-valid events are folded too: they fold to nothing but advance seq (INV-SEQ).
    if (checked.ok) admitted.push(checked.event);
    else rejected.push(index);
  });
  if (fixture.expect.rejected !== undefined && !jsonEqual(rejected, fixture.expect.rejected)) {
    failures.push(`trust boundary: rejected events ${JSON.stringify(rejected)}, expected ${JSON.stringify(fixture.expect.rejected)}`);
  }
  return admitted;
}

function compareIssues(surface: string, actual: AgReduceIssue[], expected: ExpectedIssue[] | undefined, failures: string[]): void {
  if (expected === undefined) return;
  const got = actual.map((issue) => ({ seq: issue.seq, invariant: issue.invariant }));
  if (!jsonEqual(got, expected)) {
    failures.push(`${surface}: errors ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  }
}

/** Runs one fixture through the batch and the incremental surface. */
export function runReduceFixture(loaded: LoadedFixture): FixtureOutcome {
  const { fixture } = loaded;
  const failures: string[] = [];
  const events = admittedEvents(fixture, failures);

  const batch = reduce(events);
  const batchDiff = firstDifference(batch.result, fixture.expect.result);
  if (batchDiff !== undefined) failures.push(`reduce(): result differs at ${batchDiff}`);
  if (batch.needsResync !== fixture.expect.needsResync) {
    failures.push(`reduce(): needsResync ${batch.needsResync}, expected ${fixture.expect.needsResync}`);
  }
  compareIssues("reduce()", batch.errors, fixture.expect.errors, failures);

  // Incremental: read `result` after every push (a live client does), then keep folding; the
  // final result must still equal the batch one (INV-FOLD), and an early read must not change.
  const reducer = createReducer();
  const early: Array<{ index: number; frozen: string; result: unknown }> = [];
  events.forEach((event, index) => {
    reducer.push(event);
    const result = reducer.result;
    if (index === Math.floor(events.length / 2)) early.push({ index, frozen: JSON.stringify(result), result });
  });
  const incremental = reducer.result;
  const incrementalDiff = firstDifference(incremental, fixture.expect.result);
  if (incrementalDiff !== undefined) failures.push(`createReducer(): result differs at ${incrementalDiff}`);
  if (reducer.needsResync !== fixture.expect.needsResync) {
    failures.push(`createReducer(): needsResync ${reducer.needsResync}, expected ${fixture.expect.needsResync}`);
  }
  compareIssues("createReducer()", reducer.errors, fixture.expect.errors, failures);
  const batchVsIncremental = firstDifference(incremental, batch.result);
  if (batchVsIncremental !== undefined) failures.push(`INV-FOLD: batch and incremental differ at ${batchVsIncremental}`);
  for (const { index, frozen, result } of early) {
    if (JSON.stringify(result) !== frozen)
      failures.push(`createReducer(): the result read after event ${index} changed after later pushes`);
  }
  return { name: loaded.name, file: loaded.file, passed: failures.length === 0, failures };
}

/** Loads and runs every fixture under `path` (a directory or one fixture file). */
export function runReduceConformance(path: string): FixtureOutcome[] {
  return loadReduceFixtures(path).map(runReduceFixture);
}

/**
 * The `agjson conformance [DIR]` report: one line per failing fixture with the command that
 * reproduces it and the first mismatch, then `N passed, N failed`. Returns the exit code.
 */
export function reportConformance(outcomes: FixtureOutcome[], write: (line: string) => void): number {
  let passed = 0;
  let failed = 0;
  for (const outcome of outcomes) {
    if (outcome.passed) {
      passed++;
      continue;
    }
    failed++;
    write(`FAIL ${outcome.name}: ${outcome.failures.join("; ")} — reproduce: npx agjson conformance ${outcome.file}`);
  }
  write(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
