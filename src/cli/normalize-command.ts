/**
 * `agjson normalize --from <facet>` (docs/cli.md): one Normalizer (§8.0) over the native chunks of a
 * chunk-per-line file, a raw SSE capture (the wire module's WHATWG framer: CR, LF or CRLF line ends,
 * multi-line `data:`) or a JSON array of chunks, read as a stream; prints AgEvent NDJSON as it goes,
 * seq from 0, flush included. A chunk that is not JSON, or nests deeper than `--max-depth`, reaches
 * the facet as `{ unparsedLine }` and comes out as `ext.<vendor>.unparsed` (§8.0 graceful
 * degradation), never parsed and never lost.
 */
import { createNormalizer, nativeChunksOf, FACETS, type FacetName } from "../normalize/index.js";
import { Help, Option } from "commander";
import { facetsLike, fromOptionHelp } from "./facet-sniff.js";
import { INPUT_CAP_OPTIONS, inputCapHelp, inputCapsFromOptions, type InputCaps } from "./input-options.js";
import type { DefineCommand } from "./command.js";
import { LineOutput } from "./output.js";
import { InputFormatError, openInput, readRecords } from "./records.js";
import { hasExactTwins, stringifyExact } from "../wire/index.js";

/** Provider chunks may carry inline media (base64 images): a larger record cap than AgJSON's own. */
export const NORMALIZE_DEFAULT_CAPS: InputCaps = { maxRecordBytes: 16 * 1024 * 1024, maxDepth: 64 };

/** Adds normalize's argument, options and action; `--from` takes the facets of FACET_TABLE. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  // The choices validate `--from` (an unknown facet is commander's error naming them); the help line
  // lists them once, grouped by kind, so commander's own "(choices: …)" is left off that line.
  const from = new Option("--from <facet>", fromOptionHelp()).choices(FACETS).makeOptionMandatory();
  const describe = Help.prototype.optionDescription;
  cmd
    .addOption(from)
    .argument("[file]", "input file, or - for stdin")
    .configureHelp({
      ...cmd.configureHelp(),
      optionDescription(this: Help, option: Option): string {
        return option === from ? option.description : describe.call(this, option);
      },
    });
  // A native chunk may be larger than an AgEvent record: the caps' defaults are normalize's own.
  for (const o of INPUT_CAP_OPTIONS)
    cmd.option(
      `${o.flag} <n>`,
      inputCapHelp({ ...o, default: NORMALIZE_DEFAULT_CAPS[o.cap], what: o.cap === "maxRecordBytes" ? "largest native chunk" : o.what }),
    );
  cmd.action(async (file: string | undefined, opts: { from: FacetName } & Record<string, unknown>) => {
    setExitCode(await normalizeCommand(file, opts.from, inputCapsFromOptions(opts, NORMALIZE_DEFAULT_CAPS)));
  });
};

/** The command over any byte source and output (see `runValidate`); only an I/O error of `input` is thrown. */
export async function runNormalize(
  input: AsyncIterable<Uint8Array>,
  from: FacetName,
  caps: InputCaps,
  out: LineOutput,
  err: (line: string) => void,
): Promise<number> {
  try {
    return await runNormalizeRecords(input, from, caps, out, err);
  } catch (error) {
    if (!(error instanceof InputFormatError)) throw error;
    await out.flush();
    err(error.message);
    return 2;
  }
}

async function runNormalizeRecords(
  input: AsyncIterable<Uint8Array>,
  from: FacetName,
  caps: InputCaps,
  out: LineOutput,
  err: (line: string) => void,
): Promise<number> {
  // Every chunk comes from nativeChunksOf: parsed from capped text, nothing to look up per chunk (§13.2).
  const normalizer = createNormalizer(from, { parsed: true });
  let status = 0;
  let chunks = 0;
  let unparsed = 0;
  let matching = 0;
  const others = new Map<FacetName, number>();
  for await (const batch of readRecords(input, { format: "auto", maxRecordBytes: caps.maxRecordBytes, unterminatedSseFrame: "dispatch" })) {
    for (const rec of batch) {
      if ("error" in rec) {
        err(`chunk ${rec.index}${rec.offset === undefined ? "" : ` (byte ${rec.offset})`}: ${rec.error}`);
        status = 1;
        continue;
      }
      for (const chunk of nativeChunksOf(rec.text, caps.maxDepth, { keepExact: true })) {
        chunks++;
        const like = facetsLike(chunk);
        if (like.includes(from)) matching++;
        else if (like.length > 0) for (const facet of like) others.set(facet, (others.get(facet) ?? 0) + 1);
        else if (typeof chunk === "object" && chunk !== null && "unparsedLine" in chunk) unparsed++;
        for (const e of normalizer.push(chunk)) await out.line(line(e));
      }
    }
    await out.flush();
    if (out.closed) return 0;
  }
  for (const e of normalizer.flush()) await out.line(line(e));
  await out.flush();
  // Nothing the facet knows, but something another facet would: almost surely the wrong --from.
  if (chunks > 0 && matching === 0 && (others.size > 0 || unparsed === chunks)) {
    const likely = [...others.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    err(
      `no chunk of the input looks like ${from}` +
        (likely !== undefined
          ? `; it looks like ${likely} (try --from ${likely})`
          : unparsed === chunks
            ? "; no chunk is JSON within the caps"
            : ""),
    );
    return 1;
  }
  return status;
}

/** An event as its line: a provider number a double cannot write back keeps its own text (§13.2). */
function line(e: unknown): string {
  return hasExactTwins() ? stringifyExact(e) : JSON.stringify(e);
}

/** `from` is one of FACETS (commander's choices). */
export async function normalizeCommand(file: string | undefined, from: FacetName, caps: InputCaps): Promise<number> {
  const out = new LineOutput();
  const err = (line: string) => process.stderr.write(`agjson normalize: ${line}\n`);
  try {
    return await runNormalize(openInput(file), from, caps, out, err);
  } catch (error) {
    await out.flush();
    if (out.closed) return 0;
    err(`cannot read ${file ?? "stdin"}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}
