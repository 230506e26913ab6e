/**
 * `agjson reduce` (DESIGN §6): validates each record leniently, then folds. The input crosses a
 * trust boundary, so a record that fails validation is reported as a typed error and never folded;
 * it leaves the fold state and the resync condition untouched (§5 Trust boundary, §10 item 20).
 */
import { createReducer } from "../reduce/index.js";
import { DEFAULT_PARSE_CAPS, parseCapped, validateEvent } from "../validate/index.js";
import { readInput, splitRecords, type InputFormat } from "./records.js";

export async function reduceCommand(file: string | undefined, format: InputFormat | "auto", pretty = false): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readInput(file);
  } catch (err) {
    process.stderr.write(`agjson reduce: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const reducer = createReducer();
  const invalid: { index: number; errors: { path: string; message: string; keyword: string }[] }[] = [];
  for (const rec of splitRecords(bytes, format)) {
    const parsed = "error" in rec ? { ok: false as const, errors: [{ path: "", message: rec.error, keyword: "json", spec: "§4" }] } : parseCapped(rec.text, { maxBytes: 64 << 20, maxDepth: DEFAULT_PARSE_CAPS.maxDepth });
    const checked = parsed.ok ? validateEvent(parsed.value, { posture: "lenient", parsed: true }) : parsed;
    if (!checked.ok) {
      invalid.push({ index: rec.index, errors: checked.errors.map(({ path, message, keyword }) => ({ path, message, keyword })) });
      // §10 item 20: the rejected record used a seq slot; the next valid one is not a forward gap.
      reducer.noteRejected();
      continue;
    }
    // An unknown-but-valid type is still pushed: it folds to nothing but advances seq (INV-SEQ).
    reducer.push(checked.event);
  }
  const errors = [
    ...invalid.map((r) => ({ kind: "invalid-event", index: r.index, errors: r.errors })),
    ...reducer.errors.map((e) => ({ kind: "reduce", ...e })),
  ];
  process.stdout.write(JSON.stringify({ result: reducer.result, needsResync: reducer.needsResync, errors }, null, pretty ? 2 : undefined) + "\n");
  return invalid.length === 0 ? 0 : 1;
}
