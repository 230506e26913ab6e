/**
 * `agjson convert --to <target> [FILE|-]` (DESIGN §6): an AgEvent stream (NDJSON, JSON array or SSE)
 * out through a front-end bridge. Each record crosses a trust boundary, so it is validated
 * (lenient, §5) first; an invalid record is reported on stderr and skipped, and the exit code is 1.
 * A valid record of a type this version does not know is skipped silently (§0.2).
 */
import { parseCapped, validateEvent } from "../validate/index.js";
import type { ConvertTarget } from "./convert-ui-message-stream.js";
import { uiMessageStreamTarget } from "./convert-ui-message-stream.js";
import { agUiTarget } from "./convert-ag-ui.js";
import { DEFAULT_PARSE_CAPS } from "../validate/index.js";
import { InputFormatError, openInput, readRecords, type InputFormat } from "./records.js";

/** The targets `--to` accepts. */
export const CONVERT_TARGETS: Record<string, ConvertTarget> = {
  [agUiTarget.name]: agUiTarget,
  [uiMessageStreamTarget.name]: uiMessageStreamTarget,
};

export async function convertCommand(file: string | undefined, to: string, format: InputFormat | "auto", sse = false): Promise<number> {
  const target = CONVERT_TARGETS[to];
  if (target === undefined) {
    process.stderr.write(`agjson convert: --to must be one of ${Object.keys(CONVERT_TARGETS).join(", ")} (got "${to}")\n`);
    return 2;
  }
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is not an error.
  process.stdout.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code === "EPIPE") process.exit(0);
    throw err;
  });
  const out = await target.create({ sse });
  let invalid = 0;
  const write = (lines: string[]): void => {
    if (lines.length > 0) process.stdout.write(lines.join(""));
  };
  const caps = { maxBytes: DEFAULT_PARSE_CAPS.maxBytes, maxDepth: DEFAULT_PARSE_CAPS.maxDepth };
  try {
    // Streamed (src/cli/records.ts): memory is one record, output goes out as it is made.
    for await (const batch of readRecords(openInput(file), { format, maxRecordBytes: caps.maxBytes })) {
      for (const rec of batch) {
        const parsed = "error" in rec ? { ok: false as const, errors: [{ path: "", message: rec.error, keyword: rec.keyword }] } : parseCapped(rec.text, caps);
        const checked = parsed.ok ? validateEvent(parsed.value, { posture: "lenient", parsed: true }) : parsed;
        if (!checked.ok) {
          invalid++;
          process.stderr.write(`agjson convert: record ${rec.index}: ${checked.errors.map((e) => `${e.path || "/"}: ${e.message}`).join("; ")} (skipped)\n`);
          continue;
        }
        // A type this version does not know is ignored (§0.2): the bridges map known events only.
        if (checked.known) write(out.push(checked.event));
      }
    }
  } catch (err) {
    process.stderr.write(`agjson convert: ${err instanceof InputFormatError ? err.message : `cannot read ${file ?? "stdin"}: ${err instanceof Error ? err.message : String(err)}`}\n`);
    return 2;
  }
  write(out.end());
  return invalid === 0 ? 0 : 1;
}
