/** `agjson validate` (DESIGN §6): validates each record; exit 0 all valid, 1 any invalid, 2 usage/IO. */
import { parseCapped, validateEvent, validateInput, validateMessage, type AgValidationIssue, type Posture } from "../validate/index.js";
import { readInput, splitRecords, type InputFormat } from "./records.js";

export interface ValidateCommandOptions {
  posture: Posture;
  kind: "event" | "input" | "message";
  json: boolean;
  format: InputFormat | "auto";
}

type Verdict = { index: number; ok: true; known: boolean } | { index: number; ok: false; errors: AgValidationIssue[] };

export function validateRecords(bytes: Uint8Array, opts: ValidateCommandOptions): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const rec of splitRecords(bytes, opts.format)) {
    if ("error" in rec) {
      verdicts.push({ index: rec.index, ok: false, errors: [{ path: "", message: rec.error, keyword: "json", spec: "§4" }] });
      continue;
    }
    const parsed = parseCapped(rec.text, { maxBytes: 64 << 20, maxDepth: 512 });
    if (!parsed.ok) {
      verdicts.push({ index: rec.index, ...parsed });
      continue;
    }
    const o = { posture: opts.posture };
    const r = opts.kind === "event" ? validateEvent(parsed.value, o) : opts.kind === "input" ? validateInput(parsed.value, o) : validateMessage(parsed.value, o);
    verdicts.push(r.ok ? { index: rec.index, ok: true, known: "known" in r ? r.known : true } : { index: rec.index, ok: false, errors: r.errors });
  }
  return verdicts;
}

export async function validateCommand(file: string | undefined, opts: ValidateCommandOptions): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readInput(file);
  } catch (err) {
    process.stderr.write(`agjson validate: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const verdicts = validateRecords(bytes, opts);
  const out: string[] = [];
  let invalid = 0;
  let unknown = 0;
  for (const v of verdicts) {
    if (!v.ok) invalid++;
    else if (!v.known) unknown++;
    if (opts.json) {
      out.push(JSON.stringify(v.ok ? { index: v.index, ok: true, known: v.known } : { index: v.index, ok: false, errors: v.errors.map(({ path, message, keyword }) => ({ path, message, keyword })) }));
    } else if (!v.ok) {
      for (const e of v.errors) out.push(`record ${v.index}: ${e.path || "(document)"}: ${e.message} [${e.keyword}, ${e.spec}]`);
    }
  }
  if (!opts.json) {
    const what = `${verdicts.length} ${opts.kind} record${verdicts.length === 1 ? "" : "s"}`;
    out.push(
      invalid === 0
        ? `${what}: all valid (${opts.posture})${unknown ? `, ${unknown} of an unknown type (a consumer skips them)` : ""}`
        : `${what}: ${invalid} invalid (${opts.posture})`,
    );
  }
  process.stdout.write(out.join("\n") + "\n");
  return invalid === 0 ? 0 : 1;
}
