/**
 * A JSON value as the lines the page shows, each with the JSON Pointer (RFC 6901) of the value it
 * starts, so an issue can sit under the line of its `path`. Stream content is hostile input: a
 * string past `STRING_LIMIT` characters is cut (the cut says how much), and past `LINE_LIMIT` lines
 * the rest is counted, so a 10 MB string or a huge array never reaches the page whole.
 */
import { pointerToken } from "../validate/index.js";
import type { JsonLine } from "./protocol.js";
import { isRecord } from "../json-guards.js";

/** Characters of one string shown; the rest is counted. */
export const STRING_LIMIT = 2000;
/** Lines of one value shown. */
export const LINE_LIMIT = 4000;

/** `text` cut to `limit` characters, saying how many were left out. */
export function cut(text: string, limit = STRING_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length - limit} more characters not shown)`;
}

/** JSON text of a string, cut first. */
function quoted(s: string): string {
  return s.length <= STRING_LIMIT
    ? JSON.stringify(s)
    : `${JSON.stringify(s.slice(0, STRING_LIMIT))}… (${s.length - STRING_LIMIT} more characters not shown)`;
}

/** The lines of `value`, two-space indented, each with its pointer. */
export function jsonLines(value: unknown, limit = LINE_LIMIT): JsonLine[] {
  const lines: JsonLine[] = [];
  let omitted = 0;
  const push = (text: string, pointer: string): void => {
    if (lines.length < limit) lines.push({ text, pointer });
    else omitted++;
  };
  const walk = (v: unknown, pointer: string, indent: string, lead: string, trail: string): void => {
    if (lines.length >= limit) {
      omitted++;
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return push(`${indent}${lead}[]${trail}`, pointer);
      push(`${indent}${lead}[`, pointer);
      v.forEach((item, i) => walk(item, `${pointer}/${i}`, `${indent}  `, "", i < v.length - 1 ? "," : ""));
      return push(`${indent}]${trail}`, pointer);
    }
    if (isRecord(v)) {
      const keys = Object.keys(v);
      if (keys.length === 0) return push(`${indent}${lead}{}${trail}`, pointer);
      push(`${indent}${lead}{`, pointer);
      keys.forEach((k, i) => walk(v[k], `${pointer}/${pointerToken(k)}`, `${indent}  `, `${quoted(k)}: `, i < keys.length - 1 ? "," : ""));
      return push(`${indent}}${trail}`, pointer);
    }
    push(`${indent}${lead}${typeof v === "string" ? quoted(v) : v === undefined ? "null" : String(JSON.stringify(v))}${trail}`, pointer);
  };
  walk(value, "", "", "", "");
  if (omitted > 0) lines.push({ text: `… (${omitted} more lines not shown)`, pointer: "" });
  return lines;
}

/** Compact JSON of `value` for a one-line view, every string cut and the whole cut at `limit`. */
export function shortJson(value: unknown, limit = STRING_LIMIT * 2): string {
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === "string" && v.length > STRING_LIMIT ? cut(v) : v)) ?? "null";
  } catch (err) {
    text = `(not JSON: ${err instanceof Error ? err.message : String(err)})`;
  }
  return cut(text, limit);
}

/** Pretty JSON of `value`, every string cut, the whole cut at `limit` characters. */
export function prettyJson(value: unknown, limit = 200_000): string {
  return cut(
    jsonLines(value)
      .map((l) => l.text)
      .join("\n"),
    limit,
  );
}
