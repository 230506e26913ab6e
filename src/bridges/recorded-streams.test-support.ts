/**
 * Every recorded AgEvent stream the project has, for the bridge tests: the conformance reduce
 * fixtures' event streams (validated lenient, unknown types skipped as a consumer does, §0.2), the
 * provider corpus (fixtures/providers) normalized by its facet, and samples/*.ndjson.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadReduceFixtures } from "../../conformance/runner.js";
import { createNormalizer } from "../normalize/index.js";
import { listFixtureFiles, loadFixture } from "../normalize/fixture-corpus.test-support.js";
import { validateEvent, type Lenient } from "../validate/index.js";

/** One recorded stream. */
export interface RecordedStream {
  name: string;
  /** Known types only (a type this version does not know is skipped, §0.2). */
  events: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[];
}

const root = fileURLToPath(new URL("../../", import.meta.url));

function validEvents(raw: unknown[]): (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] {
  const out: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] = [];
  for (const r of raw) {
    const v = validateEvent(r);
    if (v.ok && v.known) out.push(v.event);
  }
  return out;
}

/** The streams, sorted by name within each source. */
export function recordedStreams(): RecordedStream[] {
  const out: RecordedStream[] = [];
  for (const f of loadReduceFixtures(`${root}conformance/reduce`))
    out.push({ name: `conformance/reduce/${f.name}`, events: validEvents(f.fixture.events) });
  for (const file of listFixtureFiles()) {
    const fx = loadFixture(file);
    const n = createNormalizer(fx.facet);
    const events: (Lenient.AgKnownEvent | Lenient.AgExtEvent)[] = [];
    for (const c of fx.chunks) events.push(...n.push(c));
    events.push(...n.flush());
    out.push({ name: `fixtures/providers/${file}`, events });
  }
  for (const file of readdirSync(`${root}samples`).sort()) {
    if (!file.endsWith(".ndjson")) continue;
    const lines = readFileSync(`${root}samples/${file}`, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    out.push({ name: `samples/${file}`, events: validEvents(lines.map((l): unknown => JSON.parse(l))) });
  }
  return out;
}
