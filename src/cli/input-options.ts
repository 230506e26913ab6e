/**
 * The caps every record-reading command applies (`validate`, `reduce`, `normalize`): the library's
 * own (`DEFAULT_PARSE_CAPS`, §13: 1 MiB per record, 64 levels of nesting), checked on the raw text
 * before it is parsed, each with a flag to raise it up to a ceiling. Depth is capped because the
 * validators and the fold recurse: past the cap a record is refused, never parsed, so no depth of
 * input can overflow the stack.
 */
import { DEFAULT_PARSE_CAPS } from "../validate/index.js";

export interface InputCaps {
  maxRecordBytes: number;
  maxDepth: number;
}

const MiB = 1024 * 1024;

export const INPUT_CAP_OPTIONS: readonly {
  cap: keyof InputCaps;
  flag: string;
  unit: string;
  what: string;
  default: number;
  ceiling: number;
}[] = [
  {
    cap: "maxRecordBytes",
    flag: "--max-record-bytes",
    unit: "bytes",
    what: "largest record",
    default: DEFAULT_PARSE_CAPS.maxBytes,
    ceiling: 256 * MiB,
  },
  {
    cap: "maxDepth",
    flag: "--max-depth",
    unit: "levels",
    what: "deepest JSON nesting in a record",
    default: DEFAULT_PARSE_CAPS.maxDepth,
    ceiling: 512,
  },
];

/** `--max-errors`: problems listed per document by `validate` (default) and kept by `reduce`. */
export const MAX_ERRORS = { flag: "--max-errors", default: 20, ceiling: 1_000_000 } as const;

export function inputCapHelp(o: (typeof INPUT_CAP_OPTIONS)[number]): string {
  return `${o.what} (default ${o.default} ${o.unit}, at most ${o.ceiling})`;
}

/** A flag's value as an integer in 1..ceiling; plain digits only (`1e3`, `0x10` are refused). */
export function positiveIntegerOption(flag: string, given: unknown, fallback: number, ceiling: number): number {
  if (given === undefined) return fallback;
  const text = String(given);
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > ceiling)
    throw new Error(`${flag} must be an integer in 1..${ceiling} (got "${text}")`);
  return value;
}

/** commander's key for a flag: `--max-record-bytes` → `maxRecordBytes`. */
function optionKey(flag: string): string {
  return flag.slice(2).replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function inputCapsFromOptions(opts: Record<string, unknown>, defaults: Partial<InputCaps> = {}): InputCaps {
  const read = (o: (typeof INPUT_CAP_OPTIONS)[number]) =>
    positiveIntegerOption(o.flag, opts[optionKey(o.flag)], defaults[o.cap] ?? o.default, o.ceiling);
  return { maxRecordBytes: read(INPUT_CAP_OPTIONS[0]!), maxDepth: read(INPUT_CAP_OPTIONS[1]!) };
}
