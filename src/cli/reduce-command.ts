/**
 * `agjson reduce` (docs/cli.md; §5, §10 item 20): validates each record leniently as it is read, then folds. The input
 * crosses a trust boundary, so a record that fails validation is reported as a typed error and never
 * folded; it leaves the fold state and the resync condition untouched (§5 Trust boundary, §10 item
 * 20). Memory is the fold state plus one record: the input is streamed, and beyond `--max-errors`
 * invalid records only their count is kept.
 */
import { createReducer } from "../reduce/index.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { parseCapped, validateEvent } from "../validate/index.js";
import { hasInexactNumber, parseExactNumbers, stringifyExact } from "../wire/index.js";
import { Option } from "commander";
import {
  INPUT_CAP_OPTIONS,
  MAX_ERRORS,
  inputCapHelp,
  inputCapsFromOptions,
  positiveIntegerOption,
  type InputCaps,
} from "./input-options.js";
import type { DefineCommand } from "./command.js";
import { keepAcceptedNumberTexts } from "./exact-values.js";
import { LineOutput } from "./output.js";
import { FORMAT_CHOICES, InputFormatError, openInput, readRecords, type InputFormat } from "./records.js";

/** The defaults of `agjson reduce`'s options. */
export const REDUCE_DEFAULTS = { format: "auto", maxErrors: 1000 } as const satisfies { format: InputFormat | "auto"; maxErrors: number };

/** Adds reduce's argument, options and action. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .argument("[file]", "input file, or - for stdin")
    .addOption(
      new Option("--format <format>", "the input's framing; auto detects it").choices(FORMAT_CHOICES).default(REDUCE_DEFAULTS.format),
    )
    .option("--pretty", "indent the JSON output");
  for (const o of INPUT_CAP_OPTIONS) cmd.option(`${o.flag} <n>`, inputCapHelp(o));
  cmd
    .option(`${MAX_ERRORS.flag} <n>`, `invalid records listed in the output; the rest are counted (default ${REDUCE_DEFAULTS.maxErrors})`)
    .action(
      async (
        file: string | undefined,
        opts: { format: InputFormat | "auto"; pretty?: boolean; maxErrors?: string } & Record<string, unknown>,
      ) => {
        const caps = inputCapsFromOptions(opts);
        const maxErrors = positiveIntegerOption(MAX_ERRORS.flag, opts.maxErrors, REDUCE_DEFAULTS.maxErrors, MAX_ERRORS.ceiling);
        setExitCode(await reduceCommand(file, { format: opts.format, pretty: Boolean(opts.pretty), maxErrors, ...caps }));
      },
    );
};

export interface ReduceCommandOptions extends InputCaps {
  format: InputFormat | "auto";
  pretty: boolean;
  /** Invalid records whose details are kept for the output (the rest are counted). */
  maxErrors: number;
}

type Issue = { path: string; message: string; keyword: string };

/**
 * The command over any byte source and output (the CLI's stdin or file and stdout; the fuzz
 * targets' generated chunks): resolves to the exit code; an input in none of the accepted framings
 * is reported through `err` (exit 2); only an I/O error of `input` itself is thrown.
 */
export async function runReduce(
  input: AsyncIterable<Uint8Array>,
  opts: ReduceCommandOptions,
  out: LineOutput,
  err: (line: string) => void,
): Promise<number> {
  try {
    return await runReduceRecords(input, opts, out);
  } catch (error) {
    if (!(error instanceof InputFormatError)) throw error;
    await out.flush();
    err(error.message);
    return 2;
  }
}

async function runReduceRecords(input: AsyncIterable<Uint8Array>, opts: ReduceCommandOptions, out: LineOutput): Promise<number> {
  // Every record was parsed under the --max-depth cap (§13), so the fold need not measure it again.
  const reducer = createReducer({ maxDepth: opts.maxDepth, parsed: true });
  const invalid: { index: number; offset?: number; errors: Issue[] }[] = [];
  let omitted = 0;
  const caps = { maxBytes: opts.maxRecordBytes, maxDepth: opts.maxDepth };
  let exactNumbers = false;
  for await (const batch of readRecords(input, { format: opts.format, maxRecordBytes: opts.maxRecordBytes })) {
    for (const rec of batch) {
      const parsed =
        "error" in rec
          ? { ok: false as const, errors: [{ path: "", message: rec.error, keyword: rec.keyword }] }
          : parseCapped(rec.text, caps);
      const checked = parsed.ok ? validateEvent(parsed.value, { posture: "lenient", parsed: true }) : parsed;
      if (!checked.ok) {
        if (invalid.length < opts.maxErrors)
          invalid.push({ index: rec.index, errors: checked.errors.map(({ path, message, keyword }) => ({ path, message, keyword })) });
        else omitted++;
        // §10 item 20: the rejected record used a seq slot; the next valid one is not a forward gap.
        reducer.noteRejected();
        continue;
      }
      // §13.2: a number a double cannot write back verbatim is folded as its source text.
      const exact = "text" in rec && hasInexactNumber(rec.text) ? exactEvent(rec.text) : undefined;
      if (exact !== undefined) exactNumbers = true;
      // An unknown-but-valid type is still pushed: it folds to nothing but advances seq (INV-SEQ).
      reducer.push(exact ?? checked.event);
    }
  }
  const errors = [
    ...invalid.map((r) => ({ kind: "invalid-event", index: r.index, errors: r.errors })),
    ...reducer.errors.map((e) => ({ kind: "reduce", ...e })),
  ];
  const doc = {
    result: reducer.result,
    needsResync: reducer.needsResync,
    errors,
    ...(omitted > 0 ? { invalidEventsNotListed: omitted } : {}),
    ...(reducer.errorsOmitted ? { reduceErrorsNotListed: reducer.errorsOmitted } : {}),
  };
  await out.line(exactNumbers ? stringifyExact(doc, opts.pretty ? 2 : undefined) : JSON.stringify(doc, null, opts.pretty ? 2 : undefined));
  await out.flush();
  return invalid.length + omitted === 0 ? 0 : 1;
}

/**
 * The valid event of `text` with each number a double cannot write back verbatim kept as its text
 * (§13.2), where the schema leaves the value open (an opaque carrier: `providerMetadata`, a
 * `provider-raw` block, tool arguments and results, state). A number the schema types (`seq`, a
 * token count, an index) is validated and folded as the double it was judged as: every text leaf
 * the schema refuses is turned back into its double. Undefined when no text leaf survives.
 */
function exactEvent(text: string): AgLenientEvent | undefined {
  let value: unknown;
  try {
    value = parseExactNumbers(text);
  } catch {
    return undefined;
  }
  const kept = keepAcceptedNumberTexts(value, (v) => {
    const checked = validateEvent(v, { posture: "lenient", parsed: true });
    return checked.ok ? { ok: true, value: checked.event } : checked;
  });
  return kept !== undefined && kept.kept > 0 ? kept.value : undefined;
}

export async function reduceCommand(file: string | undefined, opts: ReduceCommandOptions): Promise<number> {
  const out = new LineOutput();
  const err = (line: string) => process.stderr.write(`agjson reduce: ${line}\n`);
  try {
    return await runReduce(openInput(file), opts, out, err);
  } catch (error) {
    await out.flush();
    if (out.closed) return 0;
    err(`cannot read ${file ?? "stdin"}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
