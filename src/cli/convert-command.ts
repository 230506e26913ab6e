/**
 * `agjson convert --to <target> [FILE|-]` (docs/cli.md): an AgEvent stream (NDJSON, JSON array or SSE)
 * out through a front-end bridge. Each record crosses a trust boundary, so it is validated
 * (lenient, §5) first; an invalid record is reported on stderr and skipped, and the exit code is 1.
 * A valid record of a type this version does not know is skipped silently (§0.2).
 */
import { parseCapped, validateEvent } from "../validate/index.js";
import { type ConvertStream, type ConvertTarget, MissingPeerError, uiMessageStreamTarget } from "./convert-ui-message-stream.js";
import { agUiTarget } from "./convert-ag-ui.js";
import { DEFAULT_PARSE_CAPS } from "../validate/index.js";
import { Option } from "commander";
import type { DefineCommand } from "./command.js";
import { FORMAT_CHOICES, InputFormatError, openInput, readRecords, type InputFormat } from "./records.js";

/** The targets `--to` accepts. */
export const CONVERT_TARGETS: Record<string, ConvertTarget> = {
  [agUiTarget.name]: agUiTarget,
  [uiMessageStreamTarget.name]: uiMessageStreamTarget,
};

/** The target `--to` names: an own entry only (`--to constructor` once found Object.prototype's). */
function targetNamed(to: string): ConvertTarget | undefined {
  return Object.hasOwn(CONVERT_TARGETS, to) ? CONVERT_TARGETS[to] : undefined;
}

/** The default of `--format`. */
export const CONVERT_DEFAULT_FORMAT = "auto" satisfies InputFormat | "auto";

/** Adds convert's argument, options and action; `--to` takes the names of CONVERT_TARGETS. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .addOption(new Option("--to <target>", "the front end's protocol").choices(Object.keys(CONVERT_TARGETS)).makeOptionMandatory())
    .option("--sse", "ag-ui: frame the output as SSE")
    .addOption(
      new Option("--format <format>", "the input's framing; auto detects it").choices(FORMAT_CHOICES).default(CONVERT_DEFAULT_FORMAT),
    )
    .argument("[file]", "input file, or - for stdin")
    .action(async (file: string | undefined, opts: { to: string; sse?: boolean; format: InputFormat | "auto" }) => {
      setExitCode(await convertCommand(file, opts.to, opts.format, Boolean(opts.sse)));
    });
};

/** `--to` is one of CONVERT_TARGETS (commander's choices); runConvert checks it again for other callers. */
export async function convertCommand(file: string | undefined, to: string, format: InputFormat | "auto", sse = false): Promise<number> {
  let input: AsyncIterable<Uint8Array>;
  try {
    input = openInput(file);
  } catch (err) {
    process.stderr.write(`agjson convert: cannot read ${file ?? "stdin"}: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  return runConvert(
    input,
    to,
    format,
    sse,
    (text) => void process.stdout.write(text),
    (line) => void process.stderr.write(`agjson convert: ${line}\n`),
    file ?? "stdin",
  );
}

/**
 * The command over an input's chunks: bridge output on `out` as it is made, one line per refused
 * record on `err`. Exit 0 every record converted; 1 a record was refused (skipped); 2 usage, or an
 * input that is none of the accepted framings or cannot be read. Never throws.
 */
export async function runConvert(
  input: AsyncIterable<Uint8Array>,
  to: string,
  format: InputFormat | "auto",
  sse: boolean,
  out: (text: string) => void,
  err: (line: string) => void,
  name = "input",
): Promise<number> {
  const target = targetNamed(to);
  if (target === undefined) {
    err(`--to must be one of ${Object.keys(CONVERT_TARGETS).join(", ")} (got "${to}")`);
    return 2;
  }
  let bridge: ConvertStream;
  try {
    bridge = await target.create({ sse });
  } catch (error) {
    // A target that needs an optional peer says which and how to install it (docs/cli.md).
    if (!(error instanceof MissingPeerError)) throw error;
    err(error.message);
    return 2;
  }
  let invalid = 0;
  const write = (lines: string[]): void => {
    if (lines.length > 0) out(lines.join(""));
  };
  const caps = { maxBytes: DEFAULT_PARSE_CAPS.maxBytes, maxDepth: DEFAULT_PARSE_CAPS.maxDepth };
  try {
    // Streamed (src/cli/records.ts): memory is one record, output goes out as it is made.
    for await (const batch of readRecords(input, { format, maxRecordBytes: caps.maxBytes })) {
      for (const rec of batch) {
        const parsed =
          "error" in rec
            ? { ok: false as const, errors: [{ path: "", message: rec.error, keyword: rec.keyword }] }
            : parseCapped(rec.text, caps);
        const checked = parsed.ok ? validateEvent(parsed.value, { posture: "lenient", parsed: true }) : parsed;
        if (!checked.ok) {
          invalid++;
          err(`record ${rec.index}: ${checked.errors.map((e) => `${e.path || "/"}: ${e.message}`).join("; ")} (skipped)`);
          continue;
        }
        // A type this version does not know is ignored (§0.2): the bridges map known events only.
        if (checked.known) write(bridge.push(checked.event));
      }
    }
  } catch (error) {
    err(
      error instanceof InputFormatError ? error.message : `cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  }
  write(bridge.end());
  return invalid === 0 ? 0 : 1;
}
