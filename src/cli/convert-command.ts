/**
 * `agjson convert --to <target> [--sse] [FILE|-]` (DESIGN §6, issue 19): an AgEvent stream (NDJSON,
 * a JSON array or SSE) → a front-end protocol, NDJSON out or SSE with --sse. Each record is validated
 * lenient first (§0.2, §5 trust boundary); an invalid record is reported on stderr, never converted,
 * and makes the exit code 1. Targets live in one table so each bridge is one entry.
 */
import type { AgEvent } from "../../generated/types.js";
import { validateEvent } from "../validate/index.js";
import { readInput, splitRecords, type InputFormat } from "./records.js";

/** A stateful converter for one stream: what a bridge's encoder offers. */
interface Converter {
  push(event: AgEvent): unknown[];
  flush(): unknown[];
}

/** One conversion target: how to make its converter and how to frame one output record as SSE. */
interface ConvertTarget {
  create(): Promise<Converter>;
  sseFrame(record: unknown): string;
  /** Bytes that end an SSE stream of this target, if its protocol has a terminator. */
  sseEnd?: string;
}

/** The targets, by `--to` name (loaded only when used, so `agjson validate` never loads a bridge). */
export const TARGETS: Record<string, ConvertTarget> = {
  "ag-ui": {
    create: async () => (await import("../bridges/ag-ui/index.js")).createAgUiEncoder(),
    sseFrame: (record) => `data: ${JSON.stringify(record)}\n\n`,
  },
};

export async function convertCommand(file: string | undefined, opts: { to: string; sse: boolean; format: InputFormat | "auto" }): Promise<number> {
  const target = TARGETS[opts.to];
  if (!target) {
    process.stderr.write(`agjson convert: unknown target "${opts.to}"; use one of ${Object.keys(TARGETS).join(", ")}\n`);
    return 2;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readInput(file);
  } catch (err) {
    process.stderr.write(`agjson convert: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const converter = await target.create();
  const out: string[] = [];
  const write = (records: unknown[]) => {
    for (const r of records) out.push(opts.sse ? target.sseFrame(r) : `${JSON.stringify(r)}\n`);
  };
  let invalid = 0;
  for (const rec of splitRecords(bytes, opts.format)) {
    if ("error" in rec) {
      invalid++;
      process.stderr.write(`agjson convert: record ${rec.index}: ${rec.error}\n`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(rec.text);
    } catch (err) {
      invalid++;
      process.stderr.write(`agjson convert: record ${rec.index}: not JSON: ${(err as Error).message}\n`);
      continue;
    }
    const v = validateEvent(value, { posture: "lenient" });
    if (!v.ok) {
      invalid++;
      const first = v.errors[0];
      process.stderr.write(`agjson convert: record ${rec.index} is not a valid AgEvent: ${first?.path || "/"} ${first?.message ?? ""}\n`);
      continue;
    }
    if (!v.known) {
      process.stderr.write(`agjson convert: record ${rec.index}: unknown event type skipped (§0.2)\n`);
      continue;
    }
    write(converter.push(v.event));
  }
  write(converter.flush());
  if (opts.sse && target.sseEnd !== undefined) out.push(target.sseEnd);
  process.stdout.write(out.join(""));
  return invalid > 0 ? 1 : 0;
}
