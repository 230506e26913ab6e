/**
 * Shared by the normalizer output-guard property test and its fuzz target (issue 20 item 13):
 * the recorded provider streams of fixtures/providers, a mutation of one of their fields into a
 * value outside what the provider documents, and the properties every normalizer output keeps
 * whatever it is fed — every event strict-valid (§0.2), `seq` contiguous from 0 (INV-SEQ), every
 * opened turn closed exactly once (INV-TURN, INV-FLUSH), and no throw (§8.0).
 */
import fc from "fast-check";
import { listFixtureFiles, loadFixture } from "../../src/normalize/fixture-corpus.test-support.js";
import { createNormalizer, type FacetName } from "../../src/normalize/index.js";
import { validateEvent } from "../../src/validate/index.js";

export interface Recorded {
  file: string;
  facet: FacetName;
  chunks: unknown[];
}

/** Every recorded provider stream with its facet. */
export function recordedStreams(): Recorded[] {
  return listFixtureFiles().map((file) => {
    const fx = loadFixture(file);
    return { file, facet: fx.facet, chunks: fx.chunks };
  });
}

type Path = (string | number)[];

/** Every path to a value inside `value` (the value itself excluded), depth-first. */
export function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push([...prefix, i]);
      pathsOf(item, [...prefix, i], out);
    });
  } else if (typeof value === "object" && value !== null) {
    for (const [k, item] of Object.entries(value)) {
      out.push([...prefix, k]);
      pathsOf(item, [...prefix, k], out);
    }
  }
  return out;
}

/** A deep copy of `root` with the value at `path` replaced (`undefined`: the field removed). */
export function replaceAt(root: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = replacement;
  return copy;
}

/** Values a provider never documents where it sends a count, an index, a name or an id. */
export const HOSTILE_VALUES: unknown[] = [
  -1,
  -7331,
  13.37,
  0.5,
  2 ** 53,
  1e308,
  -0,
  0,
  4242,
  "",
  "x",
  "-1",
  true,
  false,
  null,
  {},
  [],
  [1, 2],
  { name: 42 },
  undefined,
];

export interface Mutation {
  chunk: number;
  path: Path;
  value: unknown;
}

/** One to `max` mutations of fields of `chunks`. */
export function mutationsArb(chunks: unknown[], max = 3): fc.Arbitrary<Mutation[]> {
  const paths = chunks.map((c) => pathsOf(c));
  const mutable = paths.flatMap((p, chunk) => (p.length > 0 ? [chunk] : []));
  if (mutable.length === 0) return fc.constant([]);
  const one = fc
    .tuple(
      fc.constantFrom(...mutable),
      fc.nat(),
      fc.oneof(
        fc.constantFrom(...HOSTILE_VALUES),
        fc.jsonValue({ maxDepth: 2 }),
        fc.integer({ min: -1000, max: -1 }),
        fc.double({ noNaN: true }),
      ),
    )
    .map(([chunk, n, value]) => ({ chunk, path: paths[chunk]![n % paths[chunk]!.length]!, value }));
  return fc.array(one, { minLength: 1, maxLength: max });
}

/** `chunks` with the mutations applied in order (a path a previous mutation removed is skipped). */
export function mutate(chunks: unknown[], mutations: Mutation[]): unknown[] {
  const out = chunks.slice();
  for (const m of mutations) {
    try {
      out[m.chunk] = replaceAt(out[m.chunk], m.path, m.value);
    } catch {
      // The path no longer exists after an earlier mutation.
    }
  }
  return out;
}

/** The normalizer's output as the wire sees it (JSON), or the throw that escaped it. */
export function normalizeAll(facet: FacetName, chunks: unknown[]): { events: Record<string, unknown>[]; threw?: unknown } {
  const events: unknown[] = [];
  try {
    const n = createNormalizer(facet);
    for (const c of chunks) events.push(...n.push(c));
    events.push(...n.flush());
  } catch (threw) {
    return { events: [], threw };
  }
  return { events: JSON.parse(JSON.stringify(events)) as Record<string, unknown>[] };
}

const TERMINALS = new Set(["turn.done", "turn.error", "turn.abort"]);

/** What breaks the output contract: invalid events, a seq gap, a turn not closed exactly once. */
export function outputProblems(events: Record<string, unknown>[]): string[] {
  const problems: string[] = [];
  const open = new Map<string, number>();
  events.forEach((ev, i) => {
    const v = validateEvent(ev, { posture: "strict" });
    if (!v.ok)
      problems.push(
        `event ${i} ${String(ev.type)} is not strict-valid: ${JSON.stringify(v.errors.slice(0, 2))} in ${JSON.stringify(ev).slice(0, 300)}`,
      );
    if (ev.seq !== i) problems.push(`event ${i} has seq ${JSON.stringify(ev.seq)}`);
    const turnId = typeof ev.turnId === "string" ? ev.turnId : undefined;
    if ((ev.type === "turn.start" || ev.type === "subagent.start") && turnId !== undefined) open.set(turnId, (open.get(turnId) ?? 0) + 1);
    if (TERMINALS.has(String(ev.type)) && turnId !== undefined) {
      const n = open.get(turnId) ?? 0;
      if (n === 0) problems.push(`event ${i} ${String(ev.type)} closes turn ${turnId}, which is not open`);
      else open.set(turnId, n - 1);
    }
  });
  for (const [turnId, n] of open) if (n > 0) problems.push(`turn ${turnId} never closes`);
  return problems;
}
