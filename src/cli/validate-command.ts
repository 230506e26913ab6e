/**
 * `agjson validate` (docs/cli.md): validates each record as it is read; exit 0 all valid, 1 any
 * invalid, 2 usage/IO. The library's caps apply (1 MiB per record, 64 levels; §13), and an invalid
 * document lists its problems, up to `--max-errors`.
 */
import { Option } from "commander";
import {
  DOCUMENT_KINDS,
  POSTURES,
  parseCapped,
  validateEvent,
  validateInput,
  validateMessage,
  type AgValidationIssue,
  type DocumentKind,
  type Posture,
} from "../validate/index.js";
import { allIssues } from "./all-issues.js";
import {
  INPUT_CAP_OPTIONS,
  MAX_ERRORS,
  inputCapHelp,
  inputCapsFromOptions,
  positiveIntegerOption,
  type InputCaps,
} from "./input-options.js";
import type { DefineCommand } from "./command.js";
import { LineOutput } from "./output.js";
import { FORMAT_CHOICES, InputFormatError, openInput, readRecords, type InputFormat } from "./records.js";

/** The defaults of `agjson validate`'s options. */
export const VALIDATE_DEFAULTS = { posture: "lenient", kind: "event", format: "auto" } as const satisfies {
  posture: Posture;
  kind: DocumentKind;
  format: InputFormat | "auto";
};

/** Adds validate's argument, options and action. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .argument("[file]", "input file, or - for stdin")
    .addOption(
      new Option("--posture <posture>", "strict judges as a producer must write, lenient as a consumer reads (§0.2)")
        .choices(POSTURES)
        .default(VALIDATE_DEFAULTS.posture),
    )
    .addOption(new Option("--kind <kind>", "what each record is").choices(DOCUMENT_KINDS).default(VALIDATE_DEFAULTS.kind))
    .option("--json", "print one JSON line per record")
    .addOption(
      new Option("--format <format>", "the input's framing; auto detects it").choices(FORMAT_CHOICES).default(VALIDATE_DEFAULTS.format),
    );
  for (const o of INPUT_CAP_OPTIONS) cmd.option(`${o.flag} <n>`, inputCapHelp(o));
  cmd
    .option(`${MAX_ERRORS.flag} <n>`, `problems listed per invalid document (default ${MAX_ERRORS.default})`)
    .action(
      async (
        file: string | undefined,
        opts: { posture: Posture; kind: DocumentKind; json?: boolean; format: InputFormat | "auto"; maxErrors?: string } & Record<
          string,
          unknown
        >,
      ) => {
        const caps = inputCapsFromOptions(opts);
        const maxErrors = positiveIntegerOption(MAX_ERRORS.flag, opts.maxErrors, MAX_ERRORS.default, MAX_ERRORS.ceiling);
        setExitCode(
          await validateCommand(file, {
            posture: opts.posture,
            kind: opts.kind,
            json: Boolean(opts.json),
            format: opts.format,
            maxErrors,
            ...caps,
          }),
        );
      },
    );
};

export interface ValidateCommandOptions extends InputCaps {
  posture: Posture;
  kind: DocumentKind;
  json: boolean;
  format: InputFormat | "auto";
  /** Problems listed per invalid document. */
  maxErrors: number;
}

type Verdict =
  | { index: number; ok: true; known: boolean }
  | { index: number; offset: number | undefined; ok: false; errors: AgValidationIssue[] };

function checker(
  opts: ValidateCommandOptions,
): (value: unknown) => { ok: true; known: boolean } | { ok: false; errors: AgValidationIssue[] } {
  // Every value checked here is fresh from JSON.parse of text parseCapped already held to
  // --max-depth (§13), so the hostile-object walk (bounded by the library's default 64) is skipped:
  // it cannot find a cycle, getter or Proxy, and would undo a raised --max-depth.
  const o = { posture: opts.posture, parsed: true };
  if (opts.kind === "event") return (v) => validateEvent(v, o);
  if (opts.kind === "input") return (v) => validateInput(v, o);
  return (v) => {
    const r = validateMessage(v, o);
    return r.ok ? { ok: true, known: true } : r;
  };
}

/** Validates the records of `input`, printing to `out`; resolves to the exit code. */
/**
 * The command over any byte source and output (the CLI's stdin or file and stdout; the fuzz
 * targets' generated chunks): resolves to the exit code; an input in none of the accepted framings
 * is reported through `err` (exit 2); only an I/O error of `input` itself is thrown.
 */
export async function runValidate(
  input: AsyncIterable<Uint8Array>,
  opts: ValidateCommandOptions,
  out: LineOutput,
  err: (line: string) => void,
): Promise<number> {
  try {
    return await runValidateRecords(input, opts, out);
  } catch (error) {
    if (!(error instanceof InputFormatError)) throw error;
    await out.flush();
    err(error.message);
    return 2;
  }
}

async function runValidateRecords(input: AsyncIterable<Uint8Array>, opts: ValidateCommandOptions, out: LineOutput): Promise<number> {
  const check = checker(opts);
  const caps = { maxBytes: opts.maxRecordBytes, maxDepth: opts.maxDepth };
  let total = 0;
  let invalid = 0;
  let unknown = 0;
  const report = async (v: Verdict) => {
    total++;
    if (!v.ok) invalid++;
    else if (!v.known) unknown++;
    if (opts.json) {
      await out.line(
        JSON.stringify(
          v.ok
            ? { index: v.index, ok: true, known: v.known }
            : { index: v.index, ok: false, errors: v.errors.map(({ path, message, keyword }) => ({ path, message, keyword })) },
        ),
      );
    } else if (!v.ok) {
      const where = v.offset === undefined ? `record ${v.index}` : `record ${v.index} (byte ${v.offset})`;
      for (const e of v.errors) await out.line(`${where}: ${e.path || "(document)"}: ${e.message} [${e.keyword}, ${e.spec}]`);
    }
  };
  for await (const batch of readRecords(input, { format: opts.format, maxRecordBytes: opts.maxRecordBytes })) {
    for (const rec of batch) {
      if ("error" in rec) {
        await report({
          index: rec.index,
          offset: rec.offset,
          ok: false,
          errors: [{ path: "", message: rec.error, keyword: rec.keyword, spec: rec.keyword === "cap" ? "§13" : "§4" }],
        });
        continue;
      }
      const parsed = parseCapped(rec.text, caps);
      if (!parsed.ok) {
        await report({ index: rec.index, offset: rec.offset, ok: false, errors: parsed.errors });
        continue;
      }
      const r = check(parsed.value);
      if (r.ok) await report({ index: rec.index, ok: true, known: r.known });
      else
        await report({
          index: rec.index,
          offset: rec.offset,
          ok: false,
          errors: opts.maxErrors > 1 ? allIssues(rec.text, r.errors, check, opts.maxErrors) : r.errors.slice(0, 1),
        });
    }
    await out.flush();
    if (out.closed) return 0;
  }
  if (!opts.json) {
    const what = `${total} ${opts.kind} record${total === 1 ? "" : "s"}`;
    await out.line(
      invalid === 0
        ? `${what}: all valid (${opts.posture})${unknown ? `, ${unknown} of an unknown type (a consumer skips them)` : ""}`
        : `${what}: ${invalid} invalid (${opts.posture})`,
    );
  }
  await out.flush();
  return invalid === 0 ? 0 : 1;
}

export async function validateCommand(file: string | undefined, opts: ValidateCommandOptions): Promise<number> {
  const out = new LineOutput();
  const err = (line: string) => process.stderr.write(`agjson validate: ${line}\n`);
  try {
    return await runValidate(openInput(file), opts, out, err);
  } catch (error) {
    await out.flush();
    if (out.closed) return 0;
    err(`cannot read ${file ?? "stdin"}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
