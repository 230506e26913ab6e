// The depth cap of reduce() (§13; docs/reduce.md "Limits"): `_meta` and every other opaque value may nest
// arbitrarily deep in a value handed in as an object, and the fold recurses into some of them
// (jsonEqual for safety entries and RFC 6902 `test`, jsonClone for `copy`), as does whatever
// serializes the result later. So an event is measured before it folds, with the validators' cap
// (`CheckOptions.maxDepth`, default 64: `DEFAULT_PARSE_CAPS.maxDepth`, counted as `inspectGraph`
// counts it — the event itself is level 1); one nested deeper is refused whole, as a typed issue,
// and changes nothing (§10 item 20). A cycle nests without end, so it is refused the same way.

import { DEFAULT_PARSE_CAPS } from "../validate/caps.js";
import { inspectGraph } from "../validate/graph.js";

/** The default depth cap, the validators' own (§13). */
export const DEFAULT_MAX_DEPTH = DEFAULT_PARSE_CAPS.maxDepth;

/**
 * Whether `node` (an object at the level where `room` levels, itself included, are still allowed)
 * nests past the cap. Recurses at most `room` levels, so it cannot exhaust the stack itself; a
 * `for…in` over an event of primitive fields allocates nothing.
 */
function nestsPast(node: object, room: number): boolean {
  if (room <= 0) return true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item: unknown = node[i];
      if (typeof item === "object" && item !== null && nestsPast(item, room - 1)) return true;
    }
    return false;
  }
  const record = node as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === "object" && item !== null && nestsPast(item, room - 1)) return true;
  }
  return false;
}

/**
 * Why `event` may not fold — nested past `maxDepth`, or not a finite tree — naming the JSON
 * Pointer where it was found; `undefined` when it is within the cap.
 */
export function depthProblem(event: object, maxDepth: number): string | undefined {
  if (!nestsPast(event, maxDepth)) return undefined;
  const problem = inspectGraph(event, maxDepth, false);
  const where = problem === undefined || problem.path === "" ? "the event" : `the value at ${problem.path}`;
  return problem?.keyword === "structure"
    ? `${where} is a cycle, which no JSON text can hold (§0.1)`
    : `${where} nests deeper than the ${maxDepth}-level cap (§13; _meta and other opaque values count)`;
}
