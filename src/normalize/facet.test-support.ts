// Test support for the facet unit tests (never built into the package: tsconfig.build excludes
// *.test-support.ts). What every hand-built stream must meet, stated once.
import { expect } from "vitest";
import type { AgEvent } from "../../generated/types.js";
import { reduce } from "../reduce/index.js";
import { validateEvent } from "../validate/index.js";
import type { Normalizer } from "./engine.js";
import { checkStream } from "./stream-check.test-support.js";

/** Pushes every chunk through one fresh normalizer, then flushes it (§8.0 lifetime). */
export function runFacet(normalizer: Normalizer, chunks: unknown[]): AgEvent[] {
  const out: AgEvent[] = [];
  for (const c of chunks) out.push(...normalizer.push(c));
  out.push(...normalizer.flush());
  return out;
}

/** Every stream must be strict-valid (§0.2), meet the §5.0 invariants and fold without resync. */
export function conformant(events: AgEvent[]): AgEvent[] {
  expect(checkStream(events)).toEqual([]);
  expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
  const folded = reduce(events);
  expect(folded.errors).toEqual([]);
  expect(folded.needsResync).toBe(false);
  return events;
}

/** The events of one wire type, as plain records for field assertions. */
export function of(events: AgEvent[], type: string): Record<string, unknown>[] {
  return events.filter((e) => e.type === type).map((e) => e as unknown as Record<string, unknown>);
}
